package model

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// LedgerSource is what a Ledger reads of a run; *Sim is one.
type LedgerSource interface {
	Scenario() *scenario.Scenario
	Len() int
	View(i int) *GroupView
	Rebalances() []Rebalance
	Outages() []Outage
}

// Ledger is a run's rebalances and outages with their figures, as the
// lab's numbers pane and `kviz rebalances` show them, and the moments the
// lab's compare and `kviz compare --at-step` read. The figures are read on
// first use and kept; a Ledger is safe for concurrent use.
type Ledger struct {
	src        LedgerSource
	rebalances []Rebalance
	outages    []Outage

	once sync.Once
	rows []RebalanceRow
	outs []OutageRow
}

// NewLedger reads the run's rebalances and outages.
func NewLedger(src LedgerSource) *Ledger {
	return &Ledger{src: src, rebalances: src.Rebalances(), outages: src.Outages()}
}

// Rebalances are the run's completed rebalances (Sim.Rebalances); shared:
// read only.
func (l *Ledger) Rebalances() []Rebalance { return l.rebalances }

// RebalanceRow is one rebalance with its figures.
type RebalanceRow struct {
	Number int // 1-based, in order
	Rebalance
	Balance                Balance // partitions per live member once it settled
	WorstGapMs, TotalGapMs int64
	// Gaps are its partitions without a consumer, grouped by how long,
	// longest first.
	Gaps []GapGroup
	// UnderWay: the row as a quiz question sees it (Numbers.Hiding), before
	// the rebalance has ended: only its start and its rounds so far are
	// known, not its end, balance, moves or gaps.
	UnderWay bool
}

// GapGroup is the partitions that went without a consumer for Ms.
type GapGroup struct {
	Ms         int64
	Partitions []kafka.TP // in partition order
}

// OutageRow is one outage with its figures.
type OutageRow struct {
	Outage
	WorstGapMs int64
	Partitions []kafka.TP // the partitions without a consumer in it, in partition order
}

// Numbers is the numbers pane at one step: the group now, every rebalance
// and outage of the run, and which rebalance the step is about.
type Numbers struct {
	Step   int
	TimeMs int64
	// Balance and Consumed are the group after the step: the fewest and
	// most partitions a live member consumes, and the partitions with a
	// consumer of all the group's topics' partitions.
	Balance              Balance
	Consumed, Partitions int
	// Focus is the index in Rebalances of the rebalance under way at the
	// step, or else the latest finished by it; -1 for none.
	Focus      int
	Rebalances []RebalanceRow // shared: read only
	Outages    []OutageRow    // shared: read only
}

// At is the numbers at step i (clamped to the run).
func (l *Ledger) At(i int) Numbers {
	i = max(0, min(i, l.src.Len()-1))
	v := l.src.View(i)
	held, total := v.Consumed()
	rows, outs := l.figures()
	return Numbers{Step: i, TimeMs: v.TimeMs, Balance: v.Balance(), Consumed: held, Partitions: total,
		Focus: l.Focus(i), Rebalances: rows, Outages: outs}
}

// Rows are every rebalance with its figures (shared: read only).
func (l *Ledger) Rows() []RebalanceRow { rows, _ := l.figures(); return rows }

// OutageRows are every outage with its figures (shared: read only).
func (l *Ledger) OutageRows() []OutageRow { _, outs := l.figures(); return outs }

// Figured is l with every row's figures read now (once: the rows, the
// outages and the numbers pane read them without waiting): the lab counts
// them on its background command, since at 10,000 members × 500,000
// partitions sorting a rebalance's gaps took the first frame to show
// them most of a second (issue 21).
func (l *Ledger) Figured() *Ledger {
	l.figures()
	return l
}

