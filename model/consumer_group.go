package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// Member epochs with a meaning (ConsumerGroupHeartbeatRequest).
const (
	joinEpoch        int32 = 0
	leaveEpoch       int32 = -1
	staticLeaveEpoch int32 = -2
)

// consumerGroup is the coordinator's side of a KIP-848 group.
type consumerGroup struct {
	w *world
	// shown is the group state the last step showed: the state is derived
	// (derive) at every step, and a GroupStateChanged step tells of a change
	// no other step showed.
	shown       kafka.GroupState
	reconciledN int // members STABLE at the assignment epoch (kMember.countedAt)
	// detached: members no client view shows (see detachedMembers), rebuilt
	// when detachedStale.
	detached      []awayMember
	detachedStale bool
	groupEpoch    int32
	assignEpoch   int32
	members       map[string]*kMember
	order         []*kMember            // the members in join order
	instances     map[string]string     // group.instance.id -> member id
	target        map[string][]kafka.TP // member id -> target assignment
	// targetFrom and targetDelta: target was made from targetFrom by
	// changing (or adding) only the entries of targetDelta's ids, or
	// targetDelta is nil (targetChanges: the history logs those alone).
	targetFrom  map[string][]kafka.TP
	targetDelta []string
	// outs is the last computed target's entries in g.order's order as
	// it was then (outsN members, outsOf that map, orderVer then): the
	// next computation reads the members still in those places from it,
	// not from the map (7,000 lookups at every join of a 7,000-member
	// group). orderVer counts removals from g.order.
	outs      [][]kafka.TP
	outsN     int
	outsOf    map[string][]kafka.TP // held, so no other map takes its address
	outsVer   int
	orderVer  int
	owner     ownerIndex // partition -> member that holds it (assigned or revoking)
	metaStale bool       // partition counts changed since the last heartbeat
	// filterTargets: a subscription or partition count changed, so old
	// targets may name partitions the assignor must not see as owned.
	filterTargets bool
	// lastTargetAt is when the assignor last ran (-1: never); deferredEpoch
	// the group epoch whose wait for the assignment interval a step told
	// of (consumer_batching.go).
	lastTargetAt  int64
	deferredEpoch int32
	input         []strategies.Member // computeTarget's input, reused between runs
	prevs         [][]kafka.TP        // computeTarget's: each member's current target, by input index
	missing       []int               // computeTarget's: input indexes of members g.target does not map
	seen          []bool              // runAssignor's: members the assignor gave partitions
	partTexts     map[string]partText // client -> its last "client target" text
	unwritten     *kMember            // the member whose join is being handled (kMember.unwritten)
	pendingBump   string              // why the joining heartbeat bumped the group epoch, told by writeJoin
	// metaWhy says why metaStale was set, when not a partition count
	// (a topic created or deleted: pattern.go); regex is the group's
	// resolved regular expressions (pattern_regex.go), regexWhy why the
	// heartbeat being handled bumps the epoch for one.
	metaWhy  string
	regex    regexState
	regexWhy string
	// ghosts: some member held a topic when it was deleted, so partitions
	// of deleted topic ids may be held (topic_ids.go).
	ghosts bool
}

// kMember is one member as the coordinator keeps it.
type kMember struct {
	id, client, instance string
	topics               []string
	epoch, prevEpoch     int32
	state                kafka.MemberState
	assigned, revoking   []kafka.TP
	session, revokeTimer *event
	// assignedAt is the member epoch each held partition was assigned at
	// (KIP-1251, Kafka 4.3; nil before): consumer_commit.go.
	assignedAt map[kafka.TP]int32
	version    int // bumps on every change the member's heartbeat answer shows
	// countedAt is the assignment epoch at which the member was counted in
	// reconciledN (STABLE at that epoch, isReconciledTo), or -1. A new
	// assignment epoch finds no member at it yet, so it uncounts them all
	// at once.
	countedAt int32
	// unwritten: a member whose joining heartbeat is being handled. Kafka
	// writes its epoch and state in the same batch of records as the group
	// epoch bump and the target (CurrentAssignmentBuilder decides them
	// before anything is written), so no step shows it until its
	// reconciliation has run: there is no "STABLE at epoch 0" to see.
	unwritten bool
	// rebalanceTimeout is the member's max.poll.interval.ms (the
	// RebalanceTimeoutMs of its joining heartbeat).
	rebalanceTimeout int64
	// classic: the member runs the classic protocol (JoinGroup, SyncGroup,
	// Heartbeat) in this consumer group (consumer_classic.go); nil for a
	// consumer-protocol member.
	classic *classicMeta
	// regex is its SubscribedTopicRegex ("" = none): its topics are what
	// the coordinator resolved it to (pattern_regex.go).
	regex string
	// onTopicsSeen remembers the last target and subscription allOnTopics
	// found to agree (targetOnTopics): between two targets, a member of a
	// thousand topics heartbeats again and again with both unchanged.
	onTopicsSeen struct {
		target *kafka.TP
		topics *string
		n, nt  int
	}
}

