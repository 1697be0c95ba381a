package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// consumerClient is a consumer's side of the KIP-848 protocol
// (AbstractMembershipManager + ConsumerHeartbeatRequestManager).
type consumerClient struct {
	c            *client
	epoch        int32
	state        kafka.MemberState // the coordinator's view of the member, shown in the lab
	assigned     []kafka.TP        // the last assignment the coordinator sent
	sentTopics   []string
	sentRegex    string // the SubscribedTopicRegex the coordinator has (pattern_regex.go)
	joined       bool
	inflight     bool
	reconcileDue bool // an assignment arrived while poll() was not running
	// ackDue: the member reconciled (ACKNOWLEDGING) and heartbeats as soon
	// as no heartbeat is in flight (AbstractMembershipManager.shouldHeartbeatNow).
	ackDue bool
	// timerDue: the heartbeat timer expired while a heartbeat was in flight.
	timerDue bool
	// lostDue: fenced while poll() was not running, it releases its
	// partitions (onPartitionsLost, on the application thread) and rejoins
	// at its next poll().
	lostDue bool
	// left counts the times it left the group (a poll timeout): an answer
	// to a heartbeat sent before is ignored, as onHeartbeatSuccess ignores
	// answers to a member not in the group.
	left int
	// intervalMs is the heartbeat interval the coordinator gave; 0 until its
	// first answer, as HeartbeatRequestState starts.
	intervalMs int64
	// hbTimer is the heartbeat timer: one event, re-armed (clock.again) on
	// every send, answer and acknowledgement.
	hbTimer *event
}

func newKipClient(c *client) *consumerClient {
	k := &consumerClient{c: c}
	inc := c.inc // a consumerClient lives one incarnation of its process (reset drops it)
	k.hbTimer = &event{routine: true, index: -1, run: func() {
		if c.inc != inc {
			return
		}
		if k.inflight {
			k.timerDue = true
			return
		}
		c.consumerHeartbeat()
	}}
	return k
}

func (k *consumerClient) stop() { k.c.w.clock.cancel(k.hbTimer) }

// settled: the member holds what the coordinator last gave it, STABLE, and
// the coordinator has its subscription. A heartbeat in flight (a routine
// one, or the acknowledgement of what it holds) cannot change that while
// the coordinator's side is settled too, so it does not keep the run going.
func (k *consumerClient) settled() bool {
	return k.joined && !k.reconcileDue && k.state == kafka.MStable && (sameSlice(k.assigned, k.c.owned) || slices.Equal(k.assigned, k.c.owned)) &&
		sameNames(k.sentTopics, k.c.topics) && k.sentRegex == k.c.regex()
}

func (k *consumerClient) pendingView() []kafka.TP {
	if k.state == kafka.MUnreleased && k.c.w.consumer {
		return kafka.MinusTPs(k.c.w.consumerGroup.target[k.c.memberID], k.assigned)
	}
	return nil
}

// consumerPoll runs what needs the application thread: joining, reconciling.
func (c *client) consumerPoll() {
	if c.consumer == nil {
		c.consumer = newKipClient(c)
		c.memberID = c.w.newMemberID(c.id) // KIP-1082: the client makes its own member id
		c.changed()
	}
	k := c.consumer
	if c.pollTimedOut {
		c.pollTimedOut = false
		k.joined, k.epoch = false, joinEpoch
		if !c.consumerLose("it left the group when its poll timed out", c.poll) {
			return
		}
	}
	if k.lostDue {
		k.lostDue = false
		if !c.consumerLose("it was fenced", c.poll) {
			return
		}
	}
	if k.reconcileDue {
		c.consumerReconcile()
	}
	c.rejoinNeeded = false
	if !k.joined && !k.inflight {
		c.consumerHeartbeat()
	}
}

// consumerScheduleHeartbeat sets the heartbeat timer to fire after delay: 0 for
// a heartbeat now (joining, acknowledging, rejoining after a fence), the
// interval after a send. A timer that fires while a heartbeat is in flight
// waits for its answer, as canSendRequest does.
func (c *client) consumerScheduleHeartbeat(delay int64) {
	c.w.clock.again(c.consumer.hbTimer, delay)
}

