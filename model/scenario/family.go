package scenario

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// A given start moves between the protocol families as Kafka's group
// coordinator converts a group online (GroupMetadataManager):
//   - classic to KIP-848 (ConsumerGroup.fromClassicGroup, the upgrade):
//     the group epoch and the target assignment epoch are the classic
//     generation, and each member is at that epoch owning its classic
//     assignment, which is also its target. A classic member's assignor
//     list means nothing to the server-side assignor and is dropped; so
//     are the leader and a caught rebalance (the group as it was at the
//     generation before it).
//   - KIP-848 to classic (ClassicGroup.fromConsumerGroup, the downgrade):
//     the generation is the group epoch and each member owns what it is
//     assigned now (not what it is still revoking); targets and member
//     epochs have no classic counterpart. Kafka's downgrade then starts a
//     rebalance; a variation starts the group Stable, so every strategy is
//     compared from the same owners.

// toFamily converts sc's given start for protocol, if protocol is of the
// other family, and says how ("" when nothing changed).
func (sc *Scenario) toFamily(protocol string) string {
	if !sc.GivenStart() || IsShare(sc) { // a share group has one protocol
		return ""
	}
	toConsumer := protocol == string(kafka.ProtocolConsumer)
	if toConsumer == (sc.givenEpochKey == "group_epoch" || IsConsumer(sc) && sc.givenEpochKey == "") {
		return ""
	}
	if toConsumer {
		gen := startGenOf(sc)
		sc.Generation, sc.AssignmentEpoch, sc.givenEpochKey = gen, 0, "group_epoch"
		members := make([]MemberSpec, len(sc.Members))
		for i, m := range sc.Members {
			m.Owned = existing(sc, m.Owned)
			if len(m.Owned) == 0 {
				m.Owned = nil
			}
			m.Strategies, m.MemberEpoch, m.Target, m.Revoking, m.Rejoined = nil, 0, nil, nil, false
			members[i] = m
		}
		sc.Members, sc.Classic = members, ClassicStart{}
		return fmt.Sprintf("converted from the classic start as Kafka's online upgrade does: group epoch = generation %d, each member at it owning its classic assignment", gen)
	}
	sc.AssignmentEpoch, sc.givenEpochKey = 0, "generation"
	members := make([]MemberSpec, len(sc.Members))
	for i, m := range sc.Members {
		m.MemberEpoch, m.Target, m.Revoking = 0, nil, nil
		members[i] = m
	}
	sc.Members = members
	return fmt.Sprintf("converted from the KIP-848 start as Kafka's online downgrade does: generation = group epoch %d, each member owning what it is assigned (the rebalance Kafka's downgrade then starts is left out)", sc.Generation)
}

// startGenOf is the generation the classic group held before time 0.
func startGenOf(sc *Scenario) int32 {
	if sc.Classic.Rebalance == RebalanceCompleting {
		return max(sc.Generation-1, 1)
	}
	return sc.Generation
}

// existing keeps the partitions of topics the scenario has.
func existing(sc *Scenario, tps []kafka.TP) []kafka.TP {
	return slices.DeleteFunc(slices.Clone(tps), func(tp kafka.TP) bool {
		n, ok := sc.Topics[tp.Topic]
		return !ok || tp.Partition >= n
	})
}

// FamilyNote says how sc's given start becomes a start under strategy and
// protocol ("" = it needs no conversion), for compare's rows.
func (sc *Scenario) FamilyNote(strategy, protocol string) string {
	if protocol == "" {
		a, err := strategies.Lookup(strategy)
		if err != nil {
			return ""
		}
		protocol = string(strategies.Preferred(a))
	}
	return sc.Clone().toFamily(protocol)
}
