package model

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// joinGroup is AbstractCoordinator.joinGroupIfNeeded: onJoinPrepare once per
// rebalance, then JoinGroup.
func (c *client) joinGroup() {
	if !c.running || c.stalled || c.phase == phaseJoining || c.phase == phaseSyncing {
		return
	}
	if c.coord < 0 {
		c.findCoordinator(c.joinGroup)
		return
	}
	c.rematchBeforeJoin() // a pattern subscription fetches fresh metadata first
	if c.prepCommit.pending {
		return // onJoinPrepare waits for its auto-commit
	}
	if c.needsJoinPrepare && c.cfg.RejoinCommitMs != nil && !c.prepCommit.done && c.generation >= 0 && c.memberID != "" {
		c.joinPrepareCommit(*c.cfg.RejoinCommitMs)
		return
	}
	if c.needsJoinPrepare {
		c.needsJoinPrepare = false
		c.prepCommit = joinPrepareCommit{}
		if !c.onJoinPrepare() {
			return // a callback takes time: poll() joins when it returns
		}
	}
	c.rejoinNeeded = false
	c.w.clock.cancel(c.hbTimer)
	c.hbTimer = nil
	c.phase = phaseJoining
	c.setStatus(c.activeStatus())
	c.sendJoin()
}

func (c *client) sendJoin() {
	req := joinRequest{memberID: c.memberID, instance: c.instance, topics: c.topics,
		owned: c.owned, ownedGen: c.generation, prevAssigned: c.lastAssigned, reason: c.rejoinReason,
		sessionTimeout: c.sessionTimeout(), rebalanceTimeout: c.maxPoll()}
	req.protocols = c.strategies
	if c.eager {
		req.owned, req.ownedGen = nil, c.lastAssignedGen
	}
	c.libraryJoin(&req)
	if req.reason == "" {
		req.reason = "rejoining"
	}
	inc := c.inc // a parked JoinGroup's answer is for the process that sent it
	c.send(false, func() {
		c.w.joinGroupRequest(c, req, func(r joinResponse) { c.replyTo(inc, func() { c.onJoinResponse(r) }) })
	}, func(e string) { c.joinFailed(e) })
}

// joinFailed: the coordinator is gone; find the new one and join again.
func (c *client) joinFailed(errName string) {
	c.w.record(kafka.KindJoinGroupResponse, c.id, errName, false, fmt.Sprintf("%s's JoinGroup fails with %s: it looks for the coordinator again.", c.id, errName))
	c.phase = phaseUnjoined
	c.rejoinNeeded = true
	c.coordinatorLost(c.joinGroup)
}

// onJoinPrepare is ConsumerCoordinator.onJoinPrepare: lost partitions if the
// generation was reset, else eager revokes everything (always, even nothing)
// and cooperative only what is no longer subscribed.
//
// What it holds is what the process believes it owns: a member the
// coordinator has already removed (it missed the rebalance timeout) but
// that has heard nothing of it still holds its generation and its
// partitions, so under eager it revokes them all here (not []), and learns
// of the removal only from the JoinGroup's UNKNOWN_MEMBER_ID.
//
// It reports false when a callback takes time (its listener's ms): the
// member holds the partitions until it returns, the JoinGroup goes out only
// then, and meanwhile its heartbeat thread goes on.
func (c *client) onJoinPrepare() bool {
	held := kafka.UnionTPs(c.owned, c.heldLost)
	c.heldLost = nil
	if c.generation < 0 || c.memberID == "" {
		if len(held) > 0 {
			c.callback(kafka.KindPartitionsLost, held,
				"its generation was reset, so they count as lost: another member may already own them")
			return c.releaseAfter(kafka.KindPartitionsLost, held)
		}
		return true
	}
	if c.eager {
		why := "eager protocol: every member gives up everything before it rejoins"
		if len(held) > len(c.owned) {
			why = "eager protocol: it still holds its generation, unaware the coordinator removed it, so it revokes everything it owned before it rejoins"
		}
		c.callback(kafka.KindPartitionsRevoked, held, why)
		return c.releaseAfter(kafka.KindPartitionsRevoked, held)
	}
	gone := kafka.MinusTPs(held, kafka.OnTopics(held, c.topics))
	// A zombie's partitions stay its own in its eyes (and lost, once it
	// learns of the removal); the group does not count them.
	c.heldLost = kafka.MinusTPs(kafka.MinusTPs(held, c.owned), gone)
	if len(gone) > 0 {
		c.callback(kafka.KindPartitionsRevoked, gone, "they belong to topics it no longer subscribes to")
		return c.releaseAfter(kafka.KindPartitionsRevoked, gone)
	}
	return true
}