// targetOnTopics is allOnTopics(target, m.topics), remembered while both
// stay the same slices (targets and subscriptions are replaced, never
// written over).
func (m *kMember) targetOnTopics(target []kafka.TP) bool {
	if len(target) == 0 || len(m.topics) == 0 {
		return allOnTopics(target, m.topics)
	}
	seen := &m.onTopicsSeen
	if seen.target == &target[0] && seen.n == len(target) && seen.topics == &m.topics[0] && seen.nt == len(m.topics) {
		return true
	}
	if !allOnTopics(target, m.topics) {
		return false
	}
	seen.target, seen.n, seen.topics, seen.nt = &target[0], len(target), &m.topics[0], len(m.topics)
	return true
}

// awayMember is a member the coordinator holds that no client view shows:
// the old member of a process that restarted before its session expired
// (a dynamic one, or a static one away at epoch -2 or crashed). Traces list
// it by member id.
type awayMember struct {
	id    string
	epoch int32
	state kafka.MemberState
}

func newConsumerGroup(w *world) *consumerGroup {
	g := &consumerGroup{w: w, shown: kafka.KEmpty, members: map[string]*kMember{}, instances: map[string]string{},
		target: map[string][]kafka.TP{}, lastTargetAt: -1}
	if w.sc.KafkaVersion.GroupEpochStartsAtOne() {
		// KAFKA-20268 (Kafka 4.3): a new group starts at group epoch 1 with
		// an empty target at assignment epoch 1, so a member can reconcile
		// to epoch 1 before the first target (epoch 2) exists.
		g.groupEpoch, g.assignEpoch = 1, 1
	}
	return g
}

// fillSnap shares the target map: it is replaced, never changed, once
// published. Member epochs travel in the members' views, but for the
// detached members no view shows.
func (g *consumerGroup) fillSnap(s *groupSnap) {
	g.shown = g.derive()
	s.state, s.generation, s.assignEpoch = g.shown, g.groupEpoch, g.assignEpoch
	s.target = g.target
	if g.unwritten != nil {
		// A static member taking over a slot brings the old one's target;
		// it is written with the member.
		if _, ok := g.target[g.unwritten.id]; ok {
			s.target = make(map[string][]kafka.TP, len(g.target))
			for k, v := range g.target {
				if k != g.unwritten.id {
					s.target[k] = v
				}
			}
		}
	}
	s.away = g.detachedMembers()
}

// write ends m's join: its epoch and state are decided, and from the next
// step on the trace shows it.
func (g *consumerGroup) write(m *kMember) {
	if !m.unwritten {
		return
	}
	m.unwritten = false
	g.unwritten = nil
	g.touch(m)
}

// derive is the group state by Kafka's rule (ConsumerGroup.maybeUpdateGroupState):
// EMPTY with no members, ASSIGNING while the group epoch is ahead of the
// assignment epoch, RECONCILING while a member is not STABLE at the
// assignment epoch, else STABLE. Kafka derives it on every change, so every
// step shows it, the steps between a bump and its target too.
//
// A joiner not yet written (kMember.unwritten) is not counted: the step
// does not show it.
func (g *consumerGroup) derive() kafka.GroupState {
	n := len(g.members)
	if g.unwritten != nil {
		n--
	}
	switch {
	case n == 0:
		return kafka.KEmpty
	case g.groupEpoch > g.assignEpoch:
		return kafka.KAssigning
	case g.reconciledN < n:
		return kafka.KReconciling
	}
	return kafka.KStable
}

