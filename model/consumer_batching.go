package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
)

// deferTarget reports whether batching holds the next target back: the
// interval since the last computation has not passed. Kafka then answers
// the heartbeat with the last target (a joiner reconciles to it, at the
// assignment epoch, with nothing), and the first heartbeat of any member
// once the interval has passed computes the target: there is no timer
// (ConsumerGroupHeartbeatRequestTest, "Once the assignment interval has
// elapsed, a heartbeat of N computes the new target assignment"). The
// group is ASSIGNING meanwhile, so it is not settled and the run goes on
// to that heartbeat. A step tells of the wait once per group epoch.
func (g *consumerGroup) deferTarget() bool {
	if !g.targetWaits() {
		return false
	}
	interval := g.w.sc.AssignmentIntervalMs()
	due := g.lastTargetAt + interval
	if g.deferredEpoch != g.groupEpoch {
		g.deferredEpoch = g.groupEpoch
		g.w.record(kafka.KindRebalanceDelayed, "", "", false, fmt.Sprintf(
			"The last target was computed %d ms ago: under consumer.assignment.interval.ms (%d ms) the target for group epoch %d waits for the first heartbeat at or after %d ms; until then heartbeats get the target of epoch %d.",
			g.w.clock.now-g.lastTargetAt, interval, g.groupEpoch, due, g.assignEpoch))
	}
	return true
}

// targetWaits: the assignment interval since the last target has not
// passed (deferTarget, without telling).
func (g *consumerGroup) targetWaits() bool {
	interval := g.w.sc.AssignmentIntervalMs()
	return interval != 0 && g.lastTargetAt >= 0 && g.w.clock.now < g.lastTargetAt+interval
}

// heldOffSubscription: m, reconciled to the assignment epoch, still holds
// partitions of a topic it no longer subscribes to. Before 4.3 that cannot
// be: the subscription change bumps the group epoch and the same heartbeat
// computes a new target. With the target deferred the coordinator still
// takes them at once, against the old target: the member revokes them at
// its epoch (UNREVOKED_PARTITIONS) and stays at that epoch, STABLE, once
// it has (ConsumerGroupHeartbeatRequestTest
// testCommitAcceptedForPartitionRevokedOnUnsubscribe, interval 5000 ms).
func (g *consumerGroup) heldOffSubscription(m *kMember) bool {
	return g.w.sc.AssignmentIntervalMs() > 0 && !allOnTopics(m.assigned, m.topics)
}
