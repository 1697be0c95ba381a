package model

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

type joinRequest struct {
	memberID, instance string
	topics             []string
	owned              []kafka.TP
	ownedGen           int32
	prevAssigned       []kafka.TP
	protocols          []string // partition.assignment.strategy, in order
	reason             string
	// The member's own timeouts, sent in every JoinGroup.
	sessionTimeout, rebalanceTimeout int64
}

type joinResponse struct {
	err            string
	memberID       string
	generation     int32
	leader         string // member id
	leaderClient   string
	protocol       string
	assignor       strategies.Assignor // the selected one (the leader runs it)
	skipAssignment bool
	members        []strategies.Member // leader only
	prevAssigned   [][]kafka.TP        // leader only, parallel to members (sticky's userData)
}

type syncResponse struct {
	err        string
	assignment []kafka.TP
	withheld   []kafka.TP // view only: partitions the leader withheld for this member
}

// handleJoin is the coordinator receiving a JoinGroup.
func (g *classicGroup) handleJoin(c *client, req joinRequest, reply func(joinResponse)) {
	who := c.id
	if !g.acceptJoiningMember(req.memberID) {
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, fmt.Sprintf(
			"%s sends JoinGroup; the group already has group.classic.max.size (%d) members.", who, g.w.sc.MaxSize))
		if p := g.pending[req.memberID]; p != nil {
			g.w.clock.cancel(p)
			delete(g.pending, req.memberID)
		}
		reply(joinResponse{err: "GROUP_MAX_SIZE_REACHED"})
		return
	}
	if !g.supportsProtocols(req.protocols) {
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, fmt.Sprintf(
			"%s sends JoinGroup with assignors %v; the group's members share none of them.", who, req.protocols))
		reply(joinResponse{err: "INCONSISTENT_GROUP_PROTOCOL"})
		return
	}
	switch {
	case req.memberID == "" && req.instance != "":
		g.joinStatic(c, req, reply)
	case req.memberID == "":
		// KIP-394: a dynamic member first gets an id, then joins with it.
		id := g.w.newMemberID(c.id)
		g.pending[id] = g.w.clock.after(req.sessionTimeout, false, func() { g.pendingExpired(id, c.id) })
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, fmt.Sprintf(
			"%s sends JoinGroup with no member id (%s); the coordinator makes it member id %s and asks it to rejoin with it.", who, req.reason, id))
		reply(joinResponse{err: "MEMBER_ID_REQUIRED", memberID: id, generation: -1})
	case g.pending[req.memberID] != nil:
		g.w.clock.cancel(g.pending[req.memberID])
		delete(g.pending, req.memberID)
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, fmt.Sprintf(
			"%s rejoins with member id %s; the coordinator adds it to the group.", who, req.memberID))
		g.addMemberAndRebalance(c, req.memberID, req, reply, fmt.Sprintf("%s joined", who))
	default:
		g.joinKnown(c, req, reply)
	}
}

// pendingExpired drops a member id handed out with MEMBER_ID_REQUIRED whose
// owner never joined with it (it expires after the session timeout).
func (g *classicGroup) pendingExpired(id, client string) {
	if g.pending[id] == nil {
		return
	}
	delete(g.pending, id)
	g.w.record(kafka.KindMemberRemoved, client, "", false, fmt.Sprintf(
		"Member id %s was never used to join within session.timeout.ms: the coordinator forgets it.", id))
	g.completeJoinIfAllJoined() // removePendingMemberAndUpdateClassicGroup
}

func (g *classicGroup) newMember(c *client, id string, req joinRequest) *cMember {
	return &cMember{id: id, instance: req.instance, client: c.id, topics: req.topics, owned: req.owned, protocols: req.protocols,
		ownedGen: req.ownedGen, prevAssigned: req.prevAssigned, isNew: true,
		sessionTimeout: req.sessionTimeout, rebalanceTimeout: req.rebalanceTimeout}
}

