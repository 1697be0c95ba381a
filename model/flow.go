package model

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	kcluster "github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// flow replays a finished group simulation through the data path
// (model/produce): it follows the group's steps in virtual time, hands
// partitions over as the steps' ownership changes, and applies the
// timeline's broker and partition events and produce entries. The group
// never depends on the data path, so running it afterwards changes nothing
// in the group's trace.
type flow struct {
	sc      *scenario.Scenario
	sim     *produce.Sim
	group   *produce.Group
	cluster *kcluster.Cluster
	topics  []string // sorted
	events  []flowEvent
	next    int // first event not applied yet
	joined  map[string]bool
	owners  map[strategies.TopicPartition]string
	// rate sampling: log-end offsets at rateAt, and the rates last computed
	rateAt   int64
	rateBase map[string][]int64
	rates    map[string][]float64
	// replicas per topic, shared by every view until a broker or partition event
	replicas map[string][]kcluster.Partition
	last     *FlowView                 // the latest view, whose unchanged parts the next one shares
	followed *stateCursor[*MemberView] // the member views follow last saw, moved on step by step
	stalled  map[string]bool
}

// flowEvent is a timeline event the data path acts on.
type flowEvent struct {
	at    int64
	apply func(f *flow) error
}

func newFlow(sc *scenario.Scenario) (*flow, error) {
	f := &flow{sc: sc, sim: produce.NewSim(uint64(sc.Seed)), joined: map[string]bool{}, stalled: map[string]bool{},
		owners: map[strategies.TopicPartition]string{}, rateBase: map[string][]int64{},
		rates: map[string][]float64{}, topics: strategies.SortedTopics(sc.Topics)}
	// The same cluster the group simulation started from (a fresh world
	// stream draws the same offsets placement), replayed here in data time.
	c, err := newKafkaCluster(sc, newWorldRand(sc))
	if err != nil {
		return nil, err
	}
	f.cluster = c
	for _, t := range f.topics {
		n := int(sc.Topics[t])
		if err := f.sim.AddTopic(t, n); err != nil {
			return nil, err
		}
		f.rates[t] = make([]float64, n)
		f.rateBase[t] = make([]int64, n)
	}
	if err := f.syncLeaders(); err != nil {
		return nil, err
	}
	for _, cfg := range sc.Flow.Producers {
		if _, err := f.sim.AddProducer(cfg); err != nil {
			return nil, err
		}
	}
	f.group = f.sim.Group(sc.GroupID)
	f.events = flowEvents(sc)
	return f, nil
}

// flowEvents lists what the data path must apply, by time; at one time,
// timeline events first, in file order, then produce entries.
func flowEvents(sc *scenario.Scenario) []flowEvent {
	var evs []flowEvent
	for _, ev := range sc.Timeline {
		switch ev.Kind {
		case "fail_broker":
			b := ev.Broker
			evs = append(evs, flowEvent{ev.AtMs, func(f *flow) error { return f.broker(b, false) }})
		case "recover_broker":
			b := ev.Broker
			evs = append(evs, flowEvent{ev.AtMs, func(f *flow) error { return f.broker(b, true) }})
		case "add_partitions":
			t, n := ev.Topic, int(ev.Count)
			evs = append(evs, flowEvent{ev.AtMs, func(f *flow) error { return f.grow(t, n) }})
		case "stall":
			id := ev.Member
			evs = append(evs, flowEvent{ev.AtMs, func(f *flow) error { return f.stall(id, true) }},
				flowEvent{ev.AtMs + ev.Ms, func(f *flow) error { return f.stall(id, false) }})
		}
	}
	for _, r := range sc.Flow.Readers {
		evs = append(evs, flowEvent{r.AtMs, func(f *flow) error { return f.startReader(r) }})
	}
	for _, pe := range sc.Flow.Produces {
		evs = append(evs, flowEvent{pe.AtMs, func(f *flow) error { return f.sim.Produce(pe.Topic, pe.Key, pe.Count) }})
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at < evs[j].at })
	return evs
}

