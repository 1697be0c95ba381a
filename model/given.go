package model

import (
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A given start (Scenario.Generation > 0): the group is already Stable at
// time 0. Each member is a running consumer that found the coordinator,
// holds its member id and the generation (KIP-848: its member epoch) and
// consumes what it owns; the coordinator holds the same picture, as if the
// last rebalance had just completed. Nothing of that rebalance is replayed:
// the members carry what Kafka's would into the next one (ownedPartitions
// and their generation in JoinGroup, sticky's userData, the KIP-848 target).
//
// A KIP-848 group may also start mid-reconcile, as ConsumerGroupDescribe
// catches it: an assignment epoch below the group epoch (ASSIGNING: the
// next heartbeat computes new targets), and members with their own epoch,
// target and partitions still being revoked. Each member is then in the
// state Kafka's CurrentAssignmentBuilder left it in (scenario.StartState), and the
// run carries on reconciling from there.

// startGiven installs the given state before the first step is recorded.
func (w *world) startGiven() {
	gen := startGen(w.sc)
	taken := w.takenMemberIDs()
	for _, spec := range w.sc.Members {
		c := newClient(w, spec.ID, spec.Instance, spec.Topics)
		w.clients = append(w.clients, c)
		w.byID[spec.ID] = c
		c.configure(spec.Settings)
		c.setStrategies(spec.Strategies)
		c.memberID = spec.MemberID
		if c.memberID == "" {
			c.memberID = w.givenMemberID(c, taken)
		}
		taken[c.memberID] = true
		c.startGiven(gen, spec)
	}
	if w.consumer {
		w.consumerGroup.startGiven(w.sc, w.clients)
	} else {
		w.classic.startGiven(gen, w.clients)
		w.startLeader()
		w.deletedBeforeStart()
		w.startCaught()
	}
}

// deletedBeforeStart: a member that owns partitions of a topic that no
// longer exists means the topic was deleted after the group's last
// rebalance. The leader's assignmentSnapshot still counts it, so its next
// metadata refresh sees the difference and it rejoins
// (ConsumerCoordinator.rejoinNeededOrPending), as for changed partition
// counts. In the rebalance, the assignors ignore those partitions (the
// sticky family keeps only owned partitions of topics in its metadata) and
// the owner revokes them (onJoinComplete: owned minus assigned).
func (w *world) deletedBeforeStart() {
	gone := false
	for _, m := range w.sc.Members {
		gone = gone || len(existingIn(w.sc.Topics, m.Owned)) < len(m.Owned)
	}
	if !gone {
		return
	}
	for _, c := range w.clients {
		if c.isLeader {
			c.assignTopicGen = -1 // its snapshot predates the deletion
			c.scheduleMetadataRefresh()
		}
	}
}

// givenMemberID makes the member id a member of the given group would have
// been handed: the classic coordinator prefixes it with the instance id of a
// static member, else with the client id; a KIP-848 client makes its own.
// taken holds the ids already used (takenMemberIDs).
func (w *world) givenMemberID(c *client, taken map[string]bool) string {
	prefix := c.id
	if c.instance != "" && !w.consumer {
		prefix = c.instance
	}
	for {
		id := w.newMemberID(prefix)
		if !taken[id] {
			return id
		}
	}
}

// takenMemberIDs is every member id a scenario's member_id names or a
// client holds: one set, not a scan per member of a large group.
func (w *world) takenMemberIDs() map[string]bool {
	taken := make(map[string]bool, len(w.sc.Members)+len(w.clients))
	for _, m := range w.sc.Members {
		if m.MemberID != "" {
			taken[m.MemberID] = true
		}
	}
	for _, c := range w.clients {
		if c.memberID != "" {
			taken[c.memberID] = true
		}
	}
	return taken
}

// startGiven makes c a running member of generation (member epoch) gen
// that owns spec.Owned; under KIP-848 at its own member epoch and state,
// still holding the partitions it revokes.
func (c *client) startGiven(gen int32, spec scenario.MemberSpec) {
	owned := spec.Owned
	c.inc++
	c.running = true
	c.startedAt = 0
	c.coord = c.w.cluster.coordinator()
	c.owned = owned
	c.assignTopicGen = c.w.topicGen
	if c.consumerProto {
		k := newKipClient(c)
		k.epoch, k.state, k.assigned, k.sentTopics, k.joined = spec.StartEpoch(c.w.sc), scenario.StartState(c.w.sc, spec), owned, c.topics, true
		k.intervalMs = c.heartbeatInterval() // an answer gave it long ago
		c.consumer = k
		if len(spec.Revoking) > 0 {
			// The coordinator's last answer assigned it only what it
			// keeps: it is revoking the rest (revokeAndAssign) now.
			c.owned, c.revoking = kafka.UnionTPs(owned, spec.Revoking), spec.Revoking
			k.reconcileDue = true
			inc := c.inc
			c.w.clock.after(0, false, func() {
				if c.inc == inc && k.reconcileDue && !c.stalled {
					c.consumerReconcile()
				}
			})
		}
		c.setStatus(c.consumerStatus())
		c.consumerScheduleHeartbeat(c.heartbeatInterval())
		return
	}
	if c.w.consumer {
		// A classic member of a consumer group mid-migration: the consumer
		// coordinator's JoinGroup answer gave it its member epoch as the
		// generation (given_mixed.go in scenario).
		gen = spec.StartEpoch(c.w.sc)
	}
	c.generation, c.phase = gen, phaseStable
	c.lastAssigned, c.lastAssignedGen = owned, gen
	c.setStatus(c.activeStatus())
	c.startHeartbeats()
}

// startGiven makes the classic group Stable at generation gen with the
// clients as members, the first one leading, the assignor the members'
// vote would select.
func (g *classicGroup) startGiven(gen int32, clients []*client) {
	g.generation = gen
	if len(clients) == 0 {
		g.store()
		return
	}
	for _, c := range clients {
		g.add(&cMember{id: c.memberID, instance: c.instance, client: c.id, topics: c.topics,
			protocols: c.strategies, owned: c.owned, ownedGen: gen, prevAssigned: c.owned, assignment: c.owned,
			sessionTimeout: c.sessionTimeout(), rebalanceTimeout: c.maxPoll()})
	}
	g.selected, _ = g.selectProtocol()
	g.protocol = g.selected.KafkaName()
	// A start state, not a transition: the group was Stable before time 0.
	g.prevState, g.state = kafka.CompletingRebalance, kafka.Stable
	g.store()
	if lead := g.w.byID[g.clientOf(g.leader)]; lead != nil {
		lead.isLeader = true
	}
}

// startGiven makes the KIP-848 group what the scenario gives: STABLE at
// group epoch sc.Generation with every member at it, holding its target;
// or, mid-reconcile, at its assignment epoch with each member at its own
// epoch, state, target and partitions pending revocation.
func (g *consumerGroup) startGiven(sc *scenario.Scenario, clients []*client) {
	g.groupEpoch, g.assignEpoch = sc.Generation, sc.StartAssignmentEpoch()
	target := make(map[string][]kafka.TP, len(clients))
	for i, c := range clients {
		spec := sc.Members[i]
		e := spec.StartEpoch(sc)
		m := &kMember{id: c.memberID, client: c.id, instance: c.instance, topics: c.topics,
			epoch: e, prevEpoch: e, state: scenario.StartState(sc, spec), rebalanceTimeout: c.maxPoll()}
		if !c.consumerProto {
			// mid-migration: the coordinator keeps its classic metadata
			// (ConsumerGroupMember.classicMemberMetadata)
			m.classic = &classicMeta{sessionTimeout: c.sessionTimeout(), protocols: c.strategies}
		}
		g.add(m)
		g.setHeld(m, spec.Owned, spec.Revoking)
		for tp := range m.assignedAt {
			m.assignedAt[tp] = e // assigned by its epoch at the latest (KIP-1251)
		}
		target[m.id] = spec.StartTarget()
		g.touchSession(m)
		if spec.Target != nil {
			g.filterTargets = true // a given target may name a topic the member has left
		}
	}
	g.target = target // the state, STABLE with members, follows (derive)
	for _, m := range g.order {
		g.revokeTimeout(m) // a member revoking has its rebalance timeout from now
	}
}
