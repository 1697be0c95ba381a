package live

import (
	"context"
	"maps"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
)

func TestClassicRangeGroupOfThreeIsWhatKadmDescribes(t *testing.T) {
	c := livetest.Start(t, 6, "orders", "payments")
	for _, id := range []string{"c1", "c2", "c3"} {
		c.Consumer(t, "g", id, kgo.ConsumeTopics("orders", "payments"), kgo.Balancers(kgo.RangeBalancer()))
	}
	gi := c.WaitStable(t, "g", 3)
	r := dialTest(t, c)
	g, err := r.Group(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	want, err := kadm.NewClient(r.cl).DescribeGroups(context.Background(), "g")
	if err != nil {
		t.Fatal(err)
	}
	dg := want["g"]
	if g.Type != Classic || g.Protocol != "range" || g.State != "Stable" || g.RebalanceProtocol != "eager" {
		t.Errorf("group header %+v", g)
	}
	if len(g.Members) != len(dg.Members) {
		t.Fatalf("%d members, kadm %d", len(g.Members), len(dg.Members))
	}
	for _, dm := range dg.Members {
		a, _ := dm.Assigned.AsConsumer()
		exp := map[string][]int32{}
		for _, tp := range a.Topics {
			exp[tp.Topic] = tp.Partitions
		}
		m := findMember(g, dm.MemberID)
		if m == nil {
			t.Fatalf("member %s missing", dm.MemberID)
		}
		if !maps.EqualFunc(m.Assignment, exp, func(a, b []int32) bool { return sameSet(a, b) }) || m.ClientID != dm.ClientID {
			t.Errorf("member %s: %v, kadm %v", dm.MemberID, m.Assignment, exp)
		}
	}
	if g.Topics["orders"] != 6 || g.Topics["payments"] != 6 || len(g.Offsets) != 12 {
		t.Errorf("topics %v, %d offsets", g.Topics, len(g.Offsets))
	}
	if g.Generation == nil || *g.Generation > gi.Epoch {
		t.Errorf("generation %v is not a lower bound of the real %d", g.Generation, gi.Epoch)
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}

func findMember(g *Group, id string) *Member {
	for i := range g.Members {
		if g.Members[i].MemberID == id {
			return &g.Members[i]
		}
	}
	return nil
}

func sameSet(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[int32]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}

func TestConsumerGroupShowsEpochsAndTargets(t *testing.T) {
	c := livetest.Start(t, 4, "orders")
	for _, id := range []string{"k1", "k2"} {
		c.Consumer(t, "g848", id, kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer())
	}
	gi := c.WaitStable(t, "g848", 2)
	r := dialTest(t, c)
	g, err := r.Group(context.Background(), "g848")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *g)
	if g.Type != Consumer || g.GroupEpoch == nil || *g.GroupEpoch != gi.Epoch || g.AssignmentEpoch == nil || g.RebalanceProtocol != "consumer" {
		t.Errorf("header %+v (kfake epoch %d)", g, gi.Epoch)
	}
	if g.Protocol == "" {
		t.Errorf("no server assignor")
	}
	for _, m := range g.Members {
		if m.MemberEpoch == nil || m.Target == nil {
			t.Errorf("member %s has no epoch or target: %+v", m.MemberID, m)
		}
		var real map[string][]int32
		for _, rm := range gi.Members {
			if rm.MemberID == m.MemberID {
				real = rm.Assignment
			}
		}
		if AssignmentString(real) != AssignmentString(m.Assignment) {
			t.Errorf("member %s: %v, kfake %v", m.MemberID, m.Assignment, real)
		}
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}