// configFor is how member id consumes now: a stalled application neither
// reads nor commits (poll() is not called, so neither is the auto-commit in
// it, nor the application's commitSync after it).
func (f *flow) configFor(id string) produce.ConsumerConfig {
	c := f.sc.Flow.ConsumerFor(id)
	c.Paused = f.stalled[id]
	return c
}

// stall starts or ends a member's poll() stall.
func (f *flow) stall(id string, stalled bool) error {
	if stalled {
		f.stalled[id] = true
	} else {
		delete(f.stalled, id)
	}
	if !f.joined[id] {
		return nil
	}
	return f.group.Join(id, f.configFor(id))
}

// broker fails or recovers a broker. The group simulation has already said
// what a repeated fail or recover means; here it changes nothing.
func (f *flow) broker(id int, up bool) error {
	var err error
	if up {
		_, err = f.cluster.RecoverBroker(id)
	} else {
		_, err = f.cluster.FailBroker(id)
	}
	if err != nil {
		return nil
	}
	return f.syncLeaders()
}

// grow adds partitions; a count that does not grow the topic is the group
// simulation's error to tell, not the data path's. With no live broker to
// place them on (Kafka would refuse the request; the group simulation
// still sees them), the new partitions have no replicas and no leader.
func (f *flow) grow(topic string, count int) error {
	if count <= f.sim.PartitionCount(topic) {
		return nil
	}
	_ = f.cluster.AddPartitions(topic, count)
	if err := f.sim.GrowTopic(topic, count); err != nil {
		return err
	}
	if err := f.growReaders(topic); err != nil {
		return err
	}
	f.rates[topic] = append(f.rates[topic], make([]float64, count-len(f.rates[topic]))...)
	f.rateBase[topic] = append(f.rateBase[topic], make([]int64, count-len(f.rateBase[topic]))...)
	return f.syncLeaders()
}

// syncLeaders copies the cluster's leaders and replicas to the data path.
func (f *flow) syncLeaders() error {
	f.replicas = make(map[string][]kcluster.Partition, len(f.topics))
	for _, t := range f.topics {
		parts, err := f.cluster.Partitions(t)
		if err != nil {
			return err
		}
		leaders := make([]int, f.sim.PartitionCount(t))
		for p := range leaders {
			leaders[p] = kcluster.NoLeader
			if p < len(parts) {
				leaders[p] = parts[p].Leader
			}
		}
		if err := f.sim.SetLeaders(t, leaders); err != nil {
			return err
		}
		f.replicas[t] = parts
	}
	return nil
}

// advanceTo runs the data path to virtual time t, applying the events due.
func (f *flow) advanceTo(t int64) error {
	for f.next < len(f.events) && f.events[f.next].at <= t {
		ev := f.events[f.next]
		f.next++
		if err := f.sim.Advance(ev.at - f.sim.NowMs()); err != nil {
			return err
		}
		if err := ev.apply(f); err != nil {
			return err
		}
	}
	if t > f.sim.NowMs() {
		return f.sim.Advance(t - f.sim.NowMs())
	}
	return nil
}

// follow hands partitions over to match step i's ownership. It reports
// whether anything changed hands.
func (f *flow) follow(i int) (bool, error) {
	// Member views are immutable and logged only when a member changes,
	// so no change since the last step followed means the same owners
	// (most steps: heartbeats).
	cur := f.followed
	same := !cur.changedSince(i)
	cur.advance(i, nil)
	if same {
		return false, nil
	}
	members := cur.state
	owners := map[strategies.TopicPartition]string{}
	byID := map[string]*MemberView{}
	for _, m := range members {
		byID[m.ID] = m
		if !consuming(m.Status) {
			continue
		}
		for _, tp := range m.Owned {
			if _, ok := f.sc.Topics[tp.Topic]; ok { // a deleted topic's partition has no log to read
				owners[tp] = m.ID
			}
		}
	}
	if sameOwners(owners, f.owners) {
		return false, nil
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		if f.joined[id] || !consuming(byID[id].Status) {
			continue
		}
		if err := f.group.Join(id, f.configFor(id)); err != nil {
			return false, err
		}
		f.joined[id] = true
	}
	how := func(id string) produce.Handover { return handover(byID[id]) }
	if err := f.group.SetOwners(owners, how); err != nil {
		return false, err
	}
	f.owners = owners
	return true, nil
}

