package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// whatIfOutcome is what one event would do: the model's forecast of it, run
// until the group is settled again (the same Outcome `kviz whatif` prints).
type whatIfOutcome struct {
	Kind    string // leave | crash
	Err     string
	Outcome model.Outcome
}

// whatIfPreview is the "what if it leaves / crashes now?" panel.
type whatIfPreview struct {
	Member   string
	AtMs     int64
	Strategy string
	Outcomes []whatIfOutcome
}

// whatIfDoneMsg brings a finished preview back from its command.
type whatIfDoneMsg struct {
	preview *whatIfPreview
	sim     simulation
	step    int
	seq     int // the request it answers
}

// openWhatIf forks the timeline twice (leave, crash) for the selected
// member and shows what each leads to; nothing is committed until d or x.
// The forks run as a command (seconds on a big group); the panel says so
// until they are back. While a recompute runs, the preview waits for it
// and forecasts on what it brings (afterNewSim).
func (a *App) openWhatIf() tea.Cmd {
	if a.mode == modeWhatIf {
		a.mode = modeLab
		return nil
	}
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return nil
	}
	a.mode = modeWhatIf
	a.setStatus("what-if: d commits the leave, x the crash, w or esc closes", false)
	if a.job != nil {
		a.whatIf = &whatIfPreview{Member: a.selected, AtMs: a.ledger().InsertMoment(a.step), Strategy: a.job.strategy}
		return nil
	}
	return a.whatIfCmd()
}

// whatIfCmd forecasts the selected member leaving and crashing now, on the
// simulation on screen.
func (a *App) whatIfCmd() tea.Cmd {
	now := a.ledger().InsertMoment(a.step) // where insert puts it
	p := &whatIfPreview{Member: a.selected, AtMs: now, Strategy: a.sim.Scenario().Strategy}
	a.whatIf = p
	sim, step, member := a.sim, a.step, a.selected
	ctx := a.panelContext()
	seq := a.replies.send(replyWhatIf)
	forecast := func() (msg tea.Msg) {
		done := &whatIfPreview{Member: p.Member, AtMs: p.AtMs, Strategy: p.Strategy}
		defer func() {
			if r := recover(); r != nil {
				done.Outcomes = []whatIfOutcome{{Kind: "leave", Err: fmt.Sprint(r)}}
				msg = whatIfDoneMsg{preview: done, sim: sim, step: step, seq: seq}
			}
		}()
		for _, kind := range []string{"leave", "crash"} {
			o := whatIfOutcome{Kind: kind}
			out, err := sim.Forecast(ctx, scenario.Event{AtMs: now, Kind: kind, Member: member})
			if err != nil {
				o.Err = err.Error()
			}
			o.Outcome = out
			done.Outcomes = append(done.Outcomes, o)
		}
		return whatIfDoneMsg{preview: done, sim: sim, step: step, seq: seq}
	}
	return tea.Batch(forecast, a.spinStart())
}

// onWhatIfKey commits or closes the preview. It reports whether it used the key.
func (a *App) onWhatIfKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	switch {
	case key.Matches(msg, a.keys.Leave), key.Matches(msg, a.keys.Crash):
		kind := "leave"
		if key.Matches(msg, a.keys.Crash) {
			kind = "crash"
		}
		a.mode = modeLab
		return true, a.memberEvent(kind)
	case key.Matches(msg, a.keys.WhatIf), key.Matches(msg, a.keys.Confirm):
		a.mode = modeLab
		return true, nil
	}
	return false, nil
}

// whatIfPane is the preview's data: the forecasts of the selected member
// leaving and crashing now (Outcomes nil while they are computed).
type whatIfPane struct {
	p     *whatIfPreview
	names roster
	st    *Styles
}

// Title says what the preview forecasts.
func (w whatIfPane) Title() string {
	return fmt.Sprintf("What if %s leaves or crashes now (%s)? A preview under %s", w.p.Member, model.FormatMs(w.p.AtMs), w.p.Strategy)
}

// Render is the preview in width × height cells: each event's rounds,
// worst gap, balance and moves, the model's settled outcome of it. The
// status line says which key commits what; the pane keeps to the
// outcomes, which matter most on a small screen.
func (w whatIfPane) Render(width, _ int) []string {
	st, p := w.st, w.p
	var lines []string
	if p.Outcomes == nil {
		lines = append(lines, st.Faint.Render("forking the timeline: "+p.Member+" leaves / crashes…"))
	}
	for _, o := range p.Outcomes {
		verb := map[string]string{"leave": "leaves (LeaveGroup)", "crash": "crashes (no LeaveGroup)"}[o.Kind]
		keyName := map[string]string{"leave": "d", "crash": "x"}[o.Kind]
		head := st.Value.Render(fmt.Sprintf("[%s] %s %s", keyName, p.Member, verb))
		if o.Err != "" {
			lines = append(lines, head+"  "+st.Bad.Render(o.Err))
			continue
		}
		oc := o.Outcome
		lines = append(lines, head+st.Faint.Render(fmt.Sprintf(": %s; worst gap %s, %d–%d partitions per member after",
			oc.RoundsText(), model.FormatDur(oc.WorstGapMs), oc.Balance.Min, oc.Balance.Max)))
		for _, l := range w.names.moves(oc.Moves, width-3) {
			lines = append(lines, "   "+l)
		}
	}
	return wrapAll(lines, width)
}

// whatIfBody shows the grid (smaller) over the preview.
func (a App) whatIfBody(h int) string {
	st := &a.styles
	g := a.grid()
	gridH := max(min(len(g.Members)+4+2, h/2), 6)
	grid := box(st, a.gridTitle(g), strings.Split(renderGrid(g, st, a.width-4, gridH-2), "\n"), a.width, gridH, false)
	pane := whatIfPane{p: a.whatIf, names: a.roster(), st: st}
	return grid + "\n" + box(st, pane.Title(), pane.Render(a.width-4, h-gridH-2), a.width, h-gridH, true)
}

// whatIfHelp is the preview's own keys, first on its ? screen.
func whatIfHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{shown(k.Leave, "d", "commit the leave"), shown(k.Crash, "x", "commit the crash"),
		shown(k.WhatIf, "w", "close the preview"), shown(k.Confirm, "enter", "close the preview"), shown(k.Back, "esc", "back to the lab")}
}
