package model

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Outcome is what a moment of a run led to: who consumed what just before
// it and once the group had settled again, the partitions that changed
// hands, the rounds it took and how long partitions went without a
// consumer. Forecasts, compare rows and the lab's panels are all Outcomes,
// so a number on screen is the number the twins print.
type Outcome struct {
	AtMs        int64          // the moment: an event's time, or a rebalance's start
	Before      kafka.Holdings // consumed just before AtMs, by member id
	After       kafka.Holdings // consumed once settled
	Moves       []kafka.Move   // Diff(Before, After)
	Moved       int            // Taken(Moves)
	Rounds      []Round        // of the rebalance it led to (none: no rebalance)
	Rebalanced  bool           // it led to a rebalance
	StartMs     int64          // when the first partition stopped being consumed (or AtMs)
	SettledMs   int64          // when the group was settled again
	SettledStep int
	Settled     bool  // false: the run ended first
	WorstGapMs  int64 // the longest one partition went without a consumer
	TotalGapMs  int64 // partition-milliseconds without a consumer
	Gaps        []Gap // per partition, in partition order
	Balance     Balance
}

// Gap is how long one partition went without a consumer.
type Gap struct {
	Topic     string
	Partition int32
	Ms        int64
}

// stepAtOrAfter is the first step at or after virtual time ms (Len if none).
func (s *Sim) stepAtOrAfter(ms int64) int {
	return sort.Search(len(s.steps), func(i int) bool { return s.steps[i].at >= ms })
}

// ownersAt is who consumes what after step i (nobody before step 0).
func (s *Sim) ownersAt(i int) kafka.Owners {
	if i < 0 || len(s.steps) == 0 {
		return kafka.Owners{}
	}
	return ownersOf(s.View(min(i, len(s.steps)-1)))
}

// OutcomeOfEvent is what the timeline event at atMs led to in this run: the
// group from just before it until it settled again — the end of the
// rebalance it started or joined (a crash's session timeout, an outage,
// leads into the rebalance after it), or, when it started none before the
// next scripted event, the end of any outage it caused.
func (s *Sim) OutcomeOfEvent(atMs int64) Outcome {
	if scenario.IsShare(s.sc) {
		return s.shareOutcomeOfEvent(atMs) // several holders per partition (share_outcome.go)
	}
	e := s.stepAtOrAfter(atMs)
	if e == 0 && s.sc.GivenStart() && len(s.steps) > 1 {
		e = 1 // step 0 is the given state: what the group was before anything at time 0
	}
	next := s.nextEventAfter(atMs)
	sc := s.scan()
	o := Outcome{AtMs: atMs, StartMs: atMs}
	var parts []PartitionMs // the gaps to sum, merged once at the end
	add := func(unowned PartitionMs) { parts = append(parts, unowned) }
	var ledTo = -1 // start step of the rebalance an outage of this event runs into
	endStep := e
	for _, out := range sc.outs {
		if out.EndStep >= e && out.StartMs < next {
			add(out.UnownedMs)
			ledTo = out.EndStep
			endStep = max(endStep, out.EndStep)
			o.StartMs = min(o.StartMs, out.StartMs)
		}
	}
	if out := sc.out; out != nil && out.StartMs < next { // still open at the end of the run
		add(out.UnownedMs)
		endStep = len(s.steps) - 1
	}
	o.Settled = sc.out == nil || sc.out.StartMs >= next
	for _, r := range sc.done {
		if r.EndStep < e {
			continue
		}
		if r.StartStep <= e || r.StartMs < next || r.StartStep == ledTo {
			add(r.UnownedMs)
			o.Rounds, o.Rebalanced, endStep, o.Settled = r.Rounds, true, r.EndStep, true
			o.StartMs = min(o.StartMs, r.StartMs)
		}
		break
	}
	if !o.Rebalanced && sc.cur != nil && sc.cur.StartMs < next { // a rebalance the run ended in
		o.Rebalanced, o.Settled, endStep = true, false, len(s.steps)-1
	}
	// Step 0 is the opening state, recorded before any event at time 0.
	s.fillOutcome(&o, max(e-1, 0), min(endStep, len(s.steps)-1), parts)
	return o
}