// consumerResetTimer restarts the heartbeat interval now: Kafka resets the timer
// when a heartbeat is sent (AbstractHeartbeatRequestManager.makeHeartbeatRequest),
// so routine heartbeats are an interval apart send to send. With no
// interval yet (before the first answer) there is nothing to wait for.
func (c *client) consumerResetTimer() {
	k := c.consumer
	if k.intervalMs > 0 {
		c.consumerScheduleHeartbeat(k.intervalMs)
	} else {
		c.w.clock.cancel(k.hbTimer)
	}
}

// consumerHeartbeat sends a ConsumerGroupHeartbeat.
func (c *client) consumerHeartbeat() {
	k := c.consumer
	if !c.running || k.inflight || k.lostDue {
		// A fenced member heartbeats again only once onPartitionsLost has
		// run (testFencedMemberStopHeartbeatUntilItReleasesAssignmentToRejoin).
		return
	}
	if c.coord < 0 {
		c.findCoordinator(c.consumerHeartbeat)
		return
	}
	req := kRequest{memberID: c.memberID, instance: c.instance, epoch: k.epoch, owned: c.owned, rebalanceTimeout: c.maxPoll()}
	// A heartbeat at epoch 0 is a join, which carries every field (the
	// coordinator refuses one without its subscription: GroupMetadataManager.
	// throwIfConsumerGroupHeartbeatRequestIsInvalid), even from a member a
	// conversion at generation 0 left at epoch 0.
	full := !k.joined || k.epoch == joinEpoch
	if full || !sameNames(k.sentTopics, c.topics) {
		req.topics = c.topics
	}
	if rx := c.regex(); full || rx != k.sentRegex {
		req.regex = &rx
	}
	k.inflight = true
	k.ackDue, k.timerDue = false, false
	c.consumerResetTimer()
	joining, left := !k.joined, k.left
	c.send(!joining, func() {
		r, routine := c.w.consumerHeartbeat(c, req)
		c.reply(routine, func() {
			if k.left == left {
				c.consumerResponse(req, r, routine)
			}
		})
	}, func(e string) {
		k.inflight = false
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, e, false, fmt.Sprintf("%s's heartbeat fails with %s: it looks for the coordinator again.", c.id, e))
		c.coordinatorLost(c.consumerHeartbeat)
	})
}

