package kafka

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Holdings list an assignment as it is: every member, in id order, each
// with the partitions the map gives it (a share group's partition held by
// several), and the map they give back is the one they were made of.
func TestHoldingsListTheAssignment(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := Assignment{}
		for _, id := range rapid.SliceOfDistinct(rapid.SampledFrom([]string{"c1", "c2", "c10", "b", ""}), rapid.ID).Draw(t, "members") {
			a[id] = map[string][]int32{}
			for _, topic := range rapid.SliceOfDistinct(rapid.SampledFrom([]string{"a", "B", "t2", "t10", "x\uff21", "x\U0001F600"}), rapid.ID).Draw(t, id) {
				ps := rapid.SliceOfDistinct(rapid.Int32Range(0, 7), rapid.ID[int32]).Draw(t, id+topic)
				if len(ps) > 0 {
					a[id][topic] = slices.Sorted(slices.Values(ps))
				}
			}
		}
		h := HoldingsOf(a)
		if h.IsZero() || h.Len() != len(a) || !slices.IsSorted(h.Members()) {
			t.Fatalf("members %v of %v", h.Members(), a)
		}
		back := h.Assignment()
		for id, ts := range a {
			if !h.Has(id) || len(back[id]) != len(ts) {
				t.Fatalf("%s: %v, want %v", id, back[id], ts)
			}
			for topic, ps := range ts {
				if !slices.Equal(back[id][topic], ps) {
					t.Fatalf("%s %s: %v, want %v", id, topic, back[id][topic], ps)
				}
			}
			if got, want := h.Partitions(id), a.Partitions(id); !slices.Equal(got, want) {
				t.Fatalf("%s's partitions %v, want %v", id, got, want)
			}
			_, topics := h.Member(slices.Index(h.Members(), id))
			if byName := ByName(topics); !slices.IsSortedFunc(byName, func(x, y TopicPartitions) int { return strings.Compare(x.Topic, y.Topic) }) || len(byName) != len(topics) {
				t.Fatalf("%s's topics by name: %v", id, byName)
			}
		}
		holders := h.Holders()
		n := 0
		for id, ts := range a {
			for topic, ps := range ts {
				for _, p := range ps {
					n++
					if !slices.Contains(holders[TP{Topic: topic, Partition: p}], id) {
						t.Fatalf("%s-%d: holders %v lack %s", topic, p, holders[TP{Topic: topic, Partition: p}], id)
					}
				}
			}
		}
		for tp, ids := range holders {
			n -= len(ids)
			if !slices.IsSorted(ids) {
				t.Fatalf("%v's holders %v not in id order", tp, ids)
			}
		}
		if n != 0 {
			t.Fatalf("holders %v list %d more than the assignment", holders, -n)
		}
	})
	if !HoldingsOf(nil).IsZero() || HoldingsOf(Assignment{}).IsZero() {
		t.Fatal("nil is no assignment; an empty one is one")
	}
}
