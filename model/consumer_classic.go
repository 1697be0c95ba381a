package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Classic members of a consumer group (KIP-848's online migration, Kafka
// 4.0's GroupMetadataManager): a consumer that runs the classic protocol
// keeps sending JoinGroup, SyncGroup and Heartbeat, and the consumer
// coordinator answers them from the consumer group. There is no join phase
// and no leader: the server-side assignor computes the target, a JoinGroup
// is the member's reconciliation (its generation is the member epoch it
// reaches), and the SyncGroup answer is what it now holds. A heartbeat says
// REBALANCE_IN_PROGRESS when the member must rejoin: the group epoch is
// ahead of its epoch, it has partitions to revoke, or partitions it waits
// for are free. A cooperative member revokes through a rejoin, an eager one
// gives everything up before each JoinGroup, as ever.

// classicMeta is what the consumer group keeps of a classic member
// (ConsumerGroupMember.classicMemberMetadata) and its timers.
type classicMeta struct {
	sessionTimeout int64
	protocols      []string // its assignors (kviz names), in its order
	// joinTimer fences it if it does not rejoin within its rebalance
	// timeout after being told to (scheduleConsumerGroupJoinTimeoutIfAbsent);
	// syncTimer if no SyncGroup follows its JoinGroup in time
	// (scheduleConsumerGroupSyncTimeout).
	joinTimer, syncTimer *event
}

func (m *classicMeta) cancel(w *world) {
	if m == nil {
		return
	}
	w.clock.cancel(m.joinTimer)
	w.clock.cancel(m.syncTimer)
	m.joinTimer, m.syncTimer = nil, nil
}

// protocolName is the first of its assignors, as the JoinGroup answer names
// it (supportedClassicProtocols().iterator().next()).
func (m *classicMeta) protocolName() string {
	if len(m.protocols) == 0 {
		return ""
	}
	if a, err := strategies.Lookup(m.protocols[0]); err == nil {
		return a.KafkaName()
	}
	return m.protocols[0]
}

// supportsClassicProtocols: a classic joiner must share an assignor with
// every classic member (ConsumerGroup.supportsClassicProtocols).
func (g *consumerGroup) supportsClassicProtocols(protocols []string) bool {
	if len(protocols) == 0 {
		return false
	}
	return slices.ContainsFunc(protocols, func(p string) bool {
		for _, m := range g.order {
			if m.classic != nil && !slices.Contains(m.classic.protocols, p) {
				return false
			}
		}
		return true
	})
}

// classicMember finds the member a classic request names
// (validateConsumerGroupMember): by its instance id when it has one.
func (g *consumerGroup) classicMember(id, instance string) (*kMember, string) {
	if instance != "" {
		m := g.members[g.instances[instance]]
		switch {
		case m == nil:
			return nil, "UNKNOWN_MEMBER_ID"
		case m.id != id:
			return nil, "FENCED_INSTANCE_ID"
		}
		return m, ""
	}
	if m := g.members[id]; m != nil {
		return m, ""
	}
	return nil, "UNKNOWN_MEMBER_ID"
}

// classicJoin is a JoinGroup to the consumer group
// (classicGroupJoinToConsumerGroup).
func (g *consumerGroup) classicJoin(c *client, req joinRequest, reply func(joinResponse)) {
	who := c.id
	refuse := func(errName, text string) {
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, text)
		reply(joinResponse{err: errName})
	}
	if g.w.sc.MigrationPolicy() == scenario.MigrationDisabled {
		refuse("INCONSISTENT_GROUP_PROTOCOL", fmt.Sprintf(
			"%s sends JoinGroup (classic protocol) to consumer group %s; group.consumer.migration.policy is disabled, so no classic member may join it.", who, g.w.sc.GroupID))
		return
	}
	id := req.memberID
	unknown := id == ""
	if unknown {
		id = g.w.newMemberID(c.id) // the coordinator makes it (Kafka: a random UUID)
	}
	if max := g.w.sc.MaxSize; max > 0 && int32(len(g.members)) >= max && g.members[id] == nil {
		refuse("GROUP_MAX_SIZE_REACHED", fmt.Sprintf("%s sends JoinGroup; the group already has group.consumer.max.size (%d) members.", who, max))
		return
	}
	if !g.supportsClassicProtocols(req.protocols) {
		refuse("INCONSISTENT_GROUP_PROTOCOL", fmt.Sprintf("%s sends JoinGroup with assignors %v; the group's classic members share none of them.", who, req.protocols))
		return
	}
	if unknown && req.instance == "" {
		g.w.record(kafka.KindJoinGroupRequest, who, "", false, fmt.Sprintf(
			"%s sends JoinGroup (classic protocol) with no member id to consumer group %s; the coordinator makes it member id %s and asks it to rejoin with it.", who, g.w.sc.GroupID, id))
		reply(joinResponse{err: "MEMBER_ID_REQUIRED", memberID: id, generation: -1})
		return
	}
	var m, replaced *kMember
	joined := false
	switch {
	case req.instance != "" && unknown:
		// getOrMaybeSubscribeStaticConsumerGroupMember: a new static
		// member, or one taking over its instance's slot (a classic member
		// may always replace, whatever the other side runs).
		if old := g.members[g.instances[req.instance]]; old != nil {
			replaced = old
			nm := *old
			nm.id, nm.client, nm.session, nm.revokeTimer = id, c.id, nil, nil
			nm.epoch, nm.prevEpoch = joinEpoch, joinEpoch
			nm.assignedAt = nil
			nm.classic = &classicMeta{}
			m = &nm
		}
	case req.instance != "":
		var errName string
		if m, errName = g.classicMember(id, req.instance); errName != "" {
			refuse(errName, fmt.Sprintf("%s sends JoinGroup as %s.", who, id))
			return
		}
	default:
		m = g.members[id] // a dynamic member is created if it is not held (getOrMaybeSubscribeDynamicConsumerGroupMember)
	}
	if m == nil {
		m = &kMember{id: id, client: c.id, instance: req.instance, state: kafka.MStable, classic: &classicMeta{}}
		joined = true
	}
	if m.classic == nil {
		refuse("UNKNOWN_MEMBER_ID", fmt.Sprintf("%s sends JoinGroup as %s, a consumer-protocol member.", who, id))
		return
	}
	m.classic.cancel(g.w) // cancelConsumerGroupJoinTimeout, and a sync deadline of the last join
	g.w.record(kafka.KindJoinGroupRequest, who, "", false, g.classicJoinText(c, req, id, replaced, joined))
	subscribed := !slices.Equal(m.topics, req.topics)
	m.topics, m.client = req.topics, c.id
	m.rebalanceTimeout = req.rebalanceTimeout
	m.classic.sessionTimeout, m.classic.protocols = req.sessionTimeout, req.protocols
	if replaced != nil {
		target, assigned, revoking := g.target[replaced.id], replaced.assigned, replaced.revoking
		if g.w.downgradeOnReplace(replaced, m, subscribed, req.owned) {
			g.answerClassicJoin(m, reply)
			return
		}
		g.remove(replaced.id)
		g.add(m)
		g.setTarget(m.id, target)
		g.setHeld(m, assigned, revoking)
		joined = true
	} else if joined {
		g.add(m)
	}
	if joined {
		m.unwritten = true
		g.unwritten = m
		if subscribed {
			g.groupEpoch++ // told with the member's write (writeJoin)
			g.filterTargets = true
			g.pendingBump = fmt.Sprintf("%s joined (classic protocol)", c.id)
			if replaced != nil {
				g.pendingBump = fmt.Sprintf("%s took over %s's slot with a new subscription (classic protocol)", c.id, replaced.id)
			}
		}
		g.writeJoin(m, req.owned)
	} else {
		g.bumpAndReconcile(m, c.id, subscribed, req.owned)
	}
	g.updateState()
	g.answerClassicJoin(m, reply)
}