// noteReconciled keeps m's part of reconciledN right.
func (g *consumerGroup) noteReconciled(m *kMember) {
	r := m.state == kafka.MStable && m.epoch == g.assignEpoch && !m.unwritten
	switch counted := m.countedAt == g.assignEpoch; {
	case r && !counted:
		m.countedAt = g.assignEpoch
		g.reconciledN++
	case !r && counted:
		m.countedAt = -1
		g.reconciledN--
	}
}

// touch notes a change to a member that its view (epoch, state) shows.
func (g *consumerGroup) touch(m *kMember) {
	m.version++
	g.noteReconciled(m)
	if g.attached(m) {
		g.w.byID[m.client].changed()
	} else {
		g.detachedStale = true // also when it was, and is being removed
	}
}

// attached: the member's client shows it in its view (client.view).
func (g *consumerGroup) attached(m *kMember) bool {
	c := g.w.byID[m.client]
	return c != nil && (c.consumer != nil || !c.consumerProto) && c.memberID == m.id && m.id != ""
}

// detachedMembers lists, in join order, the members no client view shows.
// The list is replaced, never changed, once published.
func (g *consumerGroup) detachedMembers() []awayMember {
	if !g.detachedStale {
		return g.detached
	}
	g.detachedStale = false
	var out []awayMember
	for _, m := range g.order {
		if !g.attached(m) {
			out = append(out, awayMember{id: m.id, epoch: m.epoch, state: m.state})
		}
	}
	g.detached = out
	return out
}

// setTarget replaces one member's target, copying the map (snapshots share it).
func (g *consumerGroup) setTarget(id string, tps []kafka.TP) {
	next := make(map[string][]kafka.TP, len(g.target)+1)
	for k, v := range g.target {
		if k != id {
			next[k] = v
		}
	}
	if tps != nil {
		next[id] = tps
	}
	g.target = next
}

// displayName is the client id, or the member id itself for a member the
// client has since replaced (a restarted dynamic consumer's old self).
func (g *consumerGroup) displayName(id string) string {
	m := g.members[id]
	if c := g.w.byID[m.client]; c != nil && c.memberID == id {
		return m.client
	}
	return id
}

func (g *consumerGroup) settled() bool {
	if st := g.derive(); (st != kafka.KStable && st != kafka.KEmpty) || (g.metaStale && len(g.members) > 0) || g.regexUnsettled() {
		return false
	}
	for _, m := range g.order {
		c := g.w.byID[m.client]
		if c == nil || !c.running || c.memberID != m.id || m.epoch != g.assignEpoch || m.state != kafka.MStable {
			return false
		}
		if m.classic != nil && (c.consumerProto || c.phase != phaseStable || c.generation != m.epoch || c.rejoinNeeded) {
			return false // a classic member in step: synced at its member epoch
		}
	}
	return true
}

// updateState tells of a change of the group state that the last step did
// not show (a member's reconciliation moved it).
func (g *consumerGroup) updateState() {
	if st := g.derive(); st != g.shown {
		g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf("The group goes from %s to %s (group epoch %d, assignment epoch %d).",
			g.shown, st, g.groupEpoch, g.assignEpoch))
	}
}

func (g *consumerGroup) bumpEpoch(why string) {
	g.groupEpoch++
	g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf("Group epoch %d: %s.", g.groupEpoch, why))
}

func (g *consumerGroup) add(m *kMember) {
	g.members[m.id] = m
	m.countedAt = -1
	g.order = append(g.order, m)
	if m.instance != "" {
		g.instances[m.instance] = m.id
	}
	g.touch(m)
	if m.regex != "" {
		g.armRegexDue() // a replacement brings its regex back (pattern_regex.go)
	}
}

