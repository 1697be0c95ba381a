package model

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// startHeartbeats runs the heartbeat thread from the JoinGroup response on.
func (c *client) startHeartbeats() {
	c.w.clock.cancel(c.hbTimer)
	inc := c.inc
	c.hbTimer = c.w.clock.after(c.heartbeatInterval(), true, func() {
		if c.inc == inc {
			c.heartbeat()
		}
	})
}

func (c *client) heartbeat() {
	c.hbTimer = nil
	if !c.running || c.pollTimedOut || (c.phase != phaseStable && c.phase != phaseSyncing) {
		return
	}
	if c.coord < 0 {
		c.findCoordinator(c.afterRediscovery)
		return
	}
	id, inst, gen := c.memberID, c.instance, c.generation
	c.send(true, func() {
		errName := c.w.heartbeatRequest(id, inst, gen)
		routine := errName == "NONE"
		client := c.id
		c.w.recordLazy(kafka.KindHeartbeatRequest, c.id, "", routine, func() string {
			return fmt.Sprintf("%s sends a heartbeat (generation %d).", client, gen)
		})
		c.reply(routine, func() {
			if c.memberID != id || c.generation != gen {
				c.staleHeartbeatAnswer(errName, gen)
				return
			}
			c.onHeartbeatResponse(errName)
		})
	}, func(e string) {
		c.w.record(kafka.KindHeartbeatResponse, c.id, e, false, fmt.Sprintf("%s's heartbeat fails with %s: it looks for the coordinator again.", c.id, e))
		c.coordinatorLost(c.afterRediscovery)
	})
	c.startHeartbeats()
}

// afterRediscovery resumes after FindCoordinator: rejoin if needed, else keep heartbeating.
func (c *client) afterRediscovery() {
	if c.phase == phaseStable {
		// The heartbeat thread carries on; a pending rejoin waits for poll().
		c.startHeartbeats()
		c.poll()
		return
	}
	c.phase = phaseUnjoined
	c.rejoinNeeded = true
	c.poll()
}