func (c *client) consumerResponse(req kRequest, r kResponse, routine bool) {
	k := c.consumer
	k.inflight = false
	switch r.err {
	case "NONE":
	case "FENCED_MEMBER_EPOCH", "UNKNOWN_MEMBER_ID":
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf(
			"The coordinator answers %s with %s: it gives up its partitions as lost and rejoins with epoch 0.", c.id, r.err))
		k.joined, k.epoch, k.assigned, k.state = false, joinEpoch, nil, ""
		c.setStatus(kafka.StatusRejoining)
		if c.stalled && len(kafka.UnionTPs(c.owned, c.heldLost)) > 0 {
			// It heartbeats again only once the callback has run
			// (ConsumerHeartbeatRequestManagerTest.testFencedMemberStopHeartbeatUntilItReleasesAssignmentToRejoin).
			k.lostDue = true
			return
		}
		if c.consumerLose("it was fenced", func() { c.consumerScheduleHeartbeat(0) }) {
			c.consumerScheduleHeartbeat(0)
		}
		return
	case "GROUP_MAX_SIZE_REACHED", "GROUP_ID_NOT_FOUND", "INCONSISTENT_GROUP_PROTOCOL":
		// Fatal (AbstractHeartbeatRequestManager.onErrorResponse).
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf(
			"The coordinator answers %s with %s%s. The consumer fails (fatal).", c.id, r.err, r.why))
		return
	case "UNRELEASED_INSTANCE_ID":
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf(
			"The coordinator answers %s with UNRELEASED_INSTANCE_ID: group.instance.id %s still belongs to an active member. The consumer fails (fatal).", c.id, c.instance))
		return
	default:
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf("%s's heartbeat fails with %s.", c.id, r.err))
		c.coordinatorLost(c.consumerHeartbeat)
		return
	}
	if req.epoch == leaveEpoch || req.epoch == staticLeaveEpoch {
		return
	}
	if req.topics != nil {
		k.sentTopics = req.topics
	}
	if req.regex != nil {
		k.sentRegex = *req.regex
	}
	// The answer carries an assignment to a full request (a join) or when
	// the member's assignment changed (GroupMetadataManager.consumerGroupHeartbeat).
	// After a join the client holds no target (LocalAssignment.NONE), so
	// even an empty one is reconciled: onPartitionsAssigned([]), then an
	// acknowledging heartbeat (ConsumerMembershipManagerTest.
	// testMemberJoiningCallsRebalanceListenerWhenReceivingEmptyAssignment).
	full := req.epoch == joinEpoch
	news := full || !slices.Equal(k.assigned, r.assigned)
	changed := !k.joined || k.epoch != r.epoch || news || k.state != r.memberState
	k.joined, k.epoch, k.state = true, r.epoch, r.memberState
	k.assigned = r.assigned
	if changed { // a routine answer leaves the view (and the snapshot) as it was
		c.changed()
	}
	id, epoch, state, assigned := c.id, r.epoch, r.memberState, listText(&c.assignedFmt, r.assigned)
	c.w.recordLazy(kafka.KindConsumerGroupHeartbeatResponse, c.id, "NONE", routine && !changed, func() string {
		return fmt.Sprintf("The coordinator answers %s: member epoch %d, %s, assignment %s.", id, epoch, state, assigned)
	})
	if hb := c.heartbeatInterval(); k.intervalMs != hb {
		// The first answer sets the interval and restarts the timer from
		// now (HeartbeatRequestState.updateHeartbeatIntervalMs).
		k.intervalMs = hb
		c.consumerResetTimer()
	}
	switch {
	case news && (full || !slices.Equal(k.assigned, c.owned)):
		k.reconcileDue = true
		if !c.stalled {
			c.consumerReconcile()
			return
		}
	case news:
		// A new assignment that is what it already holds: acknowledged
		// without callbacks (AbstractMembershipManager.maybeReconcile).
		k.ackDue = true
	}
	c.setStatus(c.consumerStatus())
	if k.ackDue || k.timerDue {
		c.consumerScheduleHeartbeat(0)
	}
}

// consumerLose gives up everything it holds, a zombie's partitions the
// coordinator already took away included, with onPartitionsLost. It
// reports false when the callback takes time: then runs when it returns.
func (c *client) consumerLose(why string, then func()) bool {
	lost := kafka.UnionTPs(c.owned, c.heldLost)
	if len(lost) == 0 {
		return true
	}
	c.heldLost = nil
	c.callback(kafka.KindPartitionsLost, lost, why)
	if c.listenerMs(kafka.KindPartitionsLost) == 0 {
		c.giveUp(lost)
		c.callbackDone(kafka.KindPartitionsLost)
		return true
	}
	c.afterCallback(kafka.KindPartitionsLost, func() {
		c.giveUp(lost)
		c.heldLost = kafka.MinusTPs(c.heldLost, lost)
		then()
	})
	return false
}

// consumerReconcile revokes first, then assigns, then acknowledges at once with
// a heartbeat (AbstractMembershipManager.revokeAndAssign). A slow
// onPartitionsRevoked keeps the partitions until it returns: the heartbeats
// meanwhile still report them, so the member stays UNREVOKED_PARTITIONS and
// its rebalance timeout may fence it.
func (c *client) consumerReconcile() {
	k := c.consumer
	k.reconcileDue = false
	// What the process holds: a zombie's partitions too (the coordinator
	// removed it and it has not heard yet: world.orphan).
	held := kafka.UnionTPs(c.owned, c.heldLost)
	revoke := kafka.MinusTPs(held, k.assigned)
	if len(revoke) > 0 {
		c.callback(kafka.KindPartitionsRevoked, revoke, "the new target moves them away")
		c.afterCallback(kafka.KindPartitionsRevoked, func() {
			c.giveUp(revoke)
			c.heldLost = kafka.MinusTPs(c.heldLost, revoke)
			c.consumerAssign()
		})
		return
	}
	c.consumerAssign()
}

