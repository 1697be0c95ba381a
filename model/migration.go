package model

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// The online migration between the classic and the consumer protocol
// (KIP-848; Kafka 4.0's GroupMetadataManager, ConsumerGroup.fromClassicGroup,
// ClassicGroup.fromConsumerGroup). One group id, one group: the
// coordinator holds it as a classic group or as a consumer group, and
// requests of either protocol go to whichever it is.
//
//   - Upgrade: a consumer-protocol member's first heartbeat (epoch 0) to a
//     non-empty classic group converts it, when group.consumer.migration.policy
//     allows an upgrade (bidirectional, upgrade): the consumer group starts
//     at group epoch = assignment epoch = the classic generation, every
//     classic member STABLE at that epoch with its last assignment as what
//     it holds and as its target. Parked JoinGroups and SyncGroups are
//     answered REBALANCE_IN_PROGRESS. The joiner bumps the group epoch, so
//     each classic member hears REBALANCE_IN_PROGRESS at its next
//     heartbeat and rejoins through the consumer coordinator
//     (consumer_classic.go). A policy that forbids it answers the
//     heartbeat GROUP_ID_NOT_FOUND, fatal to the consumer.
//   - Downgrade: when the members a fence (a leave, an expiry) removes
//     leave only classic members, and the policy allows a downgrade
//     (bidirectional, downgrade), the consumer group becomes a classic
//     group, Stable at generation = the group epoch, each member's
//     assignment its target, the first member in the coordinator's map
//     order its leader; then a rebalance starts. A classic static member
//     taking over the last consumer-protocol member's slot downgrades it
//     too, rebalancing only if its subscription changed.
//   - An empty group of either kind is simply dropped and made anew as the
//     other kind by a joiner of the other protocol.
//   - Refusals kviz cannot meet: a custom assignor's assignment userData
//     would be lost (Kafka refuses the upgrade); kviz's assignors carry
//     none.

// joinGroupRequest routes a classic member's JoinGroup: the service checks
// the session timeout first (GroupCoordinatorService.joinGroup), then the
// group the coordinator holds takes it; an empty consumer group is dropped
// and made a classic one (maybeDeleteEmptyConsumerGroup).
func (w *world) joinGroupRequest(c *client, req joinRequest, reply func(joinResponse)) {
	if !w.sc.ValidSessionTimeout(req.sessionTimeout) {
		lo, hi := w.sc.SessionBounds()
		w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf(
			"%s sends JoinGroup with session.timeout.ms %d, outside group.min.session.timeout.ms %d .. group.max.session.timeout.ms %d.", c.id, req.sessionTimeout, lo, hi))
		reply(joinResponse{err: "INVALID_SESSION_TIMEOUT"})
		return
	}
	if w.consumer && len(w.consumerGroup.members) == 0 {
		w.emptyToClassic()
	}
	if w.consumer {
		w.consumerGroup.classicJoin(c, req, reply)
		return
	}
	w.classic.handleJoin(c, req, reply)
}

func (w *world) syncGroupRequest(c *client, id, instance string, gen int32, assignments map[string][]kafka.TP, withheld []strategies.Withheld, reply func(syncResponse)) {
	if w.consumer {
		w.consumerGroup.classicSync(c, id, instance, gen, reply)
		return
	}
	w.classic.handleSync(c, id, instance, gen, assignments, withheld, reply)
}

func (w *world) heartbeatRequest(id, instance string, gen int32) string {
	if w.consumer {
		return w.consumerGroup.classicHeartbeat(id, instance, gen)
	}
	return w.classic.handleHeartbeat(id, instance, gen)
}

func (w *world) leaveRequest(c *client, id string) {
	if w.consumer {
		w.consumerGroup.classicLeave(c, id)
		return
	}
	w.classic.handleLeave(c, id)
}

