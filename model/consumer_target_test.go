package model

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model/kafka"
)

// sameAsList agrees with building the list and comparing, for any map and
// any sorted list (often the same one), with one topic or several.
func TestSameAsListAgreesWithTpsOf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := func(label string) map[string][]int32 {
			a := map[string][]int32{}
			topics := []string{"a", "b", "c"}[:rapid.IntRange(1, 3).Draw(t, label+"topics")]
			for _, topic := range topics {
				var ps []int32
				for p := int32(0); p < 6; p++ {
					if rapid.Bool().Draw(t, label+topic) {
						ps = append(ps, p)
					}
				}
				a[topic] = ps
			}
			return a
		}
		a := gen("a")
		prev := kafka.TPsOf(a)
		if rapid.Bool().Draw(t, "other") {
			prev = kafka.TPsOf(gen("b"))
		}
		want := slices.Equal(kafka.TPsOf(a), prev)
		if got := sameAsList(a, prev); got != want {
			t.Fatalf("sameAsList(%v, %v) = %v, want %v", a, prev, got, want)
		}
		if got := sameOrNew(a, prev); !slices.Equal(got, kafka.TPsOf(a)) {
			t.Fatalf("sameOrNew(%v, %v) = %v", a, prev, got)
		}
	})
}

func TestFmtShort(t *testing.T) {
	few := kafka.TPsOf(map[string][]int32{"t0": {0, 1, 2}})
	if got := fmtShort(few); got != kafka.FormatTPs(few) {
		t.Errorf("a short list is written in full: %q", got)
	}
	var many []int32
	for p := int32(0); p < 1000; p++ {
		many = append(many, p)
	}
	got := fmtShort(kafka.TPsOf(map[string][]int32{"orders": many}))
	if !strings.HasPrefix(got, "[orders-0, orders-1, ") || !strings.HasSuffix(got, ", …, orders-999] (1000 partitions)") {
		t.Errorf("a long list is cut short: %q", got)
	}
}
