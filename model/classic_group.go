package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// ValidClassicTransition reports whether Kafka allows from -> to: the
// cases are Kafka's table of valid previous states; any other transition
// is a bug in the simulator. (A switch, not a map: nothing to build at
// start-up.)
func ValidClassicTransition(from, to kafka.GroupState) bool {
	var valid []kafka.GroupState
	switch to {
	case kafka.Empty:
		valid = []kafka.GroupState{kafka.PreparingRebalance}
	case kafka.PreparingRebalance:
		valid = []kafka.GroupState{kafka.Stable, kafka.CompletingRebalance, kafka.Empty}
	case kafka.CompletingRebalance:
		valid = []kafka.GroupState{kafka.PreparingRebalance}
	case kafka.Stable:
		valid = []kafka.GroupState{kafka.CompletingRebalance}
	case kafka.Dead:
		valid = []kafka.GroupState{kafka.Stable, kafka.PreparingRebalance, kafka.CompletingRebalance, kafka.Empty, kafka.Dead}
	}
	return slices.Contains(valid, from)
}

// classicGroup is the coordinator's side of a classic group, as Kafka 4.0's
// group coordinator (GroupMetadataManager + ClassicGroup) keeps it.
type classicGroup struct {
	w          *world
	state      kafka.GroupState
	prevState  kafka.GroupState
	generation int32
	protocol   string // selected assignor (Kafka name); "" when Empty
	selected   strategies.Assignor
	leader     string // member id; "" when none
	members    map[string]*cMember
	order      *strategies.JavaHashMap[string] // member ids in the coordinator's HashMap order
	unsettled  string                          // the member settled last found out of step
	instances  map[string]string               // group.instance.id -> member id
	pending    map[string]*event               // KIP-394 member ids handed out, not yet joined (with their expiry)
	joinTimer  *event
	syncTimer  *event
	// newMemberAdded extends the initial rebalance delay (KIP-134).
	newMemberAdded bool
	stored         *storedGroup // the last state written to __consumer_offsets
	withheld       []strategies.Withheld
	// emptied: a join phase interrupted the sync and emptied every stored
	// assignment (resetAndPropagateAssignmentWithError); the leader's next
	// assignment fills them again.
	emptied bool
	broker  int // the broker hosting the group; -1 when none
	// supported counts the members listing each assignor
	// (ClassicGroup.supportedProtocols), so a JoinGroup's check costs its
	// own list, not the group.
	supported map[string]int
}

// cMember is one member as the coordinator knows it.
type cMember struct {
	id, instance, client string
	topics               []string
	protocols            []string   // its assignors, in its order
	owned                []kafka.TP // reported in JoinGroup (cooperative: still held)
	ownedGen             int32
	prevAssigned         []kafka.TP // sticky's userData
	assignment           []kafka.TP // from the leader's SyncGroup
	awaitingJoin         bool
	awaitingSync         bool
	pendingSync          bool // joined this generation, SyncGroup not seen yet
	joinReply            func(joinResponse)
	syncReply            func(syncResponse)
	isNew                bool
	session              *event
	sessionTimeout       int64
	rebalanceTimeout     int64
}

// answerJoin answers m's parked JoinGroup, if it has one.
func (m *cMember) answerJoin(r joinResponse) {
	if !m.awaitingJoin {
		return
	}
	reply := m.joinReply
	m.awaitingJoin, m.joinReply = false, nil
	reply(r)
}

// answerSync answers m's parked SyncGroup, if it has one.
func (m *cMember) answerSync(r syncResponse) {
	if !m.awaitingSync {
		return
	}
	reply := m.syncReply
	m.awaitingSync, m.syncReply = false, nil
	reply(r)
}

// storedGroup is the group as last written to the log: what a new
// coordinator restores.
type storedGroup struct {
	state      kafka.GroupState
	generation int32
	selected   strategies.Assignor
	protocol   string
	leader     string
	members    []cMember
}

func newClassicGroup(w *world) *classicGroup {
	return &classicGroup{w: w, state: kafka.Empty, members: map[string]*cMember{}, order: newIDOrder(),
		instances: map[string]string{}, pending: map[string]*event{}, broker: w.cluster.coordinator(),
		stored: &storedGroup{state: kafka.Empty}, supported: map[string]int{}}
}