// consumerHeartbeat routes a ConsumerGroupHeartbeat: to a classic group it
// may convert it first (getOrMaybeCreateConsumerGroup).
func (w *world) consumerHeartbeat(c *client, req kRequest) (kResponse, bool) {
	if !w.consumer {
		refuse := func(why string) (kResponse, bool) {
			w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
				"%s sends ConsumerGroupHeartbeat (epoch %d) to %s, a classic group.", c.id, req.epoch, w.sc.GroupID))
			return kResponse{err: "GROUP_ID_NOT_FOUND", why: why}, false
		}
		switch {
		case req.epoch != joinEpoch:
			return refuse(": it is not a consumer group")
		case w.classic.state == kafka.Empty && len(w.classic.members) == 0:
			w.emptyToConsumer()
		case !w.sc.UpgradeAllowed():
			return refuse(fmt.Sprintf(": online upgrade is disabled (group.consumer.migration.policy %s)", w.sc.MigrationPolicy()))
		case w.sc.MaxSize > 0 && int32(len(w.classic.members)) > w.sc.MaxSize:
			return refuse(": the group is larger than group.consumer.max.size")
		default:
			w.upgrade(c)
		}
	}
	return w.consumerGroup.heartbeat(c, req)
}

// viewsAnew marks every member's view stale: the group's kind or its
// coordinator's record of its members changed wholesale, and a view reads
// its member's part of it (client_view.go), which no step of the member's
// own marked changed.
func (w *world) viewsAnew() {
	for _, c := range w.clients {
		c.changed()
	}
}

// emptyToConsumer drops an empty classic group for a new consumer group
// (maybeDeleteEmptyClassicGroup).
func (w *world) emptyToConsumer() {
	w.classic.dropTimers()
	w.consumerGroup = newConsumerGroup(w)
	w.consumer = true
	w.viewsAnew()
	w.record(kafka.KindGroupConverted, "", "", false, fmt.Sprintf(
		"The classic group %s is empty: the coordinator drops it and a consumer group takes its place.", w.sc.GroupID))
}

// emptyToClassic drops an empty consumer group for a new classic group
// (maybeDeleteEmptyConsumerGroup).
func (w *world) emptyToClassic() {
	w.consumerGroup.dropTimers()
	w.classic = newClassicGroup(w)
	w.consumer = false
	w.viewsAnew()
	w.record(kafka.KindGroupConverted, "", "", false, fmt.Sprintf(
		"The consumer group %s is empty: the coordinator drops it and a classic group takes its place.", w.sc.GroupID))
}

// upgrade converts the classic group into a consumer group
// (convertToConsumerGroup, ConsumerGroup.fromClassicGroup).
func (w *world) upgrade(by *client) {
	cg := w.classic
	for _, id := range cg.order.Keys() {
		m := cg.members[id]
		m.answerJoin(joinResponse{err: "REBALANCE_IN_PROGRESS"})
		m.answerSync(syncResponse{err: "REBALANCE_IN_PROGRESS"})
	}
	cg.dropTimers()
	g := newConsumerGroup(w)
	g.groupEpoch, g.assignEpoch = cg.generation, cg.generation
	target := map[string][]kafka.TP{}
	var names, forgotten []string
	for _, id := range cg.order.Keys() {
		cm := cg.members[id]
		m := &kMember{id: cm.id, client: cm.client, instance: cm.instance, topics: cm.topics,
			epoch: cg.generation, prevEpoch: cg.generation, state: kafka.MStable, rebalanceTimeout: cm.rebalanceTimeout,
			classic: &classicMeta{sessionTimeout: cm.sessionTimeout, protocols: cm.protocols}}
		g.add(m)
		// kviz's one departure: only partitions of topics it subscribes to.
		// A member that changed its subscription in the rebalance the
		// upgrade interrupts still holds the old topics' partitions in
		// Kafka's fromClassicGroup, and as a classic member whose
		// assignment does not match its subscription it would rejoin
		// forever (STABLE at the target epoch, nothing to reconcile).
		assigned := kafka.OnTopics(w.existing(cm.assignment), cm.topics)
		g.setHeld(m, assigned, nil)
		target[m.id] = assigned
		names = append(names, cm.client)
		if kept := w.unlisted(cm, assigned); len(kept) > 0 {
			forgotten = append(forgotten, cm.client+" "+fmtShort(kept))
		}
	}
	g.target = target
	w.classic, w.consumerGroup, w.consumer = newClassicGroup(w), g, true
	for _, m := range g.order {
		g.touchSession(m)
	}
	w.viewsAnew()
	// The warning goes before the members' part: a screen shows a step's
	// first lines, and two consumers of one partition is the news.
	text := fmt.Sprintf(
		"%s joins with the consumer protocol, and group.consumer.migration.policy is %s: the coordinator converts classic group %s (generation %d) into a consumer group at group epoch %d.",
		by.id, w.sc.MigrationPolicy(), w.sc.GroupID, cg.generation, g.groupEpoch)
	if len(forgotten) > 0 {
		why := "it takes only their stored assignments"
		if cg.emptied {
			why = "the rebalance this interrupts had emptied the stored assignments it takes (resetAndPropagateAssignmentWithError)"
		}
		text += fmt.Sprintf(
			" Two members may consume a partition at once for a while: %s, yet classic members still hold more (%s), which the new target can give another member before they revoke it.",
			why, strings.Join(forgotten, ", "))
	}
	text += fmt.Sprintf(
		" Its classic members (%s) are STABLE at epoch %d with their last assignment as their target; they keep the classic protocol, and learn of the new epoch at their next heartbeat.",
		strings.Join(names, ", "), g.groupEpoch)
	w.record(kafka.KindGroupConverted, "", "", false, text)
}

