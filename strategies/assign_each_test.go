package strategies

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// AssignEach must report exactly Assign's assignment, in its promised
// order: a member's calls together, topics in Java order, partitions
// ascending; a member reported kept gets exactly its owned partitions. It
// holds for each assignor that has both faces (uniform, and the
// server-side range, which orders static members by instance id ahead of
// the dynamic ones), from no targets and from the round before's.
func TestAssignEachMatchesAssign(t *testing.T) {
	for _, a := range []eachAssignor{uniformAssignor{}, rangeServerAssignor{}} {
		t.Run(a.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				g := serverGenGroup(t, rapid.Bool().Draw(t, "homogeneous"))
				for i := range g.Members {
					if rapid.IntRange(0, 3).Draw(t, "static") == 0 {
						g.Members[i].InstanceID = fmt.Sprintf("i%d", rapid.IntRange(0, 9).Draw(t, "instance"))
					}
				}
				checkAssignEach(t, a, g)
				// The next round starts from this one's targets: most
				// members keep theirs, so kept is reported often.
				ownTargets(g, a.Assign(g, nil).Assignment)
				checkAssignEach(t, a, g)
			})
		})
	}
}

// eachAssignor is an assignor with both faces, held to each other.
type eachAssignor interface {
	Assignor
	EachAssigner
}

func checkAssignEach(t *rapid.T, a eachAssignor, g Group) {
	want := a.Assign(g, nil).Assignment
	got := Assignment{}
	done := map[int]bool{}
	last := -1
	a.AssignEach(g, func(m int) {
		if done[m] {
			t.Fatalf("member %d reported twice", m)
		}
		done[m], last = true, m
		got[g.Members[m].ID] = asAssignmentOf(g.Members[m].Owned)
	}, func(m int, topic string, ps []int32) {
		if m != last && done[m] {
			t.Fatalf("member %d reported twice, not consecutively", m)
		}
		done[m], last = true, m
		id := g.Members[m].ID
		if got[id] == nil {
			got[id] = map[string][]int32{}
		}
		if prev := SortedTopics(got[id]); len(prev) > 0 && !JavaLess(prev[len(prev)-1], topic) {
			t.Fatalf("member %s: topic %s after %s", id, topic, prev[len(prev)-1])
		}
		if !slices.IsSorted(ps) || len(ps) == 0 {
			t.Fatalf("member %s topic %s: partitions %v", id, topic, ps)
		}
		got[id][topic] = slices.Clone(ps)
	})
	for _, m := range g.Members {
		for topic, ps := range want[m.ID] {
			if !slices.Equal(got[m.ID][topic], ps) {
				t.Fatalf("member %s topic %s: AssignEach %v, Assign %v", m.ID, topic, got[m.ID][topic], ps)
			}
		}
		for topic := range got[m.ID] {
			if len(want[m.ID][topic]) == 0 {
				t.Fatalf("member %s: AssignEach gives topic %s, Assign does not", m.ID, topic)
			}
		}
	}
}

// ownTargets makes each member own what a gives it, in partition order:
// the next round's input.
func ownTargets(g Group, a Assignment) {
	for i := range g.Members {
		g.Members[i].Owned = nil
		for _, topic := range SortedTopics(a[g.Members[i].ID]) {
			for _, p := range a[g.Members[i].ID][topic] {
				g.Members[i].Owned = append(g.Members[i].Owned, TopicPartition{topic, p})
			}
		}
	}
}

// asAssignmentOf groups owned partitions by topic, ascending.
func asAssignmentOf(owned []TopicPartition) map[string][]int32 {
	out := map[string][]int32{}
	for _, tp := range owned {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	for _, ps := range out {
		slices.Sort(ps)
	}
	return out
}
