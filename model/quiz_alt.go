package model

import (
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// quizAlts is the scenario re-simulated under every other assignor that
// runs under its protocol (a cooperative scenario's other assignors run
// eager), for the quiz's plausible wrong answers: "what range would have
// done". Each runs once, on first use.
type quizAlts struct {
	base *Sim
	done bool
	runs []quizAlt
}

// quizAlt is one re-simulation.
type quizAlt struct {
	strategy string
	sim      *Sim
	rebs     []Rebalance
}

func (a *quizAlts) all() []quizAlt {
	if a.done {
		return a.runs
	}
	a.done = true
	sc := a.base.sc
	for _, name := range strategies.Names() {
		if name == sc.Strategy {
			continue
		}
		as, err := strategies.Lookup(name)
		if err != nil {
			continue
		}
		protocol := sc.Protocol
		if !protocolSupported(as, protocol) {
			if protocol != string(strategies.Cooperative) || !protocolSupported(as, string(strategies.Eager)) {
				continue
			}
			protocol = string(strategies.Eager)
		}
		alt, err := Simulate(quizVariant(sc, name, protocol))
		if err != nil {
			continue // a variant the model cannot run offers no wrong answer
		}
		a.runs = append(a.runs, quizAlt{strategy: name, sim: alt, rebs: alt.Rebalances()})
	}
	return a.runs
}

// quizVariant is the scenario under another assignor and protocol.
// Stand-in for the lead's Scenario.WithStrategy (model/vary.go), which
// re-derives every protocol-dependent default; the quiz only ever changes
// the assignor within the classic protocols, where no default depends on
// it.
func quizVariant(sc *Scenario, strategy, protocol string) *Scenario {
	cp := *sc
	cp.Strategy, cp.Protocol = strategy, protocol
	cp.Members = slices.Clone(sc.Members)
	cp.Timeline = slices.Clone(sc.Timeline)
	return &cp
}

// matching is the alternative run's rebalance k, when the run has as many
// rebalances as the original (the same triggers, so the same story).
func (alt quizAlt) matching(k, n int) (Rebalance, bool) {
	if len(alt.rebs) != n || k >= n {
		return Rebalance{}, false
	}
	return alt.rebs[k], true
}