// remove drops a member and releases its partitions.
func (g *consumerGroup) remove(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	g.w.clock.cancel(m.session)
	g.w.clock.cancel(m.revokeTimer)
	m.classic.cancel(g.w)
	g.regexMemberGone(m)
	g.w.orphan(m.client, id)
	g.setHeld(m, nil, nil)
	m.epoch = leaveEpoch
	g.touch(m) // uncounts it: its epoch is -1
	delete(g.members, id)
	if _, ok := g.target[id]; ok {
		g.setTarget(id, nil)
	}
	for i, x := range g.order {
		if x == m {
			g.order = append(g.order[:i:i], g.order[i+1:]...)
			g.orderVer++
			break
		}
	}
	if m.instance != "" && g.instances[m.instance] == id {
		delete(g.instances, m.instance)
	}
	if m.regex != "" {
		// The group's regexes changed: a regex still subscribed (by the
		// member taking this one's place) may be unresolved now, or none
		// is left; the next refresh's mark moves (pattern_regex.go).
		g.armRegexDue()
	}
}

// setHeld changes what a member holds, keeping the owner index right.
func (g *consumerGroup) setHeld(m *kMember, assigned, revoking []kafka.TP) {
	for _, tp := range m.assigned {
		g.owner.set(tp, "")
	}
	for _, tp := range m.revoking {
		g.owner.set(tp, "")
	}
	m.assigned, m.revoking = assigned, revoking
	for _, tp := range assigned {
		g.owner.set(tp, m.id)
	}
	for _, tp := range revoking {
		g.owner.set(tp, m.id)
	}
	g.noteAssignedAt(m)
}

func (g *consumerGroup) touchSession(m *kMember) {
	g.w.clock.cancel(m.session)
	id := m.id
	timeout, what := g.w.sc.ConsumerSessionTimeout(), "group.consumer.session.timeout.ms"
	if m.classic != nil {
		// A classic member's own session.timeout.ms (classicProtocolSessionTimeout).
		timeout, what = m.classic.sessionTimeout, "its session.timeout.ms"
	}
	m.session = g.w.clock.after(timeout, true, func() {
		mm := g.members[id]
		if mm == nil {
			return
		}
		g.w.record(kafka.KindSessionExpired, mm.client, "", false, fmt.Sprintf(
			"No heartbeat from %s for %s (%d ms): the coordinator fences it and frees its partitions.", mm.client, what, timeout))
		g.fence(id, fmt.Sprintf("%s's session expired", mm.client))
	})
}

// fence removes a member and bumps the group epoch
// (GroupMetadataManager.consumerGroupFenceMember). It computes no target:
// the group is ASSIGNING until the next heartbeat of any member finds the
// group epoch ahead of the assignment epoch and runs the assignor.
func (g *consumerGroup) fence(id, why string) { g.fenceAll([]string{id}, why) }

// fenceAll removes members with one group epoch bump
// (consumerGroupFenceMembers), unless every member left runs the classic
// protocol: then the group goes back to being a classic group
// (migration.go).
func (g *consumerGroup) fenceAll(ids []string, why string) {
	if g.w.downgradeOnLeave(ids, why) {
		return
	}
	for _, id := range ids {
		g.remove(id)
	}
	g.bumpEpoch(why)
	g.updateState()
}

func (g *consumerGroup) topicsChanged() { g.metaStale, g.filterTargets = true, true }

