package tui

import (
	"fmt"
	"math"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/strategies"
)

// compareStrategies are the assignors compare mode puts side by side, each
// under the protocol it prefers: that contrast (stop-the-world eager,
// two-round cooperative, KIP-848's per-member reconciliation) is the point.
var compareStrategies = []string{"range", "roundrobin", "sticky", "cooperative-sticky", "uniform"}

// compareRow is one strategy's outcome for the event at the cursor.
type compareRow struct {
	Strategy, Protocol string
	Err                string
	Found              bool  // the group settled after the event, before the next one
	Moved              int   // partitions that changed hands
	Min, Max           int   // partitions per live member afterwards
	UnownedSumMs       int64 // partition-milliseconds without a consumer
	UnownedMaxMs       int64 // the longest one partition waited
	DurationMs         int64 // first rebalance start to last rebalance end
	RunMoved           int   // over the whole timeline (the model's count)
	RunUnownedMs       int64 // over the whole timeline
	Current            bool  // the strategy on screen
}

// compareWindow is the stretch of virtual time compare mode looks at: from
// one scenario event (or the start) to the next one (or the end). What
// happens in it is that event's doing, whatever the assignor; a
// cooperative dance of two rebalances counts as one outcome.
type compareWindow struct {
	FromMs, ToMs int64
	Event        string // "c4 joins", "start"
}

// compareTable is compare mode's data for one simulation and window.
type compareTable struct {
	AtMs   int64
	Window compareWindow
	Rows   []compareRow
	Err    string // the model failed (a panic caught in the command)
}

// compareDoneMsg brings a finished compare table back from its command.
type compareDoneMsg struct {
	table *compareTable
	sim   simulation // the simulation it was computed for
}

// toggleCompare opens compare mode. Simulating the scenario once per
// strategy (the model does the work; the lab only tabulates) can take
// seconds on a big group, so it runs as a command and the screen says so
// meanwhile; keys keep working.
func (a *App) toggleCompare() tea.Cmd {
	if a.mode == modeCompare {
		a.mode = modeLab
		return nil
	}
	a.mode = modeCompare
	now := a.view().TimeMs
	if a.compare != nil && a.compare.AtMs == now {
		return nil
	}
	a.compare = nil
	sim, simulate, sc := a.sim, a.simulate, a.sim.Scenario()
	w := eventWindow(sc, now, a.info.currentRebalance(a.step) >= 0)
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = compareDoneMsg{table: &compareTable{AtMs: now, Window: w, Err: fmt.Sprint(r)}, sim: sim}
			}
		}()
		return compareDoneMsg{table: buildCompare(simulate, sc, now, w), sim: sim}
	}
}

// eventWindow picks the event the cursor is about: during a rebalance, the
// last event at or before it; otherwise the next one to come (or the last
// one, once the story is over). The window runs to the event after it.
func eventWindow(sc *model.Scenario, now int64, rebalancing bool) compareWindow {
	evs := append([]model.Event(nil), sc.Timeline...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].AtMs < evs[j].AtMs })
	pick := -1
	for i, ev := range evs {
		if ev.AtMs <= now {
			pick = i // the latest event so far
		}
	}
	if !rebalancing && pick+1 < len(evs) {
		pick++ // quiet now: the next event is the one to compare
	}
	w := compareWindow{FromMs: 0, ToMs: math.MaxInt64, Event: "the start"}
	if pick >= 0 {
		w.FromMs, w.Event = evs[pick].AtMs, eventLabel(evs[pick])
	}
	for _, ev := range evs[pick+1:] {
		if ev.AtMs > w.FromMs {
			w.ToMs = ev.AtMs
			break
		}
	}
	return w
}

// eventLabel says what an event is in a few words: "c4 joins".
func eventLabel(ev model.Event) string {
	switch ev.Kind {
	case "join":
		return ev.Member + " joins"
	case "leave":
		return ev.Member + " leaves"
	case "crash":
		return ev.Member + " crashes"
	case "restart":
		return ev.Member + " restarts"
	case "add_partitions":
		return fmt.Sprintf("%s grows to %d partitions", ev.Topic, ev.Count)
	case "fail_broker", "recover_broker":
		return fmt.Sprintf("%s %d", ev.Kind, ev.Broker)
	}
	if ev.Member != "" {
		return ev.Member + " " + ev.Kind
	}
	return ev.Kind
}

