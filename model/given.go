package model

// A given start (Scenario.Generation > 0): the group is already Stable at
// time 0. Each member is a running consumer that found the coordinator,
// holds its member id and the generation (KIP-848: its member epoch) and
// consumes what it owns; the coordinator holds the same picture, as if the
// last rebalance had just completed. Nothing of that rebalance is replayed:
// the members carry what Kafka's would into the next one (ownedPartitions
// and their generation in JoinGroup, sticky's userData, the KIP-848 target).

// startGiven installs the given state before the first step is recorded.
func (w *world) startGiven() {
	gen := w.sc.Generation
	for _, spec := range w.sc.Members {
		c := newClient(w, spec.ID, spec.Instance, spec.Topics)
		w.clients = append(w.clients, c)
		w.byID[spec.ID] = c
		c.setStrategies(spec.Strategies)
		c.memberID = spec.MemberID
		if c.memberID == "" {
			c.memberID = w.givenMemberID(c)
		}
		c.startGiven(gen, spec.Owned)
	}
	if w.consumer {
		w.modern.startGiven(gen, w.clients)
	} else {
		w.classic.startGiven(gen, w.clients)
	}
}

// givenMemberID makes the member id a member of the given group would have
// been handed: the classic coordinator prefixes it with the instance id of a
// static member, else with the client id; a KIP-848 client makes its own.
func (w *world) givenMemberID(c *client) string {
	prefix := c.id
	if c.instance != "" && !w.consumer {
		prefix = c.instance
	}
	for {
		id := w.newMemberID(prefix)
		if !w.memberIDTaken(id) {
			return id
		}
	}
}

// memberIDTaken: a scenario's member_id already names id.
func (w *world) memberIDTaken(id string) bool {
	for _, m := range w.sc.Members {
		if m.MemberID == id {
			return true
		}
	}
	for _, c := range w.clients {
		if c.memberID == id {
			return true
		}
	}
	return false
}

// startGiven makes c a running member of generation (member epoch) gen
// that owns owned.
func (c *client) startGiven(gen int32, owned []TP) {
	c.inc++
	c.running = true
	c.startedAt = 0
	c.coord = c.w.cluster.coordinator()
	c.owned = owned
	c.assignTopicGen = c.w.topicGen
	if c.w.consumer {
		k := newKipClient(c)
		k.epoch, k.state, k.assigned, k.sentTopics, k.joined = gen, MStable, owned, c.topics, true
		k.intervalMs = c.w.sc.HeartbeatIntervalMs // an answer gave it long ago
		c.kip = k
		c.setStatus(c.kipStatus())
		c.kipScheduleHeartbeat(c.w.sc.HeartbeatIntervalMs)
		return
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
			sessionTimeout: g.w.sc.SessionTimeoutMs, rebalanceTimeout: g.w.sc.MaxPollIntervalMs})
	}
	g.selected, _ = g.selectProtocol()
	g.protocol = g.selected.KafkaName()
	// A start state, not a transition: the group was Stable before time 0.
	g.prevState, g.state = CompletingRebalance, Stable
	g.store()
	if lead := g.w.byID[g.clientOf(g.leader)]; lead != nil {
		lead.isLeader = true
	}
}

// startGiven makes the KIP-848 group STABLE at group epoch gen: the
// assignment epoch and every member epoch equal it, and each member's
// target is what it owns.
func (g *consumerGroup) startGiven(gen int32, clients []*client) {
	g.groupEpoch, g.assignEpoch = gen, gen
	target := make(map[string][]TP, len(clients))
	for _, c := range clients {
		m := &kMember{id: c.memberID, client: c.id, instance: c.instance, topics: c.topics,
			epoch: gen, prevEpoch: gen, state: MStable}
		g.add(m)
		g.setHeld(m, c.owned, nil)
		target[m.id] = c.owned
		g.touchSession(m)
	}
	g.target = target // the state, STABLE with members, follows (derive)
}