// consumerAssign is the second half of revokeAndAssign: the assignment the
// member was last given is applied, onPartitionsAssigned runs, and the
// member acknowledges.
func (c *client) consumerAssign() {
	k := c.consumer
	if k == nil || !c.running {
		return
	}
	if !k.joined {
		// Fenced while onPartitionsRevoked ran: nothing to assign; the
		// next poll() reports the rest lost and rejoins.
		c.poll()
		return
	}
	held := kafka.UnionTPs(c.owned, c.heldLost)
	added := kafka.MinusTPs(k.assigned, held)
	c.owned = k.assigned
	c.heldLost = kafka.MinusTPs(c.heldLost, k.assigned)
	if !c.w.heldByGroup(c) {
		// It takes what it was last given, as a zombie: the group does
		// not count it.
		c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
		c.owned = nil
	}
	c.newlyAssigned = added
	// The step shows the member after the callback (see onJoinComplete).
	c.revoking = nil
	c.setStatus(c.consumerStatus())
	c.callback(kafka.KindPartitionsAssigned, added, "")
	c.afterCallback(kafka.KindPartitionsAssigned, func() {
		k.ackDue = true
		if !k.inflight {
			c.consumerScheduleHeartbeat(0)
		}
	})
}

func (c *client) consumerStatus() kafka.MemberStatus {
	switch {
	case c.stalled:
		return kafka.StatusStalled
	case !c.consumer.joined:
		return kafka.StatusJoining
	case c.consumer.state == kafka.MStable && slices.Equal(c.consumer.assigned, c.owned):
		return kafka.StatusActive
	default:
		return kafka.StatusRejoining
	}
}

// consumerPollExpired: the member leaves (epoch -1, or -2 when static) and its
// partitions are lost when poll() returns.
func (c *client) consumerPollExpired() {
	k := c.consumer
	c.pollTimedOut = true
	c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
	c.owned = nil
	c.changed()
	epoch := leaveEpoch
	if c.instance != "" {
		epoch = staticLeaveEpoch
	}
	c.w.record(kafka.KindPollTimeout, c.id, "", false, fmt.Sprintf(
		"%s has not polled for max.poll.interval.ms (%d ms): it leaves the group with epoch %d. Its partitions are lost (onPartitionsLost when poll() returns).",
		c.id, c.maxPoll(), epoch))
	c.w.clock.cancel(k.hbTimer)
	k.inflight, k.reconcileDue, k.assigned, k.state = false, false, nil, ""
	k.left++
	c.consumerSendLeave(epoch, false)
	k.joined = false
}

// consumerSendLeave sends the leave heartbeat; closing says the process
// stops with it (close()), not only its membership (a poll timeout, after
// which the process polls again and rejoins).
func (c *client) consumerSendLeave(epoch int32, closing bool) bool {
	req := kRequest{memberID: c.memberID, instance: c.instance, epoch: epoch}
	coord := c.coord // the process may be gone (or restarted) when it arrives
	if coord < 0 || c.cutOff() {
		return false
	}
	c.w.clock.after(netMs, false, func() {
		if c.w.cluster.coordinator() == coord && c.w.cluster.up[coord] {
			c.w.consumerHeartbeat(c, req)
			return
		}
		// The coordinator moved (or its broker failed) on the way: the
		// closing consumer does not wait to look for the new one, and a
		// member whose poll timed out is stale until its next poll()
		// (ConsumerMembershipManager.transitionToStale), the process
		// still running.
		held := c.w.consumer && c.w.consumerGroup.members[req.memberID] != nil
		text := fmt.Sprintf("%s's leave heartbeat (member epoch %d) does not reach the coordinator (it moved): %s", c.id, epoch, c.unheardLeave(consumerSessionSetting, held))
		if closing {
			c.w.record(kafka.KindMemberStopped, c.id, "", false, text+".")
			return
		}
		errName := "NOT_COORDINATOR"
		if !c.w.cluster.up[coord] {
			errName = "NETWORK_EXCEPTION"
		}
		c.w.record(kafka.KindConsumerGroupHeartbeatResponse, c.id, errName, false, text+"; it rejoins when it polls again.")
	})
	return true
}

