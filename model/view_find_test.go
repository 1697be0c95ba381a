package model_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/kvizlab/kviz/model"
)

// Changed names exactly the members whose view differs from the step
// before (a new member included), and ChangedFirst puts them first.
func TestViewChangedMembers(t *testing.T) {
	sim := simDemo(t, "lab")
	seen := 0
	for i := 1; i < sim.Len(); i++ {
		before, v := sim.View(i-1), sim.View(i)
		var want []int
		for k := range v.Members {
			if k >= len(before.Members) || !reflect.DeepEqual(before.Members[k], v.Members[k]) {
				want = append(want, k)
			}
		}
		got := v.Changed()
		// A view rebuilt by a change may read the same (a state set
		// back): every real difference must be named, and nothing else
		// but a rebuilt view.
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Fatalf("step %d: member %d changed but Changed() = %v", i, k, got)
			}
		}
		if !slices.IsSorted(got) {
			t.Errorf("step %d: Changed() = %v, not in order", i, got)
		}
		order := v.ChangedFirst()
		if len(order) != len(v.Members) || !slices.Equal(order[:len(got)], got) {
			t.Fatalf("step %d: ChangedFirst() = %v with Changed() = %v", i, order, got)
		}
		sorted := slices.Sorted(slices.Values(order))
		for k := range sorted {
			if sorted[k] != k {
				t.Fatalf("step %d: ChangedFirst() = %v is not every member once", i, order)
			}
		}
		seen += len(got)
	}
	if seen == 0 {
		t.Fatal("no step changed a member")
	}
}

// Find: a member by (part of) its id, a partition by who holds, revokes or
// waits for it.
func TestViewFind(t *testing.T) {
	sim := simDemo(t, "lab")
	v := sim.View(sim.Len() - 1)
	idx := func(id string) int {
		return slices.IndexFunc(v.Members, func(m model.MemberView) bool { return m.ID == id })
	}
	if got := v.Find("C2"); !slices.Equal(got, []int{idx("c2")}) {
		t.Errorf(`Find("C2") = %v, want c2 at %d`, got, idx("c2"))
	}
	if got := v.Find("c3-st"); !slices.Equal(got, []int{idx("c3")}) {
		t.Errorf(`Find("c3-st") (its instance id) = %v`, got)
	}
	for p := int32(0); p < v.Topics[0].Partitions; p++ {
		var want []int
		for k, m := range v.Members {
			for _, tp := range slices.Concat(m.Owned, m.Revoking, m.Pending) {
				if tp.Topic == v.Topics[0].Name && tp.Partition == p {
					want = append(want, k)
					break
				}
			}
		}
		for _, q := range []string{"orders-", "orders:", "orders "} {
			if got := v.Find(q + string(rune('0'+p))); !slices.Equal(got, want) {
				t.Errorf("Find(%q) = %v, want %v", q+string(rune('0'+p)), got, want)
			}
		}
	}
	if got := v.Find("orders-99"); len(got) != 0 {
		t.Errorf(`Find("orders-99") = %v: no such partition, and no member is named so`, got)
	}
	if got := v.Find(" "); got != nil {
		t.Errorf(`Find(" ") = %v`, got)
	}
}
