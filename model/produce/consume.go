package produce

import "github.com/kvizlab/kviz/strategies"

// tick lets every member read and commit for one millisecond.
func (g *Group) tick(nowMs int64) {
	for _, name := range g.order {
		m := g.members[name]
		g.landAsync(m, nowMs)
		read := g.consume(m)
		g.commit(m, nowMs, read)
	}
}

// consume reads up to the member's rate from its partitions, starting at a
// rotating partition so none starves, and reports whether it read anything.
func (g *Group) consume(m *member) bool {
	budget := m.pace.step()
	n := len(m.owned)
	read := false
	for i := 0; i < n && budget > 0; i++ {
		tp := m.owned[(m.next+i)%n]
		st := &g.parts[tp.Topic][tp.Partition]
		if st.position < 0 {
			continue // auto.offset.reset=none and no committed offset
		}
		avail := g.sim.topics[tp.Topic].logEnd[tp.Partition] - st.position
		take := min(avail, budget)
		if take <= 0 {
			continue
		}
		if st.position < st.maxRead {
			st.duplicates += min(take, st.maxRead-st.position)
		}
		st.position += take
		st.maxRead = max(st.maxRead, st.position)
		st.consumed += take
		budget -= take
		read = true
	}
	if n > 0 {
		m.next = (m.next + 1) % n
	}
	return read
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
		if read {
			g.commitPositions(m)
		}
	case CommitAsync:
		if read {
			for _, tp := range m.owned {
				if st := &g.parts[tp.Topic][tp.Partition]; st.position >= 0 {
					m.pending = append(m.pending, asyncCommit{tp: tp, offset: st.position, atMs: nowMs + int64(m.cfg.AsyncCommitMs)})
				}
			}
		}
	}
}

func (g *Group) commitPositions(m *member) {
	for _, tp := range m.owned {
		if st := &g.parts[tp.Topic][tp.Partition]; st.position >= 0 {
			st.committed = st.position
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

// Commit commits a member's positions now (a manual commitSync).
func (g *Group) Commit(name string) bool {
	m, ok := g.members[name]
	if ok {
		g.commitPositions(m)
	}
	return ok
}
