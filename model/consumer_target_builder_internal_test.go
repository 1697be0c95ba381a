package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kvizlab/kviz/strategies"
	"pgregory.net/rapid"
)

// targetBuilder, fed a member's partitions topic by topic as AssignEach
// reports them, stores what sameOrNew makes of the same Assignment entry:
// prev itself when unchanged, otherwise an equal new list.
func TestTargetBuilderMatchesSameOrNew(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		drawSet := func(label string) map[string][]int32 {
			a := map[string][]int32{}
			for _, topic := range []string{"a", "b", "t0"} {
				var ps []int32
				for p := int32(0); p < 6; p++ {
					if rapid.Bool().Draw(t, fmt.Sprintf("%s-%s-%d", label, topic, p)) {
						ps = append(ps, p)
					}
				}
				if len(ps) > 0 {
					a[topic] = ps
				}
			}
			return a
		}
		prev := tpsOf(drawSet("prev"))
		a := drawSet("next")
		if rapid.Bool().Draw(t, "unchanged") {
			a = asMap(prev)
		}
		want := sameOrNew(a, prev)
		target := map[string][]TP{"m": prev}
		b := targetBuilder{member: -1}
		seen := false
		for _, topic := range strategies.SortedTopics(a) {
			if !seen {
				b.start(0, "m", prev)
				seen = true
			}
			b.add(topic, a[topic])
		}
		b.flush(target)
		if !seen && len(prev) > 0 {
			target["m"] = nil // runAssignor's rule for a member given nothing
		}
		got := target["m"]
		if !slices.Equal(got, want) {
			t.Fatalf("builder %v, sameOrNew %v", got, want)
		}
		sameSlice := func(x, y []TP) bool { return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0]) }
		if sameSlice(got, prev) != sameSlice(want, prev) {
			t.Fatalf("builder shares prev: %v, sameOrNew: %v", sameSlice(got, prev), sameSlice(want, prev))
		}
		if cap(got) != len(got) && !sameSlice(got, prev) {
			t.Fatalf("new target has spare capacity %d > %d", cap(got), len(got))
		}
	})
}
