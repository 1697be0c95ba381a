package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// disconnect cuts the consumer off from every broker for ms while its
// process runs (a network partition of one member, not of a broker): each
// request it sends fails as a disconnect (NETWORK_EXCEPTION), so it looks
// for the coordinator again and again, and keeps processing what it holds.
// The coordinator hears nothing: the member's session runs out and it is
// removed. When the link is back the member finds the coordinator and
// learns from its next answer what happened meanwhile (kviz's choice: a
// refused connection fails at once, where a silent drop would wait for
// request.timeout.ms).
func (c *client) disconnect(ms int64) {
	end := c.w.clock.now + ms
	if end <= c.cutUntil {
		c.w.record(kafka.KindNetworkCut, c.id, "", false, fmt.Sprintf("%s is already cut off until %d ms.", c.id, c.cutUntil))
		return
	}
	c.cutUntil = end
	c.w.record(kafka.KindNetworkCut, c.id, "", false, fmt.Sprintf(
		"%s loses its network link to the brokers for %d ms; its process keeps running and consuming what it holds. Its requests fail as disconnects.", c.id, ms))
	inc := c.inc
	c.w.clock.after(ms, false, func() {
		if c.inc != inc || c.w.clock.now < c.cutUntil {
			return
		}
		c.w.record(kafka.KindNetworkRestored, c.id, "", false, fmt.Sprintf("%s's network link is back.", c.id))
	})
}

// cutOff: its link to the brokers is down now.
func (c *client) cutOff() bool { return c.w.clock.now < c.cutUntil }

// unsentLeave tells of a member that closes while it cannot reach its
// coordinator (cut off, or looking for it): AbstractCoordinator.
// maybeLeaveGroup sends no LeaveGroup while the coordinator is unknown, and
// the KIP-848 consumer's leave heartbeat finds none before close() gives
// up. The process is gone all the same (not running). leave names what
// does not go out.
func (c *client) unsentLeave(leave, session string) string {
	why := "it does not know the coordinator (it is looking for it)"
	if c.cutOff() {
		why = "it is cut off from the brokers"
	}
	return fmt.Sprintf("%s closes; %s, so %s goes out: %s.", c.id, why, leave, c.unheardLeave(session, c.w.heldByGroup(c)))
}

// unheardLeave: the coordinator, which hears no leave, removes the member
// when its session expires, unless it holds it no more (an administrator,
// an expiry meanwhile).
func (c *client) unheardLeave(session string, held bool) string {
	if !held {
		return "the coordinator has removed it already"
	}
	return fmt.Sprintf("the coordinator removes it when %s (%d ms) passes", session, c.sessionTimeout())
}

// wakeup is KafkaConsumer.wakeup(): the poll() under way (or the next one)
// throws WakeupException. A JoinGroup or SyncGroup in flight stays so (the
// join future is kept), onJoinPrepare does not run again, and the next
// poll() carries the rebalance on (ConsumerCoordinatorTest.
// testWakeupDuringJoin); under KIP-848 the background thread goes on as
// before. The application catches it and polls again.
func (c *client) wakeup() {
	if !c.running {
		c.w.record(kafka.KindPollInterrupted, c.id, "", false, fmt.Sprintf("%s is not running; wakeup() does nothing.", c.id))
		return
	}
	what := "nothing changes"
	switch {
	case !c.consumerProto && c.phase == phaseJoining:
		what = "its JoinGroup stays in flight and the next poll() completes the rebalance without running onJoinPrepare again"
	case !c.consumerProto && c.phase == phaseSyncing:
		what = "its SyncGroup stays in flight and the next poll() completes the rebalance"
	case c.stalled:
		what = "it is not in poll(): the next poll() throws at once"
	}
	c.w.record(kafka.KindPollInterrupted, c.id, "", false, fmt.Sprintf(
		"wakeup(): %s's poll() throws WakeupException and the application polls again; %s.", c.id, what))
}

// restartAs bounces the process; with a protocol, as a rolling upgrade or
// downgrade does: it closes (onPartitionsRevoked, then LeaveGroup, or a
// consumer-protocol heartbeat at epoch -1, -2 when static) and starts again
// with group.protocol set to it.
func (c *client) restartAs(protocol string) {
	if protocol == "" {
		c.restart()
		return
	}
	if c.running {
		c.leave()
	}
	cfg := c.cfg
	cfg.Protocol = protocol
	strats := c.strategies
	if protocol == scenario.ProtocolConsumer {
		strats = nil
	} else if c.consumerProto {
		strats = nil // the classic client's default assignors
	}
	c.reset(c.instance, c.topics)
	c.configure(cfg)
	c.setStrategies(strats)
	c.start()
}
