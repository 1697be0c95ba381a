package model

import (
	"fmt"
	"maps"

	"github.com/kvizlab/kviz/model/kafka"
)

// KIP-1251 assignment epochs (KAFKA-20066, Kafka 4.3). The coordinator
// keeps, for every partition a member holds (assigned or pending
// revocation), the member epoch it was assigned at; a partition the member
// keeps from one epoch to the next keeps its epoch. An OffsetCommit with
// the member's own epoch is accepted as before; a newer one is
// STALE_MEMBER_EPOCH; an older one is accepted only if every partition it
// commits is the member's with an assignment epoch at or below it
// (ConsumerGroup.validateOffsetCommit and createAssignmentEpochValidator,
// apache/kafka PR #21692: "A commit is rejected if the partition is not
// assigned to the member or if the received client-side epoch is older
// than the partition's assignment epoch"). Before 4.3 the epoch must equal
// the member's. Kafka answers each partition; kviz answers the commit as a
// whole and rejects it when any partition fails, naming those.

// noteAssignedAt keeps m.assignedAt right after setHeld: partitions new to
// the member are assigned at the assignment epoch it moves to (reconcile
// and a given start move it there), and partitions it no longer holds are
// forgotten. Only releases with assignment epochs keep the map.
func (g *consumerGroup) noteAssignedAt(m *kMember) {
	if !g.w.sc.KafkaVersion.AssignmentEpochs() {
		return
	}
	if len(m.assigned) == 0 && len(m.revoking) == 0 {
		m.assignedAt = nil
		return
	}
	if m.assignedAt == nil {
		m.assignedAt = make(map[kafka.TP]int32, len(m.assigned))
	}
	for _, tp := range m.assigned {
		if _, ok := m.assignedAt[tp]; !ok {
			m.assignedAt[tp] = g.assignEpoch
		}
	}
	if len(m.assignedAt) > len(m.assigned)+len(m.revoking) {
		maps.DeleteFunc(m.assignedAt, func(tp kafka.TP, _ int32) bool {
			return !containsTP(m.assigned, tp) && !containsTP(m.revoking, tp)
		})
	}
}

// commitCheck is the coordinator validating a member's OffsetCommit of tps
// with a member epoch: the error ("NONE" when stored) and, for a commit
// KIP-1251 accepts with an older epoch, why.
func (g *consumerGroup) commitCheck(id string, epoch int32, tps []kafka.TP) (errName, why string) {
	m := g.members[id]
	switch {
	case m == nil:
		return "UNKNOWN_MEMBER_ID", ""
	case epoch == m.epoch:
		return "NONE", ""
	case epoch > m.epoch || !g.w.sc.KafkaVersion.AssignmentEpochs():
		return "STALE_MEMBER_EPOCH", ""
	}
	var stale []kafka.TP
	for _, tp := range tps {
		if at, ok := m.assignedAt[tp]; !ok || at > epoch {
			stale = append(stale, tp)
		}
	}
	if len(stale) > 0 {
		return "STALE_MEMBER_EPOCH", fmt.Sprintf(" (KIP-1251: %s not assigned to it at or before epoch %d)", fmtShort(stale), epoch)
	}
	return "NONE", fmt.Sprintf(" (epoch %d is older than its %d, but it got every partition it commits at or before epoch %d: KIP-1251)", epoch, m.epoch, epoch)
}

// containsTP: tps (sorted or not) holds tp.
func containsTP(tps []kafka.TP, tp kafka.TP) bool {
	for _, x := range tps {
		if x == tp {
			return true
		}
	}
	return false
}
