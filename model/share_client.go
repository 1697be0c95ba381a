package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// shareClient is a share consumer's membership (ShareMembershipManager,
// ShareHeartbeatRequestManager, 4.0-4.3): it heartbeats at the interval the
// coordinator gives (group.share.heartbeat.interval.ms), send to send; it
// heartbeats at once to join (epoch 0), to acknowledge a new assignment
// (ACKNOWLEDGING) and to leave (epoch -1). A share consumer has no
// rebalance listener: an assignment is taken as it comes.
type shareClient struct {
	c          *client
	epoch      int32 // member epoch; 0 while joining
	intervalMs int64 // 0 until the first answer
	hbTimer    *event
	inFlight   bool // a heartbeat is out
	fullNext   bool // the next heartbeat carries the subscription
	again      bool // a heartbeat is wanted as soon as the one out is answered
	stallEnd   *event
}

// shareStart starts a share consumer (or restarts a stopped one).
func (w *world) shareStart(id string, topics []string) {
	c := w.byID[id]
	if c == nil {
		c = newClient(w, id, "", topics)
		w.clients = append(w.clients, c)
		w.byID[id] = c
	} else {
		c.reset("", topics)
	}
	c.consumerProto = false
	sc := &shareClient{c: c, fullNext: true}
	w.share.clients[c] = sc
	c.inc++
	c.running, c.startedAt = true, w.clock.now
	c.memberID = w.newMemberID(c.id) // the share consumer makes its member id (KIP-1082)
	w.share.awayDirty = true         // a member of its earlier self stays until its session expires
	c.generation = 0
	c.setStatus(kafka.StatusJoining)
	w.record(kafka.KindMemberStarted, c.id, "", false, fmt.Sprintf("%s starts (a share consumer, member id %s), subscribing to %v.", c.id, c.memberID, c.topics)+w.missingTopicsNote(c.topics))
	coord := w.cluster.coordinator()
	w.record(kafka.KindFindCoordinatorRequest, c.id, "", false, fmt.Sprintf("%s asks for the coordinator of share group %s: broker %d.", c.id, w.sc.GroupID, coord))
	c.reply(false, func() {
		c.coord = w.cluster.coordinator()
		sc.heartbeat(false)
	})
}

// heartbeat sends a ShareGroupHeartbeat now.
func (s *shareClient) heartbeat(routine bool) {
	c, w := s.c, s.c.w
	if !c.running {
		return
	}
	if s.inFlight {
		s.again = true
		return
	}
	w.clock.cancel(s.hbTimer)
	req := shareRequest{memberID: c.memberID, epoch: s.epoch}
	if s.fullNext {
		req.topics = slices.Clone(c.topics)
		routine = false
	}
	var text string
	switch {
	case req.epoch == leaveEpoch:
		text = fmt.Sprintf("%s leaves: ShareGroupHeartbeat with member epoch -1.", c.id)
		req.topics = nil
	case req.epoch == joinEpoch:
		text = fmt.Sprintf("%s joins: ShareGroupHeartbeat with member epoch 0, subscribing to %v.", c.id, req.topics)
	case req.topics != nil:
		text = fmt.Sprintf("%s heartbeats at epoch %d with its new subscription %v.", c.id, req.epoch, req.topics)
	case !routine:
		text = fmt.Sprintf("%s heartbeats at once at epoch %d to acknowledge its assignment %s.", c.id, req.epoch, fmtShort(c.owned))
	default:
		text = fmt.Sprintf("%s heartbeats (epoch %d).", c.id, req.epoch)
	}
	w.record(kafka.KindShareGroupHeartbeatRequest, c.id, "", routine, text)
	s.inFlight, s.fullNext = true, false
	sentAt := w.clock.now
	c.send(routine, func() {
		resp := w.share.heartbeat(c, req)
		c.reply(routine && resp.err == "", func() { s.response(req, resp, routine, sentAt) })
	}, func(errName string) {
		s.inFlight = false
		if req.epoch == leaveEpoch {
			w.record(kafka.KindShareGroupHeartbeatResponse, c.id, errName, false, fmt.Sprintf(
				"%s's leave heartbeat fails (%s): the coordinator will notice by session expiry.", c.id, errName))
			return
		}
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, errName, false, fmt.Sprintf(
			"%s's heartbeat fails (%s); it looks for the coordinator again after %d ms (retry.backoff.ms), then heartbeats.", c.id, errName, retryBackoffMs))
		s.fullNext = s.fullNext || req.topics != nil
		w.clock.cancel(s.hbTimer)
		s.hbTimer = nil
		c.coordinatorLost(func() { s.heartbeat(false) })
	})
	s.schedule(sentAt)
}