// releaseAfter gives tps up once the callback of kind has returned: at
// once (true), or when a slow one returns, after which poll() carries on
// (false).
func (c *client) releaseAfter(kind kafka.StepKind, tps []kafka.TP) bool {
	if c.listenerMs(kind) == 0 {
		c.giveUp(tps)
		c.callbackDone(kind)
		return true
	}
	c.afterCallback(kind, func() {
		c.giveUp(tps)
		c.heldLost = kafka.MinusTPs(c.heldLost, tps)
		c.poll()
	})
	return false
}

// giveUp drops partitions once their revoke or lost callback has returned.
// Kafka clears them from the assignment right after the callback and before
// the JoinGroup goes out (ConsumerCoordinator.onJoinPrepare): from the next
// step on they are unowned, however long the join phase lasts.
func (c *client) giveUp(tps []kafka.TP) {
	c.owned = kafka.MinusTPs(c.owned, tps)
	c.changed()
}

// callback records one rebalance-listener call as a step.
func (c *client) callback(kind kafka.StepKind, tps []kafka.TP, why string) {
	name := kind.ListenerMethod()
	c.lastCallback = fmt.Sprintf("%s(%s)", name, kafka.FormatTPs(tps))
	if kind != kafka.KindPartitionsAssigned {
		// The step shows the member inside the callback: it still holds
		// them (to commit); the caller drops them after the step.
		c.revoking = tps
	}
	c.changed()
	// The sentence repeats lastCallback, written when read: a member of a
	// thousand partitions spells them out in ten kilobytes.
	id, call := c.id, c.lastCallback
	c.w.recordLazy(kind, c.id, "", false, func() string {
		if why != "" {
			return id + " calls " + call + ": " + why + "."
		}
		return id + " calls " + call + "."
	})
}

func (c *client) onJoinResponse(r joinResponse) {
	switch r.err {
	case "MEMBER_ID_REQUIRED":
		c.memberID = r.memberID
		c.memberIDChanged()
		c.changed()
		c.w.record(kafka.KindJoinGroupResponse, c.id, r.err, false, fmt.Sprintf(
			"The coordinator answers %s: MEMBER_ID_REQUIRED, use member id %s (KIP-394). It rejoins at once.", c.id, r.memberID))
		c.sendJoin()
		return
	case "NONE":
	default:
		c.joinError(r.err)
		return
	}
	c.memberID, c.generation, c.isLeader = r.memberID, r.generation, r.memberID == r.leader
	c.memberIDChanged()
	c.phase = phaseSyncing
	c.changed()
	role := fmt.Sprintf("leader is %s", r.leaderClient)
	switch {
	case r.leader == "":
		role = "no leader: the consumer coordinator's assignor computed its assignment"
	case c.isLeader && r.skipAssignment:
		role = "it is still the leader, but SkipAssignment is set: the stored assignment stands"
	case c.isLeader:
		role = fmt.Sprintf("it is the leader and gets the %d members' subscriptions", len(r.members))
	}
	c.w.record(kafka.KindJoinGroupResponse, c.id, "NONE", false, fmt.Sprintf(
		"The coordinator answers %s's JoinGroup: generation %d, protocol %s; %s.", c.id, r.generation, r.protocol, role))
	c.startHeartbeats()
	var assignments map[string][]kafka.TP
	var withheld []strategies.Withheld
	if c.isLeader && !r.skipAssignment {
		var ok bool
		assignments, withheld, ok = c.assign(r)
		if !ok {
			return
		}
	}
	id, inst, gen, inc := c.memberID, c.instance, c.generation, c.inc
	c.send(false, func() {
		c.w.syncGroupRequest(c, id, inst, gen, assignments, withheld, func(s syncResponse) {
			c.replyTo(inc, func() { c.onSyncResponse(s) })
		})
	}, func(e string) { c.syncFailed(e) })
}

// resetFor is AbstractCoordinator's reaction to an error that ends a join or
// a sync: UNKNOWN_MEMBER_ID resets the member id and generation,
// ILLEGAL_GENERATION the generation; then the member joins again. It says so.
func (c *client) resetFor(errName, again string) string {
	switch errName {
	case "UNKNOWN_MEMBER_ID":
		c.resetGeneration(true)
		return "it resets its member id and generation and " + again
	case "ILLEGAL_GENERATION":
		c.resetGeneration(false)
		return "it resets its generation and " + again
	}
	return "it " + again
}