func (g *consumerGroup) classicJoinText(c *client, req joinRequest, id string, replaced *kMember, joined bool) string {
	switch {
	case replaced != nil:
		return fmt.Sprintf("%s (static, group.instance.id %s) sends JoinGroup (classic protocol); the consumer coordinator replaces member %s with %s, keeping its assignment.",
			c.id, req.instance, replaced.id, id)
	case joined:
		return fmt.Sprintf("%s sends JoinGroup (classic protocol) as %s; the consumer coordinator adds it as a classic member of the consumer group.", c.id, id)
	}
	return fmt.Sprintf("%s rejoins (classic protocol) as %s (%s); the consumer coordinator reconciles it with what it owns.", c.id, id, req.reason)
}

// answerClassicJoin answers the JoinGroup once its records are written: its
// generation is the member epoch, no leader, no member list; then the
// member's session and its SyncGroup deadline start.
func (g *consumerGroup) answerClassicJoin(m *kMember, reply func(joinResponse)) {
	r := joinResponse{err: "NONE", memberID: m.id, generation: m.epoch}
	if m.classic != nil {
		r.protocol = m.classic.protocolName()
	}
	if g.w.consumer && g.members[m.id] == m {
		g.touchSession(m)
		id := m.id
		m.classic.syncTimer = g.w.clock.after(m.rebalanceTimeoutOrDefault(g.w), false, func() { g.classicDeadline(id, "SyncGroup") })
	}
	reply(r)
}

func (m *kMember) rebalanceTimeoutOrDefault(w *world) int64 {
	if m.rebalanceTimeout > 0 {
		return m.rebalanceTimeout
	}
	return w.sc.MaxPollIntervalMs
}