// OutcomeOfRebalance is what the first rebalance that starts at or after
// atMs did, with the outage that led into it (a crashed member's session
// timeout); ok is false when no rebalance starts then.
func (s *Sim) OutcomeOfRebalance(atMs int64) (o Outcome, ok bool) {
	if scenario.IsShare(s.sc) {
		return s.shareOutcomeOfRebalance(atMs) // share_outcome.go
	}
	sc := s.scan()
	for _, r := range sc.done {
		if r.StartMs < atMs {
			continue
		}
		o = Outcome{AtMs: r.StartMs, StartMs: r.StartMs, Rounds: r.Rounds, Rebalanced: true, Settled: true}
		var gaps []PartitionMs
		from := r.StartStep
		for _, out := range sc.outs {
			if out.EndStep == r.StartStep {
				from, o.StartMs = out.StartStep, out.StartMs
				gaps = append(gaps, out.UnownedMs)
			}
		}
		s.fillOutcome(&o, from-1, r.EndStep, append(gaps, r.UnownedMs))
		return o, true
	}
	return Outcome{}, false
}

// fillOutcome reads the owners before (after step `before`) and at the end
// step, and sums the gaps.
func (s *Sim) fillOutcome(o *Outcome, before, end int, gaps []PartitionMs) {
	// Dense tables, not 500,000-entry maps: at Kafka's scale one leave can
	// move nearly every partition (range-server).
	x := newTPIndex()
	var b, a ownerTable
	var bIDs, aIDs []string
	if before >= 0 && len(s.steps) > 0 {
		v := s.View(min(before, len(s.steps)-1))
		b, bIDs = ownerTableOf(v, x), liveIDs(v)
	}
	if len(s.steps) > 0 {
		v := s.View(end)
		a, aIDs = ownerTableOf(v, x), liveIDs(v)
		o.Balance = balanceOf(v)
		o.SettledMs, o.SettledStep = v.TimeMs, end
	}
	// The four answers read the two tables and write nothing they share:
	// at 500,000 partitions each is a few hundred milliseconds, so the
	// two assignments are built beside the moves and the gaps.
	order := x.order()
	var wg sync.WaitGroup
	wg.Go(func() { o.Before = holdingsOfTable(b, x, order, bIDs) })
	wg.Go(func() { o.After = holdingsOfTable(a, x, order, aIDs) })
	o.Moves = diffTablesIn(b, a, x, order)
	o.Moved = kafka.Taken(o.Moves)
	o.addGaps(gaps...)
	wg.Wait()
}

// nextEventAfter is the time of the first scripted event after atMs
// (MaxInt64 when there is none).
func (s *Sim) nextEventAfter(atMs int64) int64 { return nextEventAfter(s.sc, atMs) }

func nextEventAfter(sc *scenario.Scenario, atMs int64) int64 {
	next := int64(scenario.MaxTimelineMs) + 1
	for _, ev := range sc.Timeline {
		if ev.AtMs > atMs {
			next = min(next, ev.AtMs)
		}
	}
	return next
}

// Forecast is a what-if: the run with one more event, and what it led to.
type Forecast struct {
	Event scenario.Event
	// Sim is the fork, with the event on its timeline, run as far as the
	// outcome needs (forecastStop): until settled after the event, not
	// to the end of the timeline.
	Sim     *Sim
	Outcome Outcome
}

// Forecast inserts ev (at ev.AtMs) on a fork and runs it until the group is
// settled again — Stable (KIP-848: STABLE, every member at its target) — or
// the timeline ends. The run itself is unchanged.
func (s *Sim) Forecast(ev scenario.Event) (*Forecast, error) {
	return forecast(context.Background(), s.sc, ev)
}

// ForecastContext is Forecast that gives up once ctx is done.
func (s *Sim) ForecastContext(ctx context.Context, ev scenario.Event) (*Forecast, error) {
	return forecast(ctx, s.sc, ev)
}

// ForecastScenario is Forecast for a scenario not simulated yet (kviz
// whatif): the fork holds the run (as far as the outcome needs), so the
// run without the event is never needed.
func ForecastScenario(sc *scenario.Scenario, ev scenario.Event) (*Forecast, error) {
	return forecast(context.Background(), sc, ev)
}

// forecast is Forecast for a scenario not simulated yet.
func forecast(ctx context.Context, sc *scenario.Scenario, ev scenario.Event) (*Forecast, error) {
	fork, err := insertUntil(ctx, sc, ev, true)
	if err != nil {
		return nil, err
	}
	return &Forecast{Event: ev, Sim: fork, Outcome: fork.OutcomeOfEvent(ev.AtMs)}, nil
}

