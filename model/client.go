package model

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// Client phases (AbstractCoordinator.MemberState, simplified).
const (
	phaseUnjoined = "unjoined"
	phaseJoining  = "joining" // JoinGroup sent
	phaseSyncing  = "syncing" // SyncGroup sent
	phaseStable   = "stable"
)

// client is one consumer process: its configuration, what it believes about
// the group, and the partitions it consumes.
type client struct {
	w             *world
	id, instance  string
	topics        []string
	inc           int // incarnation: bumps on crash/leave so late responses are dropped
	running       bool
	status        kafka.MemberStatus
	startedAt     int64
	metaFetchedAt int64 // its last metadata fetch outside the periodic refresh (classic_metadata.go)

	coord        int // known coordinator broker; -1 = unknown
	findingCoord bool
	findBackoff  int64
	findRepeat   bool // the last FindCoordinator retry already waited retryMaxMs
	// ownedFmt is the text of the owned list a heartbeat last named,
	// assignedFmt of the assignment an answer last named (listText).
	ownedFmt, assignedFmt *tpsText

	memberID         string
	generation       int32
	phase            string
	needsJoinPrepare bool
	rejoinNeeded     bool
	rejoinReason     string
	isLeader         bool
	assignTopicGen   int // the leader's metadata at its last assignment
	// assignSubs: the group's subscription at its last assignment, kept
	// when the timeline creates or deletes topics (pattern.go)
	assignSubs map[string]bool
	// assignRacks: the replicas' racks the leader's last assignment saw
	// (rackSnapshot, over assignRackSubs), "" when racks are not compared.
	assignRacks    string
	assignRackSubs map[string]bool

	owned           []kafka.TP
	lastAssigned    []kafka.TP // sticky's userData: previous assignment
	lastAssignedGen int32

	stalled      bool
	stallEnd     *event
	pollTimer    *event
	pollTimedOut bool
	heldLost     []kafka.TP // owned when poll timed out: lost when poll returns
	hbTimer      *event
	metaTimer    *event

	// Shown in the lab.
	revoking, pending, newlyAssigned []kafka.TP
	lastCallback                     string
	dirty, viewStale                 bool

	consumer *consumerClient // consumer protocol state

	// cfg is its own configuration (timeouts, listener, group.protocol);
	// consumerProto: it runs the KIP-848 consumer protocol (group.protocol=consumer).
	cfg           scenario.MemberSettings
	consumerProto bool
	cutUntil      int64 // its network link to the brokers is down until then (disconnect)
	// prepCommit is onJoinPrepare's auto-commit (scenario rejoin_commit_ms).
	prepCommit joinPrepareCommit

	strategies []string // partition.assignment.strategy, kviz names
	eager      bool     // its rebalance protocol (from strategies)

	// pattern is its pattern subscription (cfg.Pattern compiled; nil =
	// none), patternTimer its next metadata refresh matching it and
	// patternAt when a refresh last changed its subscription (pattern.go).
	pattern      *regexp.Regexp
	patternTimer *event
	patternAt    int64
}

func newClient(w *world, id, instance string, topics []string) *client {
	c := &client{w: w, id: id}
	c.reset(instance, topics)
	return c
}

// reset makes the client a fresh process.
func (c *client) reset(instance string, topics []string) {
	c.instance, c.topics = instance, topics
	c.coord, c.memberID, c.generation, c.phase = -1, "", -1, phaseUnjoined
	c.needsJoinPrepare, c.rejoinNeeded, c.isLeader = true, false, false
	c.owned, c.heldLost, c.revoking, c.pending, c.newlyAssigned = nil, nil, nil, nil, nil
	c.lastAssigned, c.lastAssignedGen, c.lastCallback = nil, -1, ""
	c.stalled, c.pollTimedOut, c.findingCoord = false, false, false
	c.prepCommit = joinPrepareCommit{}
	c.findBackoff, c.findRepeat = retryBackoffMs, false
	c.consumer = nil
	if c.w.consumerGroup != nil {
		c.w.consumerGroup.detachedStale = true // its old member, if still held, is no longer its view's
	}
	c.changed()
}

// changed marks the member's view for rebuilding at the next step.
func (c *client) changed() {
	c.viewStale = true
	c.w.hist.markDirty(c)
}

func (c *client) alive() bool { return c.running }

func (c *client) setStatus(s kafka.MemberStatus) {
	if c.status != s {
		c.status = s
		c.changed()
	}
}

// settled: nothing in flight for this client.
func (c *client) settled() bool {
	return !c.running || !c.stalled && c.idle()
}