// unlisted is what classic member cm's client, while running as cm, holds
// beyond assigned, the assignment the coordinator stored for it. A
// cooperative client keeps its partitions through a rebalance, and a
// rebalance interrupted while completing empties every stored assignment,
// so after an upgrade the consumer coordinator can hand them to someone
// else at once (ConsumerGroup.fromClassicGroup reads only the stored
// assignment). The client is found by its id, not by a walk of every
// client for each of 10,000 members.
func (w *world) unlisted(cm *cMember, assigned []kafka.TP) []kafka.TP {
	if c := w.byID[cm.client]; c != nil && c.running && c.memberID == cm.id {
		return kafka.MinusTPs(w.existing(c.owned), assigned)
	}
	return nil
}

// downgradeOnLeave converts the consumer group into a classic group when
// the members being fenced leave only classic members
// (validateOnlineDowngradeWithFencedMembers, convertToClassicGroup); it
// reports whether it did.
func (w *world) downgradeOnLeave(ids []string, why string) bool {
	g := w.consumerGroup
	leaving := map[string]bool{}
	for _, id := range ids {
		if g.members[id] != nil {
			leaving[id] = true
		}
	}
	left := 0
	for _, m := range g.order {
		if leaving[m.id] {
			continue
		}
		if m.classic == nil {
			return false
		}
		left++
	}
	if left == 0 || !w.sc.DowngradeAllowed() || w.sc.MaxSize > 0 && int32(left) > w.sc.MaxSize {
		return false
	}
	consumerLeft := false
	for id := range leaving {
		consumerLeft = consumerLeft || g.members[id].classic == nil
	}
	if !consumerLeft {
		return false // a group that was all classic already stays a consumer group (an empty one is dropped on the next join)
	}
	for _, id := range ids {
		g.remove(id)
	}
	w.downgrade(nil, nil, true, why)
	return true
}

// downgradeOnReplace: a classic static member takes over the slot of the
// last consumer-protocol member (validateOnlineDowngradeWithReplacedMember);
// it reports whether the group became a classic group.
func (w *world) downgradeOnReplace(replaced, joiner *kMember, subscribed bool, owned []kafka.TP) bool {
	g := w.consumerGroup
	if replaced.classic != nil || !w.sc.DowngradeAllowed() || w.sc.MaxSize > 0 && int32(len(g.members)) > w.sc.MaxSize {
		return false
	}
	for _, m := range g.order {
		if m != replaced && m.classic == nil {
			return false
		}
	}
	target := g.target[replaced.id]
	g.remove(replaced.id)
	joiner.assigned, joiner.revoking = nil, nil
	if !subscribed {
		// The joiner reconciles with the slot's assignment first.
		joiner.epoch, joiner.state = g.assignEpoch, kafka.MStable
	}
	w.downgrade(joiner, target, subscribed, fmt.Sprintf("static member %s took over %s's slot with the classic protocol", joiner.client, replaced.id))
	return true
}