// Variant is a strategy and the protocol to run it under ("" = the one it
// prefers).
type Variant struct {
	Strategy, Protocol string
	// KafkaVersion: run under this release (zero: the scenario's), and
	// Label names it in a row ("4.2+"); share groups' rows (ShareVariants).
	KafkaVersion strategies.ClientVersion
	Label        string
}

// SwitchesRelease reports whether the row runs the scenario under another
// Kafka release rather than another assignor (a share group's rows).
func (v Variant) SwitchesRelease() bool { return v.KafkaVersion != (strategies.ClientVersion{}) }

// DefaultVariants are compare's rows when nobody names strategies: a share
// group's one assignor per release (ShareVariants), else every strategy
// under its preferred protocol. The lab's c and kviz compare both start
// here.
func DefaultVariants(sc *scenario.Scenario) []Variant {
	if scenario.IsShare(sc) {
		return ShareVariants(sc)
	}
	var vs []Variant
	for _, name := range kafka.CompareStrategies() {
		vs = append(vs, Variant{Strategy: name})
	}
	return vs
}

// CompareRow is one variant's outcome.
type CompareRow struct {
	Strategy, Protocol string
	Variant            Variant // what the row was asked to run
	Err                error   // the variant cannot run this scenario (or the event)
	Found              bool    // without an event: a rebalance started at or after the time
	Outcome            Outcome
	// Skipped: a share row under another release than the script's
	// answered these acknowledgements INVALID_RECORD_STATE and skipped them
	// (Variant.WithVersion).
	Skipped []SkippedAck
}

// Compare runs the scenario under each variant and reads the same moment
// in each: with ev, what inserting it at ev.AtMs leads to (a forecast);
// without, the first rebalance that starts at or after atMs. The variants
// run in parallel; the rows keep their order.
func Compare(sc *scenario.Scenario, atMs int64, ev *scenario.Event, variants []Variant) []CompareRow {
	return CompareContext(context.Background(), sc, atMs, ev, variants)
}

// CompareContext is Compare that gives up once ctx is done: every row not
// finished then carries ctx's error.
func CompareContext(ctx context.Context, sc *scenario.Scenario, atMs int64, ev *scenario.Event, variants []Variant) []CompareRow {
	rows := make([]CompareRow, len(variants))
	var wg sync.WaitGroup
	for i, v := range variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					rows[i].Err = fmt.Errorf("the model failed: %v", r)
				}
			}()
			rows[i] = compareOne(ctx, sc, atMs, ev, v)
		}()
	}
	wg.Wait()
	return rows
}

func compareOne(ctx context.Context, sc *scenario.Scenario, atMs int64, ev *scenario.Event, v Variant) CompareRow {
	row := CompareRow{Strategy: v.Strategy, Protocol: v.Protocol, Variant: v}
	varied, err := v.WithVersion(sc).AcrossFamilies(v.Strategy, v.Protocol)
	if err != nil {
		row.Err = err
		return row
	}
	row.Strategy, row.Protocol = varied.Strategy, varied.Protocol
	if ev == nil {
		sim, err := SimulateContext(ctx, varied)
		if err != nil {
			row.Err = err
			return row
		}
		row.Outcome, row.Found = sim.OutcomeOfRebalance(atMs)
		row.Skipped = sim.SkippedAcks()
		return row
	}
	f, err := forecast(ctx, varied, *ev)
	if err != nil {
		row.Err = err
		return row
	}
	row.Outcome, row.Found, row.Skipped = f.Outcome, true, f.Sim.SkippedAcks()
	return row
}