// schedule sets the next routine heartbeat an interval after sentAt.
func (s *shareClient) schedule(sentAt int64) {
	w := s.c.w
	w.clock.cancel(s.hbTimer)
	if s.intervalMs == 0 {
		return // the first answer sets the interval
	}
	s.hbTimer = w.clock.after(sentAt+s.intervalMs-w.clock.now, true, func() { s.heartbeat(true) })
}

// response handles the answer (AbstractHeartbeatRequestManager.onResponse).
func (s *shareClient) response(req shareRequest, r shareResponse, routine bool, sentAt int64) {
	c, w := s.c, s.c.w
	s.inFlight = false
	switch r.err {
	case "GROUP_MAX_SIZE_REACHED":
		c.running = false
		w.clock.cancel(s.hbTimer)
		c.setStatus(kafka.StatusFenced)
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf(
			"The share group already has group.share.max.size (%d) members: %s fails with GroupMaxSizeReachedException, a fatal error.", w.sc.MaxSize, c.id))
		return
	case "UNKNOWN_MEMBER_ID", "FENCED_MEMBER_EPOCH":
		c.owned, s.epoch, s.fullNext = nil, joinEpoch, true
		c.generation = 0
		c.setStatus(kafka.StatusRejoining)
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, r.err, false, fmt.Sprintf(
			"The coordinator no longer knows %s at epoch %d (%s): it drops its assignment and rejoins at epoch 0.", c.id, req.epoch, r.err))
		s.heartbeat(false)
		return
	}
	if req.epoch == leaveEpoch {
		return
	}
	s.intervalMs = r.intervalMs
	s.epoch = r.epoch
	c.generation = r.epoch
	changed := r.sent && !sameSlice(r.assignment, c.owned)
	if changed {
		c.owned = r.assignment
		c.changed()
	}
	if c.status != kafka.StatusStalled {
		c.setStatus(kafka.StatusActive)
	}
	switch {
	case changed:
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, "NONE", false, fmt.Sprintf(
			"%s is STABLE at epoch %d with %s: a share group revokes nothing first, partitions are shared (heartbeat interval %d ms).", c.id, r.epoch, fmtShort(c.owned), r.intervalMs))
	case !routine:
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, "NONE", false, fmt.Sprintf(
			"%s stays at epoch %d with %s (heartbeat interval %d ms).", c.id, r.epoch, fmtShort(c.owned), r.intervalMs))
	default:
		w.record(kafka.KindShareGroupHeartbeatResponse, c.id, "NONE", true, fmt.Sprintf("%s: epoch %d, nothing new.", c.id, r.epoch))
	}
	if changed || s.again || s.fullNext {
		s.again = false
		s.heartbeat(false) // ACKNOWLEDGING: shouldHeartbeatNow
		return
	}
	s.reschedule(sentAt)
}

// reschedule is schedule(sentAt) after an answer. A timer the send set is
// re-armed at its own time, not at sentAt's: a quiet stretch (quiet.go)
// may have moved it, and the send time this answer carries stayed behind.
func (s *shareClient) reschedule(sentAt int64) {
	if t := s.hbTimer; t != nil && !t.cancelled && t.index >= 0 && s.intervalMs > 0 {
		s.schedule(t.at - s.intervalMs)
		return
	}
	s.schedule(sentAt)
}

// shareLeave closes a share consumer: its share sessions release the
// records it holds (SharePartitionManager.releaseSession), then it leaves
// with epoch -1.
func (w *world) shareLeave(c *client) {
	s := w.share.clients[c]
	w.releaseHeld(c, c.id+" closes")
	w.clock.cancel(s.hbTimer)
	w.clock.cancel(s.stallEnd)
	s.inFlight = false
	s.epoch = leaveEpoch
	// Closed before the leave heartbeat's step: the step shows it gone.
	c.setStatus(kafka.StatusLeft)
	c.owned = nil
	c.changed()
	s.heartbeat(false)
	c.running = false
}

// shareRestart is a restart: the process dies as in a crash (its records
// stay locked until their lock times out, its member until its session
// expires) and starts again as a new share consumer, which makes a new
// member id (KIP-1082) and joins at epoch 0. The coordinator holds both
// members until the old one's session expires.
func (w *world) shareRestart(c *client) {
	if c.running {
		w.shareCrash(c)
	}
	w.shareStart(c.id, c.topics)
}