func (c *client) joinError(errName string) {
	what := ""
	switch errName {
	case "FENCED_INSTANCE_ID":
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindJoinGroupResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator answers %s: FENCED_INSTANCE_ID, another process uses group.instance.id %s. The consumer stops (fatal).", c.id, c.instance))
		return
	case "INCONSISTENT_GROUP_PROTOCOL":
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindJoinGroupResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator answers %s: INCONSISTENT_GROUP_PROTOCOL, none of its assignors %v is supported by every member. poll() throws; the consumer stops.", c.id, c.strategies))
		return
	case "INVALID_SESSION_TIMEOUT", "GROUP_MAX_SIZE_REACHED":
		// Fatal in JoinGroupResponseHandler: poll() throws.
		why := fmt.Sprintf("its session.timeout.ms %d is outside the broker's bounds", c.sessionTimeout())
		if errName == "GROUP_MAX_SIZE_REACHED" {
			why = "the group already has the configured maximum number of members (GroupMaxSizeReachedException)"
		}
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindJoinGroupResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator answers %s: %s, %s. poll() throws; the consumer stops.", c.id, errName, why))
		return
	case "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE":
		c.joinFailed(errName)
		return
	default:
		what = c.resetFor(errName, "joins again")
	}
	c.w.record(kafka.KindJoinGroupResponse, c.id, errName, false, fmt.Sprintf("The coordinator answers %s's JoinGroup with %s: %s.", c.id, errName, what))
	c.phase = phaseUnjoined
	c.requestRejoin(strings.ToLower(errName))
}

// assign is the leader running the assignor over the members' subscriptions.
func (c *client) assign(r joinResponse) (map[string][]kafka.TP, []strategies.Withheld, bool) {
	members := append([]strategies.Member(nil), r.members...)
	if r.assignor.Name() == "sticky" {
		// StickyAssignor carries the previous assignment in userData.
		for i := range members {
			members[i].Owned = r.prevAssigned[i]
		}
	}
	counts, gen := c.leaderMetadata(members)
	// Owned partitions go to the assignor as the members reported them
	// (Subscription.ownedPartitions), those of topics a member no longer
	// subscribes to included: onJoinPrepare revokes them only before the
	// first JoinGroup of a rebalance, so a subscription changed during one
	// still reports them, and CooperativeStickyAssignor withholds them
	// (computePartitionsTransferringOwnership reads the raw list).
	for i := range members {
		members[i].Owned = existingIn(counts, members[i].Owned)
	}
	grp := strategies.Group{Topics: subscribedIn(counts, members), Members: members, Version: c.w.sc.KafkaVersion}
	c.w.partitionRacks(&grp)
	if err := grp.Validate(); err != nil {
		c.w.fail("leader %s: %v", c.id, err)
		return nil, nil, false
	}
	res, runs := c.runAssignor(r.assignor, grp)
	c.assignTopicGen = gen // assignmentSnapshot
	c.assignRacks, c.assignRackSubs = "", nil
	if rack := c.rack(); rack != "" && len(c.w.sc.BrokerRacks) > 0 {
		c.assignRackSubs = groupSubscription(members)
		c.assignRacks = c.w.rackSnapshot(rack, c.assignRackSubs)
	}
	if c.w.sc.ChangesTopics() {
		c.assignSubs = groupSubscription(members)
	}
	if gen != c.w.topicGen {
		c.scheduleMetadataRefresh() // its next refresh will show what it missed
	}
	out := make(map[string][]kafka.TP, len(members))
	var parts []string
	for _, m := range strategies.SortMembers(members) {
		tps := kafka.TPsOf(res.Assignment[m.ID])
		out[m.ID] = tps
		if len(parts) <= kafka.MaxListed {
			parts = append(parts, fmt.Sprintf("%s %s", c.w.clientName(m.ID), kafka.FormatTPs(tps)))
		}
	}
	text := fmt.Sprintf("%s (leader) runs %s: %s", c.id, runs, kafka.Summarize(parts))
	if len(res.Withheld) > 0 {
		var wh []string
		for _, x := range res.Withheld {
			to := "the follow-up rebalance"
			if x.To != "" {
				to = c.w.clientName(x.To)
			}
			wh = append(wh, fmt.Sprintf("%s (%s → %s)", x.TopicPartition, c.w.clientName(x.From), to))
		}
		text += "; withheld until their owner revokes them: " + strings.Join(wh, ", ")
	}
	if gen != c.w.topicGen {
		text += "; its metadata predates partitions added since, which it sees at its next metadata refresh"
	}
	c.w.record(kafka.KindAssignmentComputed, c.id, "", false, text+".")
	return out, res.Withheld, true
}

