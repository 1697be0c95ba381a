package tui

import (
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/strategies"
)

// compareStrategies are the assignors compare mode puts side by side, each
// under the protocol it prefers: that contrast (stop-the-world eager,
// two-round cooperative, KIP-848's per-member reconciliation) is the point.
var compareStrategies = []string{"range", "roundrobin", "sticky", "cooperative-sticky", "uniform"}

// compareRow is one strategy's outcome for the rebalance at the cursor.
type compareRow struct {
	Strategy, Protocol string
	Err                string
	Found              bool
	Moved              int
	Min, Max           int   // partitions per live member after it
	UnownedSumMs       int64 // partition-milliseconds without a consumer
	UnownedMaxMs       int64 // the longest one partition waited
	DurationMs         int64
	RunMoved           int   // over the whole timeline
	RunUnownedMs       int64 // over the whole timeline
	Current            bool  // the strategy on screen
}

// compareTable is compare mode's data for one simulation and time.
type compareTable struct {
	AtMs int64
	Rows []compareRow
}

// toggleCompare opens compare mode, simulating the scenario once per
// strategy (the model does the work; the lab only tabulates).
func (a *App) toggleCompare() {
	if a.mode == modeCompare {
		a.mode = modeLab
		return
	}
	now := a.view().TimeMs
	if a.compare == nil || a.compare.AtMs != now {
		a.compare = buildCompare(a.simulate, a.sim.Scenario(), now)
	}
	a.mode = modeCompare
}

func buildCompare(simulate simulateFunc, sc *model.Scenario, now int64) *compareTable {
	t := &compareTable{AtMs: now}
	for _, name := range compareStrategies {
		as, err := strategies.Lookup(name)
		if err != nil {
			continue // not built yet: leave it out rather than invent numbers
		}
		ps := as.Protocols()
		row := compareRow{Strategy: name, Protocol: string(ps[len(ps)-1]), Current: name == sc.Strategy}
		sim, err := simulateWith(simulate, sc, name, row.Protocol)
		if err != nil {
			row.Err = err.Error()
			t.Rows = append(t.Rows, row)
			continue
		}
		fillCompareRow(&row, sim, now)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// fillCompareRow reads the first rebalance that ends at or after now (the
// one in progress, or the next), plus whole-run totals.
func fillCompareRow(row *compareRow, sim simulation, now int64) {
	for _, r := range sim.Rebalances() {
		row.RunMoved += r.Moved
		for _, ms := range r.UnownedMs {
			row.RunUnownedMs += ms
		}
		if row.Found || r.EndMs < now {
			continue
		}
		row.Found = true
		row.Moved = r.Moved
		row.DurationMs = r.EndMs - r.StartMs
		for _, ms := range r.UnownedMs {
			row.UnownedSumMs += ms
			row.UnownedMaxMs = max(row.UnownedMaxMs, ms)
		}
		row.Min, row.Max = balance(sim.View(min(r.EndStep, sim.Len()-1)))
	}
}

// balance is the fewest and most partitions held by a live member.
func balance(v *model.GroupView) (lo, hi int) {
	first := true
	for _, m := range v.Members {
		if !live(m.Status) {
			continue
		}
		n := len(m.Owned)
		if first {
			lo, hi, first = n, n, false
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	return lo, hi
}

// live is a member that is still in the group.
func live(status string) bool {
	switch status {
	case model.StatusCrashed, model.StatusLeft, model.StatusFenced:
		return false
	}
	return true
}
