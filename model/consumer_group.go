package model

import (
	"fmt"
	"slices"

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
	w           *world
	state       GroupState
	groupEpoch  int32
	assignEpoch int32
	members     map[string]*kMember
	order       []string          // member ids in join order
	instances   map[string]string // group.instance.id -> member id
	target      map[string][]TP   // member id -> target assignment
	owner       map[TP]string     // partition -> member that holds it (assigned or revoking)
	metaStale   bool              // partition counts changed since the last heartbeat
	// filterTargets: a subscription or partition count changed, so old
	// targets may name partitions the assignor must not see as owned.
	filterTargets bool
	input         []strategies.Member // computeTarget's input, reused between runs
	prevs         [][]TP              // computeTarget's: each member's current target, by input index
	seen          []bool              // runAssignor's: members the assignor gave partitions
	partTexts     map[string]partText // client -> its last "client target" text
}

// kMember is one member as the coordinator keeps it.
type kMember struct {
	id, client, instance string
	topics               []string
	epoch, prevEpoch     int32
	state                MemberState
	assigned, revoking   []TP
	session, revokeTimer *event
	version              int // bumps on every change the member's heartbeat answer shows
}

func newConsumerGroup(w *world) *consumerGroup {
	return &consumerGroup{w: w, state: KEmpty, members: map[string]*kMember{}, instances: map[string]string{},
		target: map[string][]TP{}, owner: map[TP]string{}}
}

// fillSnap shares the target map: it is replaced, never changed, once
// published. Member epochs travel in the members' views.
func (g *consumerGroup) fillSnap(s *groupSnap) {
	s.state, s.generation, s.assignEpoch = g.state, g.groupEpoch, g.assignEpoch
	s.target = g.target
}

// touch notes a change to a member that its view (epoch, state) shows.
func (g *consumerGroup) touch(m *kMember) {
	m.version++
	if c := g.w.byID[m.client]; c != nil && c.memberID == m.id {
		c.changed()
	}
}

// setTarget replaces one member's target, copying the map (snapshots share it).
func (g *consumerGroup) setTarget(id string, tps []TP) {
	next := make(map[string][]TP, len(g.target)+1)
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
	if (g.state != KStable && g.state != KEmpty) || (g.metaStale && len(g.members) > 0) {
		return false
	}
	for _, id := range g.order {
		m := g.members[id]
		c := g.w.byID[m.client]
		if c == nil || !c.running || c.memberID != id || m.epoch != g.assignEpoch || m.state != MStable {
			return false
		}
	}
	return true
}

// updateState derives the group state (maybeUpdateGroupState).
func (g *consumerGroup) updateState() {
	old := g.state
	switch {
	case len(g.members) == 0:
		g.state = KEmpty
	case g.groupEpoch > g.assignEpoch:
		g.state = KAssigning
	default:
		g.state = KStable
		for _, m := range g.members {
			if m.epoch != g.assignEpoch || m.state != MStable {
				g.state = KReconciling
				break
			}
		}
	}
	if old != g.state {
		g.w.record(KindGroupStateChanged, "", "", false, fmt.Sprintf("The group goes from %s to %s (group epoch %d, assignment epoch %d).",
			old, g.state, g.groupEpoch, g.assignEpoch))
	}
}

func (g *consumerGroup) bumpEpoch(why string) {
	g.groupEpoch++
	g.w.record(KindGroupStateChanged, "", "", false, fmt.Sprintf("Group epoch %d: %s.", g.groupEpoch, why))
}

func (g *consumerGroup) add(m *kMember) {
	g.members[m.id] = m
	g.order = append(g.order, m.id)
	if m.instance != "" {
		g.instances[m.instance] = m.id
	}
	g.touch(m)
}