// consumerSessionSetting names the KIP-848 session timeout (the broker's).
const consumerSessionSetting = "group.consumer.session.timeout.ms"

// consumerLeave: close() revokes what it owns, then leaves with epoch -1 (-2 static).
//
// What it releases is all the process holds (SubscriptionState's assigned
// partitions), a zombie's too: onPartitionsRevoked while its member epoch
// is positive, onPartitionsLost once it is not (ConsumerMembershipManager.
// invokeOnPartitionsRevokedOrLostToReleaseAssignment).
func (c *client) consumerLeave() {
	if held := kafka.UnionTPs(c.owned, c.heldLost); len(held) > 0 {
		if c.consumer != nil && c.consumer.joined && c.consumer.epoch > 0 {
			c.callback(kafka.KindPartitionsRevoked, held, "it is closing")
		} else {
			c.callback(kafka.KindPartitionsLost, held, "it is closing with no member epoch (fenced, or its poll timed out): they may be another's already")
		}
	}
	epoch := leaveEpoch
	if c.instance != "" {
		epoch = staticLeaveEpoch
	}
	joined := c.consumer != nil && c.consumer.joined
	text := fmt.Sprintf("%s closes before it has joined the group: there is nothing to leave.", c.id)
	if joined {
		if c.consumerSendLeave(epoch, true) {
			text = "" // the leave heartbeat's own step tells of it
		} else {
			text = c.unsentLeave(fmt.Sprintf("no leave heartbeat (member epoch %d)", epoch), consumerSessionSetting)
		}
	}
	c.stop(kafka.StatusLeft)
	if text != "" {
		c.w.record(kafka.KindMemberStopped, c.id, "", false, text)
	}
}

// consumerCommit: OffsetCommit carries the member epoch; a stale one gets
// STALE_MEMBER_EPOCH.
func (c *client) consumerCommit(gen *int32) {
	if c.consumer == nil || !c.consumer.joined {
		c.w.record(kafka.KindCommitFailed, c.id, "", false, fmt.Sprintf("%s has not joined yet: commitSync fails (CommitFailedException).", c.id))
		return
	}
	epoch := c.consumer.epoch
	if gen != nil {
		epoch = *gen
	}
	id, tps := c.memberID, c.owned
	c.send(false, func() {
		errName, why := c.w.consumerCommit(id, epoch, tps) // consumer_commit.go
		c.w.record(kafka.KindOffsetCommitRequest, c.id, "", false, fmt.Sprintf("%s commits its offsets with member epoch %d.", c.id, epoch))
		c.reply(false, func() {
			text := fmt.Sprintf("The coordinator stores %s's offsets%s.", c.id, why)
			if errName != "NONE" {
				text = fmt.Sprintf("The coordinator rejects %s's commit with member epoch %d: %s%s.", c.id, epoch, errName, why)
			}
			c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, text)
		})
	}, func(e string) {
		c.w.record(kafka.KindOffsetCommitResponse, c.id, e, false, fmt.Sprintf("%s's commit fails with %s.", c.id, e))
		c.coordinatorLost(c.consumerHeartbeat)
	})
}

// sameNames is slices.Equal, at once for the very same list: a member's
// subscription is one list shared by the client, its requests and the
// coordinator's record, and comparing a thousand names every heartbeat of
// 10,000 members was a tenth of a run.
func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
}
