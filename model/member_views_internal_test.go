package model

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A built list reads back what was set over prev, leaves prev unchanged,
// and equal agrees with comparing view by view.
func TestMemberViewsBuilder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := make([]*MemberView, 8)
		for i := range pool {
			pool[i] = &MemberView{ID: string(rune('a' + i))}
		}
		draw := func(label string, n int, from []*MemberView) []*MemberView {
			out := make([]*MemberView, n)
			for i := range out {
				if i < len(from) && rapid.Bool().Draw(t, label+"-keep") {
					out[i] = from[i]
				} else {
					out[i] = pool[rapid.IntRange(0, len(pool)-1).Draw(t, label)]
				}
			}
			return out
		}
		build := func(prev memberViews, prevFlat, want []*MemberView) memberViews {
			var scratch []bool
			b := newMemberViewsBuilder(prev, len(want), &scratch)
			for i, v := range want {
				if i >= len(prevFlat) || prevFlat[i] != v {
					b.set(i, v)
				}
			}
			return b.l
		}
		flat := func(l memberViews) []*MemberView {
			var out []*MemberView
			for _, v := range l.all() {
				out = append(out, v)
			}
			return out
		}
		first := draw("first", rapid.IntRange(0, 200).Draw(t, "n1"), nil)
		a := build(memberViews{}, nil, first)
		second := draw("second", rapid.IntRange(len(first), 200).Draw(t, "n2"), first)
		b := build(a, first, second)
		for name, c := range map[string]struct {
			l    memberViews
			want []*MemberView
		}{"first": {a, first}, "second": {b, second}} {
			got := flat(c.l)
			if len(got) != len(c.want) || c.l.len() != len(c.want) {
				t.Fatalf("%s: %d views, want %d", name, len(got), len(c.want))
			}
			for i := range got {
				if got[i] != c.want[i] || c.l.at(i) != c.want[i] {
					t.Fatalf("%s: view %d is %v, want %v", name, i, got[i], c.want[i])
				}
			}
		}
		same := len(first) == len(second)
		for i := 0; same && i < len(first); i++ {
			same = first[i] == second[i]
		}
		var changed []int
		b.changes(a, func(i int, was, is *MemberView) {
			if i < len(first) && was != first[i] || i >= len(first) && was != nil || is != second[i] {
				t.Fatalf("change %d reported as %v -> %v", i, was, is)
			}
			changed = append(changed, i)
		})
		var want []int
		for i := range second {
			if i >= len(first) || first[i] != second[i] {
				want = append(want, i)
			}
		}
		if !slices.Equal(changed, want) {
			t.Fatalf("changes at %v, want %v", changed, want)
		}
		if a.equal(b) != same {
			t.Fatalf("equal says %v, views say %v", a.equal(b), same)
		}
	})
}
