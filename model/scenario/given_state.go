package scenario

import (
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// StartState is the state CurrentAssignmentBuilder left a given member in:
// revoking → UNREVOKED_PARTITIONS (at its old epoch); at the assignment
// epoch without all of its target → UNRELEASED_PARTITIONS (others still
// held some); else STABLE (at the assignment epoch, or at an older one
// until its next heartbeat meets the new target).
func StartState(sc *Scenario, spec MemberSpec) kafka.MemberState {
	switch {
	case len(spec.Revoking) > 0:
		return kafka.MUnrevoked
	case spec.StartEpoch(sc) == sc.StartAssignmentEpoch() && !slices.Equal(spec.Owned, spec.StartTarget()):
		return kafka.MUnreleased
	}
	return kafka.MStable
}

// StartGroupState is the state a KIP-848 given start opens in, by Kafka's
// rule (consumerGroup.derive).
func StartGroupState(sc *Scenario) kafka.GroupState {
	if len(sc.Members) == 0 {
		return kafka.KEmpty
	}
	if sc.Generation > sc.StartAssignmentEpoch() {
		return kafka.KAssigning
	}
	for _, m := range sc.Members {
		if m.StartEpoch(sc) != sc.StartAssignmentEpoch() || StartState(sc, m) != kafka.MStable {
			return kafka.KReconciling
		}
	}
	return kafka.KStable
}