// classicDeadline fences a classic member that missed its JoinGroup or
// SyncGroup deadline.
func (g *consumerGroup) classicDeadline(id, what string) {
	m := g.members[id]
	if m == nil || m.classic == nil {
		return
	}
	if what == "SyncGroup" {
		m.classic.syncTimer = nil
	} else {
		m.classic.joinTimer = nil
	}
	g.w.record(kafka.KindMemberRemoved, m.client, "", false, fmt.Sprintf(
		"%s sent no %s within its rebalance timeout (%d ms): the consumer coordinator fences it.", g.displayName(id), what, m.rebalanceTimeoutOrDefault(g.w)))
	g.fence(id, fmt.Sprintf("the classic member %s failed to %s within the rebalance timeout", g.displayName(id), map[string]string{"SyncGroup": "sync", "JoinGroup": "join"}[what]))
}

// askRejoin tells a classic member to rejoin, and gives it its rebalance
// timeout to do so (scheduleConsumerGroupJoinTimeoutIfAbsent).
func (g *consumerGroup) askRejoin(m *kMember) string {
	if m.classic.joinTimer == nil {
		id := m.id
		m.classic.joinTimer = g.w.clock.after(m.rebalanceTimeoutOrDefault(g.w), false, func() { g.classicDeadline(id, "JoinGroup") })
	}
	return "REBALANCE_IN_PROGRESS"
}

// classicSync is a SyncGroup to the consumer group
// (classicGroupSyncToConsumerGroup): the answer is what the member holds.
func (g *consumerGroup) classicSync(c *client, id, instance string, gen int32, reply func(syncResponse)) {
	g.w.record(kafka.KindSyncGroupRequest, c.id, "", false, fmt.Sprintf("%s sends SyncGroup for generation %d (classic protocol, to the consumer coordinator).", c.id, gen))
	m, errName := g.classicMember(id, instance)
	switch {
	case errName != "":
	case m.classic == nil:
		errName = "UNKNOWN_MEMBER_ID"
	case gen != m.epoch:
		errName = "ILLEGAL_GENERATION"
	case g.groupEpoch > m.epoch && m.state != kafka.MUnrevoked:
		errName = g.askRejoin(m) // throwIfRebalanceInProgress
	}
	if errName != "" {
		reply(syncResponse{err: errName})
		return
	}
	g.w.clock.cancel(m.classic.syncTimer)
	m.classic.syncTimer = nil
	g.touchSession(m)
	reply(syncResponse{err: "NONE", assignment: dropGhosts(m.assigned), withheld: g.classicPending(m)})
}

// classicPending is what a classic member waits for others to release
// (shown as withheld).
func (g *consumerGroup) classicPending(m *kMember) []kafka.TP {
	if m.state != kafka.MUnreleased {
		return nil
	}
	return kafka.MinusTPs(g.target[m.id], m.assigned)
}

// classicHeartbeat is a Heartbeat to the consumer group
// (classicGroupHeartbeatToConsumerGroup).
func (g *consumerGroup) classicHeartbeat(id, instance string, gen int32) string {
	m, errName := g.classicMember(id, instance)
	switch {
	case errName != "":
		return errName
	case m.classic == nil:
		return "UNKNOWN_MEMBER_ID"
	case gen != m.epoch:
		return "ILLEGAL_GENERATION"
	}
	g.touchSession(m)
	if m.epoch < g.groupEpoch || m.state == kafka.MUnrevoked || m.state == kafka.MUnreleased && !g.waitingOnUnreleased(m) {
		return g.askRejoin(m)
	}
	return "NONE"
}

// waitingOnUnreleased: a partition of m's target it does not hold yet is
// still another member's (ConsumerGroup.waitingOnUnreleasedPartition).
func (g *consumerGroup) waitingOnUnreleased(m *kMember) bool {
	if m.state != kafka.MUnreleased {
		return false
	}
	for _, tp := range kafka.MinusTPs(g.target[m.id], m.assigned) {
		if o := g.owner.get(tp); o != "" && o != m.id {
			return true
		}
	}
	return false
}

// classicLeave is a member's LeaveGroup to the consumer group
// (classicGroupLeaveToConsumerGroup): it is fenced.
func (g *consumerGroup) classicLeave(c *client, id string) {
	if g.members[id] == nil {
		g.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf("%s sends LeaveGroup as %s, which the group does not know (UNKNOWN_MEMBER_ID).", c.id, id))
		return
	}
	g.w.record(kafka.KindLeaveGroupRequest, c.id, "", false, fmt.Sprintf("%s sends LeaveGroup (classic protocol); the consumer coordinator fences it.", c.id))
	g.fence(id, fmt.Sprintf("%s left the group", c.id))
}

// classicCommit validates a classic member's OffsetCommit
// (ConsumerGroup.validateOffsetCommit): its generation must be its member
// epoch (else ILLEGAL_GENERATION).
func (g *consumerGroup) classicCommit(id, _ string, gen int32) string {
	if gen < 0 && len(g.members) == 0 {
		return "NONE"
	}
	m := g.members[id]
	switch {
	case m == nil:
		return "UNKNOWN_MEMBER_ID"
	case gen != m.epoch && m.classic != nil:
		return "ILLEGAL_GENERATION"
	case gen != m.epoch:
		return "STALE_MEMBER_EPOCH"
	}
	return "NONE"
}
