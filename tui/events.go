package tui

import (
	"fmt"
	"slices"
	"sort"

	"github.com/kvizlab/kviz/model"
)

// insert adds an event at the current virtual time and swaps in the
// recomputed simulation; a refusal is the status line.
func (a *App) insert(ev model.Event, what string) bool {
	if err := a.tryInsert(ev, what); err != nil {
		a.setStatus("cannot "+what+": "+err.Error(), true)
		return false
	}
	return true
}

// tryInsert is insert that hands the model's refusal back (a prompt keeps
// it on screen to fix the answer). The event goes 1 ms after the step on
// screen: the model runs an event before other work due in the same
// millisecond, so at the very same time it could rewrite steps the user
// has already seen. One millisecond later, every step up to the cursor is
// unchanged, and stepping back and forward again replays exactly.
func (a *App) tryInsert(ev model.Event, what string) error {
	ev.AtMs = a.view().TimeMs + 1
	next, err := a.sim.Insert(ev)
	if err != nil {
		return err
	}
	a.setSim(next)
	a.setStatus(fmt.Sprintf("%s at %s — step on to see what happens", what, formatMs(ev.AtMs)), false)
	return nil
}

// nextStrategy re-simulates the scenario under the next assignor that can
// run under the current protocol.
func (a *App) nextStrategy() {
	sc := a.sim.Scenario()
	p := model.Protocol(sc.Protocol)
	var valid []string
	for _, n := range model.StrategyNames() {
		if model.Supports(n, p) {
			valid = append(valid, n)
		}
	}
	if len(valid) == 0 {
		a.setStatus("no strategy runs under the "+sc.Protocol+" protocol", true)
		return
	}
	i := slices.Index(valid, sc.Strategy)
	a.resimulate(valid[(i+1)%len(valid)], sc.Protocol, "")
}

// nextProtocol re-simulates under the next protocol, switching to an
// assignor that supports it when the current one does not (range cannot
// run cooperatively; only server-side assignors run under KIP-848).
func (a *App) nextProtocol() {
	sc := a.sim.Scenario()
	ps := model.Protocols()
	p := ps[(slices.Index(ps, model.Protocol(sc.Protocol))+1)%len(ps)]
	strategy, note := sc.Strategy, ""
	if !model.Supports(strategy, p) {
		strategy = model.StrategyFor(p)
		if strategy == "" {
			a.setStatus("no strategy runs under the "+string(p)+" protocol", true)
			return
		}
		note = fmt.Sprintf(" (%s cannot run under it)", sc.Strategy)
	}
	a.resimulate(strategy, string(p), note)
}

// resimulate runs the scenario under another strategy and protocol — the
// model's variation, with every default that depends on them derived again
// — and keeps the cursor at the same virtual time.
func (a *App) resimulate(strategy, protocol, note string) {
	now := a.view().TimeMs
	varied, err := a.sim.Scenario().WithStrategy(strategy, protocol)
	var next simulation
	if err == nil {
		next, err = a.simulate(varied)
	}
	if err != nil {
		a.setStatus(fmt.Sprintf("cannot switch to %s/%s: %v", strategy, protocol, err), true)
		return
	}
	a.setSim(next)
	a.step = stepAt(next, now)
	a.setStatus(fmt.Sprintf("re-simulated with %s under %s%s", strategy, varied.Protocol, note), false)
}

// stepAt is the last step at or before virtual time ms.
func stepAt(sim simulation, ms int64) int {
	i := sort.Search(sim.Len(), func(i int) bool { return sim.View(i).TimeMs > ms })
	return max(i-1, 0)
}

// formatMs shows virtual time as seconds with millisecond precision.
func formatMs(ms int64) string {
	return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000)
}
