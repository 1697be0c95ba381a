package model

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Sim is a finished simulation: its steps and the state after each.
type Sim struct {
	sc    *scenario.Scenario
	steps []stepRec
	vlog  *viewLog   // the member views each step changed, with checkpoints (member_views.go)
	tlog  *targetLog // the same of the KIP-848 targets
	tids  *targetNames
	flows *flowCache // the data path, built step by step on demand; nil without producers (flow.go)
	mu    sync.Mutex
	views map[int]*GroupView
	// at and tat rebuild a step's member views and targets (under atMu):
	// stepping forward applies only the changes between. tmap is the
	// target map of the step tat is at.
	atMu sync.Mutex
	at   *stateCursor[*MemberView]
	tat  *stateCursor[targetEntry]
	tmap map[string][]kafka.TP
	// scanned holds the rebalances and outages, read once on first use.
	scanned *ownershipScan
	skipped []SkippedAck // share compare rows: acknowledgements skipped (share_compare.go)
	// consumed answers GroupView.Unconsumed step to step (view_consumed.go).
	consumedOnce sync.Once
	consumed     *consumedIndex
}

// Simulate runs the scenario until the timeline is done and the group is quiet.
// If the group never settles, it returns the steps so far with the error.
func Simulate(sc *scenario.Scenario) (*Sim, error) {
	return simulate(context.Background(), sc, -1, false)
}

// SimulateContext is Simulate that gives up with ctx's error once ctx is
// done: a lab drops a recompute a newer key made useless.
// The lab reads every rebalance of the run (its ledger), so the run is
// scanned beside it.
func SimulateContext(ctx context.Context, sc *scenario.Scenario) (*Sim, error) {
	return simulate(ctx, sc, -1, true)
}

// simulate runs sc; with forecastAt ≥ 0, only until the outcome of the
// event at forecastAt is known (forecastStop), when nothing but the
// outcome will be read: not a share group's run (its own outcome and
// ledger), nor one with data-path moments (found over the whole run).
// beside: without forecastAt, the run's rebalances are scanned as it goes
// (newScanBeside), for a caller that will read them.
func simulate(ctx context.Context, sc *scenario.Scenario, forecastAt int64, beside bool) (*Sim, error) {
	if sc == nil {
		return nil, fmt.Errorf("no scenario")
	}
	w, err := newWorld(sc)
	if err != nil {
		return nil, err
	}
	w.ctx = ctx
	sim := &Sim{sc: sc, views: map[int]*GroupView{}}
	if wantsMoments(sc) {
		w.moments = placeholderMoments(sc)
	}
	var stop *forecastStop
	if w.share == nil && w.moments == nil {
		switch {
		case forecastAt >= 0:
			stop = newForecastStop(w, forecastAt)
		case beside:
			stop = newScanBeside(w)
		}
	}
	if stop != nil {
		w.until = stop.until
	}
	err = w.run()
	switch {
	case stop == nil:
	case stop.beside && ctx.Err() != nil:
		stop.drop() // a run given up: nobody reads its rebalances
	default:
		sim.scanned = stop.finish()
	}
	if err == nil && w.moments != nil {
		// The data path's moments (flow_moments.go): found over this run,
		// shown by a second one.
		if ms, merr := findMoments(sc, w.hist.steps, &w.hist.vlog); merr == nil {
			if w2, werr := newWorld(sc); werr == nil {
				w2.ctx, w2.moments = ctx, ms
				if w2.run() == nil {
					w = w2
				}
			}
		}
	}
	h := w.hist
	sim.steps, sim.vlog, sim.tlog, sim.tids = h.steps, &h.vlog, &h.tlog, &h.tids
	if w.share != nil {
		sim.skipped = w.share.skipped
	}
	sim.at, sim.tat = newCursor(sim.vlog), newCursor(sim.tlog)
	if err != nil {
		// The steps so far still explain what went round in circles.
		sim.flows, _ = newFlowCache(sc, sim.steps, sim.vlog)
		return sim, err
	}
	sim.flows, err = newFlowCache(sc, sim.steps, sim.vlog)
	return sim, err
}

// members is every member's view after step i, in start order (the
// caller's own slice; the views are shared and read-only).
func (s *Sim) members(i int) []*MemberView {
	s.atMu.Lock()
	defer s.atMu.Unlock()
	return slices.Clone(s.at.seek(s.clamp(i)))
}

// targets is the coordinator's target map after step i (consumer
// protocol; shared, read-only).
func (s *Sim) targets(i int) map[string][]kafka.TP {
	s.atMu.Lock()
	defer s.atMu.Unlock()
	i = s.clamp(i)
	if s.tmap == nil || s.tat.changedSince(i) {
		s.tmap = s.tids.targetMap(s.tat.seek(i))
	} else {
		s.tat.seek(i) // the same targets: only the cursor moves
	}
	return s.tmap
}

// Scenario returns the scenario that was simulated (with Insert's events).
func (s *Sim) Scenario() *scenario.Scenario { return s.sc }