// computeTarget runs the server-side assignor over the members, each
// reporting its previous target as owned. Kafka 4.0-4.2 run it on every
// heartbeat that finds the group epoch ahead of the assignment epoch, so a
// thousand joiners mean a thousand runs (4.3 batches them: deferTarget):
// the input is built from slices kept for the purpose, and unchanged
// targets keep their slices.
//
// before runs just before the AssignmentComputed step is recorded: a
// joiner's reconciliation, written with the target (kMember.unwritten).
func (g *consumerGroup) computeTarget(before func()) {
	if g.groupEpoch <= g.assignEpoch || g.deferTarget() {
		return
	}
	g.lastTargetAt = g.w.clock.now
	prevs, missing := g.prevs[:0], g.missing[:0]
	members := slices.Grow(g.input[:0], len(g.order))[:len(g.order)]
	known := 0 // the first members whose entries g.outs holds
	if g.target != nil && g.outsOf != nil && mapID(g.outsOf) == mapID(g.target) && g.outsVer == g.orderVer {
		known = min(g.outsN, len(g.order))
	}
	for i, m := range g.order {
		id := m.id
		var owned []kafka.TP
		ok := i < known
		if ok {
			owned = g.outs[i]
		} else {
			owned, ok = g.target[id]
		}
		if !ok {
			missing = append(missing, i)
		}
		prevs = append(prevs, owned)
		if g.filterTargets {
			owned = g.w.existing(kafka.OnTopics(owned, m.topics))
		}
		// The input of the last run mostly holds the same members in the
		// same places: only what changed is written.
		in := &members[i]
		if in.ID != id {
			*in = strategies.Member{ID: id, InstanceID: m.instance}
		}
		if !sameStrings(in.Topics, m.topics) {
			in.Topics = m.topics
		}
		if !sameSlice(in.Owned, owned) {
			in.Owned = owned
		}
		in.Generation = g.assignEpoch
	}
	g.input, g.prevs, g.missing = members, prevs, missing
	grp := strategies.Group{Topics: g.w.subscribedTopics(members), Members: members, Version: g.w.sc.KafkaVersion}
	// Targets only ever name partitions of subscribed topics (the assignor
	// made them, partitions never go away, and a subscription or partition
	// change filters them first), and member ids are the group's map keys:
	// the input needs checking only when something outside the group's
	// own bookkeeping changed.
	if g.filterTargets || len(g.target) == 0 {
		if err := grp.Validate(); err != nil {
			g.w.fail("target assignment: %v", err)
			return
		}
	}
	// Every key of g.target is a member when g.target maps all members but
	// the missing ones (member ids are unique).
	from := g.target
	target, delta, outs := g.runAssignor(grp, prevs, missing, len(g.target) == len(g.order)-len(missing))
	g.outs, g.outsN, g.outsVer, g.outsOf = outs, len(outs), g.orderVer, target
	parts := make([]string, 0, min(len(g.order), kafka.MaxListed+1))
	for _, m := range g.order[:min(len(g.order), kafka.MaxListed+1)] {
		parts = append(parts, g.partText(m.client, target[m.id]))
	}
	g.target, g.targetFrom, g.targetDelta = target, from, delta
	g.filterTargets = false
	g.assignEpoch = g.groupEpoch
	g.reconciledN = 0 // member epochs never run ahead of the assignment epoch
	text := fmt.Sprintf("The coordinator runs the %s assignor for epoch %d: target %s.", g.w.serverAssignor().KafkaName(), g.assignEpoch, kafka.Summarize(parts))
	if len(members) == 0 {
		text = fmt.Sprintf("The group has no members: the target assignment for epoch %d is empty.", g.assignEpoch)
	}
	if before != nil {
		before()
	}
	g.w.record(kafka.KindAssignmentComputed, "", "", false, text)
}

