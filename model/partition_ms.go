package model

import (
	"iter"
	"maps"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// PartitionMs is how long each partition went without a consumer in a
// rebalance or an outage (a Rebalance's or Outage's UnownedMs): the
// entries as the ownership scan kept them, in no order, over its topic
// numbering. A range-server crash leaves two of 460,000 partitions each;
// as maps they were built at each close and read back once, a fifth of
// the scan and of the outcome that sums them (issue 21). Read it only.
type PartitionMs struct {
	x     *tpIndex // the numbering (the same for every PartitionMs of a scan)
	names []string // topic names by index, as far as keys reach
	keys  []tpKey
	vals  []int64
}

// PartitionMsOf is m as PartitionMs (nil: none), listed in partition
// order, so that the same map gives the same list.
func PartitionMsOf(m map[kafka.TP]int64) PartitionMs {
	x := newTPIndex()
	g := PartitionMs{x: x, keys: make([]tpKey, 0, len(m)), vals: make([]int64, 0, len(m))}
	for _, tp := range kafka.SortTPs(slices.Collect(maps.Keys(m))) {
		g.keys = append(g.keys, keyOf(x.topic(tp.Topic), tp.Partition))
		g.vals = append(g.vals, m[tp])
	}
	g.names = x.names
	return g
}

// Len is how many partitions it lists (some may have 0 ms).
func (g PartitionMs) Len() int { return len(g.keys) }

// All is each listed partition and its milliseconds, in no order.
func (g PartitionMs) All() iter.Seq2[kafka.TP, int64] {
	return func(yield func(kafka.TP, int64) bool) {
		for j, k := range g.keys {
			if !yield(g.tp(k), g.vals[j]) {
				return
			}
		}
	}
}

// Of is tp's milliseconds (0 when unlisted), by a walk of the list: for
// reading one partition, not each.
func (g PartitionMs) Of(tp kafka.TP) int64 {
	for j, k := range g.keys {
		if int32(uint32(k)) == tp.Partition && g.names[k>>32] == tp.Topic {
			return g.vals[j]
		}
	}
	return 0
}

// Map is the list as a map.
func (g PartitionMs) Map() map[kafka.TP]int64 {
	out := make(map[kafka.TP]int64, len(g.keys))
	for tp, ms := range g.All() {
		out[tp] = ms
	}
	return out
}

func (g PartitionMs) tp(k tpKey) kafka.TP {
	return kafka.TP{Topic: g.names[k>>32], Partition: int32(uint32(k))}
}

// Gaps lists the partitions with a gap (more than 0 ms), in partition
// order.
func (g PartitionMs) Gaps() []Gap {
	out := make([]Gap, 0, len(g.keys))
	for j, k := range g.keys {
		if ms := g.vals[j]; ms > 0 {
			out = append(out, Gap{g.names[k>>32], int32(uint32(k)), ms})
		}
	}
	sortGaps(out)
	return out
}

// stats is the longest gap and their sum.
func (g PartitionMs) stats() (worst, total int64) {
	for _, ms := range g.vals {
		worst = max(worst, ms)
		total += ms
	}
	return worst, total
}