// figures reads every row once.
func (l *Ledger) figures() ([]RebalanceRow, []OutageRow) {
	l.once.Do(func() {
		l.rows = make([]RebalanceRow, len(l.rebalances))
		for k, r := range l.rebalances {
			worst, total := r.UnownedMs.stats()
			l.rows[k] = RebalanceRow{Number: k + 1, Rebalance: r, WorstGapMs: worst, TotalGapMs: total,
				Balance: l.src.View(min(r.EndStep, l.src.Len()-1)).Balance(), Gaps: gapGroups(r.UnownedMs)}
		}
		l.outs = make([]OutageRow, len(l.outages))
		for k, o := range l.outages {
			tps := make([]kafka.TP, 0, o.UnownedMs.Len())
			for tp := range o.UnownedMs.All() {
				tps = append(tps, tp)
			}
			l.outs[k] = OutageRow{Outage: o, WorstGapMs: o.WorstGapMs(), Partitions: kafka.SortTPs(tps)}
		}
	})
	return l.rows, l.outs
}

// gapGroups groups partitions by how long they had no consumer, longest
// first; partitions that had a consumer throughout are left out.
func gapGroups(unowned PartitionMs) []GapGroup {
	byGap := map[int64][]kafka.TP{}
	for tp, ms := range unowned.All() {
		if ms > 0 {
			byGap[ms] = append(byGap[ms], tp)
		}
	}
	out := make([]GapGroup, 0, len(byGap))
	for ms, tps := range byGap {
		out = append(out, GapGroup{Ms: ms, Partitions: kafka.SortTPs(tps)})
	}
	slices.SortFunc(out, func(a, b GapGroup) int { return cmp.Compare(b.Ms, a.Ms) })
	return out
}

// Current is the index of the rebalance under way at step i (its start and
// end steps included), or -1.
func (l *Ledger) Current(i int) int {
	for k, r := range l.rebalances {
		if r.StartStep <= i && i <= r.EndStep {
			return k
		}
	}
	return -1
}

// Last is the index of the latest rebalance finished by step i, or -1.
func (l *Ledger) Last(i int) int {
	return sort.Search(len(l.rebalances), func(k int) bool { return l.rebalances[k].EndStep > i }) - 1
}

// Focus is the rebalance a step is about: the one under way, or else the
// latest finished; -1 for none.
func (l *Ledger) Focus(i int) int {
	if k := l.Current(i); k >= 0 {
		return k
	}
	return l.Last(i)
}

// CompareMoment is the moment the lab's compare reads at step i, as `kviz
// compare --at-ms` takes it (the first rebalance that starts at or after it
// is compared). Outside a rebalance it is the step's time. Inside one it is
// the scenario event that set it off: the latest event at or before the
// rebalance's start and after the rebalance before it (the group's first
// rebalance: time 0, when its members start), or the start itself when no
// event is in between (a poll timeout). So protocols that react sooner or
// later to that event are compared on the same rebalance. The latest, not
// the earliest: a crash 45 s before (a session timeout) is the trigger when
// nothing came after it, but an earlier event that set off nothing here
// (a static member back in time) may set off a rebalance of its own under
// another protocol, which the row would then show instead.
func (l *Ledger) CompareMoment(i int) int64 {
	i = max(0, min(i, l.src.Len()-1))
	k := l.Current(i)
	if k < 0 {
		return l.src.View(i).TimeMs
	}
	if k == 0 {
		return 0
	}
	r := l.rebalances[k]
	floor := l.rebalances[k-1].EndMs + 1
	at, found := r.StartMs, false
	for _, ev := range l.src.Scenario().Timeline {
		if ev.AtMs >= floor && ev.AtMs <= r.StartMs && (!found || ev.AtMs > at) {
			at, found = ev.AtMs, true
		}
	}
	return at
}

// InsertMoment is where the lab inserts an event at step i, and where its
// what-if forecasts one: 1 ms after the step. The model runs an event
// before other work due in the same millisecond, so at the very same time
// it could rewrite steps already seen; a millisecond later, every step up
// to i stays as it was.
func (l *Ledger) InsertMoment(i int) int64 {
	return l.src.View(max(0, min(i, l.src.Len()-1))).TimeMs + 1
}