// staleHeartbeatAnswer: the answer to a heartbeat sent with a generation
// (or member id) the member has since left behind. ILLEGAL_GENERATION,
// UNKNOWN_MEMBER_ID and FENCED_INSTANCE_ID are ignored then
// (HeartbeatResponseHandler: generationUnchanged), REBALANCE_IN_PROGRESS
// outside STABLE too; the others are handled as ever.
func (c *client) staleHeartbeatAnswer(errName string, sent int32) {
	switch errName {
	case "ILLEGAL_GENERATION", "UNKNOWN_MEMBER_ID", "FENCED_INSTANCE_ID":
		c.w.record(kafka.KindHeartbeatResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator answers %s's heartbeat of generation %d with %s; it has moved on since (generation %d), so it ignores the answer.", c.id, sent, errName, c.generation))
		return
	}
	c.onHeartbeatResponse(errName)
}

func (c *client) onHeartbeatResponse(errName string) {
	switch errName {
	case "NONE":
		client := c.id
		c.w.recordLazy(kafka.KindHeartbeatResponse, c.id, errName, true, func() string {
			return "The coordinator answers " + client + "'s heartbeat: NONE."
		})
		return
	case "REBALANCE_IN_PROGRESS":
		c.w.record(kafka.KindHeartbeatResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator answers %s's heartbeat with REBALANCE_IN_PROGRESS: it must rejoin.", c.id))
		if c.phase == phaseStable {
			c.requestRejoin("the group is rebalancing")
		}
		return
	case "ILLEGAL_GENERATION":
		c.resetGeneration(false)
	case "UNKNOWN_MEMBER_ID":
		c.resetGeneration(true)
	case "FENCED_INSTANCE_ID":
		c.stop(kafka.StatusFenced)
		c.w.record(kafka.KindHeartbeatResponse, c.id, errName, false, fmt.Sprintf("%s is fenced: another process uses group.instance.id %s. It stops.", c.id, c.instance))
		return
	}
	c.w.record(kafka.KindHeartbeatResponse, c.id, errName, false, fmt.Sprintf(
		"The coordinator answers %s's heartbeat with %s: it resets and rejoins.", c.id, errName))
	c.phase = phaseUnjoined
	c.changed()
	c.requestRejoin(strings.ToLower(errName))
}

// pollExpired: poll() was not called within max.poll.interval.ms
// (AbstractCoordinator.handlePollTimeoutExpiry). A dynamic member leaves the
// group; a static one just goes silent. Both reset their generation.
func (c *client) pollExpired() {
	c.pollTimer = nil
	if c.consumerProto {
		c.consumerPollExpired()
		return
	}
	c.pollTimedOut = true
	c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
	c.owned = nil
	c.changed()
	id, inst, wasMember := c.memberID, c.instance, c.memberID != "" && c.coord >= 0
	c.memberID, c.generation, c.phase = "", -1, phaseUnjoined
	c.memberIDChanged()
	c.needsJoinPrepare = true // resetGenerationOnLeaveGroup
	c.w.clock.cancel(c.hbTimer)
	c.hbTimer = nil
	if inst != "" {
		c.w.record(kafka.KindPollTimeout, c.id, "", false, fmt.Sprintf(
			"%s has not polled for max.poll.interval.ms (%d ms). A static member sends no LeaveGroup: it stops heartbeating and the coordinator removes it after session.timeout.ms. Its partitions are lost (onPartitionsLost when poll() returns).",
			c.id, c.maxPoll()))
		return
	}
	c.w.record(kafka.KindPollTimeout, c.id, "", false, fmt.Sprintf(
		"%s has not polled for max.poll.interval.ms (%d ms): the heartbeat thread sends LeaveGroup and resets the generation. Its partitions are lost (onPartitionsLost when poll() returns).",
		c.id, c.maxPoll()))
	if wasMember {
		c.send(false, func() { c.w.leaveRequest(c, id) }, func(string) {})
	}
}

// leave is a graceful close (onLeavePrepare, then LeaveGroup if dynamic).
func (c *client) leave() {
	if !c.running {
		c.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf("%s is not running.", c.id))
		return
	}
	if c.consumerProto {
		c.consumerLeave()
		return
	}
	held := kafka.UnionTPs(c.owned, c.heldLost)
	if len(held) > 0 {
		if c.generation < 0 || c.phase != phaseStable || c.rejoinNeeded {
			c.callback(kafka.KindPartitionsLost, held, "it is closing during a rebalance (or with a reset generation)")
		} else {
			c.callback(kafka.KindPartitionsRevoked, held, "it is closing")
		}
	}
	id, dynamic := c.memberID, c.instance == "" && c.memberID != "" && c.coord >= 0
	if c.instance == "" && !dynamic {
		text := fmt.Sprintf("%s closes before it is a member of the group: there is nothing to leave.", c.id)
		if c.memberID != "" {
			text = c.unsentLeave("no LeaveGroup", "session.timeout.ms")
		}
		c.stop(kafka.StatusLeft)
		c.w.record(kafka.KindMemberStopped, c.id, "", false, text)
		return
	}
	if !dynamic {
		text := fmt.Sprintf("%s closes. Static members send no LeaveGroup: the coordinator keeps its place until session.timeout.ms (%d ms) passes.", c.id, c.sessionTimeout())
		if c.memberID != "" && !c.w.heldByGroup(c) {
			text = fmt.Sprintf("%s closes. Static members send no LeaveGroup; the coordinator has removed it already.", c.id)
		}
		c.stop(kafka.StatusLeft)
		c.w.record(kafka.KindMemberStopped, c.id, "", false, text)
		return
	}
	c.sendLeave(id)
	c.stop(kafka.StatusLeft)
	c.w.record(kafka.KindMemberStopped, c.id, "", false, fmt.Sprintf("%s closes and sends LeaveGroup.", c.id))
}

// sendLeave delivers a LeaveGroup; the closing consumer does not wait for
// the answer, so a coordinator that moved just never sees it.
func (c *client) sendLeave(id string) {
	coord := c.coord
	c.w.clock.after(netMs, false, func() {
		if c.w.cluster.coordinator() == coord && coord >= 0 && c.w.cluster.up[coord] && !c.cutOff() {
			c.w.leaveRequest(c, id)
			return
		}
		why := "it moved"
		if c.cutOff() {
			why = "it is cut off from the brokers"
		}
		c.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf(
			"%s's LeaveGroup does not reach the coordinator (%s); the coordinator will notice by session expiry.", c.id, why))
	})
}

// resetGeneration forgets the generation (and member id) after an error.
// What the member held is no longer validly its own: it stops counting as
// consumed now, and onPartitionsLost reports it at the next poll().
//
// Kafka's resetStateAndRejoin also asks for onJoinPrepare before the next
// JoinGroup (needsJoinPrepare), so a member that learns of the reset from
// a JoinGroup or SyncGroup answer reports what it held as lost there.
func (c *client) resetGeneration(memberID bool) {
	c.generation = -1
	c.needsJoinPrepare = true
	if memberID {
		c.memberID = ""
		c.memberIDChanged()
	}
	if len(c.owned) > 0 {
		c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
		c.revoking = c.heldLost
		c.owned = nil
	}
	c.changed()
}
