package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A classic given start may name its leader and be caught mid-rebalance
// (scenario.ClassicStart), as a real group is read: DescribeGroups shows a
// group PreparingRebalance or CompletingRebalance. The run opens on the
// group as it was in the generation before, and at time 0 the coordinator
// is in the join phase:
//   - preparing: the join phase after generation sc.Generation has begun;
//     the members that have rejoined send their JoinGroup at once, the
//     others learn of it from their next heartbeat (REBALANCE_IN_PROGRESS),
//     as Kafka's do;
//   - completing: every member has rejoined and the coordinator has made
//     generation sc.Generation; the group starts at the generation before
//     and all members rejoin at once, so the join phase completes into
//     sc.Generation at time 0 and the leader assigns.

// startGen is the generation a classic given start is Stable at before
// time 0: the generation before the one a completing rebalance makes.
func startGen(sc *scenario.Scenario) int32 {
	if sc.Classic.Rebalance == scenario.RebalanceCompleting {
		return sc.Generation - 1
	}
	return sc.Generation
}

// startLeader makes the given leader lead the classic group.
func (w *world) startLeader() {
	lead, ok := w.sc.LeaderSpec()
	if !ok || w.sc.Classic.Leader == "" {
		return
	}
	g := w.classic
	if old := w.byID[g.clientOf(g.leader)]; old != nil {
		old.isLeader = false
	}
	if c := w.byID[lead.ID]; c != nil {
		g.leader = c.memberID
		c.isLeader = true
		g.store()
	}
}

// startCaught puts the classic group back into the rebalance it was caught
// in, at time 0.
func (w *world) startCaught() {
	phase := w.sc.Classic.Rebalance
	if phase == "" {
		return
	}
	w.clock.after(0, false, func() {
		why := "the group was read PreparingRebalance"
		if phase == scenario.RebalanceCompleting {
			why = fmt.Sprintf("the group was read CompletingRebalance: every member had rejoined for generation %d", w.sc.Generation)
		}
		w.classic.prepareRebalance(why)
		for i, spec := range w.sc.Members {
			if !spec.Rejoined && phase != scenario.RebalanceCompleting {
				continue
			}
			c := w.clients[i]
			c.rejoinReason = "it had rejoined when the group was read"
			c.rejoinNeeded = true
			c.needsJoinPrepare = false // its onJoinPrepare ran before the read
			c.setStatus(c.activeStatus())
			c.joinGroup()
		}
	})
}

// caughtText is the opening step's account of a caught rebalance ("" for
// none).
func caughtText(sc *scenario.Scenario, coordinator string) string {
	head := fmt.Sprintf("Group %s (%s, %s protocol) was caught mid-rebalance with %d members; its coordinator is %s.",
		sc.GroupID, sc.Strategy, sc.Protocol, len(sc.Members), coordinator)
	switch sc.Classic.Rebalance {
	case scenario.RebalancePreparing:
		n := 0
		for _, m := range sc.Members {
			if m.Rejoined {
				n++
			}
		}
		return fmt.Sprintf("%s It starts Stable at generation %d and goes %s at once: %d of them had rejoined (they send JoinGroup now), the others learn of it from their next heartbeat.",
			head, sc.Generation, kafka.PreparingRebalance, n)
	case scenario.RebalanceCompleting:
		return fmt.Sprintf("%s It was %s: every member had rejoined for generation %d, so it starts Stable at generation %d, every member rejoins at once and the join phase completes into generation %d.",
			head, kafka.CompletingRebalance, sc.Generation, sc.Generation-1, sc.Generation)
	}
	return ""
}