func (g *classicGroup) addMemberAndRebalance(c *client, id string, req joinRequest, reply func(joinResponse), reason string) {
	m := g.newMember(c, id, req)
	g.add(m)
	m.awaitingJoin, m.joinReply = true, reply
	// A new member cannot heartbeat while its JoinGroup is parked: the
	// coordinator holds it at most CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS
	// (addMemberThenRebalanceOrCompleteJoin).
	g.armSession(m, newMemberJoinTimeoutMs)
	if g.state == kafka.PreparingRebalance && g.prevState == kafka.Empty {
		g.newMemberAdded = true
	}
	if g.state == kafka.Stable || g.state == kafka.CompletingRebalance || g.state == kafka.Empty {
		g.prepareRebalance(reason)
	} else {
		g.maybeCompleteJoinPhase()
	}
}

// joinStatic handles a static member's JoinGroup with no member id: a new
// static member, or a restart that replaces the old member id (KIP-345).
func (g *classicGroup) joinStatic(c *client, req joinRequest, reply func(joinResponse)) {
	old, known := g.instances[req.instance]
	id := g.w.newMemberID(req.instance)
	if !known {
		g.w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf(
			"%s (static, group.instance.id %s) sends JoinGroup; static members skip MEMBER_ID_REQUIRED: it joins as %s.", c.id, req.instance, id))
		g.addMemberAndRebalance(c, id, req, reply, fmt.Sprintf("static member %s joined", c.id))
		return
	}
	om := g.members[old]
	g.w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf(
		"%s (static, group.instance.id %s) sends JoinGroup with no member id; the coordinator replaces member id %s with %s.", c.id, req.instance, old, id))
	om.answerJoin(joinResponse{err: "FENCED_INSTANCE_ID"})
	om.answerSync(syncResponse{err: "FENCED_INSTANCE_ID"})
	g.w.clock.cancel(om.session)
	nm := *om
	nm.id, nm.client, nm.topics, nm.owned, nm.ownedGen, nm.protocols = id, c.id, req.topics, req.owned, req.ownedGen, req.protocols
	nm.sessionTimeout, nm.rebalanceTimeout = req.sessionTimeout, req.rebalanceTimeout
	nm.awaitingJoin, nm.awaitingSync, nm.joinReply, nm.syncReply, nm.session = false, false, nil, nil, nil
	wasLeader := g.leader == old
	g.remove(old)
	g.add(&nm)
	if wasLeader {
		g.leader = id
	}
	next := g.state
	if next == kafka.Stable {
		if a, _ := g.selectProtocol(); a.KafkaName() != g.protocol {
			next = kafka.CompletingRebalance // the vote would change: rebalance
		}
	}
	switch next {
	case kafka.Stable:
		// Same protocol for the next generation: no rebalance, no new
		// generation; the member gets its stored assignment back.
		g.store()
		g.w.record(kafka.KindMemberReplaced, c.id, "", false, fmt.Sprintf(
			"%s restarted within session.timeout.ms and the group is Stable: no rebalance, generation stays %d.", c.id, g.generation))
		nm.pendingSync = true
		reply(g.joinResult(id, wasLeader))
	case kafka.CompletingRebalance:
		nm.awaitingJoin, nm.joinReply = true, reply
		g.prepareRebalance(fmt.Sprintf("static member %s came back (during CompletingRebalance, or with assignors that change the vote)", c.id))
	default:
		nm.awaitingJoin, nm.joinReply = true, reply
		g.maybeCompleteJoinPhase()
	}
}

