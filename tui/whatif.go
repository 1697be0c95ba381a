package tui

import (
	"fmt"
	"math"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/strategies"
)

// move is one partition changing hands ("" = nobody).
type move struct {
	TP       strategies.TopicPartition
	From, To string
}

// whatIfOutcome is what one event would do: the moves of the rebalance it
// triggers, computed by the model on a fork of the timeline.
type whatIfOutcome struct {
	Kind      string // leave | crash
	Err       string
	Found     bool // a rebalance followed
	Moves     []move
	StartMs   int64
	EndMs     int64
	UnownedMs int64 // longest time one partition had no owner
	UntilMs   int64 // the moves are read here: the next scenario event (MaxInt64 = the end)
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
}

// openWhatIf forks the timeline twice (leave, crash) for the selected
// member and shows the moves; nothing is committed until d or x. The
// forks run as a command (seconds on a big group); the panel says so
// until they are back.
func (a *App) openWhatIf() tea.Cmd {
	if a.mode == modeWhatIf {
		a.mode = modeLab
		return nil
	}
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return nil
	}
	now := a.view().TimeMs + 1 // where insert would put it
	p := &whatIfPreview{Member: a.selected, AtMs: now, Strategy: a.sim.Scenario().Strategy}
	a.whatIf = p
	a.mode = modeWhatIf
	a.setStatus("what-if: d commits the leave, x the crash, w or esc closes", false)
	sim, step, member := a.sim, a.step, a.selected
	return func() (msg tea.Msg) {
		done := &whatIfPreview{Member: p.Member, AtMs: p.AtMs, Strategy: p.Strategy}
		defer func() {
			if r := recover(); r != nil {
				done.Outcomes = []whatIfOutcome{{Kind: "leave", Err: fmt.Sprint(r)}}
				msg = whatIfDoneMsg{preview: done, sim: sim, step: step}
			}
		}()
		for _, kind := range []string{"leave", "crash"} {
			done.Outcomes = append(done.Outcomes, forecast(sim, step, model.Event{AtMs: now, Kind: kind, Member: member}))
		}
		return whatIfDoneMsg{preview: done, sim: sim, step: step}
	}
}

// forecast inserts ev on a fork and reads what it did up to the next
// scenario event: the same window compare mode uses, so a cooperative
// dance of two rebalances shows as one outcome.
func forecast(sim simulation, step int, ev model.Event) whatIfOutcome {
	out := whatIfOutcome{Kind: ev.Kind}
	fork, err := sim.Insert(ev)
	if err != nil {
		out.Err = err.Error()
		return out
	}
	w := compareWindow{FromMs: ev.AtMs, ToMs: math.MaxInt64}
	for _, other := range fork.Scenario().Timeline {
		if other.AtMs > ev.AtMs {
			w.ToMs = min(w.ToMs, other.AtMs)
		}
	}
	o := windowOutcome(fork, w, owners(sim.View(step)))
	out.Found, out.StartMs, out.EndMs, out.UnownedMs, out.Moves = o.Found, o.StartMs, o.EndMs, o.WorstMs, o.Moves
	out.UntilMs = w.ToMs
	return out
}

// diffOwners lists partitions whose owner differs, sorted by topic, partition.
func diffOwners(before, after map[strategies.TopicPartition]string) []move {
	var out []move
	seen := map[strategies.TopicPartition]bool{}
	for _, m := range []map[strategies.TopicPartition]string{before, after} {
		for tp := range m {
			if seen[tp] {
				continue
			}
			seen[tp] = true
			if before[tp] != after[tp] {
				out = append(out, move{TP: tp, From: before[tp], To: after[tp]})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].TP.Topic != out[j].TP.Topic {
			return strategies.JavaLess(out[i].TP.Topic, out[j].TP.Topic)
		}
		return out[i].TP.Partition < out[j].TP.Partition
	})
	return out
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
		a.memberEvent(kind)
		return true, nil
	case key.Matches(msg, a.keys.WhatIf), key.Matches(msg, a.keys.Confirm):
		a.mode = modeLab
		return true, nil
	}
	return false, nil
}