func buildCompare(simulate simulateFunc, sc *model.Scenario, now int64, w compareWindow) *compareTable {
	t := &compareTable{AtMs: now, Window: w}
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
		fillCompareRow(&row, sim, w)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// outcome is what a window of the timeline did: the rebalances that
// overlap it and who held what at its end.
type outcome struct {
	Found          bool // some rebalance started in the window
	StartMs, EndMs int64
	WorstMs, SumMs int64 // unowned time, rebalances and outages: longest one partition, all partitions
	Moves          []move
	After          *model.GroupView
}

// windowOutcome reads a simulation over a window, comparing owners at its
// end with before. It takes the rebalances and outages overlapping the
// window, and the rebalance an included outage leads into even if it
// starts after the window: a crash costs the session timeout first (an
// outage), then the rebalance, and both are the crash's doing.
func windowOutcome(sim simulation, w compareWindow, before map[strategies.TopicPartition]string) outcome {
	var o outcome
	overlaps := func(from, to int64) bool { return to >= w.FromMs && from < w.ToMs }
	// Gaps add up over the records of the window; the worst is the longest
	// one partition went without a consumer in any one of them.
	gap := func(from, to int64, unowned map[strategies.TopicPartition]int64) {
		if !o.Found || from < o.StartMs {
			o.StartMs = from
		}
		o.Found, o.EndMs = true, max(o.EndMs, to)
		for _, ms := range unowned {
			o.SumMs += ms
			o.WorstMs = max(o.WorstMs, ms)
		}
	}
	ledTo := map[int]bool{} // start steps of rebalances an included outage runs into
	var outages []model.Outage
	if withOutages, ok := sim.(interface{ Outages() []model.Outage }); ok {
		outages = withOutages.Outages()
	}
	for _, out := range outages {
		if overlaps(out.StartMs, out.EndMs) {
			ledTo[out.EndStep] = true
		}
	}
	found := false
	for _, r := range sim.Rebalances() {
		// Rebalances overlapping the window: an event during a rebalance
		// joins the one under way.
		if overlaps(r.StartMs, r.EndMs) || ledTo[r.StartStep] {
			found = true
			gap(r.StartMs, r.EndMs, r.UnownedMs)
		}
	}
	for _, out := range outages {
		if found && ledTo[out.EndStep] {
			gap(out.StartMs, out.StartMs, out.UnownedMs)
		}
	}
	o.Found = found
	o.After = sim.View(stepAt(sim, min(w.ToMs, math.MaxInt64-1)-1))
	o.Moves = diffOwners(before, owners(o.After))
	return o
}

// fillCompareRow reads one simulation over the window, plus whole-run
// totals (the model's).
func fillCompareRow(row *compareRow, sim simulation, w compareWindow) {
	for _, r := range sim.Rebalances() {
		row.RunMoved += r.Moved
		for _, ms := range r.UnownedMs {
			row.RunUnownedMs += ms
		}
	}
	if withOutages, ok := sim.(interface{ Outages() []model.Outage }); ok {
		for _, out := range withOutages.Outages() {
			for _, ms := range out.UnownedMs {
				row.RunUnownedMs += ms
			}
		}
	}
	before := map[strategies.TopicPartition]string{}
	if w.FromMs > 0 {
		before = owners(sim.View(stepAt(sim, w.FromMs-1)))
	}
	o := windowOutcome(sim, w, before)
	if row.Found = o.Found; !o.Found {
		return
	}
	row.DurationMs = o.EndMs - o.StartMs
	row.UnownedMaxMs, row.UnownedSumMs = o.WorstMs, o.SumMs
	for _, m := range o.Moves {
		if m.From != "" && m.To != "" {
			row.Moved++ // a hand-over; a partition merely freed or first assigned is not a move
		}
	}
	row.Min, row.Max = balance(o.After)
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