// idle: the client holds what the group gave it and does nothing but
// heartbeat (it may be stalled meanwhile).
func (c *client) idle() bool {
	if c.findingCoord || c.rejoinNeeded {
		return false
	}
	// A member the coordinator no longer holds (an administrator removed
	// it) has yet to hear so from its next heartbeat.
	if c.consumerProto {
		return c.consumer != nil && c.consumer.settled() && c.w.heldByGroup(c)
	}
	return c.phase == phaseStable && c.w.heldByGroup(c)
}

// waiting: nothing about the client changes before one of its timers that
// is not routine fires (a stall's end, a poll timeout): it is stopped, idle,
// or stalled out of the group after its poll timed out.
func (c *client) waiting() bool {
	return !c.running || c.idle() || c.stalled && c.pollTimedOut
}

// send delivers a request to the coordinator after the network delay. If the
// broker is down or no longer the coordinator, onFail gets the error.
func (c *client) send(routine bool, handle func(), onFail func(errName string)) {
	inc, broker := c.inc, c.coord
	c.w.clock.after(netMs, routine, func() {
		if c.inc != inc {
			return
		}
		switch {
		case broker < 0 || !c.w.cluster.up[broker] || c.cutOff():
			onFail("NETWORK_EXCEPTION")
		case c.w.cluster.coordinator() != broker:
			onFail("NOT_COORDINATOR")
		default:
			handle()
		}
	})
}

// reply delivers a response to this incarnation of the client.
func (c *client) reply(routine bool, run func()) {
	inc := c.inc
	c.w.clock.after(netMs, routine, func() {
		if c.inc == inc && c.running {
			run()
		}
	})
}

// replyTo delivers the answer to a request the coordinator parked (a
// JoinGroup, a SyncGroup) to the process that sent it, if it still runs.
func (c *client) replyTo(inc int, run func()) {
	c.w.clock.after(netMs, false, func() {
		if c.inc == inc && c.running {
			run()
		}
	})
}

// start runs a consumer process: MemberStarted, then FindCoordinator.
func (c *client) start() {
	c.inc++
	c.running = true
	c.startedAt = c.w.clock.now
	c.setStatus(kafka.StatusJoining)
	kind := "dynamic"
	if c.instance != "" {
		kind = fmt.Sprintf("static, group.instance.id %s", c.instance)
	}
	if c.pattern != nil {
		c.w.record(kafka.KindMemberStarted, c.id, "", false, c.startPattern(kind))
	} else {
		c.w.record(kafka.KindMemberStarted, c.id, "", false, fmt.Sprintf("%s starts (%s), subscribing to %v.", c.id, kind, c.topics)+c.w.missingTopicsNote(c.topics))
	}
	c.rejoinNeeded = true
	c.rejoinReason = "it is starting"
	c.poll()
}

// findCoordinator asks any live broker which broker coordinates the group.
func (c *client) findCoordinator(then func()) {
	if c.findingCoord {
		return
	}
	c.findingCoord = true
	inc := c.inc
	// A retry at the longest backoff after one already was changes nothing:
	// it is routine, like a heartbeat, and a cycle quiet.go may jump.
	// Not while it is cut off: the cut ends at its own millisecond, and the
	// retries until then are not a cycle of the group's (quiet.go).
	repeat := c.findRepeat && c.findBackoff == retryMaxMs && !c.cutOff()
	hop := c.w.clock.after(netMs, repeat, func() {
		if c.inc != inc {
			return
		}
		cl := c.w.cluster
		asked := cl.anyUp()
		coord := cl.coordinator()
		if cut := c.cutOff(); cut || asked < 0 || coord < 0 {
			if cut {
				c.w.record(kafka.KindFindCoordinatorRequest, c.id, "", repeat, fmt.Sprintf(
					"%s looks for the coordinator of %s, but it cannot reach any broker (disconnected); it retries in %d ms.", c.id, c.w.sc.GroupID, c.findBackoff))
			} else {
				c.w.record(kafka.KindFindCoordinatorRequest, c.id, "", repeat, fmt.Sprintf(
					"%s looks for the coordinator of %s: COORDINATOR_NOT_AVAILABLE (partition %d has no leader); it retries in %d ms.",
					c.id, c.w.sc.GroupID, cl.groupPartition, c.findBackoff))
			}
			backoff := c.findBackoff
			c.findBackoff = min(c.findBackoff*2, retryMaxMs)
			c.findRepeat = backoff == retryMaxMs
			// Routine: with no leader for the partition, the group waits
			// for a broker to come back; retries alone do not keep it busy.
			c.w.clock.after(backoff+netMs, !cut, func() {
				if c.inc == inc {
					c.findingCoord = false
					c.findCoordinator(then)
				}
			}).retry = true
			return
		}
		c.w.record(kafka.KindFindCoordinatorRequest, c.id, "", false, fmt.Sprintf(
			"%s asks broker %d for the coordinator of %s: broker %d, leader of __consumer_offsets partition %d (abs(hashCode(%q)) %% %d).",
			c.id, asked, c.w.sc.GroupID, coord, cl.groupPartition, c.w.sc.GroupID, c.w.sc.OffsetsPartitions))
		c.reply(false, func() {
			c.findingCoord = false
			c.findBackoff, c.findRepeat = retryBackoffMs, false
			c.coord = coord
			then()
		})
	})
	hop.retry = repeat
}