func (g *classicGroup) fillSnap(s *groupSnap) {
	s.state, s.generation = g.state, g.generation
	if m := g.members[g.leader]; m != nil {
		s.leader = m.client
	}
}

// settled: Stable (or Empty) with every member's process alive and in step.
func (g *classicGroup) settled() bool {
	if g.state != kafka.Stable && g.state != kafka.Empty {
		return false
	}
	if g.joinTimer != nil || len(g.pending) > 0 {
		return false
	}
	// The run asks after every event while a dead member's session runs
	// out: the member that failed last time is asked first.
	if m := g.members[g.unsettled]; m != nil && !g.inStep(g.unsettled, m) {
		return false
	}
	for id, m := range g.members { // every member must be: any order will do
		if !g.inStep(id, m) {
			g.unsettled = id
			return false
		}
	}
	return true
}

// inStep: the member's process is alive and holds the group's generation.
func (g *classicGroup) inStep(id string, m *cMember) bool {
	c := g.w.byID[m.client]
	return c != nil && c.running && c.memberID == id && c.generation == g.generation && c.phase == phaseStable
}

// transition moves the group to a new state, refusing what Kafka refuses.
func (g *classicGroup) transition(to kafka.GroupState) bool {
	if !ValidClassicTransition(g.state, to) {
		g.w.fail("invalid group transition %s -> %s", g.state, to)
		return false
	}
	g.prevState, g.state = g.state, to
	return true
}

func (g *classicGroup) clientOf(memberID string) string {
	if m := g.members[memberID]; m != nil {
		return m.client
	}
	return memberID
}

// add puts a member in the group; the first member of an empty group leads.
func (g *classicGroup) add(m *cMember) {
	g.members[m.id] = m
	g.countProtocols(m.protocols, 1)
	g.order.Put(m.id)
	if m.instance != "" {
		g.instances[m.instance] = m.id
	}
	if g.leader == "" {
		g.leader = m.id
	}
	g.touchSession(m)
	g.w.memberChanged(m.client, m.id)
}

// remove takes a member out; a leaving leader hands over to the next member
// in the coordinator's map order.
func (g *classicGroup) remove(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	g.w.clock.cancel(m.session)
	g.w.orphan(m.client, id)
	delete(g.members, id)
	g.countProtocols(m.protocols, -1)
	g.order.Remove(id)
	g.w.memberChanged(m.client, id)
	if m.instance != "" && g.instances[m.instance] == id {
		delete(g.instances, m.instance)
	}
	if g.leader == id {
		g.leader = ""
		if keys := g.order.Keys(); len(keys) > 0 {
			g.leader = keys[0]
		}
	}
}

// touchSession restarts a member's session timer (any heartbeat, join or sync).
func (g *classicGroup) touchSession(m *cMember) { g.armSession(m, m.sessionTimeout) }

// armSession sets m's heartbeat deadline timeout ms from now
// (rescheduleClassicGroupMemberHeartbeat).
func (g *classicGroup) armSession(m *cMember, timeout int64) {
	g.w.clock.cancel(m.session)
	id := m.id
	m.session = g.w.clock.after(timeout, true, func() { g.sessionExpired(id) })
}

// sessionExpired is the member's heartbeat deadline passing
// (expireClassicGroupMemberHeartbeat). A member with a parked JoinGroup or
// SyncGroup satisfies it (ClassicGroupMember.hasSatisfiedHeartbeat) and
// gets no new deadline: the answer to its request sets one. A new member's
// parked JoinGroup does not: it is held at most
// CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS.
func (g *classicGroup) sessionExpired(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	if !m.isNew && (m.awaitingJoin || m.awaitingSync) {
		return
	}
	if m.isNew {
		g.w.record(kafka.KindMemberRemoved, m.client, "", false, fmt.Sprintf(
			"%s's JoinGroup as new member %s has waited %d ms (CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS): the coordinator removes it and answers UNKNOWN_MEMBER_ID; a consumer still running joins again.",
			m.client, id, newMemberJoinTimeoutMs))
		// Answered before it is removed (removeMemberAndUpdateClassicGroup).
		m.answerJoin(joinResponse{err: "UNKNOWN_MEMBER_ID"})
		g.removeAndUpdate(id, fmt.Sprintf("new member %s's join timed out", m.client), true)
		return
	}
	g.w.record(kafka.KindSessionExpired, m.client, "", false, fmt.Sprintf(
		"No heartbeat from %s for session.timeout.ms (%d ms): the coordinator removes %s.", m.client, m.sessionTimeout, id))
	g.removeAndUpdate(id, fmt.Sprintf("%s's session expired", m.client), true)
}