// downgrade makes the classic group from the consumer group's members (and
// a joiner taking over a slot, with that slot's target), Stable at the
// group epoch; rebalance says whether a rebalance follows
// (ClassicGroup.fromConsumerGroup).
func (w *world) downgrade(joiner *kMember, joinerTarget []kafka.TP, rebalance bool, why string) {
	g := w.consumerGroup
	g.dropTimers()
	cg := newClassicGroup(w)
	cg.generation = g.groupEpoch
	members := make([]*kMember, 0, len(g.order)+1)
	members = append(members, g.order...)
	if joiner != nil {
		members = append(members, joiner)
	}
	// ConsumerGroup.members() is a hash map: members join the classic
	// group in its order, and the first one leads.
	byID := newIDOrder()
	find := map[string]*kMember{}
	for _, m := range members {
		byID.Put(m.id)
		find[m.id] = m
	}
	var names []string
	for _, id := range byID.Keys() {
		m := find[id]
		assignment := g.target[m.id]
		if m == joiner {
			assignment = joinerTarget
		}
		cg.add(&cMember{id: m.id, instance: m.instance, client: m.client, topics: m.topics,
			protocols: m.classic.protocols, assignment: assignment, prevAssigned: assignment,
			sessionTimeout: m.classic.sessionTimeout, rebalanceTimeout: m.rebalanceTimeoutOrDefault(w)})
		names = append(names, m.client)
	}
	cg.selected, _ = cg.selectProtocol()
	cg.protocol = cg.selected.KafkaName()
	cg.prevState, cg.state = kafka.CompletingRebalance, kafka.Stable // created Stable, not a transition
	cg.store()
	w.classic, w.consumerGroup, w.consumer = cg, newConsumerGroup(w), false
	for _, c := range w.clients {
		if m := cg.members[c.memberID]; c.running && !c.consumerProto && m != nil {
			c.isLeader = c.memberID == cg.leader
			// Each member's assignment is its target: what a member still
			// holds beyond it (a revocation the consumer coordinator was
			// waiting for) may be another's now. Its client learns so at its
			// next heartbeat (ILLEGAL_GENERATION, then onPartitionsLost);
			// until then the group does not count them, as a zombie's.
			if extra := kafka.MinusTPs(c.owned, m.assignment); len(extra) > 0 {
				c.heldLost = kafka.UnionTPs(c.heldLost, extra)
				c.owned = kafka.MinusTPs(c.owned, extra)
				c.changed()
			}
		}
	}
	w.viewsAnew()
	w.record(kafka.KindGroupConverted, "", "", false, fmt.Sprintf(
		"%s, and only classic members are left: group.consumer.migration.policy is %s, so the coordinator converts consumer group %s (group epoch %d) into a classic group, Stable at generation %d with each member's target as its assignment (%s), leader %s, protocol %s.",
		why, w.sc.MigrationPolicy(), w.sc.GroupID, g.groupEpoch, cg.generation, strings.Join(names, ", "), cg.clientOf(cg.leader), cg.protocol))
	if rebalance {
		cg.prepareRebalance("the group was downgraded from consumer to classic")
	}
}

// dropTimers cancels everything a classic group has scheduled (it is
// being replaced).
func (g *classicGroup) dropTimers() {
	for _, id := range g.order.Keys() {
		g.w.clock.cancel(g.members[id].session)
	}
	for _, e := range g.pending {
		g.w.clock.cancel(e)
	}
	g.w.clock.cancel(g.joinTimer)
	g.w.clock.cancel(g.syncTimer)
	g.joinTimer, g.syncTimer = nil, nil
	g.pending = map[string]*event{}
}

// dropTimers cancels everything a consumer group has scheduled (it is
// being replaced).
func (g *consumerGroup) dropTimers() {
	for _, m := range g.order {
		g.w.clock.cancel(m.session)
		g.w.clock.cancel(m.revokeTimer)
		m.classic.cancel(g.w)
	}
}

// consumerCommit validates a consumer-protocol member's OffsetCommit at the
// group the coordinator holds: a classic group does not know it.
func (w *world) consumerCommit(id string, epoch int32, tps []kafka.TP) (string, string) {
	if !w.consumer {
		return w.classic.handleCommit(id, "", epoch), ""
	}
	return w.consumerGroup.commitCheck(id, epoch, tps)
}

// serverAssignor is the consumer coordinator's assignor: group.strategy
// under the consumer protocol; for a classic scenario's group once it is
// upgraded, the first of group.consumer.assignors, uniform.
func (w *world) serverAssignor() strategies.Assignor {
	if w.consumer && !scenario.IsConsumer(w.sc) {
		if w.upgradeAssignor == nil {
			a, err := strategies.Lookup("uniform")
			if err != nil {
				w.fail("the consumer coordinator's default assignor: %v", err)
				return w.assignor
			}
			w.upgradeAssignor = a
		}
		return w.upgradeAssignor
	}
	return w.assignor
}
