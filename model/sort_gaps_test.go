package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"pgregory.net/rapid"
)

// sortGaps puts gaps in partition order, by slots where partitions are
// dense and by sorting where they are sparse or repeated: either way the
// order is kafka.CompareTPs's and no gap is lost or made up.
func TestSortGapsInPartitionOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// "B" < "a" in Java order; "t10" < "t2" as strings.
		topics := []string{"a", "B", "t2", "t10"}
		maxP := rapid.SampledFrom([]int{3, 40, 100000}).Draw(t, "spread")
		n := rapid.IntRange(0, 60).Draw(t, "gaps")
		var gaps []Gap
		seen := map[kafka.TP]bool{}
		repeats := rapid.Bool().Draw(t, "repeats")
		for range n {
			g := Gap{rapid.SampledFrom(topics).Draw(t, "topic"), int32(rapid.IntRange(0, maxP).Draw(t, "p")), int64(rapid.IntRange(1, 9).Draw(t, "ms"))}
			if tp := (kafka.TP{Topic: g.Topic, Partition: g.Partition}); seen[tp] && !repeats {
				continue
			} else {
				seen[tp] = true
			}
			gaps = append(gaps, g)
		}
		want := slices.Clone(gaps)
		slices.SortStableFunc(want, func(a, b Gap) int {
			return kafka.CompareTPs(kafka.TP{Topic: a.Topic, Partition: a.Partition}, kafka.TP{Topic: b.Topic, Partition: b.Partition})
		})
		got := slices.Clone(gaps)
		sortGaps(got)
		key := func(g Gap) string { return fmt.Sprintf("%s-%d", g.Topic, g.Partition) }
		for i := range want {
			if key(got[i]) != key(want[i]) {
				t.Fatalf("gap %d is %v, want %v (in %v)", i, got[i], want[i], got)
			}
		}
		bag := func(gs []Gap) map[Gap]int {
			m := map[Gap]int{}
			for _, g := range gs {
				m[g]++
			}
			return m
		}
		if g, w := bag(got), bag(want); fmt.Sprint(g) != fmt.Sprint(w) {
			t.Fatalf("gaps %v, want %v", g, w)
		}
	})
}

// BenchmarkSortGaps: a range-server crash's 460,000 gaps (every partition
// of 920 of 1,000 topics' 500), in map order as the scan leaves them.
func BenchmarkSortGaps(b *testing.B) {
	m := map[kafka.TP]int64{}
	for t := range 1000 {
		for p := range 460 {
			m[kafka.TP{Topic: fmt.Sprintf("t%d", t), Partition: int32(p)}] = int64(p + 1)
		}
	}
	var in []Gap
	for tp, ms := range m {
		in = append(in, Gap{tp.Topic, tp.Partition, ms})
	}
	gaps := make([]Gap, len(in))
	for b.Loop() {
		copy(gaps, in)
		sortGaps(gaps)
	}
}

// addGaps sums each partition's gaps over the parts it is in, once,
// drops sums of nothing, and totals them: as merging the parts into one
// map first would. The parts are a scan's (one numbering, its topics
// numbered as they are met, so a later part may know more) or, once in a
// while, numbered apart.
func TestAddGapsSumsTheParts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var parts []PartitionMs
		merged := map[kafka.TP]int64{}
		x := newTPIndex()
		for range rapid.IntRange(0, 4).Draw(t, "parts") {
			p := map[kafka.TP]int64{}
			var slots tpSlots
			for range rapid.IntRange(0, 8).Draw(t, "gaps") {
				tp := kafka.TP{Topic: rapid.SampledFrom([]string{"a", "B", "t10", "t2"}).Draw(t, "topic"), Partition: int32(rapid.IntRange(0, 3).Draw(t, "p"))}
				ms := int64(rapid.IntRange(0, 5).Draw(t, "ms"))
				p[tp] = ms
				slots.put(keyOf(x.topic(tp.Topic), tp.Partition), ms)
			}
			if rapid.IntRange(0, 9).Draw(t, "apart") == 0 {
				parts = append(parts, PartitionMsOf(p))
			} else {
				parts = append(parts, slots.table(x))
			}
			for tp, ms := range p {
				merged[tp] += ms
			}
		}
		var got, want Outcome
		got.addGaps(parts...)
		for tp, ms := range merged {
			if ms > 0 {
				want.Gaps = append(want.Gaps, Gap{tp.Topic, tp.Partition, ms})
				want.TotalGapMs += ms
				want.WorstGapMs = max(want.WorstGapMs, ms)
			}
		}
		sortGaps(want.Gaps)
		if !slices.Equal(got.Gaps, want.Gaps) || got.TotalGapMs != want.TotalGapMs || got.WorstGapMs != want.WorstGapMs {
			t.Fatalf("addGaps(%v) = %+v, want %+v", parts, got, want)
		}
	})
}