// handover is how a member gave its partitions up: a crashed, fenced or
// stalled process, or one the coordinator removed, commits nothing (its
// successor re-reads: duplicates); otherwise onPartitionsRevoked or close()
// commits first.
func handover(m *MemberView) produce.Handover {
	if m == nil {
		return produce.Lost
	}
	switch m.Status {
	case kafka.StatusCrashed, kafka.StatusFenced, kafka.StatusStalled:
		return produce.Lost
	case kafka.StatusLeft:
		return produce.Revoked
	}
	if !m.InGroup {
		return produce.Lost
	}
	return produce.Revoked
}

func sameOwners(a, b map[strategies.TopicPartition]string) bool {
	if len(a) != len(b) {
		return false
	}
	for tp, m := range a {
		if b[tp] != m {
			return false
		}
	}
	return true
}

// flowCache is the data path's view after each step, replayed on demand:
// asking for step i replays from the last step built, so opening a
// scenario, or inserting an event, costs nothing until a step is drawn,
// and stepping forward costs only the virtual time between two steps. A
// step where time stood still and no partition changed hands shares the
// previous step's view.
type flowCache struct {
	mu    sync.Mutex
	f     *flow
	steps []stepRec
	views []*FlowView
	err   error // the replay failed here; later views repeat the last good one with Err
}

// newFlowCache prepares the replay; a scenario's data path that cannot
// start (a producer the model refuses) is an error at once.
func newFlowCache(sc *scenario.Scenario, steps []stepRec, views *viewLog) (*flowCache, error) {
	if sc.Flow == nil || len(steps) == 0 {
		return nil, nil
	}
	f, err := newFlow(sc)
	if err != nil {
		return nil, fmt.Errorf("producers: %w", err)
	}
	f.followed = newCursor(views)
	return &flowCache{f: f, steps: steps}, nil
}

// at is the view after step i (clamped to the trace).
func (c *flowCache) at(i int) *FlowView {
	i = max(0, min(i, len(c.steps)-1))
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.views) <= i {
		c.views = append(c.views, c.next())
	}
	return c.views[i]
}

// next builds the view after the next step.
func (c *flowCache) next() *FlowView {
	i := len(c.views)
	if c.err == nil {
		v, err := c.build(i)
		if err == nil {
			return v
		}
		c.err = err
	}
	var v FlowView
	if i > 0 {
		v = *c.views[i-1]
	}
	v.TimeMs, v.Err = c.steps[i].at, c.err.Error()
	return &v
}

func (c *flowCache) build(i int) (*FlowView, error) {
	f, r := c.f, c.steps[i]
	applied := f.next
	if err := f.advanceTo(r.at); err != nil {
		return nil, fmt.Errorf("producers at %d ms: %w", r.at, err)
	}
	changed, err := f.follow(i)
	if err != nil {
		return nil, fmt.Errorf("producers at %d ms: %w", r.at, err)
	}
	if i > 0 && !changed && applied == f.next && r.at == c.views[i-1].TimeMs {
		return c.views[i-1], nil
	}
	return f.view(), nil
}

// Flow is the data path after this step (producers, offsets, lag,
// replicas); nil when the scenario has no producers. The first call for a
// late step replays the steps before it.
func (v *GroupView) Flow() *FlowView {
	if v.flows == nil {
		return nil
	}
	return v.flows.at(v.step)
}

// HasFlow reports whether the scenario has a data path, without building it.
func (v *GroupView) HasFlow() bool { return v.flows != nil }

// flow is step i's data path view (nil without producers).
func (s *Sim) flow(i int) *FlowView {
	if s.flows == nil {
		return nil
	}
	return s.flows.at(i)
}

// lagMap is a step's lag for `kviz simulate`: topic → partition → lag, for
// partitions with a committed offset.
func lagMap(fv *FlowView) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	for _, t := range fv.Topics {
		for _, p := range t.Partitions {
			if !p.LagKnown {
				continue
			}
			if out[t.Name] == nil {
				out[t.Name] = map[string]int64{}
			}
			out[t.Name][fmt.Sprint(p.Partition)] = p.Lag
		}
	}
	return out
}
