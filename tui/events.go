package tui

import (
	"context"
	"fmt"
	"slices"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// insert adds an event at the current virtual time. The recomputed
// simulation comes back from the command it returns; a refusal is the
// status line, prefixed "cannot <what>: ".
// done, if given, runs once the event is in (a selects the member it adds).
func (a *App) insert(ev scenario.Event, what string, done func(*App)) tea.Cmd {
	return a.insertThen(ev, what, func(a *App, err error) { a.setStatus("cannot "+what+": "+err.Error(), true) }, done)
}

// insertThen is insert with its own way to tell a refusal. The event goes
// 1 ms after the step on screen (model.Ledger.InsertMoment): every step up
// to the cursor is unchanged, and stepping back and forward again replays
// exactly.
//
// An open prompt waits for the answer: it closes when the event is in,
// and keeps the model's refusal on screen to fix the answer.
func (a *App) insertThen(ev scenario.Event, what string, fail func(*App, error), done func(*App)) tea.Cmd {
	ev.AtMs = a.ledger().InsertMoment(a.step)
	at := a.step // the steps up to here stay as they are
	j := a.newJob(fmt.Sprintf("%s at %s: simulating", what, model.FormatMs(ev.AtMs)))
	j.ask = a.prompt
	j.install = func(a *App, next simulation, nowMs int64) {
		if j.prev != nil {
			// Built on a switch: step indices differ, times do not.
			a.step = stepAt(next, min(nowMs, ev.AtMs-1))
		} else {
			a.step = min(a.step, at, next.Len()-1)
		}
		a.setStatus(fmt.Sprintf("%s at %s — step on to see what happens", what, model.FormatMs(ev.AtMs)), false)
		if j.ask != nil && a.prompt == j.ask {
			a.prompt = nil
		}
		if done != nil {
			done(a)
		}
	}
	j.fail = func(a *App, err error) {
		if j.ask != nil && a.prompt == j.ask {
			a.prompt.err = err.Error()
			a.setStatus("", false)
			return
		}
		fail(a, err)
	}
	return a.start(j, func(ctx context.Context, base simulation) (simulation, error) { return base.Insert(ctx, ev) })
}

// nextStrategy re-simulates the scenario under the next assignor, run as a
// consumer configured with just that assignor runs it: under its preferred
// protocol (cooperative-sticky cooperatively, uniform under KIP-848), so
// the lab shows what `kviz simulate --strategy` and compare show. The next
// is counted from the one a recompute still running will show: s pressed
// twice goes two on.
func (a *App) nextStrategy() tea.Cmd {
	strategy, _ := a.shownStrategy()
	names := kafka.StrategyNames()
	next := names[(slices.Index(names, strategy)+1)%len(names)]
	return a.resimulate(next, "", "")
}

// nextProtocol re-simulates under the next protocol the current strategy
// supports (eager ↔ cooperative for cooperative-sticky: the upgrade case),
// keeping the strategy; a strategy with one protocol says so.
func (a *App) nextProtocol() tea.Cmd {
	strategy, protocol := a.shownStrategy()
	ps := kafka.StrategyProtocols(strategy)
	if len(ps) < 2 {
		only := "no protocol"
		if len(ps) == 1 {
			only = "only the " + string(ps[0]) + " protocol"
		}
		a.setStatus(fmt.Sprintf("%s runs under %s — s picks another strategy", strategy, only), true)
		return nil
	}
	p := ps[(slices.Index(ps, kafka.Protocol(protocol))+1)%len(ps)]
	return a.resimulate(strategy, string(p), "")
}

// shownStrategy is the strategy and protocol on screen once the running
// recompute, if any, is done.
func (a *App) shownStrategy() (strategy, protocol string) {
	if a.job != nil {
		return a.job.strategy, a.job.protocol
	}
	sc := a.sim.Scenario()
	return sc.Strategy, sc.Protocol
}

// resimulate runs the scenario under another strategy and protocol — the
// model's variation, with every default that depends on them derived again
// — in the background, and keeps the cursor at the same virtual time.
func (a *App) resimulate(strategy, protocol, note string) tea.Cmd {
	failed := func(a *App, err error) {
		a.setStatus(fmt.Sprintf("cannot switch to %s/%s: %v", strategy, protocol, err), true)
	}
	j := a.newJob(fmt.Sprintf("%s under %s: simulating", strategy, protocol))
	j.fail = failed
	j.strategy, j.protocol = strategy, protocol
	j.install = func(a *App, next simulation, nowMs int64) {
		a.step = stepAt(next, nowMs)
		a.setStatus(fmt.Sprintf("re-simulated with %s under %s%s", strategy, next.Scenario().Protocol, note), false)
	}
	return a.startVaried(j, failed, func(sc *scenario.Scenario) (*scenario.Scenario, error) { return sc.WithStrategy(strategy, protocol) })
}

// startVaried runs j on the scenario vary makes of the one it builds on
// (another strategy, another release).
func (a *App) startVaried(j *job, failed func(*App, error), vary func(*scenario.Scenario) (*scenario.Scenario, error)) tea.Cmd {
	simulate := a.simulate
	if sc := a.baseScenario(); sc != nil {
		// The scenario is known now: a variation the model refuses is
		// refused at once, and the job needs nothing still running.
		varied, err := vary(sc)
		if err != nil {
			failed(a, err)
			return nil
		}
		j.scenario = varied
		return a.start(j, func(ctx context.Context, _ simulation) (simulation, error) { return simulate(ctx, varied) })
	}
	return a.start(j, func(ctx context.Context, base simulation) (simulation, error) {
		varied, err := vary(base.Scenario())
		if err != nil {
			return nil, err
		}
		return simulate(ctx, varied)
	})
}

// stepAt is the last step at or before virtual time ms.
func stepAt(sim simulation, ms int64) int {
	i := sort.Search(sim.Len(), func(i int) bool { return sim.StepLine(i).TimeMs > ms }) // StepLine: no view built
	return max(i-1, 0)
}

// memberEvent makes the selected member leave, crash or restart. When the
// model refuses (d on a member that is not running), its answer is the
// whole message.
func (a *App) memberEvent(kind string) tea.Cmd {
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return nil
	}
	if (kind == "leave" || kind == "crash") && !a.running(a.selected) {
		// The model's own answer to "is it running?" (MemberView.Live):
		// a leave or crash of a stopped member would be a no-op step.
		a.setStatus(a.selected+" is not running", true)
		return nil
	}
	verb := map[string]string{"leave": "leaves", "crash": "crashes", "restart": "restarts", "wakeup": "is woken up"}[kind]
	return a.insertThen(scenario.Event{Kind: kind, Member: a.selected}, a.selected+" "+verb,
		func(a *App, err error) { a.setStatus(err.Error(), true) }, nil)
}

// running reports whether the member is in this step and live.
func (a *App) running(id string) bool {
	for _, m := range a.view().Members {
		if m.ID == id {
			return m.Live()
		}
	}
	return false
}