// remove drops a member and releases its partitions.
func (g *consumerGroup) remove(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	g.w.clock.cancel(m.session)
	g.w.clock.cancel(m.revokeTimer)
	g.w.orphan(m.client, id)
	g.setHeld(m, nil, nil)
	m.epoch = leaveEpoch
	g.touch(m)
	delete(g.members, id)
	if _, ok := g.target[id]; ok {
		g.setTarget(id, nil)
	}
	for i, x := range g.order {
		if x == id {
			g.order = append(g.order[:i:i], g.order[i+1:]...)
			break
		}
	}
	if m.instance != "" && g.instances[m.instance] == id {
		delete(g.instances, m.instance)
	}
}

// setHeld changes what a member holds, keeping the owner index right.
func (g *consumerGroup) setHeld(m *kMember, assigned, revoking []TP) {
	for _, tp := range m.assigned {
		delete(g.owner, tp)
	}
	for _, tp := range m.revoking {
		delete(g.owner, tp)
	}
	m.assigned, m.revoking = assigned, revoking
	for _, tp := range assigned {
		g.owner[tp] = m.id
	}
	for _, tp := range revoking {
		g.owner[tp] = m.id
	}
}

func (g *consumerGroup) touchSession(m *kMember) {
	g.w.clock.cancel(m.session)
	id := m.id
	m.session = g.w.clock.after(g.w.sc.SessionTimeoutMs, true, func() {
		mm := g.members[id]
		if mm == nil {
			return
		}
		g.w.record(KindSessionExpired, mm.client, "", false, fmt.Sprintf(
			"No heartbeat from %s for group.consumer.session.timeout.ms (%d ms): the coordinator fences it and frees its partitions.", mm.client, g.w.sc.SessionTimeoutMs))
		g.fence(id, fmt.Sprintf("%s's session expired", mm.client))
	})
}

// fence removes a member and bumps the group epoch
// (GroupMetadataManager.consumerGroupFenceMember). It computes no target:
// the group is ASSIGNING until the next heartbeat of any member finds the
// group epoch ahead of the assignment epoch and runs the assignor.
func (g *consumerGroup) fence(id, why string) {
	g.remove(id)
	g.bumpEpoch(why)
	g.updateState()
}

func (g *consumerGroup) topicsChanged() { g.metaStale, g.filterTargets = true, true }

// computeTarget runs the server-side assignor over the members, each
// reporting its previous target as owned. Kafka runs it on every heartbeat
// that finds the group epoch ahead of the assignment epoch, so a thousand
// joiners mean a thousand runs: the input is built from slices kept for
// the purpose, and unchanged targets keep their slices.
func (g *consumerGroup) computeTarget() {
	if g.groupEpoch <= g.assignEpoch {
		return
	}
	members, prevs := g.input[:0], g.prevs[:0]
	known := 0 // members g.target maps
	for _, id := range g.order {
		m := g.members[id]
		owned, ok := g.target[id]
		if ok {
			known++
		}
		prevs = append(prevs, owned)
		if g.filterTargets {
			owned = g.w.existing(onTopics(owned, m.topics))
		}
		members = append(members, strategies.Member{ID: id, InstanceID: m.instance, Topics: m.topics,
			Owned: owned, Generation: g.assignEpoch})
	}
	g.input, g.prevs = members, prevs
	grp := strategies.Group{Topics: g.w.subscribedTopics(members), Members: members}
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
	target := g.runAssignor(grp, prevs, known == len(g.order) && len(g.target) == known)
	parts := make([]string, 0, min(len(g.order), maxListed+1))
	for _, id := range g.order[:min(len(g.order), maxListed+1)] {
		parts = append(parts, g.partText(g.members[id].client, target[id]))
	}
	g.target = target
	g.filterTargets = false
	g.assignEpoch = g.groupEpoch
	text := fmt.Sprintf("The coordinator runs the %s assignor for epoch %d: target %s.", g.w.assignor.KafkaName(), g.assignEpoch, summarize(parts))
	if len(members) == 0 {
		text = fmt.Sprintf("The group has no members: the target assignment for epoch %d is empty.", g.assignEpoch)
	}
	g.w.record(KindAssignmentComputed, "", "", false, text)
}

