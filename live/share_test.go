package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
)

// Issue 20 item 8: a share group (KIP-932) is listed as one, and asked for
// by name it is said to be one.
func TestAShareGroupIsSaidToBeOne(t *testing.T) {
	c := livetest.Start(t, 2, "orders")
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ClientID("sharer"), kgo.ShareGroup("s"), kgo.ConsumeTopics("orders"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(func() { cancel(); <-done; cl.Close() })
	r := dialTest(t, c)
	deadline := time.Now().Add(10 * time.Second)
	var typ string
	for time.Now().Before(deadline) && typ == "" {
		ls, err := r.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			if l.Group == "s" {
				typ = l.Type
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if typ != "share" {
		t.Fatalf("listed as %q", typ)
	}
	_, err = r.Group(context.Background(), "s")
	if err == nil || !strings.Contains(err.Error(), "share group") {
		t.Errorf("describing a share group: %v", err)
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}
