package live

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Issue 20 item 7: franz-go's sticky balancers are not Java's. A real
// franz-go group, imported with the franz-go client model, is predicted
// with franz-go's own balancer (the prediction says so), valid and
// balanced as the real leader's is. franz-go's sticky balancing iterates Go
// maps, so it answers one group several equally good ways, and a
// cooperative leave may take a follow-up round: the test logs whether the
// prediction and the real assignment are among the one-round answers
// franz-go's code gives for the group as read, and how often the Java
// model matched.
func TestFranzGoStickyGroupsArePredictedWithFranzGosBalancer(t *testing.T) {
	for _, tc := range []struct {
		name string
		bal  kgo.GroupBalancer
	}{{"sticky", kgo.StickyBalancer()}, {"cooperative-sticky", kgo.CooperativeStickyBalancer()}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := livetest.Start(t, 7, "orders", "payments", "audit")
			clients := map[string]*livetest.Consumer{}
			for _, id := range []string{"c1", "c2", "c3", "c4", "c5"} {
				topics := []string{"orders", "payments", "audit"}
				if id == "c4" || id == "c5" {
					topics = []string{"payments", "audit"} // unequal subscriptions exercise the balancer
				}
				clients[id] = c.Consumer(t, "g", id, kgo.ConsumeTopics(topics...), kgo.Balancers(tc.bal))
			}
			r := dialTest(t, c)
			c.WaitStable(t, "g", 5)
			realAssignmentOf(t, c, "g", 5, 21)
			javaMatches := 0
			for step, leaver := range []string{"c2", "c4"} {
				g, err := r.Group(context.Background(), "g")
				if err != nil {
					t.Fatal(err)
				}
				predict := func(client string) (map[string]map[string]string, string) {
					_, sc, _, err := g.WithOptions(ImportOptions{Client: client}).Import()
					if err != nil {
						t.Fatal(err)
					}
					sim, err := model.Simulate(sc)
					if err != nil {
						t.Fatal(err)
					}
					f, err := sim.Forecast(scenario.Event{Kind: "leave", Member: leaver})
					if err != nil || !f.Outcome.Settled {
						t.Fatalf("step %d: the forecast: %v, %+v", step, err, f.Outcome)
					}
					return byMemberID(sc, f.Outcome.After.Assignment()), model.ClientModel(sc)
				}
				franz, named := predict(scenario.ClientFranzGo)
				if named != "franz-go's "+tc.name+" balancer, the leader c1's" {
					t.Errorf("the prediction names %q", named)
				}
				java, _ := predict("")
				answers := franzAnswers(t, g, leaver, tc.name, 256)

				clients[leaver].Stop()
				real := realAssignmentOf(t, c, "g", 5-step-1, 21)
				checkBalanced(t, g, leaver, franz)
				predictedIsAnAnswer := slices.Contains(answers, fmt.Sprint(franz))
				checkBalanced(t, g, leaver, real)
				realIsAnAnswer := slices.Contains(answers, fmt.Sprint(real))
				if maps.EqualFunc(java, real, maps.Equal) {
					javaMatches++
				}
				t.Logf("%s leaves: franz-go has %d one-round answers; the prediction among them: %v, the real one: %v; predicted = real: %v",
					leaver, len(answers), predictedIsAnAnswer, realIsAnAnswer, maps.EqualFunc(franz, real, maps.Equal))
			}
			t.Logf("%s: the Java model matched %d of 2 real rebalances", tc.name, javaMatches)
			c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
		})
	}
}

// franzAnswers are the assignments franz-go's balancer gives the group as
// read, once leaver has left, as a franz-go leader sees it: each member's
// subscription, and what it reports owning (an eager franz-go member
// reports nothing, a cooperative one its partitions).
func franzAnswers(t *testing.T, g *Group, leaver, balancer string, runs int) []string {
	t.Helper()
	grp := strategies.Group{Topics: g.Topics}
	for _, m := range g.Members {
		if m.ClientID == leaver {
			continue
		}
		sm := strategies.Member{ID: m.MemberID, Topics: m.Topics, Generation: strategies.NoGeneration}
		if balancer == "cooperative-sticky" {
			for _, topic := range strategies.SortedTopics(m.Assignment) {
				for _, p := range m.Assignment[topic] {
					sm.Owned = append(sm.Owned, strategies.TopicPartition{Topic: topic, Partition: p})
				}
			}
		}
		grp.Members = append(grp.Members, sm)
	}
	outcomes, err := strategies.FranzGoOutcomes(balancer, grp, runs)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range outcomes {
		byID := map[string]map[string]string{}
		for id, tps := range a {
			if len(tps) > 0 {
				byID[id] = flat(tps)
			}
		}
		out = append(out, fmt.Sprint(byID))
	}
	return out
}

// checkBalanced: every one of the 21 partitions owned once, by a
// subscriber, counts within one among members of one subscription.
func checkBalanced(t *testing.T, g *Group, leaver string, a map[string]map[string]string) {
	t.Helper()
	owners := map[string]bool{}
	counts := map[string][]int{}
	for id, tps := range a {
		m := findMember(g, id)
		if m == nil || m.ClientID == leaver {
			t.Errorf("%s owns partitions: it is not a member", id)
			continue
		}
		n := 0
		for topic, ps := range tps {
			for _, p := range splitInts(ps) {
				k := fmt.Sprint(topic, p)
				if owners[k] || !slices.Contains(m.Topics, topic) {
					t.Errorf("%s: owned twice or by a non-subscriber (%s)", k, id)
				}
				owners[k] = true
				n++
			}
		}
		counts[fmt.Sprint(m.Topics)] = append(counts[fmt.Sprint(m.Topics)], n)
	}
	if len(owners) != 21 {
		t.Errorf("%d partitions owned, want 21", len(owners))
	}
	for sub, ns := range counts {
		if slices.Max(ns)-slices.Min(ns) > 1 {
			t.Errorf("members subscribed to %s own %v: not balanced", sub, ns)
		}
	}
}
