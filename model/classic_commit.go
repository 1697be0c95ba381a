package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
)

// commit sends an OffsetCommit with the member's generation (or the one the
// scenario gives, as a stale producer or cached metadata would).
func (c *client) commit(gen *int32) {
	if !c.running {
		c.w.record(kafka.KindCommitFailed, c.id, "", false, fmt.Sprintf("%s is not running: nothing commits.", c.id))
		return
	}
	if c.consumerProto {
		c.consumerCommit(gen)
		return
	}
	g := c.generation
	if gen == nil && (c.phase != phaseStable || c.generation < 0) {
		exc := "CommitFailedException: it is not part of an active group"
		if c.phase == phaseJoining || c.phase == phaseSyncing || c.rejoinNeeded {
			exc = "RebalanceInProgressException: it is rejoining the group"
		}
		c.w.record(kafka.KindCommitFailed, c.id, "", false, fmt.Sprintf("%s's commitSync fails at once without a request: %s.", c.id, exc))
		return
	}
	if gen != nil {
		g = *gen
	}
	id, inst := c.memberID, c.instance
	c.send(false, func() {
		errName := c.w.classicCommit(id, inst, g)
		c.w.record(kafka.KindOffsetCommitRequest, c.id, "", false, fmt.Sprintf("%s commits its offsets with generation %d.", c.id, g))
		c.reply(false, func() { c.onCommitResponse(errName, g) })
	}, func(e string) {
		c.w.record(kafka.KindOffsetCommitResponse, c.id, e, false, fmt.Sprintf("%s's commit fails with %s; it will retry after finding the coordinator.", c.id, e))
		c.coordinatorLost(c.afterRediscovery)
	})
}

func (c *client) onCommitResponse(errName string, gen int32) {
	switch errName {
	case "NONE":
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf("The coordinator stores %s's offsets.", c.id))
	case "REBALANCE_IN_PROGRESS":
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator rejects %s's commit: REBALANCE_IN_PROGRESS (RebalanceInProgressException); it must finish the rebalance first.", c.id))
	case "ILLEGAL_GENERATION", "UNKNOWN_MEMBER_ID":
		c.onFencedCommit(errName, gen)
	default:
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator rejects %s's commit with generation %d: %s (CommitFailedException). The records will be consumed again by the partitions' next owner.", c.id, gen, errName))
	}
}

// onFencedCommit is ConsumerCoordinator's OffsetCommitResponseHandler on
// ILLEGAL_GENERATION or UNKNOWN_MEMBER_ID: a member already rejoining
// with a newer generation than the commit's (PREPARING_REBALANCE) only
// gets RebalanceInProgressException; otherwise the application gets
// CommitFailedException and the consumer resets its generation
// (resetStateOnResponseError; the member id too for UNKNOWN_MEMBER_ID, not
// for ILLEGAL_GENERATION: it may still be valid) and rejoins at its next
// poll (requestRejoin), reporting what it held as lost. This holds
// whatever generation the rejected commit carried. kviz applies the reset
// to a Stable member; one between JoinGroup and SyncGroup only gets the
// exception.
func (c *client) onFencedCommit(errName string, gen int32) {
	if gen != c.generation && c.phase == phaseJoining {
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator rejects %s's commit with generation %d: %s. %s is already rejoining with a newer generation, so the application gets RebalanceInProgressException and nothing is reset.", c.id, gen, errName, c.id))
		return
	}
	if c.phase != phaseStable {
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator rejects %s's commit with generation %d: %s (CommitFailedException). The records will be consumed again by the partitions' next owner.", c.id, gen, errName))
		return
	}
	keep := "keeping its member id (it may still be valid)"
	if errName == "UNKNOWN_MEMBER_ID" {
		keep = "and its member id, which the coordinator no longer knows"
	}
	c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
		"The coordinator rejects %s's commit with generation %d: %s. The application gets CommitFailedException; the consumer resets its generation, %s, and rejoins at its next poll: its partitions are lost, and what it read since its last commit will be read again.", c.id, gen, errName, keep))
	if errName == "UNKNOWN_MEMBER_ID" {
		c.memberID = ""
		c.memberIDChanged()
	}
	c.resetGeneration(false)
	c.phase = phaseUnjoined
	c.requestRejoin("its commit was fenced")
}

