package strategies

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Properties of the simple assignor that hold for every group, release by
// release. Not every property one might expect is Kafka's: with current
// assignments, 4.1's heterogeneous assignor leaves a partition whose holder
// stopped subscribing to nobody, and 4.2's builder can leave a partition
// short when partitions that are not initialised count towards quotas.
// The properties below are the ones Kafka's code guarantees.

type shareDraw struct {
	g     Group
	fresh bool // no member holds anything
}

func drawShareGroup(t *rapid.T) shareDraw {
	versions := []ClientVersion{{4, 0, 0}, {4, 1, 0}, {4, 2, 0}, {4, 3, 0}}
	g := Group{Topics: map[string]int32{}, Version: rapid.SampledFrom(versions).Draw(t, "version")}
	names := []string{"orders", "payments", "t0", "t1"}[:rapid.IntRange(1, 4).Draw(t, "topics")]
	for _, n := range names {
		g.Topics[n] = int32(rapid.IntRange(0, 12).Draw(t, "partitions"))
	}
	if rapid.Bool().Draw(t, "ids") {
		g.TopicIDs = map[string]TopicID{}
		for _, n := range names {
			g.TopicIDs[n] = TopicID{rapid.Uint64().Draw(t, "msb"), rapid.Uint64().Draw(t, "lsb") | 2}
		}
	}
	if rapid.Bool().Draw(t, "assignable") {
		g.Assignable = map[string][]int32{}
		for _, n := range names {
			if rapid.IntRange(0, 4).Draw(t, "listed") > 0 {
				var ps []int32
				for p := range g.Topics[n] {
					if rapid.Bool().Draw(t, "initialised") {
						ps = append(ps, p)
					}
				}
				g.Assignable[n] = ps
			}
		}
	}
	ids := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{
		"A", "B", "C", "D", "consumer-1", "consumer-2", "consumer-3", "AaAa", "BBBB", "AaBB", "BBAa",
		"AaAaAa", "AaAaBB", "AaBBAa", "BBAaAa", "BBBBBB", "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7",
	}), 1, 16, rapid.ID[string]).Draw(t, "members")
	homogeneous := rapid.Bool().Draw(t, "homogeneous")
	common := rapid.SliceOfDistinct(rapid.SampledFrom(names), rapid.ID[string]).Draw(t, "common")
	holds := rapid.Bool().Draw(t, "holds")
	fresh := true
	for _, id := range ids {
		m := Member{ID: id, Topics: common, Generation: NoGeneration}
		if !homogeneous {
			m.Topics = rapid.SliceOfDistinct(rapid.SampledFrom(append(names, "missing")), rapid.ID[string]).Draw(t, "topics")
		}
		if holds {
			for _, n := range SortedTopics(g.Topics) {
				for p := range g.Topics[n] {
					if rapid.IntRange(0, 3).Draw(t, "held") == 0 {
						m.Owned = append(m.Owned, TopicPartition{n, p})
						fresh = false
					}
				}
			}
		}
		g.Members = append(g.Members, m)
	}
	if err := g.CheckFor(simpleAssignor{}); err != nil {
		t.Fatalf("drawn group is invalid: %v", err)
	}
	return shareDraw{g, fresh}
}

// initialised lists what the release assigns of topic t: from 4.1 only
// the initialised share-partitions.
func initialised(g Group, t string) []int32 {
	if g.release().AtLeast(4, 1, 0) && g.Assignable != nil {
		return g.Assignable[t]
	}
	var out []int32
	for p := range g.Topics[t] {
		out = append(out, p)
	}
	return out
}

func TestSimpleProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := drawShareGroup(t)
		g := d.g
		res := simpleAssignor{}.Assign(g, nil)
		if res.Err != nil {
			if d.fresh {
				t.Fatalf("Kafka %s fails a group without current assignments: %v", g.release(), res.Err)
			}
			return
		}
		a := res.Assignment
		a.Normalize()
		if len(a) != len(g.Members) {
			t.Fatalf("%d members in the answer, %d in the group", len(a), len(g.Members))
		}
		s := newShareSpec(g)
		sharers := map[TopicPartition]int{}
		for _, m := range g.Members {
			for topic, ps := range a[m.ID] {
				if !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) {
					t.Fatalf("%s holds %s %v: not a set", m.ID, topic, ps)
				}
				for _, p := range ps {
					sharers[TopicPartition{topic, p}]++
				}
			}
		}
		subscribed := map[string]bool{}
		for i := range s.members {
			for _, topic := range s.subs[i] {
				subscribed[s.topics[topic]] = true
			}
		}
		v := g.release()
		switch {
		case !v.AtLeast(4, 1, 0):
			// Full fan-out: every member gets every partition of its
			// existing subscribed topics, nothing else.
			for i, m := range s.members {
				want := map[string][]int32{}
				for _, topic := range s.subs[i] {
					if n := s.parts[topic]; n > 0 {
						for p := range n {
							want[s.topics[topic]] = append(want[s.topics[topic]], p)
						}
					}
				}
				if fmt.Sprint(want) != fmt.Sprint(map[string][]int32(a[m.ID])) {
					t.Fatalf("4.0: %s gets %v, want every partition of its topics %v", m.ID, a[m.ID], want)
				}
			}
		case !v.AtLeast(4, 2, 0) && s.homogeneous && d.fresh:
			p := len(s.targets(s.subs[0]))
			desired := (p + len(s.members) - 1) / len(s.members)
			for _, m := range s.members {
				if n := a.Count(m.ID); n > desired+1 {
					t.Fatalf("4.1: %s holds %d, more than ⌈%d/%d⌉ + 1", m.ID, n, p, len(s.members))
				}
			}
		case v.AtLeast(4, 2, 0) && s.homogeneous:
			// Quotas: no member over its own, no partition over the sharing.
			target := s.targets(s.subs[0])
			sharing, x, _ := shareQuotas(len(s.members), len(target))
			for k, m := range s.members {
				quota := int(math.Ceil(x*float64(k+1))) - int(math.Ceil(x*float64(k)))
				if n := a.Count(m.ID); n > quota {
					t.Fatalf("%s (member %d) holds %d, over its quota ⌈%g·%d⌉ − ⌈%g·%d⌉ = %d", m.ID, k, n, x, k+1, x, k, quota)
				}
			}
			for tp, n := range sharers {
				if n > sharing {
					t.Fatalf("%s is shared by %d members, more than ⌈%d/%d⌉ = %d", tp, n, len(s.members), len(target), sharing)
				}
			}
		}
		if !d.fresh {
			return
		}
		// A group without current assignments: every initialised partition
		// of a subscribed topic has a member, and nothing else is assigned.
		for _, topic := range SortedTopics(g.Topics) {
			for _, p := range initialised(g, topic) {
				tp := TopicPartition{topic, p}
				if subscribed[topic] && sharers[tp] == 0 {
					t.Fatalf("Kafka %s: %s is assignable and subscribed, but nobody has it", v, tp)
				}
			}
		}
		for tp := range sharers {
			if !subscribed[tp.Topic] || !slices.Contains(initialised(g, tp.Topic), tp.Partition) {
				t.Fatalf("Kafka %s: %s assigned, but it is not an initialised partition of a subscribed topic", v, tp)
			}
		}
	})
}
