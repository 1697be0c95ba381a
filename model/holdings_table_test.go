package model

import (
	"reflect"
	"slices"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"pgregory.net/rapid"
)

// An outcome's holdings, grouped from an owner table by counting, list
// what a plain walk of the table lists: every owner and every id given,
// in id order, each with its partitions in Kafka's partition order.
func TestHoldingsOfTableListWhatTheTableHolds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// "B" < "a" in Java order, "t10" < "t2" as strings; the last two
		// sort one way in Java's order and the other in bytes.
		names := rapid.Permutation([]string{"a", "B", "t2", "t10", "x\uff21", "x\U0001F600"}).Draw(t, "topics")
		x := newTPIndex()
		var table ownerTable
		want := kafka.Assignment{}
		for _, name := range names[:rapid.IntRange(0, len(names)).Draw(t, "n")] {
			row := rapid.SliceOfN(rapid.SampledFrom([]string{"", "c1", "c2", "c10", "b"}), 0, 9).Draw(t, name)
			ti := x.topic(name)
			table = append(table, row)
			for p, id := range row {
				if id == "" {
					continue
				}
				if want[id] == nil {
					want[id] = map[string][]int32{}
				}
				want[id][x.names[ti]] = append(want[id][x.names[ti]], int32(p))
			}
		}
		ids := slices.Sorted(slices.Values(rapid.SliceOfDistinct(rapid.SampledFrom([]string{"c1", "c3", "z", ""}), rapid.ID).Draw(t, "ids")))
		for _, id := range ids {
			if want[id] == nil {
				want[id] = map[string][]int32{}
			}
		}
		h := holdingsOfTable(table, x, x.order(), ids)
		if got := h.Assignment(); !reflect.DeepEqual(got, want) {
			t.Fatalf("holdings %v, want %v", got, want)
		}
		if !slices.IsSorted(h.Members()) {
			t.Fatalf("members %v not in id order", h.Members())
		}
		for _, id := range h.Members() {
			if got, want := h.Partitions(id), want.Partitions(id); !slices.Equal(got, want) {
				t.Fatalf("%s's partitions %v, want %v in partition order", id, got, want)
			}
		}
	})
}