// Len is the number of steps.
func (s *Sim) Len() int { return len(s.steps) }

// Step returns the trace line for step i.
func (s *Sim) Step(i int) Step {
	st := s.StepLine(i)
	members := s.members(st.Index)
	st.Owned = setsAsMaps(ownedSets(members))
	if st.consumer {
		epochs, targets := consumerSets(members, s.steps[st.Index].g.away, s.targets(st.Index))
		st.MemberEpochs = make(map[string]int32, len(epochs))
		st.MemberStates = make(map[string]kafka.MemberState, len(epochs))
		for _, e := range epochs {
			st.MemberEpochs[e.name] = e.epoch
			st.MemberStates[e.name] = e.state
		}
		st.Target = setsAsMaps(targets)
		st.SharePartitions = s.steps[st.Index].g.shares
	}
	if fv := s.flow(st.Index); fv != nil {
		st.Lag = lagMap(fv)
		st.Readers = readersMap(fv)
	}
	return st
}

// StepLine is Step(i) without the maps (Owned, MemberEpochs, Target, Lag):
// what a line of text or the lab's narration needs. Building every
// member's maps costs about a microsecond per partition held, for every
// step (2 ms at 1,000 members), which a caller walking many steps does not
// want.
func (s *Sim) StepLine(i int) Step {
	st := s.StepHead(i)
	st.Text = s.steps[st.Index].say()
	return st
}

// StepHead is StepLine without its sentence (Text is empty): a routine
// heartbeat's sentence is written only when read (history.go), and a
// caller that skips routine steps need not write it.
func (s *Sim) StepHead(i int) Step {
	i = s.clamp(i)
	r := s.steps[i]
	g := r.g
	return Step{Index: i, TimeMs: r.at, Kind: r.kind, Member: r.member, GroupState: g.state,
		Generation: g.generation, AssignmentEpoch: g.assignEpoch, Leader: g.leader, Error: r.errName, Routine: r.routine,
		consumer: g.state.Consumer() || scenario.IsShare(s.sc)} // the group's kind at this step: a migration changes it; a share group writes epochs and targets too
}

// clamp keeps a step index inside the trace (every simulation has step 0),
// so a lab off by one shows the nearest step instead of crashing.
func (s *Sim) clamp(i int) int {
	return max(0, min(i, len(s.steps)-1))
}

// consuming: the member's process is part of the group's consumption.
func consuming(status kafka.MemberStatus) bool {
	return status == kafka.StatusJoining || status == kafka.StatusActive || status == kafka.StatusRejoining || status == kafka.StatusStalled
}

// maxCachedViews bounds the views kept for reuse while the lab scrubs, and
// maxCachedMembers the member views they hold together: a view copies
// every member, and 4,096 views of a 10,000-member group would be 10 GB.
const (
	maxCachedViews   = 4096
	maxCachedMembers = 1 << 18
)

// View returns the state after step i (shared, read-only; built on first use).
func (s *Sim) View(i int) *GroupView {
	i = s.clamp(i)
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.views[i]; ok {
		return v
	}
	v := s.buildView(i)
	if len(s.views) >= min(maxCachedViews, max(1, maxCachedMembers/max(1, len(v.Members)))) {
		s.views = map[int]*GroupView{} // views are cheap to rebuild; history must stay small
	}
	s.views[i] = v
	return v
}

func (s *Sim) buildView(i int) *GroupView {
	r := s.steps[i]
	g := r.g
	v := &GroupView{TimeMs: r.at, GroupID: s.sc.GroupID, Protocol: kafka.Protocol(s.sc.Protocol), Strategy: s.sc.Strategy,
		State: g.state, Generation: g.generation, AssignmentEpoch: g.assignEpoch, Leader: g.leader,
		CoordinatorBroker: -1, Topics: g.topics, Brokers: g.brokers, SharePartitions: g.shares}
	for _, b := range g.brokers {
		if b.IsCoordinator {
			v.CoordinatorBroker = b.ID
		}
	}
	v.CoordinatorPartition = coordinatorPartitionOf(s.sc)
	s.fillMembers(v, i, s.members(i), g.leader) // view.go
	v.sim, v.step = s, i
	if s.flows != nil {
		v.flows = s.flows
	}
	for _, ch := range s.vlog.changes[s.vlog.end(i-1):s.vlog.end(i)] {
		v.changed = append(v.changed, int(ch.pos))
	}
	if i > 0 && s.steps[i-1].g.leader != g.leader { // IsLeader moved: the group's change shows on two members
		for j, m := range v.Members {
			if m.ID != "" && (m.ID == g.leader || m.ID == s.steps[i-1].g.leader) {
				v.changed = append(v.changed, j)
			}
		}
		slices.Sort(v.changed)
		v.changed = slices.Compact(v.changed)
	}
	return v
}

