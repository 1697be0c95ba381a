package live

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
)

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// A dead address among the bootstrap servers, first or last, costs no read:
// each one goes through franz-go's seeds in turn (issue 20 item 2).
func TestADeadBootstrapServerFailsNoRead(t *testing.T) {
	c := livetest.Start(t, 4, "orders")
	c.Consumer(t, "g", "c1", kgo.ConsumeTopics("orders"))
	c.WaitStable(t, "g", 1)
	dead := deadAddr(t)
	for _, seeds := range [][]string{append([]string{dead}, c.ListenAddrs()...), append(c.ListenAddrs(), dead)} {
		for i := range 8 {
			// a new client each time: each starts at its first seed
			r, err := Dial(Config{Brokers: seeds, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Group(context.Background(), "g"); err != nil {
				t.Errorf("seeds %v, read %d: %v", seeds, i, err)
			}
			if _, err := r.List(context.Background()); err != nil {
				t.Errorf("seeds %v, list %d: %v", seeds, i, err)
			}
			r.Close()
		}
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}

// With no server answering, the read fails, saying so.
func TestNoBootstrapServerAnswering(t *testing.T) {
	r, err := Dial(Config{Brokers: []string{deadAddr(t), deadAddr(t)}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Group(context.Background(), "g")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the cluster") {
		t.Fatalf("got %v, want cannot reach the cluster", err)
	}
}

// A --timeout past kgo's longest request overhead (15 minutes) still
// reads: the overhead stops there, the retries take the whole timeout.
func TestATimeoutLongerThanKgosOverheadReads(t *testing.T) {
	c := livetest.Start(t, 2, "orders")
	c.Consumer(t, "g", "c1", kgo.ConsumeTopics("orders"))
	c.WaitStable(t, "g", 1)
	r, err := Dial(Config{Brokers: c.ListenAddrs(), Timeout: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Group(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
}
