package live

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// reconciling carries a KIP-848 group caught mid-reconcile into the
// scenario, as ConsumerGroupDescribe shows it: the assignment epoch (when
// behind the group epoch the group is ASSIGNING), and per member its epoch
// and target where they differ from a settled member's. Kafka's invariants
// are the parser's (scenario.CheckReconciling): what a describe shows that
// breaks one (a member epoch of -2 or 0, partitions outside the target at
// the target's epoch) is repaired, and the note is the parser's message for
// it followed by what the import did.
func (g *Group) reconciling(sc *scenario.Scenario, notes []string) []string {
	if g.Type != Consumer {
		return notes
	}
	if a := g.AssignmentEpoch; a != nil && *a >= 1 && *a != sc.Generation {
		if f := scenario.CheckAssignmentEpoch(sc, int64(*a)); f != nil {
			notes = append(notes, f.Msg+" (imported at the group epoch)")
		} else {
			sc.AssignmentEpoch = *a
		}
	}
	assign := sc.StartAssignmentEpoch()
	byID := map[string]*Member{}
	for i := range g.Members {
		byID[g.Members[i].MemberID] = &g.Members[i]
	}
	n := 0
	for i := range g.Members {
		n += count(g.Members[i].Target)
	}
	// made at its size: grown, half a million target partitions rehashed
	// it for half a second (issue 21)
	targets := make(map[kafka.TP]string, n)
	var subs scenario.Subscribers
	behind := false
	for i := range sc.Members {
		spec := &sc.Members[i]
		m := byID[spec.MemberID]
		if m == nil {
			continue
		}
		epoch := int64(assign)
		if m.MemberEpoch != nil {
			epoch = int64(*m.MemberEpoch)
		}
		if m.Target != nil {
			spec.Target = slices.Compact(append([]kafka.TP{}, kafka.TPsOf(m.Target)...))
		}
		if spec.Settings.Protocol == scenario.ProtocolClassic && spec.Target != nil && !slices.Equal(spec.Target, spec.Owned) {
			// a classic member reconciles by rejoining; the given start
			// holds it on what it owns (scenario/given_mixed.go)
			notes = append(notes, fmt.Sprintf("%s runs the classic protocol and its target differs from what it owns: imported as reconciled on what it owns (a classic member learns a new target from REBALANCE_IN_PROGRESS and rejoins)", spec.ID))
			spec.Target = nil
		}
		for {
			f := scenario.CheckReconciling(sc, *spec, epoch, targets, &subs)
			if f == nil {
				break
			}
			var did string
			epoch, did = repair(spec, f, epoch, assign)
			notes = append(notes, f.Msg+" ("+did+")")
		}
		if epoch != int64(assign) {
			spec.MemberEpoch = int32(epoch)
			behind = true
		}
		if slices.Equal(spec.Target, spec.Owned) {
			spec.Target = nil
		}
	}
	if behind {
		notes = append(notes, "members behind the assignment epoch may still be revoking partitions, which ConsumerGroupDescribe does not show (the coordinator keeps them apart from the assignment, as pending revocation): kviz takes them as released")
	}
	return notes
}

// repair makes spec keep the invariant f says it breaks, and says how:
// each repair takes something away (an epoch, target partitions, the
// target), so a member is whole after a few.
func repair(spec *scenario.MemberSpec, f *scenario.ReconcileFault, epoch int64, assign int32) (int64, string) {
	switch f.Kind {
	case scenario.EpochOutOfRange:
		return int64(assign), fmt.Sprintf("imported at the assignment epoch %d", assign)
	case scenario.TargetTopicUnknown, scenario.TargetTopicUnsubscribed:
		spec.Target = slices.DeleteFunc(spec.Target, func(tp kafka.TP) bool { return tp.Topic == f.TP.Topic })
	case scenario.TargetPartition:
		spec.Target = slices.DeleteFunc(spec.Target, func(tp kafka.TP) bool { return tp == f.TP })
	case scenario.OwnedOutsideTarget:
		spec.Target = nil
		return epoch, "imported as reconciled on what it owns"
	default: // a describe shows no revocations
		spec.Revoking = nil
		return epoch, "imported as released"
	}
	return epoch, "left out"
}
