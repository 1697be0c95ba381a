package strategies

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Property tests for the server-side assignors on random groups.

// serverGenGroup draws a group: 1–5 topics of 0–12 partitions, 1–9 members with
// random ids (so their HashMap order varies), homogeneous or mixed
// subscriptions, and a previous target in which each partition has at most
// one owner — sometimes a member that no longer subscribes to its topic.
func serverGenGroup(t *rapid.T, homogeneous bool) Group {
	return serverGenSizedGroup(t, homogeneous, 5, 12, 9)
}

// serverGenSizedGroup is serverGenGroup with bounds on topics, partitions per topic
// and members.
func serverGenSizedGroup(t *rapid.T, homogeneous bool, maxTopics, maxParts, maxMembers int) Group {
	nTopics := rapid.IntRange(1, maxTopics).Draw(t, "topics")
	g := Group{Topics: map[string]int32{}}
	names := make([]string, nTopics)
	for i := range names {
		names[i] = fmt.Sprintf("t%d", i)
		g.Topics[names[i]] = int32(rapid.IntRange(0, maxParts).Draw(t, "partitions"))
	}
	ids := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z][a-z0-9]{0,4}`), 1, maxMembers, rapid.ID[string]).Draw(t, "ids")
	subset := func(label string) []string {
		var out []string
		for _, n := range names {
			if rapid.Bool().Draw(t, label) {
				out = append(out, n)
			}
		}
		return out
	}
	shared := subset("shared")
	for _, id := range ids {
		m := Member{ID: id, Topics: shared}
		if !homogeneous {
			m.Topics = subset("subs")
		}
		if rapid.IntRange(0, 3).Draw(t, "static") == 0 {
			m.InstanceID = "i-" + id
		}
		g.Members = append(g.Members, m)
	}
	if rapid.Bool().Draw(t, "hasTarget") {
		for _, n := range names {
			for p := int32(0); p < g.Topics[n]; p++ {
				if k := rapid.IntRange(-1, len(ids)-1).Draw(t, "owner"); k >= 0 {
					g.Members[k].Owned = append(g.Members[k].Owned, TopicPartition{n, p})
				}
			}
		}
	}
	return g
}

// serverCheckValid: every member present; partitions ascending; every partition
// of a subscribed topic assigned exactly once, to a subscriber; no other
// partition assigned.
func serverCheckValid(t *rapid.T, g Group, a Assignment) {
	if len(a) != len(g.Members) {
		t.Fatalf("%d members in the assignment, %d in the group", len(a), len(g.Members))
	}
	subscribers := map[string]map[string]bool{}
	for _, m := range g.Members {
		if _, ok := a[m.ID]; !ok {
			t.Fatalf("member %s missing", m.ID)
		}
		for _, topic := range m.Topics {
			if subscribers[topic] == nil {
				subscribers[topic] = map[string]bool{}
			}
			subscribers[topic][m.ID] = true
		}
	}
	seen := map[TopicPartition]string{}
	for id, topics := range a {
		for topic, ps := range topics {
			if !slices.IsSorted(ps) || len(ps) == 0 {
				t.Fatalf("%s: %s partitions %v not ascending or empty", id, topic, ps)
			}
			for _, p := range ps {
				tp := TopicPartition{topic, p}
				if p < 0 || p >= g.Topics[topic] {
					t.Fatalf("%s got %s, which does not exist", id, tp)
				}
				if other, dup := seen[tp]; dup {
					t.Fatalf("%s given to both %s and %s", tp, other, id)
				}
				seen[tp] = id
				if !subscribers[topic][id] {
					t.Fatalf("%s given to %s, which does not subscribe to %s", tp, id, topic)
				}
			}
		}
	}
	for topic, n := range g.Topics {
		if len(subscribers[topic]) == 0 {
			continue
		}
		for p := int32(0); p < n; p++ {
			if _, ok := seen[TopicPartition{topic, p}]; !ok {
				t.Fatalf("%s-%d not assigned", topic, p)
			}
		}
	}
}

func serverAssignQuiet(name string, g Group) Assignment {
	a, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return a.Assign(g, NewExplainer(0)).Assignment
}

func TestUniformPropertyValidAndBalancedHomogeneous(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, true)
		a := serverAssignQuiet("uniform", g)
		serverCheckValid(t, g, a)
		lo, hi := 1<<30, -1
		for _, m := range g.Members {
			lo, hi = min(lo, a.Count(m.ID)), max(hi, a.Count(m.ID))
		}
		if hi-lo > 1 {
			t.Fatalf("homogeneous counts range %d..%d", lo, hi)
		}
	})
}

// Kafka's balance criterion for mixed subscriptions: no member holds two or
// more partitions more than another member that could take one of them.
func TestUniformPropertyValidAndBalancedHeterogeneous(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, false)
		a := serverAssignQuiet("uniform", g)
		serverCheckValid(t, g, a)
		serverCheckReachableBalance(t, g, a)
	})
}

func serverCheckReachableBalance(t *rapid.T, g Group, a Assignment) {
	for _, x := range g.Members {
		for _, y := range g.Members {
			if a.Count(x.ID) < a.Count(y.ID)+2 {
				continue
			}
			for _, topic := range y.Topics {
				if len(a[x.ID][topic]) > 0 {
					t.Fatalf("%s holds %d, %s holds %d and subscribes to %s, of which %s holds %v",
						x.ID, a.Count(x.ID), y.ID, a.Count(y.ID), topic, x.ID, a[x.ID][topic])
				}
			}
		}
	}
}

// Larger mixed groups, where the balancing phase takes several rounds.
func TestUniformPropertyLargeHeterogeneous(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenSizedGroup(t, false, 12, 60, 40)
		a := serverAssignQuiet("uniform", g)
		serverCheckValid(t, g, a)
		serverCheckReachableBalance(t, g, a)
		g.Members = serverWithOwned(g.Members, a)
		if b := serverAssignQuiet("uniform", g); !serverSameAssignment(a, b) {
			t.Fatalf("round 2 moved partitions")
		}
	})
}

// serverValidTarget is what a member may keep of its Owned list: partitions of
// topics it still subscribes to (the generator never gives one partition two
// owners).
func serverValidTarget(m Member) map[TopicPartition]bool {
	out := map[TopicPartition]bool{}
	for _, tp := range m.Owned {
		if slices.Contains(m.Topics, tp.Topic) {
			out[tp] = true
		}
	}
	return out
}

// Homogeneous stickiness: a member keeps min(|target|, its new count) of its
// target — nothing it could keep is taken from it.
func TestUniformPropertyStickyHomogeneous(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, true)
		a := serverAssignQuiet("uniform", g)
		for _, m := range g.Members {
			target := serverValidTarget(m)
			kept := 0
			for topic, ps := range a[m.ID] {
				for _, p := range ps {
					if target[TopicPartition{topic, p}] {
						kept++
					}
				}
			}
			if want := min(len(target), a.Count(m.ID)); kept != want {
				t.Fatalf("%s kept %d of its %d target partitions, holds %d: want %d", m.ID, kept, len(target), a.Count(m.ID), want)
			}
		}
	})
}

// Feeding an assignment back as the target changes nothing (KAFKA-18688 for
// the homogeneous builder; a balanced target needs no balancing moves in the
// heterogeneous one).
func TestUniformPropertyStableOnItsOwnResult(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
		a := serverAssignQuiet("uniform", g)
		g.Members = serverWithOwned(g.Members, a)
		if b := serverAssignQuiet("uniform", g); !serverSameAssignment(a, b) {
			t.Fatalf("round 2 moved partitions:\n%v\n%v", a, b)
		}
	})
}

// The answer depends on member ids, not on the order of the input list.
func TestServerAssignorsPropertyInputOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
		shuffled := g
		shuffled.Members = rapid.Permutation(g.Members).Draw(t, "perm")
		for _, name := range []string{"uniform", "range-server"} {
			if a, b := serverAssignQuiet(name, g), serverAssignQuiet(name, shuffled); !serverSameAssignment(a, b) {
				t.Fatalf("%s depends on input order:\n%v\n%v", name, a, b)
			}
		}
	})
}

func serverSameAssignment(a, b Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for id, topics := range a {
		other, ok := b[id]
		if !ok || len(other) != len(topics) {
			return false
		}
		for topic, ps := range topics {
			if !slices.Equal(ps, other[topic]) {
				return false
			}
		}
	}
	return true
}