// joinKnown handles a JoinGroup from a member id the group should know.
func (g *classicGroup) joinKnown(c *client, req joinRequest, reply func(joinResponse)) {
	m := g.members[req.memberID]
	if errName := g.memberError(req.memberID, req.instance); errName != "" {
		g.w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf("%s sends JoinGroup as %s.", c.id, req.memberID))
		reply(joinResponse{err: errName})
		return
	}
	if g.state == kafka.Empty || g.state == kafka.Dead {
		g.w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf("%s sends JoinGroup as %s.", c.id, req.memberID))
		reply(joinResponse{err: "UNKNOWN_MEMBER_ID"})
		return
	}
	changed := !slices.Equal(m.topics, req.topics) || !slices.Equal(m.owned, req.owned) || m.ownedGen != req.ownedGen ||
		!slices.Equal(m.protocols, req.protocols)
	g.w.record(kafka.KindJoinGroupRequest, c.id, "", false, fmt.Sprintf("%s rejoins as %s (%s).", c.id, req.memberID, req.reason))
	update := func() {
		g.countProtocols(m.protocols, -1)
		g.countProtocols(req.protocols, 1)
		m.topics, m.owned, m.ownedGen, m.prevAssigned, m.protocols = req.topics, req.owned, req.ownedGen, req.prevAssigned, req.protocols
		m.sessionTimeout, m.rebalanceTimeout = req.sessionTimeout, req.rebalanceTimeout // ClassicGroup.updateMember
		m.awaitingJoin, m.joinReply = true, reply
		g.touchSession(m)
	}
	switch g.state {
	case kafka.PreparingRebalance:
		update()
		g.maybeCompleteJoinPhase()
	case kafka.CompletingRebalance:
		if !changed {
			reply(g.joinResult(m.id, false))
			return
		}
		update()
		g.prepareRebalance(fmt.Sprintf("%s rejoined with new metadata", c.id))
	case kafka.Stable:
		if m.id != g.leader && !changed {
			reply(g.joinResult(m.id, false))
			return
		}
		update()
		why := fmt.Sprintf("%s rejoined with new metadata", c.id)
		if m.id == g.leader {
			why = fmt.Sprintf("the leader %s rejoined", c.id)
		}
		g.prepareRebalance(why)
	}
}

// memberError is the common member check of Heartbeat, SyncGroup,
// OffsetCommit and a known member's JoinGroup.
func (g *classicGroup) memberError(id, instance string) string {
	if instance != "" {
		if cur, ok := g.instances[instance]; ok && cur != id {
			return "FENCED_INSTANCE_ID"
		}
	}
	if g.members[id] == nil {
		return "UNKNOWN_MEMBER_ID"
	}
	return ""
}

func (g *classicGroup) handleSync(c *client, id, instance string, gen int32, assignments map[string][]kafka.TP, withheld []strategies.Withheld, reply func(syncResponse)) {
	errName := g.memberError(id, instance)
	if errName == "" && gen != g.generation {
		errName = "ILLEGAL_GENERATION"
	}
	if errName == "" {
		switch g.state {
		case kafka.Empty:
			errName = "UNKNOWN_MEMBER_ID"
		case kafka.PreparingRebalance:
			errName = "REBALANCE_IN_PROGRESS"
		}
	}
	what := "an empty assignment (followers send none)"
	if assignments != nil {
		what = "the assignment it computed"
	}
	g.w.record(kafka.KindSyncGroupRequest, c.id, "", false, fmt.Sprintf("%s sends SyncGroup for generation %d with %s.", c.id, gen, what))
	if errName != "" {
		reply(syncResponse{err: errName})
		return
	}
	m := g.members[id]
	g.touchSession(m)
	m.pendingSync = false
	if g.state == kafka.Stable {
		reply(syncResponse{err: "NONE", assignment: m.assignment, withheld: g.withheldFor(id)})
		g.maybeStopSyncTimer()
		return
	}
	m.awaitingSync, m.syncReply = true, reply
	if id != g.leader {
		return
	}
	for _, mid := range g.order.Keys() {
		g.members[mid].assignment = assignments[mid]
		g.members[mid].prevAssigned = assignments[mid]
	}
	g.withheld, g.emptied = withheld, false
	if !g.transition(kafka.Stable) {
		return
	}
	g.store()
	g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
		"The coordinator stores the leader's assignment: generation %d is Stable.", g.generation))
	for _, mid := range g.order.Keys() {
		pm := g.members[mid]
		g.propagate(pm, syncResponse{err: "NONE", assignment: pm.assignment, withheld: g.withheldFor(mid)})
	}
	g.maybeStopSyncTimer()
}

func (g *classicGroup) withheldFor(id string) []kafka.TP {
	var out []kafka.TP
	for _, wh := range g.withheld {
		if wh.To == id {
			out = append(out, wh.TopicPartition)
		}
	}
	return out
}

func (g *classicGroup) maybeStopSyncTimer() {
	for _, m := range g.members {
		if m.pendingSync {
			return
		}
	}
	g.w.clock.cancel(g.syncTimer)
	g.syncTimer = nil
}

