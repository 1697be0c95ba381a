package kafka

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// MinusTPs and intersect merge sorted sets; they must answer what a plain
// membership test answers, in a's order, for sorted lists, lists with
// repeats and (defensively) unsorted ones.
func TestSetOpsMatchMembership(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		draw := func(label string) []TP {
			s := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) TP {
				// "B" < "a" in Java order; "t10" < "t2" as strings.
				topic := rapid.SampledFrom([]string{"a", "B", "t2", "t10"}).Draw(t, "topic")
				return TP{Topic: topic, Partition: int32(rapid.IntRange(0, 6).Draw(t, "p"))}
			}), 0, 12).Draw(t, label)
			if rapid.IntRange(0, 4).Draw(t, label+" sorted") > 0 {
				slices.SortFunc(s, CompareTPs)
			}
			return s
		}
		a, b := draw("a"), draw("b")
		var wantIn, wantOut []TP
		for _, tp := range a {
			if slices.Contains(b, tp) {
				wantIn = append(wantIn, tp)
			} else {
				wantOut = append(wantOut, tp)
			}
		}
		if len(b) == 0 {
			wantOut = a
		}
		if got := IntersectTPs(a, b); !slices.Equal(got, wantIn) {
			t.Fatalf("intersect(%v, %v) = %v, want %v", a, b, got, wantIn)
		}
		if got := MinusTPs(a, b); !slices.Equal(got, wantOut) {
			t.Fatalf("minus(%v, %v) = %v, want %v", a, b, got, wantOut)
		}
		// The union: a, then what of b is not in a, sorted.
		wantUnion := slices.Clone(a)
		for _, tp := range b {
			if !slices.Contains(a, tp) {
				wantUnion = append(wantUnion, tp)
			}
		}
		slices.SortFunc(wantUnion, CompareTPs)
		if got := UnionTPs(a, b); !slices.Equal(got, wantUnion) {
			t.Fatalf("union(%v, %v) = %v, want %v", a, b, got, wantUnion)
		}
	})
}

// SortTPs and CompareTPs agree: a set sorted by either is sorted for the other.
func TestCmpTPOrdersLikeSortTPs(t *testing.T) {
	tp := func(topic string, p int32) TP { return TP{Topic: topic, Partition: p} }
	s := []TP{tp("t2", 1), tp("a", 3), tp("B", 0), tp("t10", 2), tp("a", 1)}
	SortTPs(s)
	if !IsSortedTPs(s) {
		t.Fatalf("sortTPs gave %v, not sorted for CompareTPs", s)
	}
	if got := fmt.Sprint(s); got != "[B-0 a-1 a-3 t10-2 t2-1]" {
		t.Fatalf("sorted: %s", got)
	}
}

// TPMap groups a set by topic, partitions in list order, sorted or not.
func TestAsMap(t *testing.T) {
	tp := func(topic string, p int32) TP { return TP{Topic: topic, Partition: p} }
	got := TPMap([]TP{tp("a", 0), tp("a", 2), tp("b", 1), tp("a", 5)})
	if fmt.Sprint(got) != "map[a:[0 2 5] b:[1]]" {
		t.Fatalf("asMap: %v", got)
	}
	if got := TPMap(nil); got == nil || len(got) != 0 {
		t.Fatalf("asMap(nil) = %#v, want an empty map", got)
	}
}

// TPsOf takes any map, a topic's partitions in any order: every partition
// once, in partition order.
func TestTPsOfAnyOrder(t *testing.T) {
	got := TPsOf(map[string][]int32{"a": {2, 1}, "b": {0, 1}, "B": {5}})
	want := []TP{{Topic: "B", Partition: 5}, {Topic: "a", Partition: 1}, {Topic: "a", Partition: 2}, {Topic: "b", Partition: 0}, {Topic: "b", Partition: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("TPsOf = %v, want %v", got, want)
	}
}
