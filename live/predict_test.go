package live

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// The prediction test: import the live group, ask the simulator what
// happens if one member leaves, then really close that consumer and compare
// the group's new assignment with the prediction.
func TestPredictionOfALeaveMatchesTheRealGroup(t *testing.T) {
	for _, tc := range []struct {
		name     string
		balancer kgo.Opt
		exact    bool
	}{
		{"range", kgo.Balancers(kgo.RangeBalancer()), true},
		{"roundrobin", kgo.Balancers(kgo.RoundRobinBalancer()), true},
		{"sticky", kgo.Balancers(kgo.StickyBalancer()), false},
		{"cooperative-sticky", kgo.Balancers(kgo.CooperativeStickyBalancer()), false},
		// KIP-848: kfake's uniform assignor is its own, not Kafka's.
		{"consumer-uniform", kgo.ServerSideBalancer(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := livetest.Start(t, 5, "orders", "payments")
			clients := map[string]*livetest.Consumer{}
			for _, id := range []string{"c1", "c2", "c3", "c4"} {
				topics := []string{"orders", "payments"}
				if id == "c4" {
					topics = []string{"payments"} // unequal subscriptions exercise the assignors' order
				}
				clients[id] = c.Consumer(t, "g", id, kgo.ConsumeTopics(topics...), tc.balancer)
			}
			c.WaitStable(t, "g", 4)
			g, err := dialTest(t, c).Group(context.Background(), "g")
			if err != nil {
				t.Fatal(err)
			}
			_, sc, _, err := g.Import()
			if err != nil {
				t.Fatal(err)
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				t.Fatal(err)
			}
			f, err := sim.Forecast(scenario.Event{AtMs: 0, Kind: "leave", Member: "c2"})
			if err != nil {
				t.Fatal(err)
			}
			if !f.Outcome.Settled {
				t.Fatalf("the forecast did not settle: %+v", f.Outcome)
			}
			predicted := byMemberID(sc, f.Outcome.After.Assignment())

			clients["c2"].Stop()
			real := realAssignment(t, c, "g", 3)
			t.Logf("predicted %v\nreal      %v", predicted, real)
			if tc.exact {
				if !maps.EqualFunc(predicted, real, maps.Equal) {
					t.Errorf("predicted %v\nreal      %v", predicted, real)
				}
			} else {
				checkValidBalanced(t, g, predicted, "predicted")
				checkValidBalanced(t, g, real, "real")
			}
			c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
		})
	}
}

// byMemberID re-keys the forecast's assignment (scenario ids) by member id,
// as "topic:partitions" strings.
func byMemberID(sc *scenario.Scenario, a kafka.Assignment) map[string]map[string]string {
	ids := map[string]string{}
	for _, m := range sc.Members {
		ids[m.ID] = m.MemberID
	}
	out := map[string]map[string]string{}
	for id, tps := range a {
		if len(tps) == 0 {
			continue
		}
		out[ids[id]] = flat(tps)
	}
	return out
}

func flat(a map[string][]int32) map[string]string {
	out := map[string]string{}
	for t, ps := range a {
		if len(ps) > 0 {
			ps = slices.Sorted(slices.Values(ps))
			out[t] = fmt.Sprint(ps)
		}
	}
	return out
}

// realAssignment waits for the group to be stable with n members and every
// subscribed partition assigned, and returns who owns what.
func realAssignment(t *testing.T, c *livetest.Cluster, group string, n int) map[string]map[string]string {
	t.Helper()
	return realAssignmentOf(t, c, group, n, 10)
}

// realAssignmentOf is realAssignment for a group of partitions partitions.
func realAssignmentOf(t *testing.T, c *livetest.Cluster, group string, n, partitions int) map[string]map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	gi, err := c.WaitGroupInfo(ctx, group, func(g *kfake.GroupInfo) bool {
		return g != nil && g.State == "Stable" && len(g.Members) == n && g.NumAssigned() == partitions
	})
	if err != nil {
		t.Fatalf("the real group never settled: %v (%+v)", err, gi)
	}
	out := map[string]map[string]string{}
	for _, m := range gi.Members {
		if len(m.Assignment) > 0 {
			out[m.MemberID] = flat(m.Assignment)
		}
	}
	return out
}

// checkValidBalanced: every partition of orders and payments owned exactly
// once, by a subscriber, and the members' counts within one of each other
// among members with the same subscription (the sticky family's balance).
func checkValidBalanced(t *testing.T, g *Group, a map[string]map[string]string, what string) {
	t.Helper()
	owners := map[string]int{}
	counts := map[string][]int{} // subscription -> partition counts
	for id, tps := range a {
		m := findMember(g, id)
		if m == nil {
			t.Errorf("%s: unknown member %s", what, id)
			continue
		}
		n := 0
		for topic, ps := range tps {
			if !slices.Contains(m.Topics, topic) {
				t.Errorf("%s: %s owns %s, which it does not subscribe to", what, id, topic)
			}
			for _, p := range splitInts(ps) {
				owners[fmt.Sprint(topic, p)]++
				n++
			}
		}
		key := fmt.Sprint(m.Topics)
		counts[key] = append(counts[key], n)
	}
	if len(owners) != 10 {
		t.Errorf("%s: %d partitions owned, want 10: %v", what, len(owners), a)
	}
	for tp, k := range owners {
		if k != 1 {
			t.Errorf("%s: %s owned %d times", what, tp, k)
		}
	}
	for sub, ns := range counts {
		if slices.Max(ns)-slices.Min(ns) > 1 {
			t.Errorf("%s: members subscribed to %s own %v partitions: not balanced", what, sub, ns)
		}
	}
}

func splitInts(s string) []int {
	var out []int
	n, in := 0, false
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n, in = n*10+int(r-'0'), true
			continue
		}
		if in {
			out = append(out, n)
		}
		n, in = 0, false
	}
	return out
}