// newMemberJoinTimeoutMs is how long the coordinator holds a new member's
// JoinGroup (GroupCoordinatorConfig.CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS,
// a constant, not a broker setting).
const newMemberJoinTimeoutMs = 5 * 60 * 1000

// removeAndUpdate removes a member and moves the group on (a leave, an
// expiry). An expiry (removeMemberAndUpdateClassicGroup) ends a join phase
// in which everyone left has joined at once, an initial one too; a
// LeaveGroup (maybeCompleteJoinPhase) lets an initial one wait out its delay.
func (g *classicGroup) removeAndUpdate(id, reason string, expiry bool) {
	g.remove(id)
	switch g.state {
	case kafka.Stable, kafka.CompletingRebalance:
		g.prepareRebalance(reason)
	case kafka.PreparingRebalance:
		if expiry {
			g.completeJoinIfAllJoined()
		} else {
			g.maybeCompleteJoinPhase()
		}
	}
}

// completeJoinIfAllJoined ends the join phase once everyone has joined,
// even in a rebalance that began from Empty (the expiry paths of
// GroupMetadataManager call completeClassicGroupJoin directly).
func (g *classicGroup) completeJoinIfAllJoined() {
	if g.state == kafka.PreparingRebalance && g.hasAllMembersJoined() {
		g.completeJoin()
	}
}

// rebalanceTimeout is the largest of the members' (max.poll.interval.ms;
// ClassicGroup.rebalanceTimeoutMs).
func (g *classicGroup) rebalanceTimeout() int64 {
	t := int64(0)
	for _, m := range g.members {
		t = max(t, m.rebalanceTimeout)
	}
	return t
}

// acceptJoiningMember: a joiner is accepted up to group.classic.max.size
// (GroupMetadataManager.acceptJoiningMember): while PreparingRebalance a
// member already awaiting its join, or any while fewer members await one;
// in CompletingRebalance and Stable a member, or any while the group is
// smaller; an Empty group takes anyone.
func (g *classicGroup) acceptJoiningMember(id string) bool {
	limit := g.w.sc.MaxSize
	if limit <= 0 {
		return true
	}
	m := g.members[id]
	switch g.state {
	case kafka.PreparingRebalance:
		awaiting := 0
		for _, x := range g.members {
			if x.awaitingJoin {
				awaiting++
			}
		}
		return m != nil && m.awaitingJoin || int32(awaiting) < limit
	case kafka.CompletingRebalance, kafka.Stable:
		return m != nil || int32(len(g.members)) < limit
	}
	return true
}

func (g *classicGroup) hasAllMembersJoined() bool {
	if len(g.pending) > 0 {
		return false
	}
	for _, m := range g.members {
		if !m.awaitingJoin {
			return false
		}
	}
	return true
}

// prepareRebalance starts a join phase (GroupMetadataManager.prepareRebalance).
func (g *classicGroup) prepareRebalance(reason string) {
	if g.state == kafka.CompletingRebalance {
		// resetAndPropagateAssignmentWithError: every assignment is emptied.
		for _, m := range g.members {
			m.assignment = nil
		}
		g.emptied = true
		g.answerParkedSyncs("REBALANCE_IN_PROGRESS")
	}
	g.w.clock.cancel(g.syncTimer)
	g.syncTimer = nil
	initial := g.state == kafka.Empty
	if !g.transition(kafka.PreparingRebalance) {
		return
	}
	if initial {
		delay := g.w.sc.InitialRebalanceDelayMs
		remaining := max(g.rebalanceTimeout()-delay, 0)
		g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
			"Rebalance: %s. The group was Empty, so the join phase waits group.initial.rebalance.delay.ms (%d ms) for more members.", reason, delay))
		g.scheduleInitial(delay, remaining)
		return
	}
	g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
		"Rebalance: %s. Members learn it from their next heartbeat (REBALANCE_IN_PROGRESS) and must rejoin.", reason))
	g.maybeCompleteJoinElseSchedule()
}

