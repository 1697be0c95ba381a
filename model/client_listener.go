package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A rebalance listener that takes time or throws (scenario.Listener).
//
// A callback runs on the application thread, inside poll(): while it runs
// the consumer does not poll, but its heartbeat thread goes on (classic:
// the member is still STABLE to AbstractCoordinator, so it heartbeats and
// hears REBALANCE_IN_PROGRESS; KIP-848: the background thread heartbeats,
// reporting what it still owns). The poll timer runs: a callback longer
// than max.poll.interval.ms makes the member leave (a dynamic one) or go
// silent (a static one), as a stalled poll() does. A revocation is done
// only when onPartitionsRevoked returns: the member holds the partitions
// until then, and a classic member sends its JoinGroup only then, so a
// slow onPartitionsRevoked can miss the rebalance timeout.
//
// A callback that throws still completes the rebalance step
// (ConsumerRebalanceListenerInvoker catches it; ConsumerCoordinator
// rethrows it as KafkaException "User rebalance callback throws an error"
// once the step is done): poll() throws, and kviz's application catches it
// and polls again.

// listenerName is the scenario's name for the callback of kind.
func listenerName(kind kafka.StepKind) string {
	switch kind {
	case kafka.KindPartitionsRevoked:
		return scenario.CallbackRevoked
	case kafka.KindPartitionsAssigned:
		return scenario.CallbackAssigned
	case kafka.KindPartitionsLost:
		return scenario.CallbackLost
	}
	return ""
}

// listenerMs is how long c's callback of kind runs.
func (c *client) listenerMs(kind kafka.StepKind) int64 {
	return c.cfg.Listener.Ms(listenerName(kind))
}

// afterCallback runs then once the callback of kind, just recorded, has
// returned: at once, or after the listener's ms, the application thread
// busy meanwhile.
func (c *client) afterCallback(kind kafka.StepKind, then func()) {
	ms := c.listenerMs(kind)
	if ms == 0 {
		c.callbackDone(kind)
		then()
		return
	}
	c.w.clock.cancel(c.stallEnd)
	c.w.clock.cancel(c.pollTimer)
	c.stalled = true
	c.setStatus(kafka.StatusStalled)
	note := "its heartbeat thread goes on"
	if maxPoll := c.maxPoll(); ms > maxPoll {
		note = fmt.Sprintf("longer than max.poll.interval.ms (%d ms): the poll timer will expire", maxPoll)
		c.pollTimer = c.w.clock.after(maxPoll, false, c.pollExpired)
	}
	c.w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf(
		"%s's %s runs for %d ms: the application thread is inside the callback and does not poll; %s.", c.id, kind.ListenerMethod(), ms, note))
	inc := c.inc
	c.stallEnd = c.w.clock.after(ms, false, func() {
		if c.inc != inc {
			return
		}
		c.stallEnd = nil
		c.w.clock.cancel(c.pollTimer)
		c.pollTimer = nil
		c.stalled = false
		c.setStatus(c.activeStatus())
		c.w.record(kafka.KindCallbackReturned, c.id, "", false, fmt.Sprintf("%s's %s returns after %d ms.", c.id, kind.ListenerMethod(), ms))
		if c.pollTimedOut && !c.consumerProto {
			c.pollTimedOut = false
			c.rejoinNeeded = true
			c.rejoinReason = "its poll timed out"
		}
		c.callbackDone(kind)
		then()
	})
}

// callbackDone tells of a callback that threw.
func (c *client) callbackDone(kind kafka.StepKind) {
	if !c.cfg.Listener.Throw(listenerName(kind)) {
		return
	}
	c.w.record(kafka.KindPollInterrupted, c.id, "", false, fmt.Sprintf(
		"%s's %s throws: the rebalance step completes all the same, then poll() throws KafkaException (\"User rebalance callback throws an error\"); the application catches it and polls again.",
		c.id, kind.ListenerMethod()))
}
