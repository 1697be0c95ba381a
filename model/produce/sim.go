package produce

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// Sim is the data path of one scenario: topics' logs, producers, groups.
type Sim struct {
	nowMs     int64
	seed      uint64
	topics    map[string]*topicLog
	names     []string
	producers []*Producer
	groups    map[string]*Group
	groupList []*Group
	events    []Event
	stalls    map[int]bool
	// stepwise turns off quiet-stretch jumps (tests compare both ways).
	stepwise bool
}

// Event is something worth telling the trainer (a reset, a failed commit).
type Event struct {
	AtMs int64
	Text string
}

// maxEvents bounds the event log; the oldest go first.
const maxEvents = 1000

// topicLog is one topic: log start and end offsets, leaders, and the
// producer's view of it.
type topicLog struct {
	name     string
	id       int // index in Sim.names
	logStart []int64
	logEnd   []int64
	leader   []int // broker per partition; -1 = none
	layout   strategies.TopicLayout
	// leaderGen bumps whenever leaders change, so producers know their
	// partitioner's load stats need recomputing.
	leaderGen int
}

func (t *topicLog) partitions() int    { return len(t.logEnd) }
func (t *topicLog) leaderOf(p int) int { return t.leader[p] }
func (t *topicLog) refreshLayout()     { t.layout = layoutOf(t.leader); t.leaderGen++ }
func layoutOf(leader []int) strategies.TopicLayout {
	l := strategies.TopicLayout{Partitions: len(leader)}
	for p, b := range leader {
		if b >= 0 {
			l.Available = append(l.Available, p)
		}
	}
	return l
}

// NewSim starts a simulation at virtual time 0. All randomness comes from seed.
func NewSim(seed uint64) *Sim {
	return &Sim{seed: seed, topics: map[string]*topicLog{}, groups: map[string]*Group{}, stalls: map[int]bool{}}
}

// NowMs is the virtual time in milliseconds.
func (s *Sim) NowMs() int64 { return s.nowMs }

// AddTopic adds an empty topic. Until SetLeaders says otherwise, partition p
// is led by broker p, so each partition's batches are sent on their own.
func (s *Sim) AddTopic(name string, partitions int) error {
	if name == "" {
		return fmt.Errorf("a topic needs a name")
	}
	if s.topics[name] != nil {
		return fmt.Errorf("topic %q already exists", name)
	}
	if partitions < 1 || partitions > strategies.MaxPartitions {
		return fmt.Errorf("topic %q: partitions must be between 1 and %d, got %d", name, strategies.MaxPartitions, partitions)
	}
	t := &topicLog{name: name, id: len(s.names), logStart: make([]int64, partitions), logEnd: make([]int64, partitions), leader: make([]int, partitions)}
	for p := range t.leader {
		t.leader[p] = p
	}
	t.refreshLayout()
	s.topics[name] = t
	s.names = append(s.names, name)
	return nil
}

// SetLeaders sets each partition's leader broker (-1 = none: producers skip
// it when keyless, and its batches wait).
func (s *Sim) SetLeaders(topic string, leaders []int) error {
	t, err := s.topic(topic)
	if err != nil {
		return err
	}
	if len(leaders) != t.partitions() {
		return fmt.Errorf("topic %q has %d partitions, got %d leaders", topic, t.partitions(), len(leaders))
	}
	copy(t.leader, leaders)
	t.refreshLayout()
	return nil
}

// StallBroker makes a broker stop taking produce requests (stalled=true)
// or take them again. Its partitions keep their leader, so keyed records
// still go there and wait; the built-in partitioner with
// partitioner.availability.timeout.ms steers keyless records away.
func (s *Sim) StallBroker(broker int, stalled bool) {
	if stalled {
		s.stalls[broker] = true
	} else {
		delete(s.stalls, broker)
	}
}

func (s *Sim) stalled(broker int) bool { return s.stalls[broker] }

func (s *Sim) topic(name string) (*topicLog, error) {
	t, ok := s.topics[name]
	if !ok {
		return nil, fmt.Errorf("unknown topic %q", name)
	}
	return t, nil
}