func (g *classicGroup) scheduleInitial(delay, remaining int64) {
	g.w.clock.cancel(g.joinTimer)
	g.joinTimer = g.w.clock.after(delay, false, func() {
		g.joinTimer = nil
		if g.state != kafka.PreparingRebalance {
			return
		}
		if g.newMemberAdded && remaining != 0 {
			g.newMemberAdded = false
			next := min(g.w.sc.InitialRebalanceDelayMs, remaining)
			g.w.record(kafka.KindRebalanceDelayed, "", "", false, fmt.Sprintf(
				"Members joined during the initial delay: the join phase waits %d ms more.", next))
			g.scheduleInitial(next, max(remaining-delay, 0))
			return
		}
		g.completeJoin()
	})
}

func (g *classicGroup) maybeCompleteJoinElseSchedule() {
	if g.hasAllMembersJoined() {
		g.completeJoin()
		return
	}
	g.w.clock.cancel(g.joinTimer)
	g.joinTimer = g.w.clock.after(g.rebalanceTimeout(), false, func() {
		g.joinTimer = nil
		if g.state == kafka.PreparingRebalance {
			g.completeJoin()
		}
	})
}

// maybeCompleteJoinPhase ends the join phase early once everyone has joined,
// except in a rebalance that began from Empty (it waits out its delay).
func (g *classicGroup) maybeCompleteJoinPhase() {
	if g.state == kafka.PreparingRebalance && g.hasAllMembersJoined() && g.prevState != kafka.Empty {
		g.completeJoin()
	}
}

// completeJoin ends the join phase (completeClassicGroupJoin).
func (g *classicGroup) completeJoin() {
	g.w.clock.cancel(g.joinTimer)
	g.joinTimer = nil
	for _, id := range g.order.Keys() {
		m := g.members[id]
		if !m.awaitingJoin && m.instance == "" {
			g.w.record(kafka.KindMemberRemoved, m.client, "", false, fmt.Sprintf(
				"%s did not rejoin within the rebalance timeout (%d ms): the coordinator removes it.", m.client, g.rebalanceTimeout()))
			g.remove(id)
		}
	}
	if !g.electJoinedLeader() && len(g.members) > 0 {
		g.w.record(kafka.KindRebalanceDelayed, "", "", false,
			"No member has rejoined yet: the join phase waits another rebalance timeout.")
		g.joinTimer = g.w.clock.after(g.rebalanceTimeout(), false, func() {
			g.joinTimer = nil
			if g.state == kafka.PreparingRebalance {
				g.completeJoin()
			}
		})
		return
	}
	g.keepStaticLaggards()
	g.generation++
	if len(g.members) == 0 {
		g.protocol = ""
		if g.transition(kafka.Empty) {
			g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
				"The join phase ends with no members: generation %d, the group is Empty.", g.generation))
			g.store()
		}
		return
	}
	var why string
	g.selected, why = g.selectProtocol()
	g.protocol = g.selected.KafkaName()
	if !g.transition(kafka.CompletingRebalance) {
		return
	}
	g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf(
		"Everyone has joined: generation %d, protocol %s%s, leader %s. The coordinator answers every JoinGroup; only the leader's answer lists the members.",
		g.generation, g.protocol, why, g.clientOf(g.leader)))
	// Every member's heartbeat deadline starts again now, a static member
	// kept without rejoining too (completeClassicGroupJoin).
	for _, id := range g.order.Keys() {
		m := g.members[id]
		m.pendingSync = true
		m.isNew = false
		g.touchSession(m)
		if !m.awaitingJoin {
			continue // a static member that has not rejoined
		}
		m.awaitingJoin = false
		reply := m.joinReply
		m.joinReply = nil
		reply(g.joinResult(m.id, false))
	}
	g.syncTimer = g.w.clock.after(g.rebalanceTimeout(), false, g.syncExpired)
}