// Insert returns a fork with ev added to the timeline at ev.AtMs, everything
// after it recomputed. The original is unchanged. The event is checked by
// the rule that checks a file's timeline (scenario.CheckEvent).
func (s *Sim) Insert(ev scenario.Event) (*Sim, error) { return insert(context.Background(), s.sc, ev) }

// InsertContext is Insert that gives up once ctx is done.
func (s *Sim) InsertContext(ctx context.Context, ev scenario.Event) (*Sim, error) {
	return insert(ctx, s.sc, ev)
}

// insert simulates sc with ev added to its timeline: what Insert does, for
// a caller with no simulation of sc yet (Compare's variants).
func insert(ctx context.Context, base *scenario.Scenario, ev scenario.Event) (*Sim, error) {
	return insertUntil(ctx, base, ev, false)
}

// insertUntil is insert; forecast: run only until the event's outcome is
// known (forecastStop).
func insertUntil(ctx context.Context, base *scenario.Scenario, ev scenario.Event, forecast bool) (*Sim, error) {
	if ev.Kind == "join" && ev.Topics == nil {
		ev.Topics = slices.Sorted(maps.Keys(base.Topics))
	}
	sc := base.Clone()
	ev.Inserting = true
	if err := scenario.CheckEvent(sc, ev); err != nil {
		return nil, fmt.Errorf("insert: %v", err)
	}
	sc.Timeline = append(sc.Timeline, ev)
	sort.SliceStable(sc.Timeline, func(i, j int) bool { return sc.Timeline[i].AtMs < sc.Timeline[j].AtMs })
	stopAt := int64(-1)
	if forecast {
		stopAt = ev.AtMs
	}
	sim, err := simulate(ctx, sc, stopAt, true) // an insert's rebalances are read (the lab, compare)
	for i := range sc.Timeline {
		sc.Timeline[i].Inserting = false // judged once, when inserted
	}
	return sim, err
}

func coordinatorPartitionOf(sc *scenario.Scenario) int32 {
	return strategies.CoordinatorPartition(sc.GroupID, sc.OffsetsPartitions)
}

// memberSet is one member's partitions under the name JSON keys it by.
type memberSet struct {
	name string
	tps  []kafka.TP
}

// ownedSets is what each consuming member holds (Step.Owned), by name.
func ownedSets(members []*MemberView) []memberSet {
	var out []memberSet
	for _, m := range members {
		if consuming(m.Status) {
			out = append(out, memberSet{m.ID, heldBy(m)})
		}
	}
	return byName(out)
}

// setsAsMaps is sets as Step's maps.
func setsAsMaps(sets []memberSet) map[string]map[string][]int32 {
	out := make(map[string]map[string][]int32, len(sets))
	for _, m := range sets {
		out[m.name] = kafka.TPMap(m.tps)
	}
	return out
}

// memberEpoch is one member's epoch and reconciliation state, by name.
type memberEpoch struct {
	name  string
	epoch int32
	state kafka.MemberState
}

// consumerSets is member_epochs (with member_states) and target, by name:
// the client id, or, for a member the coordinator still holds though its
// process has since restarted (a dynamic consumer's old self, a static one
// away at epoch -2 or crashed, until it is replaced or its session
// expires), its member id. Both lists name every member the same way, so a
// member in target is in member_epochs under the same key.
func consumerSets(members []*MemberView, away []awayMember, target map[string][]kafka.TP) ([]memberEpoch, []memberSet) {
	var epochs []memberEpoch
	names := make(map[string]string, len(members))
	for _, m := range members {
		if m.InGroup {
			names[m.MemberID] = m.ID
			epochs = append(epochs, memberEpoch{m.ID, m.MemberEpoch, m.MemberState})
		}
	}
	for _, a := range away {
		epochs = append(epochs, memberEpoch{a.id, a.epoch, a.state})
	}
	slices.SortStableFunc(epochs, func(a, b memberEpoch) int { return strings.Compare(a.name, b.name) })
	epochs = lastOfEach(epochs, func(e memberEpoch) string { return e.name })
	targets := make([]memberSet, 0, len(target))
	ids := slices.Sorted(maps.Keys(target))
	for _, id := range ids {
		name, ok := names[id]
		if !ok {
			name = id
		}
		targets = append(targets, memberSet{name, target[id]})
	}
	// Two member ids under one name: the one sorting last by member id.
	return epochs, byName(targets)
}

// byName sorts sets as encoding/json sorts map keys, keeping the last of a
// name as a map would.
func byName(sets []memberSet) []memberSet {
	slices.SortStableFunc(sets, func(a, b memberSet) int { return strings.Compare(a.name, b.name) })
	return lastOfEach(sets, func(m memberSet) string { return m.name })
}

// lastOfEach keeps, of neighbours with the same key, the last.
func lastOfEach[T any](xs []T, key func(T) string) []T {
	out := xs[:0]
	for k, x := range xs {
		if k+1 < len(xs) && key(xs[k+1]) == key(x) {
			continue
		}
		out = append(out, x)
	}
	return out
}