func (c *client) syncFailed(errName string) {
	c.w.record(kafka.KindSyncGroupResponse, c.id, errName, false, fmt.Sprintf("%s's SyncGroup fails with %s: it looks for the coordinator again.", c.id, errName))
	c.phase = phaseUnjoined
	c.rejoinNeeded = true
	c.coordinatorLost(c.joinGroup)
}

func (c *client) onSyncResponse(s syncResponse) {
	switch s.err {
	case "NONE":
	case "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE":
		c.syncFailed(s.err)
		return
	case "FENCED_INSTANCE_ID":
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindSyncGroupResponse, c.id, s.err, false, fmt.Sprintf("%s is fenced: another process took group.instance.id %s. It stops.", c.id, c.instance))
		return
	default:
		what := c.resetFor(s.err, "rejoins")
		c.w.record(kafka.KindSyncGroupResponse, c.id, s.err, false, fmt.Sprintf("The coordinator answers %s's SyncGroup with %s: %s.", c.id, s.err, what))
		c.phase = phaseUnjoined
		c.requestRejoin(strings.ToLower(s.err))
		return
	}
	text := fmt.Sprintf("%s receives its assignment for generation %d: %s", c.id, c.generation, kafka.FormatTPs(s.assignment))
	if !c.w.heldByGroup(c) {
		text += "; the coordinator has removed it since it answered, so the group no longer counts them as its own: it learns of the removal from its next heartbeat (UNKNOWN_MEMBER_ID)"
	}
	c.w.record(kafka.KindSyncGroupResponse, c.id, "NONE", false, text+".")
	c.onJoinComplete(s.assignment, s.withheld)
}

// onJoinComplete is ConsumerCoordinator.onJoinComplete.
func (c *client) onJoinComplete(assigned, withheld []kafka.TP) {
	c.phase = phaseStable
	c.needsJoinPrepare = true
	c.lastAssigned, c.lastAssignedGen = assigned, c.generation
	c.pending = withheld
	if len(kafka.OnTopics(assigned, c.topics)) != len(assigned) {
		c.changed()
		c.requestRejoin("its assignment does not match its subscription")
		return
	}
	if !c.eager {
		if revoked := kafka.MinusTPs(c.owned, assigned); len(revoked) > 0 {
			why := "the assignment moves them to another member; it rejoins so the follow-up rebalance can hand them over"
			if len(c.w.existing(revoked)) == 0 {
				why = "their topic no longer exists, so the assignment leaves them out; it rejoins, as after any revocation"
			}
			c.callback(kafka.KindPartitionsRevoked, revoked, why)
			c.rejoinNeeded = true
			c.rejoinReason = "it revoked partitions (cooperative follow-up)"
			gen := c.generation
			c.afterCallback(kafka.KindPartitionsRevoked, func() {
				c.giveUp(revoked)
				c.assignJoined(assigned, gen)
			})
			return
		}
	}
	c.assignJoined(assigned, c.generation)
}

// assignJoined is the rest of onJoinComplete: the assignment applied, then
// onPartitionsAssigned. A member whose generation was reset while a slow
// callback ran (an answer to its heartbeat) takes it as a zombie's: the
// next poll() reports it lost. So does one the coordinator removed after
// it had answered its SyncGroup (an administrator's LeaveGroup landing
// while the answer was on its way): the process applies the assignment
// and calls onPartitionsAssigned, as any successful SyncGroup makes it
// (SyncGroupResponseHandler), but the group no longer counts it; its next
// heartbeat gets UNKNOWN_MEMBER_ID and its next poll() onPartitionsLost
// (ConsumerCoordinator.onJoinPrepare with a reset generation).
func (c *client) assignJoined(assigned []kafka.TP, gen int32) {
	added := kafka.MinusTPs(assigned, c.owned)
	c.owned = assigned
	c.newlyAssigned = added
	// The step shows the member after the callback: consuming what it was
	// given, no longer revoking any of it, active unless a follow-up is due.
	if !c.rejoinNeeded {
		c.revoking = nil
	}
	c.revoking = kafka.MinusTPs(c.revoking, assigned)
	if c.generation != gen || !c.running || !c.w.heldByGroup(c) {
		c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
		c.owned = nil
	}
	c.setStatus(c.activeStatus())
	c.callback(kafka.KindPartitionsAssigned, added, "")
	c.afterCallback(kafka.KindPartitionsAssigned, c.poll)
}
