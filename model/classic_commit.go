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
	if c.w.consumer {
		c.kipCommit(gen)
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
		errName := c.w.classic.handleCommit(id, inst, g)
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
	default:
		c.w.record(kafka.KindOffsetCommitResponse, c.id, errName, false, fmt.Sprintf(
			"The coordinator rejects %s's commit with generation %d: %s (CommitFailedException). The records will be consumed again by the partitions' next owner.", c.id, gen, errName))
		if gen == c.generation && c.phase == phaseStable {
			if errName == "UNKNOWN_MEMBER_ID" {
				c.memberID = ""
			}
			c.resetGeneration(false)
			c.phase = phaseUnjoined
			c.requestRejoin("its commit was fenced")
		}
	}
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
		if c.inc != inc || !c.isLeader || c.assignTopicGen == c.w.topicGen {
			return
		}
		what, why := "partition counts its assignment did not cover", "the leader saw new partitions"
		if c.assignTopicGen < 0 { // a given start whose assignment predates a topic's deletion (given.go)
			what, why = "that a topic its assignment covered no longer exists", "the leader saw a topic deleted"
		}
		c.w.record(kafka.KindMetadataRefreshed, c.id, "", false, fmt.Sprintf(
			"%s (leader) refreshes its metadata (metadata.max.age.ms %d ms) and sees %s: it rejoins to trigger a rebalance.", c.id, metadataMaxAge, what))
		c.requestRejoin(why)
	})
}