// AddProducer adds a producer; its random source is derived from the seed
// and its position, so adding one never changes another's choices.
func (s *Sim) AddProducer(cfg ProducerConfig) (*Producer, error) {
	t, err := s.topic(cfg.Topic)
	if err != nil {
		return nil, fmt.Errorf("producer %q: %w", cfg.Name, err)
	}
	if cfg.Name == "" {
		cfg.Name = fmt.Sprintf("producer-%d", len(s.producers)+1)
	}
	rng := rand.New(rand.NewPCG(s.seed, uint64(len(s.producers))+1))
	p, err := newProducer(cfg, t, rng)
	if err != nil {
		return nil, err
	}
	p.sim = s
	s.producers = append(s.producers, p)
	return p, nil
}

// Producers lists the producers in the order added.
func (s *Sim) Producers() []*Producer { return s.producers }

// Produce sends count records with key (nil = null key) to topic through the
// topic's first producer, or a default one made for the purpose (the
// timeline's "produce: {topic, key, count}").
func (s *Sim) Produce(topic string, key []byte, count int) error {
	for _, p := range s.producers {
		if p.cfg.Topic == topic {
			return p.SendNow(key, count)
		}
	}
	p, err := s.AddProducer(ProducerConfig{Name: "timeline-" + topic, Topic: topic})
	if err != nil {
		return err
	}
	return p.SendNow(key, count)
}

// LogEnd is a partition's log-end offset (the high watermark).
func (s *Sim) LogEnd(topic string, partition int) (int64, error) {
	t, err := s.topic(topic)
	if err != nil {
		return 0, err
	}
	if partition < 0 || partition >= t.partitions() {
		return 0, fmt.Errorf("topic %q has no partition %d", topic, partition)
	}
	return t.logEnd[partition], nil
}

// Advance runs ms virtual milliseconds. Stretches where nothing can happen
// — no record due from any producer, no batch ready to drain, no member
// with records to read or a commit due — are jumped over in one go (see
// quiet.go), with the same result as walking them millisecond by millisecond.
func (s *Sim) Advance(ms int64) error {
	if ms < 0 {
		return fmt.Errorf("time runs forward: advance by %d ms", ms)
	}
	end := s.nowMs + ms
	for s.nowMs < end {
		if k := min(s.quietMs(), end-s.nowMs); k > 0 && !s.stepwise {
			s.skip(k)
			continue
		}
		if err := s.tick(); err != nil {
			return err
		}
	}
	return nil
}

// tick runs the next millisecond: producers send, the sender drains,
// consumers read and commit.
func (s *Sim) tick() error {
	s.nowMs++
	for _, p := range s.producers {
		if err := p.tick(s.nowMs); err != nil {
			return err
		}
	}
	for _, p := range s.producers {
		p.drain(s.nowMs)
	}
	for _, g := range s.groupList {
		g.tick(s.nowMs)
	}
	return nil
}

// Events returns what happened worth telling, oldest first.
func (s *Sim) Events() []Event { return slices.Clone(s.events) }

func (s *Sim) note(format string, args ...any) {
	if len(s.events) == maxEvents {
		s.events = append(s.events[:0], s.events[1:]...)
	}
	s.events = append(s.events, Event{AtMs: s.nowMs, Text: fmt.Sprintf(format, args...)})
}

// GrowTopic adds partitions to a topic (led by their own broker ids until
// SetLeaders). Producers see the new count at once — Kafka's after its next
// metadata refresh — so keys move: toPositive(murmur2(key)) % newCount.
func (s *Sim) GrowTopic(topic string, newCount int) error {
	t, err := s.topic(topic)
	if err != nil {
		return err
	}
	old := t.partitions()
	if newCount <= old || newCount > strategies.MaxPartitions {
		return fmt.Errorf("topic %q has %d partitions; grow it to more than that (at most %d), not %d", topic, old, strategies.MaxPartitions, newCount)
	}
	for p := old; p < newCount; p++ {
		t.logStart = append(t.logStart, 0)
		t.logEnd = append(t.logEnd, 0)
		t.leader = append(t.leader, p)
	}
	t.refreshLayout()
	for _, p := range s.producers {
		if p.topic == t {
			p.acc.grow(newCount - old)
			p.Sent = append(p.Sent, make([]int64, newCount-old)...)
		}
	}
	for _, g := range s.groupList {
		if ps, ok := g.parts[topic]; ok {
			for range newCount - old {
				ps = append(ps, partState{committed: -1, position: -1})
			}
			g.setParts(topic, ps)
			for _, m := range g.members {
				m.stale = true // refs may point into the old slice
			}
		}
	}
	return nil
}