// keepStaticLaggards: static members that did not rejoin stay in the group
// (KIP-345) and get an assignment, but whatever their process still holds
// from the old generation is no longer theirs: a zombie until it rejoins.
func (g *classicGroup) keepStaticLaggards() {
	for _, id := range g.order.Keys() {
		m := g.members[id]
		if m.awaitingJoin || m.instance == "" {
			continue
		}
		if c := g.w.byID[m.client]; c != nil && c.running && c.memberID == id && len(c.owned) > 0 {
			g.w.orphan(m.client, id)
			g.w.record(kafka.KindStaticMemberKept, m.client, "", false, fmt.Sprintf(
				"%s is static and has not rejoined: it stays in the group and gets an assignment, but what it still holds from the old generation is no longer its own.", m.client))
		}
	}
}

// electJoinedLeader keeps the leader if it rejoined, else picks any member
// that did (maybeElectNewJoinedLeader).
func (g *classicGroup) electJoinedLeader() bool {
	if g.leader == "" {
		return false
	}
	if g.members[g.leader].awaitingJoin {
		return true
	}
	for _, id := range g.order.Keys() {
		if g.members[id].awaitingJoin {
			g.leader = id
			return true
		}
	}
	return false
}

// joinResult is the JoinGroup response for one member of this generation.
func (g *classicGroup) joinResult(id string, skip bool) joinResponse {
	r := joinResponse{err: "NONE", memberID: id, generation: g.generation, leader: g.leader,
		leaderClient: g.clientOf(g.leader), protocol: g.protocol, assignor: g.selected, skipAssignment: skip}
	if id == g.leader && !skip {
		racks := g.w.sc.MemberRacks() // client.rack, in each subscription
		for _, mid := range g.order.Keys() {
			m := g.members[mid]
			r.members = append(r.members, strategies.Member{ID: m.id, InstanceID: m.instance, Rack: racks[m.client],
				Topics: m.topics, Owned: m.owned, Generation: m.ownedGen})
			r.prevAssigned = append(r.prevAssigned, m.prevAssigned)
		}
	}
	return r
}

// syncExpired removes members that never sent SyncGroup (KAFKA-12890).
func (g *classicGroup) syncExpired() {
	g.syncTimer = nil
	var missing []string
	for _, id := range g.order.Keys() {
		if g.members[id].pendingSync && !g.members[id].awaitingSync {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 || (g.state != kafka.CompletingRebalance && g.state != kafka.Stable) {
		return
	}
	for _, id := range missing {
		g.w.record(kafka.KindMemberRemoved, g.clientOf(id), "", false, fmt.Sprintf(
			"%s sent no SyncGroup within the rebalance timeout: the coordinator removes it.", g.clientOf(id)))
		g.remove(id)
	}
	g.prepareRebalance("members missed the SyncGroup deadline")
}

func (g *classicGroup) answerParkedSyncs(errName string) {
	for _, id := range g.order.Keys() {
		g.propagate(g.members[id], syncResponse{err: errName})
	}
}

// propagate answers m's parked SyncGroup, if it has one, and starts its
// heartbeat deadline again (propagateAssignment).
func (g *classicGroup) propagate(m *cMember, r syncResponse) {
	if m.awaitingSync {
		m.answerSync(r)
		g.touchSession(m)
	}
}

// store writes the group to the log (at Stable, at Empty, on a static
// replacement): what a new coordinator will load.
func (g *classicGroup) store() {
	s := &storedGroup{state: g.state, generation: g.generation, protocol: g.protocol, selected: g.selected, leader: g.leader}
	for _, id := range g.order.Keys() {
		m := *g.members[id]
		m.session, m.joinReply, m.syncReply = nil, nil, nil
		m.awaitingJoin, m.awaitingSync, m.pendingSync = false, false, false
		s.members = append(s.members, m)
	}
	g.stored = s
}

func (g *classicGroup) topicsChanged() {
	// Only the leader watches partition counts (ConsumerCoordinator's
	// assignmentSnapshot); it notices at its next metadata refresh.
	if m := g.members[g.leader]; m != nil {
		if c := g.w.byID[m.client]; c != nil && c.running {
			c.scheduleMetadataRefresh()
		}
	}
}

// newIDOrder is a java.util.HashMap keyed by strings (member ids, assignor
// names): the coordinator iterates its maps in that order.
func newIDOrder() *strategies.JavaHashMap[string] {
	return strategies.NewJavaHashMap(strategies.JavaHashCode)
}
