package produce

import (
	"fmt"
	"math"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// CommitMode is how a consumer commits.
type CommitMode string

const (
	CommitAuto CommitMode = "auto" // enable.auto.commit: every auto.commit.interval.ms, inside poll
	// CommitSync: commitSync() after each poll. With no arguments it commits
	// every assigned partition's position (KafkaConsumer.commitSync →
	// SubscriptionState.allConsumed), also one a reset set when the poll
	// returned no record.
	CommitSync CommitMode = "sync"
	// CommitAsync: commitAsync() after each poll, the same positions; the
	// commit lands after a round trip.
	CommitAsync CommitMode = "async"
)

// OffsetReset is auto.offset.reset.
type OffsetReset string

const (
	ResetLatest   OffsetReset = "latest"
	ResetEarliest OffsetReset = "earliest"
	ResetNone     OffsetReset = "none"
)

// ConsumerConfig configures one group member.
type ConsumerConfig struct {
	// Rate is records per virtual second it processes (0 = 1000).
	Rate float64
	// Commit is the commit mode ("" = auto). AutoCommitIntervalMs is
	// auto.commit.interval.ms (0 = 5000). AsyncCommitMs is an async commit's
	// round trip (0 = 5).
	Commit               CommitMode
	AutoCommitIntervalMs int
	AsyncCommitMs        int
	// OffsetReset is auto.offset.reset ("" = latest).
	OffsetReset OffsetReset
	// Paused: the application does not call poll() (a stall): it reads
	// nothing and commits nothing; async commits already sent still land.
	Paused bool
}

// Handover is how a member gives partitions up.
type Handover int

const (
	// Revoked: onPartitionsRevoked / onJoinPrepare, which commit first.
	Revoked Handover = iota
	// Lost: crash, session timeout or poll timeout; nothing is committed.
	Lost
)

// Group is one consumer group's offsets and members.
type Group struct {
	name    string
	sim     *Sim
	members map[string]*member
	order   []string
	list    []*member // the members in order, for the per-millisecond loops
	parts   map[string][]partState
	byID    [][]partState // parts by topicLog.id, for the per-batch path
}

type partState struct {
	owner      string
	committed  int64 // -1 = none
	position   int64 // the owner's next offset; -1 = stuck (reset none)
	maxRead    int64 // one past the highest offset the group ever processed
	consumed   int64
	duplicates int64
	ownerIdx   int     // index in the owner's owned list (valid while it is not stale)
	ownerM     *member // the owner, nil = nobody
}

type member struct {
	cfg        ConsumerConfig
	owned      []strategies.TopicPartition
	pace       pacer
	lastCommit int64
	pending    []asyncCommit
	next       int // round-robin start over owned partitions

	// The fast path's index of owned (see refresh): refs[i] is owned[i]'s
	// state and log; readable holds the i with records to read (position ≥ 0
	// and below the log end). stale means owned or the group's partition
	// slices changed since refs were built.
	refs     []partRef
	readable bitset
	stale    bool
	// unsent: a reset gave a partition a position its group has not
	// committed, which the next sync or async commit sends (allConsumed).
	unsent bool
}

type partRef struct {
	st  *partState
	log *topicLog
	p   int
}

// refresh rebuilds a stale member's refs and readable set from the state.
func (g *Group) refresh(m *member) {
	if !m.stale {
		return
	}
	m.refs = m.refs[:0]
	m.readable.reset()
	m.readable.grow(len(m.owned))
	for i, tp := range m.owned {
		st := &g.parts[tp.Topic][tp.Partition]
		log := g.sim.topics[tp.Topic]
		st.ownerIdx = i
		m.refs = append(m.refs, partRef{st: st, log: log, p: int(tp.Partition)})
		if st.position >= 0 && log.logEnd[tp.Partition] > st.position {
			m.readable.set(i)
		}
	}
	m.stale = false
}

// landed tells the group records landed in topic's partition p: its owner
// has something to read.
func (g *Group) landed(t *topicLog, p int) {
	if t.id >= len(g.byID) || g.byID[t.id] == nil {
		return
	}
	st := &g.byID[t.id][p]
	if m := st.ownerM; m != nil && st.position >= 0 && !m.stale {
		m.readable.set(st.ownerIdx)
	}
}

// setParts stores a topic's partition states, also by the topic's id.
func (g *Group) setParts(topic string, ps []partState) {
	g.parts[topic] = ps
	id := g.sim.topics[topic].id
	for len(g.byID) <= id {
		g.byID = append(g.byID, nil)
	}
	g.byID[id] = ps
}

type asyncCommit struct {
	tp     strategies.TopicPartition
	offset int64
	atMs   int64
}

// Group returns the group called name, creating it.
func (s *Sim) Group(name string) *Group {
	if g, ok := s.groups[name]; ok {
		return g
	}
	g := &Group{name: name, sim: s, members: map[string]*member{}, parts: map[string][]partState{}}
	s.groups[name] = g
	s.groupList = append(s.groupList, g)
	return g
}

// Join adds a member (or updates its config).
func (g *Group) Join(name string, cfg ConsumerConfig) error {
	if name == "" {
		return fmt.Errorf("group %q: a member needs a name", g.name)
	}
	if cfg.Rate < 0 || math.IsNaN(cfg.Rate) || math.IsInf(cfg.Rate, 0) {
		return fmt.Errorf("group %q member %q: rate must be a finite number ≥ 0, got %v", g.name, name, cfg.Rate)
	}
	if cfg.Rate == 0 {
		cfg.Rate = 1000
	}
	switch cfg.Commit {
	case "":
		cfg.Commit = CommitAuto
	case CommitAuto, CommitSync, CommitAsync:
	default:
		return fmt.Errorf("group %q member %q: unknown commit mode %q (valid: auto, sync, async)", g.name, name, cfg.Commit)
	}
	switch cfg.OffsetReset {
	case "":
		cfg.OffsetReset = ResetLatest
	case ResetLatest, ResetEarliest, ResetNone:
	default:
		return fmt.Errorf("group %q member %q: unknown auto.offset.reset %q (valid: latest, earliest, none)", g.name, name, cfg.OffsetReset)
	}
	if cfg.AutoCommitIntervalMs < 0 || cfg.AsyncCommitMs < 0 {
		return fmt.Errorf("group %q member %q: commit intervals must not be negative", g.name, name)
	}
	if cfg.AutoCommitIntervalMs == 0 {
		cfg.AutoCommitIntervalMs = 5000
	}
	if cfg.AsyncCommitMs == 0 {
		cfg.AsyncCommitMs = 5
	}
	if m, ok := g.members[name]; ok {
		m.cfg, m.pace = cfg, newPacer(cfg.Rate)
		m.unsent = true // a new commit mode commits what the old left uncommitted at its next poll
		return nil
	}
	m := &member{cfg: cfg, pace: newPacer(cfg.Rate), lastCommit: g.sim.nowMs}
	g.members[name] = m
	g.order = append(g.order, name)
	g.list = append(g.list, m)
	return nil
}

func (g *Group) state(tp strategies.TopicPartition) (*partState, error) {
	t, err := g.sim.topic(tp.Topic)
	if err != nil {
		return nil, err
	}
	if tp.Partition < 0 || int(tp.Partition) >= t.partitions() {
		return nil, fmt.Errorf("topic %q has no partition %d", tp.Topic, tp.Partition)
	}
	ps, ok := g.parts[tp.Topic]
	if !ok {
		ps = make([]partState, t.partitions())
		for i := range ps {
			ps[i].committed, ps[i].position = -1, -1
		}
		g.setParts(tp.Topic, ps)
	}
	return &ps[tp.Partition], nil
}

// Own gives partitions to a member, which starts at the committed offset or,
// with none, by its auto.offset.reset. A partition owned by another member
// must be released first.
func (g *Group) Own(name string, tps []strategies.TopicPartition) error {
	m, ok := g.members[name]
	if !ok {
		return fmt.Errorf("group %q has no member %q (Join it first)", g.name, name)
	}
	for _, tp := range tps {
		st, err := g.state(tp)
		if err != nil {
			return err
		}
		if st.owner != "" && st.owner != name {
			return fmt.Errorf("group %q: %s is owned by %q; release it before giving it to %q", g.name, tp, st.owner, name)
		}
		if st.owner == name {
			continue
		}
		st.owner, st.ownerM = name, m
		m.owned = append(m.owned, tp)
		m.stale = true
		g.startPosition(m, tp, st)
	}
	return nil
}

// startPosition is the consumer's first fetch position for a new partition.
func (g *Group) startPosition(m *member, tp strategies.TopicPartition, st *partState) {
	if st.committed >= 0 {
		st.position = st.committed
		return
	}
	t := g.sim.topics[tp.Topic]
	switch m.cfg.OffsetReset {
	case ResetEarliest:
		st.position = t.logStart[tp.Partition]
		m.unsent = true
		g.sim.note("%s: no committed offset for %s: auto.offset.reset=earliest starts at %d", g.name, tp, st.position)
	case ResetLatest:
		st.position = t.logEnd[tp.Partition]
		m.unsent = true
		g.sim.note("%s: no committed offset for %s: auto.offset.reset=latest starts at the log end, %d", g.name, tp, st.position)
	default:
		st.position = -1
		g.sim.note("%s: no committed offset for %s and auto.offset.reset=none: poll throws NoOffsetForPartitionException", g.name, tp)
	}
}

// Release takes partitions from a member. Revoked commits the positions
// first; Lost commits nothing, and pending async commits for them fail.
func (g *Group) Release(name string, tps []strategies.TopicPartition, how Handover) error {
	m, ok := g.members[name]
	if !ok {
		return fmt.Errorf("group %q has no member %q", g.name, name)
	}
	// The released partitions leave owned and pending in one pass each at
	// the end (also after an error, for those released before it), so a
	// rebalance taking many partitions costs linear time.
	released := map[strategies.TopicPartition]bool{}
	defer func() {
		if len(released) > 0 {
			m.owned = slices.DeleteFunc(m.owned, func(tp strategies.TopicPartition) bool { return released[tp] })
			m.pending = slices.DeleteFunc(m.pending, func(c asyncCommit) bool { return released[c.tp] })
			m.stale = true
		}
	}()
	for _, tp := range tps {
		st, err := g.state(tp)
		if err != nil {
			return err
		}
		if st.owner != name {
			return fmt.Errorf("group %q: %q does not own %s", g.name, name, tp)
		}
		if how == Revoked && st.position >= 0 {
			st.committed = st.position
		}
		st.owner, st.ownerM, st.position = "", nil, -1
		released[tp] = true
	}
	return nil
}

// Leave releases everything a member owns and removes it.
func (g *Group) Leave(name string, how Handover) error {
	m, ok := g.members[name]
	if !ok {
		return fmt.Errorf("group %q has no member %q", g.name, name)
	}
	if err := g.Release(name, append([]strategies.TopicPartition(nil), m.owned...), how); err != nil {
		return err
	}
	delete(g.members, name)
	for i, n := range g.order {
		if n == name {
			g.order = append(g.order[:i], g.order[i+1:]...)
			g.list = append(g.list[:i], g.list[i+1:]...)
			break
		}
	}
	return nil
}