// scheduleMetadataRefresh: the leader's next metadata refresh
// (metadata.max.age.ms after its start, and every period after).
func (c *client) scheduleMetadataRefresh() {
	if c.metaTimer != nil {
		return
	}
	now := c.w.clock.now
	next := c.startedAt + ((now-c.startedAt)/metadataMaxAge+1)*metadataMaxAge
	inc := c.inc
	c.metaTimer = c.w.clock.after(next-now, false, func() {
		c.metaTimer = nil
		if c.inc != inc || !c.isLeader {
			return
		}
		if c.assignTopicGen == c.w.topicGen {
			if c.racksMoved() {
				c.w.record(kafka.KindMetadataRefreshed, c.id, "", false, fmt.Sprintf(
					"%s (leader) refreshes its metadata (metadata.max.age.ms %d ms) and sees the racks of the group's partition replicas changed (a broker went down or came back; client.rack is set, so ConsumerCoordinator's MetadataSnapshot compares them): it rejoins to trigger a rebalance.", c.id, metadataMaxAge))
				c.requestRejoin("the leader saw the partitions' replica racks change")
			}
			return
		}
		if c.assignSubs != nil && !c.w.relevantSince(c.assignTopicGen, c.assignSubs) {
			return // topics created or deleted outside the group's subscription
		}
		if c.patternAt == c.w.clock.now && c.rejoinNeeded {
			return // the same refresh changed its pattern subscription: it rejoins already
		}
		what, why := "partition counts its assignment did not cover", "the leader saw new partitions"
		if t := c.w.lifecycleSince(c.assignTopicGen, c.assignSubs); t != "" {
			what, why = t, "the leader saw the group's topics change"
		}
		if c.assignTopicGen < 0 { // a given start whose assignment predates a topic's deletion (given.go)
			what, why = "that a topic its assignment covered no longer exists", "the leader saw a topic deleted"
		}
		c.w.record(kafka.KindMetadataRefreshed, c.id, "", false, fmt.Sprintf(
			"%s (leader) refreshes its metadata (metadata.max.age.ms %d ms) and sees %s: it rejoins to trigger a rebalance.", c.id, metadataMaxAge, what))
		c.requestRejoin(why)
	})
}

// joinPrepareCommit is the state of onJoinPrepare's auto-commit.
type joinPrepareCommit struct {
	pending, done bool
	deadline      int64 // joinPrepareTimer: the rebalance timeout from the first try
	started       bool
}

// joinPrepareCommit is ConsumerCoordinator.onJoinPrepare with auto-commit
// (the scenario's rejoin_commit_ms): before it revokes anything and sends
// JoinGroup, the member commits its positions and waits for the answer,
// which takes ms beyond the round trip. A retriable failure (the
// coordinator moved or is unavailable) is retried, after finding the
// coordinator, until the rebalance timeout from the first try (the
// joinPrepareTimer) has passed; any other answer lets it go on. It keeps
// heartbeating meanwhile: to AbstractCoordinator it is still STABLE.
func (c *client) joinPrepareCommit(ms int64) {
	p := &c.prepCommit
	if !p.started {
		p.started = true
		p.deadline = c.w.clock.now + c.maxPoll()
	}
	if c.w.clock.now >= p.deadline {
		c.w.record(kafka.KindCommitFailed, c.id, "", false, fmt.Sprintf(
			"%s's auto-commit before rejoining did not complete within the rebalance timeout (joinPrepare timeout): it goes on with the rebalance.", c.id))
		p.done = true
		c.poll()
		return
	}
	if c.coord < 0 {
		c.findCoordinator(c.joinGroup)
		return
	}
	p.pending = true
	id, inst, gen := c.memberID, c.instance, c.generation
	c.send(false, func() {
		errName := c.w.classicCommit(id, inst, gen)
		c.w.record(kafka.KindOffsetCommitRequest, c.id, "", false, fmt.Sprintf(
			"%s auto-commits its positions before it rejoins (onJoinPrepare, generation %d) and waits for the answer.", c.id, gen))
		inc := c.inc
		c.w.clock.after(ms+netMs, false, func() {
			if c.inc != inc || !c.running {
				return
			}
			p.pending = false
			switch errName {
			case "NONE":
				slow := ""
				if ms > 0 {
					slow = fmt.Sprintf(" after %d ms", ms)
				}
				c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
					"The coordinator stores %s's offsets%s; onJoinPrepare goes on to revoke and rejoin.", c.id, slow))
			case "NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE":
				c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
					"%s's auto-commit fails with %s (retriable): it finds the coordinator and commits again.", c.id, errName))
				c.coordinatorLost(c.joinGroup)
				return
			default:
				c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
					"The coordinator rejects %s's auto-commit with %s; onJoinPrepare goes on with the rebalance.", c.id, errName))
				switch errName {
				case "UNKNOWN_MEMBER_ID":
					c.resetGeneration(true)
				case "ILLEGAL_GENERATION":
					c.resetGeneration(false)
				}
			}
			p.done = true
			c.poll()
		})
	}, func(e string) {
		p.pending = false
		c.w.record(kafka.KindOffsetCommitResponse, c.id, e, false, fmt.Sprintf(
			"%s's auto-commit fails with %s (retriable): it finds the coordinator and commits again.", c.id, e))
		c.coordinatorLost(c.joinGroup)
	})
}

// classicCommit validates a classic member's OffsetCommit at whichever
// group the coordinator holds.
func (w *world) classicCommit(id, instance string, gen int32) string {
	if w.consumer {
		return w.consumerGroup.classicCommit(id, instance, gen)
	}
	return w.classic.handleCommit(id, instance, gen)
}