// reconcile is CurrentAssignmentBuilder: move the member towards its target.
func (g *consumerGroup) reconcile(m *kMember, owned []kafka.TP) {
	if m.state == kafka.MStable && m.epoch == g.assignEpoch && !g.heldOffSubscription(m) {
		return
	}
	// The epoch a member that must revoke stays at: its own, or, once it
	// has revoked what it had to, the next one, but never past the target's
	// (CurrentAssignmentBuilder.build: a subscription change put it in
	// UNREVOKED_PARTITIONS while the new target is deferred, and it must
	// revoke again before that target exists).
	revokeEpoch := m.epoch
	if m.state == kafka.MUnrevoked {
		if len(kafka.IntersectTPs(owned, m.revoking)) > 0 {
			return // still owns partitions it must revoke
		}
		revokeEpoch = min(m.epoch+1, g.assignEpoch)
	}
	oldEpoch, oldState, oldAssigned, oldRevoking := m.epoch, m.state, m.assigned, m.revoking
	defer func() {
		if oldEpoch != m.epoch || oldState != m.state || !slices.Equal(oldAssigned, m.assigned) || !slices.Equal(oldRevoking, m.revoking) {
			g.touch(m)
			g.revokeTimeout(m)
		}
	}()
	target := g.target[m.id]
	if !m.targetOnTopics(target) {
		target = kafka.OnTopics(target, m.topics)
	}
	kept := kafka.IntersectTPs(m.assigned, target)
	revoke := kafka.MinusTPs(m.assigned, kept)
	// free is made at its bound: a range-server member of a thousand
	// topics has a new partition of each to take.
	adding := kafka.MinusTPs(target, kept)
	free, unreleased := make([]kafka.TP, 0, len(adding)), 0
	for _, tp := range adding {
		if o := g.owner.get(tp); o != "" && o != m.id {
			unreleased++
		} else {
			free = append(free, tp)
		}
	}
	// Every branch moves the epoch with updateMemberEpoch, which keeps the
	// one before as the previous epoch.
	switch {
	case len(revoke) > 0 && len(kafka.IntersectTPs(owned, revoke)) > 0:
		g.setHeld(m, kept, revoke)
		m.prevEpoch, m.epoch = m.epoch, revokeEpoch
		m.state = kafka.MUnrevoked
	case len(free) > 0 || unreleased > 0:
		g.setHeld(m, kafka.UnionTPs(kept, free), nil)
		m.prevEpoch, m.epoch = m.epoch, g.assignEpoch
		m.state = kafka.MStable
		if unreleased > 0 {
			m.state = kafka.MUnreleased
		}
	default:
		g.setHeld(m, kept, nil)
		m.prevEpoch, m.epoch = m.epoch, g.assignEpoch
		m.state = kafka.MStable
	}
}

// revokeTimeout follows a member's change: one that must revoke gets (a
// fresh) rebalance timeout, max.poll.interval.ms; any other loses it
// (GroupMetadataManager.maybeReconcile).
func (g *consumerGroup) revokeTimeout(m *kMember) {
	g.w.clock.cancel(m.revokeTimer)
	m.revokeTimer = nil
	if m.state == kafka.MUnrevoked {
		g.scheduleRevokeTimeout(m)
	}
}

// scheduleRevokeTimeout: a member still at this epoch when its rebalance
// timeout runs out did not revoke, and is fenced
// (GroupMetadataManager.scheduleConsumerGroupRebalanceTimeout).
func (g *consumerGroup) scheduleRevokeTimeout(m *kMember) {
	id, epoch := m.id, m.epoch
	timeout := m.rebalanceTimeout
	if timeout <= 0 {
		timeout = g.w.sc.MaxPollIntervalMs
	}
	m.revokeTimer = g.w.clock.after(timeout, false, func() {
		mm := g.members[id]
		if mm == nil || mm.epoch != epoch {
			return
		}
		mm.revokeTimer = nil
		g.w.record(kafka.KindMemberRemoved, mm.client, "", false, fmt.Sprintf(
			"%s did not revoke %s within the rebalance timeout (%d ms, its max.poll.interval.ms): the coordinator fences it.",
			g.displayName(id), kafka.FormatTPs(plainTPs(mm.revoking)), timeout))
		g.fence(id, fmt.Sprintf("%s was fenced for not revoking in time", g.displayName(id)))
	})
}

// moved: a consumer group is rebuilt from its records on the new
// coordinator exactly as it was (every change was written), timers restart.
func (g *consumerGroup) moved(from, to int) {
	for _, m := range g.order {
		g.w.clock.cancel(m.session)
		g.w.clock.cancel(m.revokeTimer)
		m.revokeTimer = nil
		m.classic.cancel(g.w) // a join or sync deadline is not written: it goes with the old coordinator
	}
	if to < 0 {
		g.w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
			"Broker %d unloads %s; no broker leads partition %d now.", from, g.w.sc.GroupID, g.w.cluster.groupPartition))
		return
	}
	for _, m := range g.order {
		// GroupMetadataManager.onLoaded: sessions, and rebalance timeouts
		// of the members that must revoke, start again.
		g.touchSession(m)
		if m.state == kafka.MUnrevoked {
			g.scheduleRevokeTimeout(m)
		}
	}
	g.w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
		"Broker %d becomes the coordinator of %s and replays its records: epochs, targets and assignments come back unchanged. Members rediscover it with FindCoordinator.",
		to, g.w.sc.GroupID))
}