// coordinatorLost handles NOT_COORDINATOR or a disconnect: rediscover after
// retry.backoff.ms, then carry on.
func (c *client) coordinatorLost(then func()) {
	c.coord = -1
	inc := c.inc
	c.w.clock.after(retryBackoffMs, false, func() {
		if c.inc == inc && c.running {
			c.findCoordinator(then)
		}
	})
}

// poll is the application's poll(): it runs pending rebalance work unless
// the application is stuck processing (stalled).
func (c *client) poll() {
	if !c.running || c.stalled {
		return
	}
	if c.consumerProto {
		c.consumerPoll()
		return
	}
	if c.rejoinNeeded && c.phase != phaseJoining && c.phase != phaseSyncing {
		inc := c.inc
		c.w.clock.after(0, false, func() {
			if c.inc == inc {
				c.joinGroup()
			}
		})
	}
}

// stall: the application does not call poll() for ms.
func (c *client) stall(ms int64) {
	if !c.running {
		c.w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf("%s is not running; nothing stalls.", c.id))
		return
	}
	c.w.clock.cancel(c.stallEnd)
	c.w.clock.cancel(c.pollTimer)
	c.stalled = true
	c.setStatus(kafka.StatusStalled)
	maxPoll := c.maxPoll()
	note := "less than max.poll.interval.ms, so it stays in the group; the heartbeat thread keeps it alive."
	if ms > maxPoll {
		note = fmt.Sprintf("longer than max.poll.interval.ms (%d ms): the poll timer will expire.", maxPoll)
		c.pollTimer = c.w.clock.after(maxPoll, false, c.pollExpired)
	}
	c.w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf("%s stops calling poll() for %d ms (slow processing), %s", c.id, ms, note))
	c.stallEnd = c.w.clock.after(ms, false, c.stallOver)
}

func (c *client) stallOver() {
	c.stallEnd = nil
	c.w.clock.cancel(c.pollTimer)
	c.pollTimer = nil
	c.stalled = false
	c.setStatus(c.activeStatus())
	c.w.record(kafka.KindPollResumed, c.id, "", false, fmt.Sprintf("%s calls poll() again.", c.id))
	if c.pollTimedOut && !c.consumerProto { // the consumer protocol handles it in consumerPoll
		c.pollTimedOut = false
		c.rejoinNeeded = true
		c.rejoinReason = "its poll timed out"
	}
	c.poll()
}

func (c *client) activeStatus() kafka.MemberStatus {
	switch {
	case !c.running:
		return c.status
	case c.stalled:
		return kafka.StatusStalled
	case c.phase == phaseStable && !c.rejoinNeeded:
		return kafka.StatusActive
	case c.generation < 0 && c.memberID == "":
		return kafka.StatusJoining
	default:
		return kafka.StatusRejoining
	}
}

// crash kills the process: no callbacks, no LeaveGroup.
func (c *client) crash() {
	if !c.running {
		c.w.record(kafka.KindMemberCrashed, c.id, "", false, fmt.Sprintf("%s is not running.", c.id))
		return
	}
	c.stop(kafka.StatusCrashed)
	c.w.record(kafka.KindMemberCrashed, c.id, "", false, fmt.Sprintf(
		"%s crashes: no callback, no LeaveGroup. Its partitions go unconsumed until the coordinator notices (session.timeout.ms %d ms).", c.id, c.sessionTimeout()))
}

// sessionTimeout is its session.timeout.ms (KIP-848: the broker's
// group.consumer.session.timeout.ms).
func (c *client) sessionTimeout() int64 {
	if c.consumerProto {
		return c.w.sc.ConsumerSessionTimeout()
	}
	return c.w.sc.SessionTimeout(c.cfg)
}

// heartbeatInterval is its heartbeat.interval.ms (KIP-848: the interval the
// coordinator gives, group.consumer.heartbeat.interval.ms).
func (c *client) heartbeatInterval() int64 {
	if c.consumerProto {
		return c.w.sc.ConsumerHeartbeatInterval()
	}
	return c.w.sc.HeartbeatInterval(c.cfg)
}

// maxPoll is its max.poll.interval.ms, also its rebalance timeout.
func (c *client) maxPoll() int64 { return c.w.sc.MaxPollInterval(c.cfg) }

