package scenario

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// The invariants Kafka's coordinator keeps for a KIP-848 group caught
// mid-reconcile (CurrentAssignmentBuilder, GroupMetadataManager), checked
// once for both ways a given start arrives: the parser, which refuses a
// file that breaks one with the line it is on ("s.yaml:4: " then the
// fault), and the live import, which repairs what a describe shows and
// says so in a note (the fault, then what it did). The message is the same
// sentence in both and names the member, which is where an import is: it
// has no file lines (the file it writes holds the repaired member).

// FaultKind is which invariant a ReconcileFault breaks, and so what an
// import that repairs does about it.
type FaultKind int

const (
	// EpochOutOfRange: a member epoch outside 1..the assignment epoch.
	EpochOutOfRange FaultKind = iota
	// TargetTopicUnknown: a target names a topic that does not exist.
	TargetTopicUnknown
	// TargetTopicUnsubscribed: a target holds a topic the member does not
	// subscribe to while no new target is pending.
	TargetTopicUnsubscribed
	// TargetPartition: a target names a partition beyond its topic's count,
	// or one in an earlier member's target.
	TargetPartition
	// RevokingAtTarget: a member revokes at the assignment epoch.
	RevokingAtTarget
	// OwnedOutsideTarget: at the assignment epoch a member owns partitions
	// outside its target.
	OwnedOutsideTarget
	// AssignmentEpochAhead: the assignment epoch is above the group epoch.
	AssignmentEpochAhead
)

// A ReconcileFault is one invariant a given start caught mid-reconcile
// breaks.
type ReconcileFault struct {
	Kind   FaultKind
	Member string   // the member's scenario id ("" for AssignmentEpochAhead)
	TP     kafka.TP // the target partition at fault (the Target kinds)
	Msg    string   // "members.target: ...": the key, then the sentence
}

func (f *ReconcileFault) Error() string { return f.Msg }

func fault(kind FaultKind, member string, tp kafka.TP, format string, args ...any) *ReconcileFault {
	return &ReconcileFault{Kind: kind, Member: member, TP: tp, Msg: fmt.Sprintf(format, args...)}
}

// CheckAssignmentEpoch checks a given assignment epoch against the group
// epoch (sc.Generation): the coordinator computes a target for a group
// epoch it has reached (GroupMetadataManager.updateTargetAssignment).
func CheckAssignmentEpoch(sc *Scenario, assignment int64) *ReconcileFault {
	if assignment > int64(sc.Generation) {
		return fault(AssignmentEpochAhead, "", kafka.TP{}, "group.assignment_epoch %d is above group.group_epoch %d: a target is computed for a group epoch the group has reached", assignment, sc.Generation)
	}
	return nil
}

// CheckReconciling checks m, a KIP-848 member of sc's given start, as it
// was read: epoch is its member epoch as given (the assignment epoch when
// none is), m.Target its target as given (nil: none, it is Owned) with each
// partition once, m.Revoking what it revokes. The invariants: a member epoch
// of 1..the assignment epoch (a member reaches an epoch only once a target
// exists for it); a given target of existing partitions, each in one
// member's target, and, while no new target is pending (group epoch =
// assignment epoch), of subscribed topics; revoking only below the
// assignment epoch (UNREVOKED_PARTITIONS keeps the old epoch); at the
// assignment epoch, owned partitions only of the target. targets holds the
// partitions of the given targets of the members checked before m (by
// member); m's are added when it passes; subs looks m's subscription up,
// kept from one member to the next (nil: kept for none). It returns the
// first invariant m breaks, nil when none.
func CheckReconciling(sc *Scenario, m MemberSpec, epoch int64, targets map[kafka.TP]string, subs *Subscribers) *ReconcileFault {
	assign := max(sc.StartAssignmentEpoch(), 1)
	if epoch < 1 || epoch > int64(assign) {
		return fault(EpochOutOfRange, m.ID, kafka.TP{}, "members.member_epoch: %s's epoch must be 1..%d (the assignment epoch), got %d%s: a member reaches an epoch only once a target exists for it", m.ID, assign, epoch, epochMeaning(epoch))
	}
	pending := sc.StartAssignmentEpoch() != sc.Generation
	var subscribes func(string) bool // asked only while no target is pending
	if !pending && len(m.Target) > 0 {
		subscribes = subs.Of(m.Topics)
	}
	for _, tp := range m.Target {
		count, ok := sc.Topics[tp.Topic]
		switch {
		case !ok:
			return fault(TargetTopicUnknown, m.ID, tp, "members.target: %s's target names the unknown topic %q%s", m.ID, tp.Topic, Suggest(tp.Topic, strategies.SortedTopics(sc.Topics)))
		case tp.Partition < 0 || tp.Partition >= count:
			return fault(TargetPartition, m.ID, tp, "members.target: %s's target names %s, which does not exist: %s has %d partitions (0..%d)", m.ID, tp, tp.Topic, count, count-1)
		case !pending && !subscribes(tp.Topic):
			return fault(TargetTopicUnsubscribed, m.ID, tp, "members.target: %s's target holds %s but it does not subscribe to %s, and no new target is pending (the group epoch is the assignment epoch)", m.ID, tp, tp.Topic)
		}
		if other, taken := targets[tp]; taken {
			return fault(TargetPartition, m.ID, tp, "members.target: %s is in the targets of %s and %s; the assignor gives a partition to one member", tp, other, m.ID)
		}
	}
	if len(m.Revoking) > 0 && epoch >= int64(assign) {
		return fault(RevokingAtTarget, m.ID, kafka.TP{}, "members.revoking: %s revokes at member epoch %d, the assignment epoch; a member revoking partitions stays at the epoch before its target (UNREVOKED_PARTITIONS): give member_epoch below %d", m.ID, epoch, assign)
	}
	if epoch == int64(assign) {
		if extra := kafka.MinusTPs(m.Owned, m.StartTarget()); len(extra) > 0 {
			return fault(OwnedOutsideTarget, m.ID, kafka.TP{}, "members.target: %s is at the assignment epoch %d but owns %s outside its target: at its target's epoch a member holds only target partitions (it revokes the rest first)", m.ID, assign, kafka.FormatTPs(extra))
		}
	}
	for _, tp := range m.Target {
		targets[tp] = m.ID
	}
	return nil
}

// epochMeaning says what a member epoch of 0 or below means (Kafka's
// ConsumerGroupMember: -2 a static member away, -1 leaving, 0 joining).
func epochMeaning(e int64) string {
	switch {
	case e == -2:
		return " (a static member away until its session expires)"
	case e == 0:
		return " (joining: no target for it yet)"
	case e < 0:
		return " (leaving)"
	}
	return ""
}
