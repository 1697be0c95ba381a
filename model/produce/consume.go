package produce

import "github.com/kvizlab/kviz/strategies"

// tick lets every member read and commit for one millisecond.
func (g *Group) tick(nowMs int64) {
	for _, m := range g.list {
		if len(m.pending) > 0 {
			g.landAsync(m, nowMs)
		}
		if m.cfg.Paused {
			continue
		}
		read := g.consume(m)
		g.commit(m, nowMs, read)
	}
}

// consume reads up to the member's rate from its partitions, starting at a
// rotating partition so none starves, and reports whether it read anything.
// Partitions with nothing to read take nothing from the budget, so only the
// readable ones are visited, in the same rotating order.
func (g *Group) consume(m *member) bool {
	budget := m.pace.step()
	n := len(m.owned)
	read := false
	if budget > 0 && n > 0 {
		g.refresh(m)
		start := m.next % n
		for i := m.readable.next(start); i >= 0 && budget > 0; i = m.readable.next(i + 1) {
			budget -= g.read(m, i, budget, &read)
		}
		for i := m.readable.next(0); i >= 0 && i < start && budget > 0; i = m.readable.next(i + 1) {
			budget -= g.read(m, i, budget, &read)
		}
	}
	if n > 0 {
		m.next = (m.next + 1) % n
	}
	return read
}

// read takes up to budget records from the member's i-th partition and
// returns how many it took; a partition read to its end leaves readable.
func (g *Group) read(m *member, i int, budget int64, read *bool) int64 {
	r := m.refs[i]
	st, end := r.st, r.log.logEnd[r.p]
	take := min(end-st.position, budget)
	if st.position < 0 || take <= 0 {
		m.readable.clear(i)
		return 0
	}
	if st.position < st.maxRead {
		st.duplicates += min(take, st.maxRead-st.position)
	}
	st.position += take
	st.maxRead = max(st.maxRead, st.position)
	st.consumed += take
	*read = true
	if st.position == end {
		m.readable.clear(i)
	}
	return take
}

// commit is the member's commit policy after a poll.
func (g *Group) commit(m *member, nowMs int64, read bool) {
	switch m.cfg.Commit {
	case CommitAuto:
		if nowMs-m.lastCommit >= int64(m.cfg.AutoCommitIntervalMs) {
			g.commitPositions(m)
			m.lastCommit = nowMs
		}
	case CommitSync:
		// Only a read or a reset moves a position, so the commits of the
		// other polls change nothing and are not made.
		if read || m.unsent {
			g.commitPositions(m)
			m.unsent = false
		}
	case CommitAsync:
		if read || m.unsent {
			m.unsent = false
			g.refresh(m)
			for i, tp := range m.owned {
				if st := m.refs[i].st; st.position >= 0 {
					m.pending = append(m.pending, asyncCommit{tp: tp, offset: st.position, atMs: nowMs + int64(m.cfg.AsyncCommitMs)})
				}
			}
		}
	}
}

func (g *Group) commitPositions(m *member) {
	g.refresh(m)
	for _, r := range m.refs {
		if r.st.position >= 0 {
			r.st.committed = r.st.position
		}
	}
}

// landAsync applies async commits whose round trip is over. Commits for
// partitions the member lost were dropped when it lost them.
func (g *Group) landAsync(m *member, nowMs int64) {
	i := 0
	for ; i < len(m.pending) && m.pending[i].atMs <= nowMs; i++ {
		c := m.pending[i]
		g.parts[c.tp.Topic][c.tp.Partition].committed = c.offset
	}
	if i > 0 {
		m.pending = append(m.pending[:0], m.pending[i:]...)
		// A member that switched to sync commits with async ones in
		// flight: the next commitSync puts its positions back.
		m.unsent = m.unsent || m.cfg.Commit == CommitSync
	}
}

// PartitionView is one partition as the group sees it.
type PartitionView struct {
	Owner     string // "" = nobody
	LogStart  int64
	LogEnd    int64 // high watermark
	Committed int64 // -1 = no committed offset
	Position  int64 // the owner's next offset; -1 = none
	// Lag is LogEnd − Committed (what kafka-consumer-groups prints);
	// LagKnown is false without a committed offset.
	Lag        int64
	LagKnown   bool
	Consumed   int64 // records processed, re-reads included
	Duplicates int64 // records processed a second time
}

// Partition reports one partition's offsets for the group.
func (g *Group) Partition(topic string, partition int) (PartitionView, error) {
	st, err := g.state(strategies.TopicPartition{Topic: topic, Partition: int32(partition)})
	if err != nil {
		return PartitionView{}, err
	}
	t := g.sim.topics[topic]
	v := PartitionView{Owner: st.owner, LogStart: t.logStart[partition], LogEnd: t.logEnd[partition],
		Committed: st.committed, Position: st.position, Consumed: st.consumed, Duplicates: st.duplicates}
	if st.committed >= 0 {
		v.Lag, v.LagKnown = v.LogEnd-st.committed, true
	}
	return v, nil
}

// Partitions reports every partition of topic, as Partition does each.
func (g *Group) Partitions(topic string) ([]PartitionView, error) {
	t, err := g.sim.topic(topic)
	if err != nil {
		return nil, err
	}
	if _, err := g.state(strategies.TopicPartition{Topic: topic}); err != nil {
		return nil, err
	}
	ps := g.parts[topic]
	out := make([]PartitionView, t.partitions())
	for p := range out {
		st := &ps[p]
		v := PartitionView{Owner: st.owner, LogStart: t.logStart[p], LogEnd: t.logEnd[p],
			Committed: st.committed, Position: st.position, Consumed: st.consumed, Duplicates: st.duplicates}
		if st.committed >= 0 {
			v.Lag, v.LagKnown = v.LogEnd-st.committed, true
		}
		out[p] = v
	}
	return out, nil
}

// Idle reports whether a member has nothing left to do until something
// changes: no record to read, no async commit in flight, and every owned
// partition's position committed (a paused member: no commit in flight).
// An unknown member is idle.
func (g *Group) Idle(name string) bool {
	m, ok := g.members[name]
	if !ok {
		return true
	}
	if len(m.pending) > 0 {
		return false
	}
	if m.cfg.Paused {
		return true
	}
	g.refresh(m)
	if m.readable.next(0) >= 0 {
		return false
	}
	for _, r := range m.refs {
		if r.st.position >= 0 && r.st.committed != r.st.position {
			return false
		}
	}
	return true
}

// Commit commits a member's positions now (a manual commitSync).
func (g *Group) Commit(name string) bool {
	m, ok := g.members[name]
	if ok {
		g.commitPositions(m)
	}
	return ok
}