// reconcile is CurrentAssignmentBuilder: move the member towards its target.
func (g *consumerGroup) reconcile(m *kMember, owned []TP) {
	if m.state == MUnrevoked && len(intersect(owned, m.revoking)) > 0 {
		return // still owns partitions it must revoke
	}
	if m.state == MStable && m.epoch == g.assignEpoch {
		return
	}
	oldEpoch, oldState, oldAssigned, oldRevoking := m.epoch, m.state, m.assigned, m.revoking
	defer func() {
		if oldEpoch != m.epoch || oldState != m.state || !slices.Equal(oldAssigned, m.assigned) || !slices.Equal(oldRevoking, m.revoking) {
			g.touch(m)
		}
	}()
	target := g.target[m.id]
	if !allOnTopics(target, m.topics) {
		target = onTopics(target, m.topics)
	}
	kept := intersect(m.assigned, target)
	revoke := minus(m.assigned, kept)
	var free, unreleased []TP
	for _, tp := range minus(target, kept) {
		if o, held := g.owner[tp]; held && o != m.id {
			unreleased = append(unreleased, tp)
		} else {
			free = append(free, tp)
		}
	}
	switch {
	case len(revoke) > 0 && len(intersect(owned, revoke)) > 0:
		g.setHeld(m, kept, revoke)
		m.state = MUnrevoked
		g.startRevokeTimer(m)
	case len(free) > 0 || len(unreleased) > 0:
		g.setHeld(m, union(kept, free), nil)
		m.prevEpoch, m.epoch = m.epoch, g.assignEpoch
		m.state = MStable
		if len(unreleased) > 0 {
			m.state = MUnreleased
		}
	default:
		g.setHeld(m, kept, nil)
		m.prevEpoch, m.epoch = m.epoch, g.assignEpoch
		m.state = MStable
	}
	if m.state != MUnrevoked {
		g.w.clock.cancel(m.revokeTimer)
		m.revokeTimer = nil
	}
}

// startRevokeTimer: a member must revoke within the rebalance timeout
// (max.poll.interval.ms) or be fenced.
func (g *consumerGroup) startRevokeTimer(m *kMember) {
	if m.revokeTimer != nil {
		return
	}
	id := m.id
	m.revokeTimer = g.w.clock.after(g.w.sc.MaxPollIntervalMs, false, func() {
		mm := g.members[id]
		if mm == nil || mm.state != MUnrevoked {
			return
		}
		mm.revokeTimer = nil
		g.w.record(KindMemberRemoved, mm.client, "", false, fmt.Sprintf(
			"%s did not revoke %s within the rebalance timeout (%d ms): the coordinator fences it.", mm.client, fmtTPs(mm.revoking), g.w.sc.MaxPollIntervalMs))
		g.fence(id, fmt.Sprintf("%s was fenced for not revoking", mm.client))
	})
}

// moved: a consumer group is rebuilt from its records on the new
// coordinator exactly as it was (every change was written), timers restart.
func (g *consumerGroup) moved(from, to int) {
	for _, id := range g.order {
		g.w.clock.cancel(g.members[id].session)
	}
	if to < 0 {
		g.w.record(KindCoordinatorMoved, "", "", false, fmt.Sprintf(
			"Broker %d unloads %s; no broker leads partition %d now.", from, g.w.sc.GroupID, g.w.cluster.groupPartition))
		return
	}
	for _, id := range g.order {
		g.touchSession(g.members[id])
	}
	g.w.record(KindCoordinatorMoved, "", "", false, fmt.Sprintf(
		"Broker %d becomes the coordinator of %s and replays its records: epochs, targets and assignments come back unchanged. Members rediscover it with FindCoordinator.",
		to, g.w.sc.GroupID))
}
