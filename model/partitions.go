package model

import (
	"slices"

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

// consumedBy is what a member consumes.
func consumedBy(v *MemberView) []kafka.TP {
	if !consuming(v.Status) {
		return nil
	}
	if len(v.Revoking) == 0 {
		return v.Owned
	}
	return kafka.MinusTPs(v.Owned, v.Revoking)
}

// revokedBy is what a member is giving up.
func revokedBy(v *MemberView) []kafka.TP {
	if !consuming(v.Status) || len(v.Revoking) == 0 {
		return nil
	}
	if v.MemberState == kafka.MUnrevoked {
		return v.Revoking
	}
	return kafka.IntersectTPs(v.Owned, v.Revoking)
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
	if !consuming(m.Status) || len(m.Pending) == 0 {
		return nil
	}
	return kafka.MinusTPs(kafka.MinusTPs(m.Pending, m.Owned), revokedBy(m))
}

// EachPartition calls f for every partition the member consumes, gives up
// or waits for, with what it does with it: consumed ones first, then
// revoking, then waiting, each in partition order.
func (m *MemberView) EachPartition(f func(tp kafka.TP, s kafka.PartitionState)) {
	for _, tp := range consumedBy(m) {
		f(tp, kafka.PartitionConsumed)
	}
	for _, tp := range revokedBy(m) {
		f(tp, kafka.PartitionRevoking)
	}
	for _, tp := range m.WaitsFor() {
		f(tp, kafka.PartitionWaiting)
	}
}

// StateOf is what the member does with one partition.
func (m *MemberView) StateOf(tp kafka.TP) kafka.PartitionState {
	switch {
	case !consuming(m.Status):
		return kafka.PartitionNobody
	case slices.Contains(consumedBy(m), tp):
		return kafka.PartitionConsumed
	case slices.Contains(revokedBy(m), tp):
		return kafka.PartitionRevoking
	case slices.Contains(m.WaitsFor(), tp):
		return kafka.PartitionWaiting
	}
	return kafka.PartitionNobody
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
	if len(consumedBy(m)) == 0 && len(revokedBy(m)) == 0 {
		if len(m.WaitsFor()) > 0 {
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