// addGaps sets the outcome's gaps from each partition's time without a
// consumer, summed over parts (read only): total, worst, and the list in
// partition order. The parts of one scan share its numbering, so they are
// summed in slots by it, not hashed: a range-server crash's parts are
// 460,000 partitions each. Parts numbered apart (no caller makes them) are
// summed in a map.
func (o *Outcome) addGaps(parts ...PartitionMs) {
	if len(parts) == 0 {
		return
	}
	names := parts[0].names
	for _, p := range parts[1:] {
		if p.x != parts[0].x {
			sum := map[kafka.TP]int64{}
			for _, p := range parts {
				for tp, ms := range p.All() {
					sum[tp] += ms
				}
			}
			o.addGaps(PartitionMsOf(sum))
			return
		}
		if len(p.names) > len(names) {
			names = p.names // a topic created in between
		}
	}
	sum := parts[0]
	if len(parts) > 1 {
		// Room made once, at the parts' reach: grown a partition at a
		// time, the slots cost more than the sums.
		sizes, total := make([]int32, len(names)), 0
		for _, p := range parts {
			total += len(p.keys)
			for _, k := range p.keys {
				sizes[k>>32] = max(sizes[k>>32], int32(uint32(k))+1)
			}
		}
		var slots tpSlots
		slots.reserveSizes(sizes, total)
		for _, p := range parts {
			for j, k := range p.keys {
				slots.add(k, p.vals[j])
			}
		}
		sum = PartitionMs{x: sum.x, names: names, keys: slots.keys, vals: slots.vals}
	}
	o.Gaps = sum.Gaps()
	o.WorstGapMs, o.TotalGapMs = sum.stats()
}

// sortGaps sorts gaps in partition order (kafka.CompareTPs). The topics,
// a thousand at most, are ranked once, so that 500,000 gaps compare as
// two numbers, not as names; and where the partitions are dense (a gap
// per partition of a rebalance that moved them all) each gap is placed in
// its partition's slot, in one pass (BenchmarkSortGaps), not sorted.
func sortGaps(gaps []Gap) {
	const mask = 1<<31 - 1
	id := map[string]int{} // each topic's number in order of first sight
	var names []string
	keys := make([]int, len(gaps)) // topic and partition in one number: partitions < 2^31
	for i, g := range gaps {
		n, ok := id[g.Topic]
		if !ok {
			n = len(names)
			id[g.Topic] = n
			names = append(names, g.Topic)
		}
		keys[i] = n<<31 | int(g.Partition)
	}
	byName := make([]int, len(names)) // the numbers in topic order
	for i := range byName {
		byName[i] = i
	}
	slices.SortFunc(byName, func(a, b int) int { return strategies.JavaCompare(names[a], names[b]) })
	rank := make([]int, len(names))
	for r, n := range byName {
		rank[n] = r
	}
	for i, k := range keys {
		keys[i] = rank[k>>31]<<31 | k&mask
	}
	if placeGaps(gaps, keys, len(names)) {
		return
	}
	sort.Sort(gapsByKey{gaps, keys})
}

// placeGaps sorts gaps by keys (rank<<31 | partition) through a slot per
// partition of each topic up to its last gap, when those slots are not
// many more than the gaps and no two gaps share one; it reports whether
// it did. The gaps then move to their places in cycles, in place.
func placeGaps(gaps []Gap, keys []int, topics int) bool {
	const mask = 1<<31 - 1
	last := make([]int, topics) // each topic's highest partition with a gap, plus one
	for _, k := range keys {
		last[k>>31] = max(last[k>>31], k&mask+1)
	}
	from := make([]int, topics+1) // each topic's first slot
	for r, n := range last {
		from[r+1] = from[r] + n
	}
	if from[topics] > 4*len(gaps)+1024 {
		return false // sparse: sorting is cheaper than the slots
	}
	slot := make([]int32, from[topics]) // the gap's index plus one; 0 empty
	for i, k := range keys {
		at := from[k>>31] + k&mask
		if slot[at] != 0 {
			return false // a partition twice: left to the sort
		}
		slot[at] = int32(i + 1)
	}
	dest := make([]int32, len(gaps)) // where each gap goes
	pos := int32(0)
	for _, i := range slot {
		if i != 0 {
			dest[i-1] = pos
			pos++
		}
	}
	for i := range gaps {
		for int(dest[i]) != i {
			j := dest[i]
			gaps[i], gaps[j] = gaps[j], gaps[i]
			dest[i], dest[j] = dest[j], dest[i]
		}
	}
	return true
}

type gapsByKey struct {
	gaps []Gap
	keys []int
}

func (g gapsByKey) Len() int           { return len(g.gaps) }
func (g gapsByKey) Less(i, j int) bool { return g.keys[i] < g.keys[j] }
func (g gapsByKey) Swap(i, j int) {
	g.gaps[i], g.gaps[j] = g.gaps[j], g.gaps[i]
	g.keys[i], g.keys[j] = g.keys[j], g.keys[i]
}