// shareCrash stops a share consumer silently (a lost host): no leave, no
// share session closed, so its locked records wait for their lock to time
// out and its membership for its session to expire.
func (w *world) shareCrash(c *client) {
	s := w.share.clients[c]
	w.clock.cancel(s.hbTimer)
	w.clock.cancel(s.stallEnd)
	c.running = false
	c.inc++
	c.setStatus(kafka.StatusCrashed)
	held := w.heldText(c.memberID)
	w.record(kafka.KindMemberCrashed, c.id, "", false, fmt.Sprintf(
		"%s crashes: no leave heartbeat, no share session closed.%s Its member stays until group.share.session.timeout.ms (%d ms) passes without a heartbeat.", c.id, held, w.sc.SessionTimeoutMs))
}

// shareStall: the application stops polling for ms: it fetches and
// acknowledges nothing meanwhile (the heartbeat thread goes on).
func (w *world) shareStall(c *client, ms int64) {
	s := w.share.clients[c]
	c.setStatus(kafka.StatusStalled)
	w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf(
		"%s's application stops polling for %d ms: it acknowledges nothing, and the records it holds stay locked only until their acquisition lock times out (%d ms).%s", c.id, ms, w.sc.Share.RecordLockMs, w.heldText(c.memberID)))
	w.clock.cancel(s.stallEnd)
	s.stallEnd = w.clock.after(ms, false, func() {
		if !c.running {
			return
		}
		c.setStatus(kafka.StatusActive)
		w.record(kafka.KindPollResumed, c.id, "", false, fmt.Sprintf("%s polls again.", c.id))
	})
}

// shareSubscribe changes the subscription: it rides the next heartbeat.
func (w *world) shareSubscribe(c *client, topics []string) {
	s := w.share.clients[c]
	c.topics = topics
	s.fullNext = true
	c.changed()
	w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf("%s subscribes to %v; the next heartbeat carries it.", c.id, topics)+w.missingTopicsNote(topics))
}

// applyShare runs one timeline event of a share scenario.
func (w *world) applyShare(ev scenario.Event) {
	c := w.byID[ev.Member]
	switch ev.Kind {
	case "join":
		if c != nil && c.running {
			w.record(kafka.KindMemberStarted, ev.Member, "", false, fmt.Sprintf("%s is already running; the join does nothing.", ev.Member))
			return
		}
		w.shareStart(ev.Member, ev.Topics)
		return
	case "add_partitions":
		w.addPartitions(ev.Topic, ev.Count)
		return
	case scenario.EventRecords:
		w.appendRecords(kafka.TP{Topic: ev.Topic, Partition: ev.Share.Partition}, int(ev.Count))
		return
	case "fail_broker":
		w.cluster.fail(ev.Broker)
		return
	case "recover_broker":
		w.cluster.recover(ev.Broker)
		return
	case "restart":
		if c != nil && !c.running {
			w.shareStart(c.id, c.topics) // a stopped process starts again
			return
		}
	}
	if c == nil || !c.running {
		state := "not running"
		if c == nil {
			state = "not a member"
		}
		if ev.Inserting {
			w.err = fmt.Errorf("%s is %s", ev.Member, state)
			return
		}
		w.record(kafka.KindMemberStopped, ev.Member, "", false, fmt.Sprintf("%s is %s: the timeline's %s does nothing.", ev.Member, state, ev.Kind))
		return
	}
	switch ev.Kind {
	case "leave":
		w.shareLeave(c)
	case "crash":
		w.shareCrash(c)
	case "restart":
		w.shareRestart(c)
	case "stall":
		w.shareStall(c, ev.Ms)
	case "subscribe":
		w.shareSubscribe(c, ev.Topics)
	case scenario.EventFetch:
		w.shareFetch(c, ev)
	case scenario.EventAcknowledge:
		w.shareAcknowledge(c, ev)
	}
}

// runShare plays a share scenario until the timeline is done and the
// group is quiet: world.run for a share group.
func (w *world) runShare() error {
	g := w.share
	w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
		"Share group %s (simple, Kafka %s) starts Empty; its coordinator is broker %d, leader of __consumer_offsets partition %d. Records are locked for %d ms, archived after %d deliveries, at most %d in flight per partition.",
		w.sc.GroupID, w.sc.KafkaVersion.OrLatest(), w.cluster.coordinator(), w.cluster.groupPartition, w.sc.Share.RecordLockMs, w.sc.Share.DeliveryCountLimit, w.sc.Share.MaxRecordLocks))
	for _, m := range w.sc.Members {
		spec := m
		w.clock.after(0, false, func() { w.shareStart(spec.ID, spec.Topics) })
	}
	return w.play(w.applyShare, g.quiet, w.quietStretch) // quiet.go: heartbeat cycles jumped (share_quiet.go)
}

// shareView fills a share member's view: the coordinator's epoch for it.
func (g *shareGroup) shareView(c *client, v *MemberView) {
	if m := g.memberOf(c); m != nil {
		v.InGroup, v.MemberEpoch, v.MemberState = true, m.epoch, kafka.MStable
	}
}