// handleHeartbeat answers a Heartbeat (checks in Kafka's order).
func (g *classicGroup) handleHeartbeat(id, instance string, gen int32) string {
	errName := g.memberError(id, instance)
	if errName == "" && gen != g.generation {
		errName = "ILLEGAL_GENERATION"
	}
	if errName != "" {
		return errName
	}
	switch g.state {
	case kafka.Empty:
		return "UNKNOWN_MEMBER_ID"
	case kafka.PreparingRebalance:
		g.touchSession(g.members[id])
		return "REBALANCE_IN_PROGRESS"
	}
	g.touchSession(g.members[id])
	return "NONE"
}

func (g *classicGroup) handleLeave(c *client, id string) {
	if g.members[id] == nil {
		g.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf("%s sends LeaveGroup as %s, which the group does not know (UNKNOWN_MEMBER_ID).", c.id, id))
		return
	}
	g.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf("%s sends LeaveGroup; the coordinator removes it at once.", c.id))
	g.removeAndUpdate(id, fmt.Sprintf("%s left the group", c.id), false)
}

// handleCommit validates an OffsetCommit (validateOffsetCommit).
func (g *classicGroup) handleCommit(id, instance string, gen int32) string {
	if gen < 0 && g.state == kafka.Empty {
		return "NONE"
	}
	if e := g.memberError(id, instance); e != "" {
		return e
	}
	if gen != g.generation {
		return "ILLEGAL_GENERATION"
	}
	if g.state == kafka.CompletingRebalance {
		return "REBALANCE_IN_PROGRESS"
	}
	return "NONE"
}

// moved unloads the group from its coordinator and loads it on the new one
// from the log: an in-flight rebalance is lost; the group comes back Stable
// or Empty at its last stored generation, and session timers restart.
func (g *classicGroup) moved(from, to int) {
	for _, id := range g.order.Keys() {
		m := g.members[id]
		g.w.clock.cancel(m.session)
		m.answerJoin(joinResponse{err: "NOT_COORDINATOR"})
		m.answerSync(syncResponse{err: "NOT_COORDINATOR"})
	}
	g.w.clock.cancel(g.joinTimer)
	g.w.clock.cancel(g.syncTimer)
	g.joinTimer, g.syncTimer = nil, nil
	for _, id := range slices.Sorted(maps.Keys(g.pending)) {
		g.w.clock.cancel(g.pending[id])
	}
	if from >= 0 {
		g.transition(kafka.Dead)
	}
	g.broker = to
	if to < 0 {
		g.w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
			"Broker %d unloads %s; no broker leads partition %d now, so FindCoordinator answers COORDINATOR_NOT_AVAILABLE.", from, g.w.sc.GroupID, g.w.cluster.groupPartition))
		return
	}
	g.load(g.stored)
	g.w.viewsAnew() // the members the log restores, and only those, are in the group
	what := fmt.Sprintf("%s at generation %d", g.state, g.generation)
	lost := " It"
	if from >= 0 {
		lost = fmt.Sprintf(" Broker %d's in-memory state (any rebalance in flight) is lost; it", from)
	}
	g.w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
		"Broker %d becomes the coordinator of %s.%s replays __consumer_offsets partition %d and restores the group %s. Members rediscover it with FindCoordinator.",
		to, g.w.sc.GroupID, lost, g.w.cluster.groupPartition, what))
}

func (g *classicGroup) load(s *storedGroup) {
	g.state, g.prevState = s.state, ""
	g.generation, g.protocol, g.selected, g.leader = s.generation, s.protocol, s.selected, s.leader
	g.members, g.order, g.instances, g.pending = map[string]*cMember{}, newIDOrder(), map[string]string{}, map[string]*event{}
	g.withheld, g.supported = nil, map[string]int{}
	for i := range s.members {
		m := s.members[i]
		g.members[m.id] = &m
		g.countProtocols(m.protocols, 1)
		g.order.Put(m.id)
		if m.instance != "" {
			g.instances[m.instance] = m.id
		}
		g.touchSession(&m)
		g.w.unorphan(m.client, m.id, s.generation)
	}
}
