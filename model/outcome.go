package model

import (
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// Round is one generation of a rebalance (KIP-848: one group epoch): from
// the join phase (epoch bump) that starts it to the group's Stable at that
// generation (the next bump, or the rebalance's end).
type Round struct {
	StartStep, EndStep int
	StartMs, EndMs     int64
	Generation         int32
}

// assignmentOf turns owners into an Assignment, listing every member of ids.
func assignmentOf(o kafka.Owners, ids []string) kafka.Assignment {
	out := kafka.Assignment{}
	for _, id := range ids {
		out[id] = map[string][]int32{}
	}
	byMember := map[string][]kafka.TP{}
	for tp, id := range o {
		byMember[id] = append(byMember[id], tp)
	}
	for id, tps := range byMember {
		out[id] = kafka.TPMap(kafka.SortTPs(tps))
	}
	return out
}

// ownersOf is who consumes what in a view: what each consuming member holds
// less what its revoke or lost callback is giving up (consumedBy, the rule
// the rebalance scan follows).
func ownersOf(v *GroupView) kafka.Owners {
	n := 0
	for i := range v.Members {
		n += len(v.Members[i].Owned)
	}
	out := make(kafka.Owners, n)
	share := v.Protocol == kafka.ProtocolShare // several members per partition: the first names it, as Partitions does
	for i := range v.Members {
		for _, tp := range consumedBy(&v.Members[i]) {
			if _, taken := out[tp]; share && taken {
				continue
			}
			out[tp] = v.Members[i].ID
		}
	}
	return out
}

// liveIDs are the members still in the group at a view, sorted.
func liveIDs(v *GroupView) []string {
	var out []string
	for _, m := range v.Members {
		if m.Live() {
			out = append(out, m.ID)
		}
	}
	slices.SortFunc(out, strings.Compare)
	return slices.Compact(out)
}

// Live reports whether the member is still in the story: it has not
// crashed, left or been fenced.
func (m MemberView) Live() bool {
	switch m.Status {
	case kafka.StatusCrashed, kafka.StatusLeft, kafka.StatusFenced:
		return false
	}
	return true
}

// Balance is the fewest and most partitions a live member consumes.
type Balance struct{ Min, Max int }

// It counts per member, building no partition map: the lab asks it every
// frame (BenchmarkFrame50x1000).
func balanceOf(v *GroupView) Balance {
	count := make(map[string]int, len(v.Members))
	for i := range v.Members {
		count[v.Members[i].ID] += len(consumedBy(&v.Members[i]))
	}
	var b Balance
	first := true
	for i := range v.Members {
		if !v.Members[i].Live() {
			continue
		}
		n := count[v.Members[i].ID]
		if first {
			b, first = Balance{n, n}, false
		}
		b.Min, b.Max = min(b.Min, n), max(b.Max, n)
	}
	return b
}

// Balance is the fewest and most partitions a live member consumes now.
func (v *GroupView) Balance() Balance { return balanceOf(v) }

// Consumed is how many partitions have a consumer now (PartitionConsumed
// in Partitions), of how many the group's topics have.
func (v *GroupView) Consumed() (held, total int) {
	for _, t := range v.Topics {
		total += int(t.Partitions)
	}
	if v.Protocol == kafka.ProtocolShare {
		return len(ownersOf(v)), total // members share partitions: count each once
	}
	for i := range v.Members {
		held += len(consumedBy(&v.Members[i])) // a partition has one consumer: no double count
	}
	return held, total
}

// gapStats is the longest and the summed time of per-partition gaps.
func gapStats(unowned map[kafka.TP]int64) (worst, total int64) {
	for _, ms := range unowned {
		worst = max(worst, ms)
		total += ms
	}
	return worst, total
}

// WorstGapMs is the longest one partition went without a consumer in it.
func (r Rebalance) WorstGapMs() int64 { w, _ := gapStats(r.UnownedMs); return w }

// TotalGapMs is the partition-milliseconds without a consumer in it.
func (r Rebalance) TotalGapMs() int64 { _, t := gapStats(r.UnownedMs); return t }

// WorstGapMs is the longest one partition went without a consumer in it.
func (o Outage) WorstGapMs() int64 { w, _ := gapStats(o.UnownedMs); return w }

// AssignedIn reports the members whose onPartitionsAssigned ran in steps
// from..to: what is news on the grid during a rebalance.
func (s *Sim) AssignedIn(from, to int) map[string]bool {
	out := map[string]bool{}
	for i := max(from, 0); i <= to && i < len(s.steps); i++ {
		if s.steps[i].kind == kafka.KindPartitionsAssigned {
			out[s.steps[i].member] = true
		}
	}
	return out
}