// configure gives the process its settings; the protocol follows from them.
func (c *client) configure(cfg scenario.MemberSettings) {
	c.cfg = cfg
	c.consumerProto = c.w.sc.MemberProtocol(cfg) == scenario.ProtocolConsumer
	c.setPattern(cfg.Pattern)
}

// stop ends the process and its timers.
func (c *client) stop(status kafka.MemberStatus) {
	c.inc++
	c.running = false
	for _, e := range []*event{c.stallEnd, c.pollTimer, c.hbTimer, c.metaTimer, c.patternTimer} {
		c.w.clock.cancel(e)
	}
	c.stallEnd, c.pollTimer, c.hbTimer, c.metaTimer, c.patternTimer = nil, nil, nil, nil, nil
	c.stalled, c.findingCoord, c.rejoinNeeded = false, false, false
	c.owned, c.heldLost, c.revoking, c.pending, c.newlyAssigned = nil, nil, nil, nil, nil
	if c.consumer != nil {
		c.consumer.stop()
	}
	c.setStatus(status)
	c.changed()
}

// restart bounces the process: a running one is killed first. A static
// member comes back with the same group.instance.id.
func (c *client) restart() {
	if c.running {
		c.crash()
	}
	c.reset(c.instance, c.topics)
	c.start()
}

// subscribe changes the subscription; the next poll rejoins.
func (c *client) subscribe(topics []string) {
	if c.pattern != nil {
		c.dropPattern() // subscribe(Collection) replaces subscribe(Pattern)
	}
	if !c.running {
		c.topics = topics
		c.w.record(kafka.KindMemberStarted, c.id, "", false, fmt.Sprintf("%s is not running; it will subscribe to %v when it starts.", c.id, topics))
		return
	}
	old := c.topics
	if slices.Equal(old, topics) {
		c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf("%s subscribes to %v again: nothing changes.", c.id, topics))
		return
	}
	c.topics = topics
	c.metaFetchedAt = c.w.clock.now // subscribe() requests metadata for the new topics
	c.changed()
	text := fmt.Sprintf("%s changes its subscription from %v to %v.", c.id, old, topics)
	if c.consumerProto {
		// subscribe() runs no callback and sends nothing: the new topics
		// ride the next regular heartbeat (ConsumerHeartbeatRequestManager
		// sends a changed subscription; AbstractMembershipManager.
		// onSubscriptionUpdated only joins a member not yet in the group).
		text = fmt.Sprintf("%s changes its subscription from %v to %v: no callback; its next heartbeat carries it, and it keeps consuming what it owns until the coordinator takes it away.", c.id, old, topics)
	}
	c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, text+c.w.missingTopicsNote(topics))
	if c.consumerProto {
		return
	}
	c.requestRejoin("its subscription changed")
}

func (c *client) requestRejoin(reason string) {
	c.rejoinNeeded = true
	c.rejoinReason = reason
	c.setStatus(c.activeStatus())
	c.poll()
}

// orphan: the coordinator removed a member whose process still runs (a
// zombie: stalled, or cut off). The group no longer counts its partitions as
// consumed by it; the process learns of it at its next heartbeat and calls
// onPartitionsLost at its next poll().
func (w *world) orphan(clientID, memberID string) {
	c := w.byID[clientID]
	if c == nil || !c.running || c.memberID != memberID || len(c.owned) == 0 {
		return
	}
	c.heldLost = kafka.UnionTPs(c.heldLost, c.owned)
	c.revoking = c.heldLost
	c.owned = nil
	c.changed()
}

// unorphan: a new coordinator restored a member its predecessor had
// removed (a removal it never wrote: an administrator's LeaveGroup, an
// expiry during a rebalance), and the process, which never heard of the
// removal, is in step with it again: what it still holds counts as
// consumed again.
func (w *world) unorphan(clientID, memberID string, gen int32) {
	c := w.byID[clientID]
	if c == nil || !c.running || c.consumerProto || c.memberID != memberID || c.generation != gen || len(c.heldLost) == 0 || c.pollTimedOut {
		return
	}
	c.owned = kafka.UnionTPs(c.owned, c.heldLost)
	c.heldLost = nil
	c.revoking = nil
	c.changed()
}

// memberIDChanged: a classic client's member id changed, so the consumer
// group's list of members no view shows must be rebuilt (a classic member
// of a consumer group is attached to its client through the id).
func (c *client) memberIDChanged() { c.w.consumerGroup.detachedStale = true }

// heldByGroup: the coordinator holds c's member id now.
func (w *world) heldByGroup(c *client) bool {
	if w.consumer {
		return w.consumerGroup.members[c.memberID] != nil
	}
	return w.classic.members[c.memberID] != nil
}

// memberChanged refreshes the view of the client behind a member id.
func (w *world) memberChanged(clientID, memberID string) {
	if c := w.byID[clientID]; c != nil && c.memberID == memberID {
		c.changed()
	}
}
