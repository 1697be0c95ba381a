package live

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
)

// Issue 20 item 8: members sharing a client.id read as distinct scenario
// ids (the client id and a short member-id suffix), and a group that
// empties keeps its last assignor and generation.
func TestSharedClientIDsAndAnEmptiedGroup(t *testing.T) {
	c := livetest.Start(t, 4, "orders")
	var cs []*livetest.Consumer
	for range 2 {
		cs = append(cs, c.Consumer(t, "g", "app", kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RoundRobinBalancer())))
	}
	c.Consumer(t, "g", "solo", kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RoundRobinBalancer())).Stop()
	c.WaitStable(t, "g", 2)
	r := dialTest(t, c)
	g, err := r.Group(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	settled, err := NewSnapshot(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range settled.Scenario.Members {
		if !strings.HasPrefix(m.ID, "app~") || len(m.ID) > len("app~")+8 {
			t.Errorf("member %s (member id %s): want app~ and a short suffix", m.ID, m.MemberID)
		}
		ids[m.ID] = true
	}
	if len(ids) != 2 {
		t.Fatalf("scenario ids %v", ids)
	}
	for _, x := range cs {
		x.Stop()
	}
	waitState(t, c, "g", "Empty")
	empty, err := r.Group(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	snap, err := NewSnapshot(empty, settled)
	if err != nil {
		t.Fatal(err)
	}
	sc := snap.Scenario
	if sc.Strategy != "roundrobin" || sc.Generation != *g.Generation+1 || len(sc.Members) != 0 || sc.Topics["orders"] != 4 {
		t.Errorf("emptied: %s at generation %d (settled read %d), %d members, topics %v", sc.Strategy, sc.Generation, *g.Generation, len(sc.Members), sc.Topics)
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}
