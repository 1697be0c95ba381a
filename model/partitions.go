package model

import (
	"github.com/kvizlab/kviz/model/kafka"
)

// What each partition is doing after a step, and what each member does with
// it: the one answer the grid, the numbers pane, the rebalance scan, the
// quiz and the JSON trace read.
//
// A member that runs (joining, active, rejoining, stalled) consumes what it
// holds (Owned) except what its revoke or lost callback is giving up
// (Revoking): Kafka pauses fetching those and drops them when the callback
// returns. Under KIP-848 a member the coordinator marks UNREVOKED_PARTITIONS
// is giving up all of Revoking, held or not, until it acknowledges. What it
// is assigned but does not hold yet (Pending) it waits for. A member that is
// down (crashed, left, fenced) has nothing to do with any partition.
//
// The view keeps Revoking after the callback has returned (until the next
// one); a partition no longer held is then not being given up.

// classify is the rule: it calls f for every partition a running member
// consumes, gives up or waits for, with which, walking its sorted lists
// once (no set is built: the grid asks it for every member on every
// frame). Owned partitions come first, in partition order, then those it
// gives up without holding them, then those it waits for.
func classify(v *MemberView, f func(tp kafka.TP, s kafka.PartitionState)) {
	if !consuming(v.Status) {
		return
	}
	unrevoked := v.MemberState == kafka.MUnrevoked
	eachIn(v.Owned, v.Revoking, func(tp kafka.TP, revoking bool) {
		if revoking {
			f(tp, kafka.PartitionRevoking)
		} else {
			f(tp, kafka.PartitionConsumed)
		}
	})
	if unrevoked {
		eachIn(v.Revoking, v.Owned, func(tp kafka.TP, held bool) {
			if !held {
				f(tp, kafka.PartitionRevoking)
			}
		})
	}
	eachIn(v.Pending, v.Owned, func(tp kafka.TP, held bool) {
		if !held && !(unrevoked && containsTP(v.Revoking, tp)) {
			f(tp, kafka.PartitionWaiting)
		}
	})
}

// eachIn calls f for each partition of a, in order, with whether b holds
// it; both are sorted sets (kafka's TP sets), so one merge decides.
func eachIn(a, b []kafka.TP, f func(tp kafka.TP, inB bool)) {
	if !kafka.IsSortedTPs(b) {
		index := kafka.TPIndex(b)
		for _, tp := range a {
			f(tp, index[tp])
		}
		return
	}
	j := 0
	for _, tp := range a {
		for j < len(b) && kafka.CompareTPs(b[j], tp) < 0 {
			j++
		}
		f(tp, j < len(b) && b[j] == tp)
	}
}

// collect is the partitions classify gives state s.
func collect(v *MemberView, s kafka.PartitionState) []kafka.TP {
	var out []kafka.TP
	classify(v, func(tp kafka.TP, got kafka.PartitionState) {
		if got == s {
			out = append(out, tp)
		}
	})
	return out
}

// consumedBy is what a member consumes, the partitions classify calls
// PartitionConsumed: what it holds less what it gives up, in Owned's order.
// Most members give nothing up: then it is what they hold, shared, not a
// copy. A member giving up partitions is one filter, counted then made at
// its size (kafka.MinusTPs), not classify's walk of every list grown by
// appending: the rebalance scan asks it of every revoking member's every
// view (TestConsumedByIsWhatClassifyConsumes holds the two together).
func consumedBy(v *MemberView) []kafka.TP {
	switch {
	case !consuming(v.Status):
		return nil
	case len(v.Revoking) == 0:
		return v.Owned
	}
	return kafka.MinusTPs(v.Owned, v.Revoking)
}

// revokedBy is what a member is giving up.
func revokedBy(v *MemberView) []kafka.TP {
	if len(v.Revoking) == 0 {
		return nil
	}
	return collect(v, kafka.PartitionRevoking)
}

// heldBy is what a running member holds: its assignment as its client
// keeps it, given-up partitions included until their callback returns (the
// trace's "owned").
func heldBy(v *MemberView) []kafka.TP {
	if !consuming(v.Status) {
		return nil
	}
	return v.Owned
}

