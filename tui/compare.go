package tui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// compareTable is compare mode's data: the model's rows for one moment of
// one simulation (model.Compare, the same rows `kviz compare` prints).
type compareTable struct {
	AtMs   int64 // the moment: the start of the rebalance under way, or now
	Rows   []model.CompareRow
	Cursor int // the selected row: enter switches the lab to it
	Err    string
}

// compareDoneMsg brings a finished compare table back from its command.
type compareDoneMsg struct {
	table *compareTable
	sim   simulation // the simulation it was computed for
	seq   int        // the request it answers: only the newest is shown
}

// compareMoment is the moment compare mode reads at the step on screen,
// the one `kviz compare --at-step` reads (model.Ledger.CompareMoment).
func (a *App) compareMoment() int64 { return a.ledger().CompareMoment(a.step) }

// toggleCompare opens compare mode. Simulating the scenario once per
// strategy can take seconds on a big group, so it runs as a command and the
// screen says so meanwhile; keys keep working.
func (a *App) toggleCompare() tea.Cmd {
	if a.mode == modeCompare {
		a.mode = modeLab
		return nil
	}
	a.mode = modeCompare
	if a.job != nil {
		a.compare = nil // compared once the recompute running is on screen (afterNewSim)
		return nil
	}
	at := a.compareMoment()
	if a.compare != nil && a.compare.AtMs == at {
		return nil
	}
	a.compare = nil
	return a.compareCmd(at)
}

// compareCmd computes compare mode's rows for the moment at in the
// background (five simulations: seconds on a big group).
func (a *App) compareCmd(at int64) tea.Cmd {
	ctx := a.panelContext()
	return a.compareRun(ctx, at, a.replies.send(replyCompare))
}

// compareRun is the command of compare request seq.
func (a App) compareRun(ctx context.Context, at int64, seq int) tea.Cmd {
	sim, current := a.sim, a.sim.Scenario().Strategy
	compare := func() (msg tea.Msg) {
		t := &compareTable{AtMs: at}
		defer func() {
			if r := recover(); r != nil {
				t.Err = fmt.Sprint(r)
				msg = compareDoneMsg{table: t, sim: sim, seq: seq}
			}
		}()
		t.Rows = sim.Compare(ctx, at, nil, model.DefaultVariants(sim.Scenario()))
		for i, r := range t.Rows {
			if r.Strategy == current {
				t.Cursor = i
			}
		}
		if k := model.ShareVariantOf(sim.Scenario(), variantsOf(t.Rows)); k >= 0 {
			t.Cursor = k // a share group's rows are releases: the one the lab runs
		}
		return compareDoneMsg{table: t, sim: sim, seq: seq}
	}
	return tea.Batch(compare, a.spinStart())
}

// onCompareKey moves the row cursor and switches to the selected row's
// strategy on enter. It reports whether it used the key.
func (a *App) onCompareKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	t := a.compare
	if t == nil || len(t.Rows) == 0 {
		return false, nil
	}
	switch {
	case key.Matches(msg, a.keys.Up):
		t.Cursor = max(t.Cursor-1, 0)
	case key.Matches(msg, a.keys.Down):
		t.Cursor = min(t.Cursor+1, len(t.Rows)-1)
	case key.Matches(msg, a.keys.Confirm):
		r := t.Rows[t.Cursor]
		if r.Err != nil {
			a.setStatus(fmt.Sprintf("%s cannot run this scenario: %v", r.Strategy, r.Err), true)
			return true, nil
		}
		a.mode = modeLab
		if r.Variant.SwitchesRelease() { // a share group's rows are releases of one assignor
			return true, a.resimulateRelease(r.Variant)
		}
		return true, a.resimulate(r.Strategy, r.Protocol, "")
	default:
		return false, nil
	}
	return true, nil
}

// variantsOf is what each row was asked to run.
func variantsOf(rows []model.CompareRow) []model.Variant {
	vs := make([]model.Variant, len(rows))
	for i, r := range rows {
		vs[i] = r.Variant
	}
	return vs
}

// resimulateRelease runs the scenario under the variant's Kafka release,
// as compare's row ran it (model.Variant.WithVersion, the scenario's
// defaults derived again for it), in the background, and keeps the cursor
// at the same virtual time: enter on a share group's compare row, as
// resimulate is for another group's strategy.
func (a *App) resimulateRelease(v model.Variant) tea.Cmd {
	what := fmt.Sprintf("%s under Kafka %s", v.Strategy, v.KafkaVersion)
	failed := func(a *App, err error) { a.setStatus(fmt.Sprintf("cannot switch to %s: %v", what, err), true) }
	vary := func(sc *scenario.Scenario) (*scenario.Scenario, error) {
		return v.WithVersion(sc).WithStrategy(sc.Strategy, sc.Protocol)
	}
	j := a.newJob(what + ": simulating")
	j.fail = failed
	j.install = func(a *App, next simulation, nowMs int64) {
		a.step = stepAt(next, nowMs)
		a.setStatus("re-simulated with "+what, false)
	}
	return a.startVaried(j, failed, vary)
}

// compareHelp is compare mode's own keys, first on its ? screen.
func compareHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{shown(k.Up, "↑/k", "row up"), shown(k.Down, "↓/j", "row down"),
		shown(k.Confirm, "enter", "switch to the row"), shown(k.Compare, "c", "close compare"), shown(k.Back, "esc", "back to the lab")}
}
