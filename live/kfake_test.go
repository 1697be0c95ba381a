package live

import (
	"testing"
	"time"

	"github.com/kvizlab/kviz/live/livetest"
)

func dialTest(t *testing.T, c *livetest.Cluster) *Reader {
	t.Helper()
	r, err := Dial(Config{Brokers: c.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}