// Consumes is what the member consumes now.
func (m *MemberView) Consumes() []kafka.TP { return consumedBy(m) }

// Revokes is what the member is giving up now (not consumed).
func (m *MemberView) Revokes() []kafka.TP { return revokedBy(m) }

// WaitsFor is what the member is assigned and waits for.
func (m *MemberView) WaitsFor() []kafka.TP {
	if len(m.Pending) == 0 {
		return nil
	}
	return collect(m, kafka.PartitionWaiting)
}

// EachPartition calls f for every partition the member consumes, gives up
// or waits for, with what it does with it (held ones first, in partition
// order).
func (m *MemberView) EachPartition(f func(tp kafka.TP, s kafka.PartitionState)) { classify(m, f) }

// StateOf is what the member does with one partition.
func (m *MemberView) StateOf(tp kafka.TP) kafka.PartitionState {
	got := kafka.PartitionNobody
	classify(m, func(t kafka.TP, s kafka.PartitionState) {
		if t == tp {
			got = s
		}
	})
	return got
}

// counts is how many partitions the member consumes, gives up and waits for.
func (m *MemberView) counts() (consumed, revoking, waiting int) {
	classify(m, func(_ kafka.TP, s kafka.PartitionState) {
		switch s {
		case kafka.PartitionConsumed:
			consumed++
		case kafka.PartitionRevoking:
			revoking++
		case kafka.PartitionWaiting:
			waiting++
		}
	})
	return consumed, revoking, waiting
}

// Tag is the member's one word (kafka.MemberTag): a problem first, then a
// KIP-848 reconciliation, joining or rejoining, then what it holds.
func (m *MemberView) Tag() kafka.MemberTag {
	switch m.Status {
	case kafka.StatusCrashed, kafka.StatusLeft, kafka.StatusFenced, kafka.StatusStalled:
		return kafka.MemberTag(m.Status)
	}
	switch m.MemberState { // KIP-848 reconciliation, more telling than "rejoining"
	case kafka.MUnrevoked:
		return kafka.TagUnrevoked
	case kafka.MUnreleased:
		return kafka.TagUnreleased
	}
	switch m.Status {
	case kafka.StatusJoining, kafka.StatusRejoining:
		return kafka.MemberTag(m.Status)
	}
	if consumed, revoking, waiting := m.counts(); consumed == 0 && revoking == 0 {
		if waiting > 0 {
			return kafka.TagWaiting
		}
		return kafka.TagIdle
	}
	if m.IsLeader {
		return kafka.TagLeader
	}
	return kafka.TagNone
}

// PartitionView is one partition after a step.
type PartitionView struct {
	State kafka.PartitionState
	// Member consumes it (PartitionConsumed) or gives it up
	// (PartitionRevoking); "" otherwise.
	Member string
	// Waiter is a member assigned it that waits for it ("" for none).
	Waiter string
}

// Partitions is what every partition is doing after the step: one slice
// per topic of v.Topics, indexed by partition.
func (v *GroupView) Partitions() [][]PartitionView {
	index := make(map[string]int, len(v.Topics))
	out := make([][]PartitionView, len(v.Topics))
	for i, t := range v.Topics {
		index[t.Name] = i
		out[i] = make([]PartitionView, t.Partitions)
	}
	for i := range v.Members {
		m := &v.Members[i]
		m.EachPartition(func(tp kafka.TP, s kafka.PartitionState) {
			ti, ok := index[tp.Topic]
			if !ok || tp.Partition < 0 || int(tp.Partition) >= len(out[ti]) {
				return // a view never names unknown partitions; stay safe if one does
			}
			p := &out[ti][tp.Partition]
			if s == kafka.PartitionWaiting && p.Waiter == "" {
				p.Waiter = m.ID
			}
			if s.Stronger(p.State) {
				p.State = s
				if s != kafka.PartitionWaiting {
					p.Member = m.ID
				}
			}
		})
	}
	return out
}
