package tui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model"
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
		if r.Variant.Label != "" {
			// A share group's rows are releases of one assignor: the lab
			// runs the file's own (group.kafka_version).
			a.setStatus(fmt.Sprintf("this row is %s under Kafka %s; the lab runs the file's release (set group.kafka_version to switch)", r.Strategy, r.Variant.Label), false)
			return true, nil
		}
		a.mode = modeLab
		return true, a.resimulate(r.Strategy, r.Protocol, "")
	default:
		return false, nil
	}
	return true, nil
}

// compareHelp is compare mode's own keys, first on its ? screen.
func compareHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{shown(k.Up, "↑/k", "row up"), shown(k.Down, "↓/j", "row down"),
		shown(k.Confirm, "enter", "switch to the row"), shown(k.Compare, "c", "close compare"), shown(k.Back, "esc", "back to the lab")}
}
