package model

import (
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
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

// all runs the variants, in parallel, once; the runs keep the strategy
// order.
func (a *quizAlts) all() []quizAlt {
	if a.done {
		return a.runs
	}
	a.done = true
	sc := a.base.sc
	var variants []*scenario.Scenario
	for _, name := range kafka.StrategyNames() {
		if name == sc.Strategy {
			continue
		}
		protocol := kafka.Protocol(sc.Protocol)
		if !kafka.Supports(name, protocol) {
			// A cooperative scenario's other assignors run eager.
			if protocol != kafka.ProtocolCooperative || !kafka.Supports(name, kafka.ProtocolEager) {
				continue
			}
			protocol = kafka.ProtocolEager
		}
		if v, err := sc.WithStrategy(name, string(protocol)); err == nil {
			variants = append(variants, v)
		}
	}
	runs := make([]*quizAlt, len(variants))
	var wg sync.WaitGroup
	for i, v := range variants {
		wg.Go(func() {
			defer func() { _ = recover() }() // a variant the model cannot run offers no wrong answer
			if alt, err := Simulate(v); err == nil {
				runs[i] = &quizAlt{strategy: v.Strategy, sim: alt, rebs: alt.Rebalances()}
			}
		})
	}
	wg.Wait()
	for _, r := range runs {
		if r != nil {
			a.runs = append(a.runs, *r)
		}
	}
	return a.runs
}

// matching is the alternative run's rebalance k, when the run has as many
// rebalances as the original (the same triggers, so the same story).
func (alt quizAlt) matching(k, n int) (Rebalance, bool) {
	if len(alt.rebs) != n || k >= n {
		return Rebalance{}, false
	}
	return alt.rebs[k], true
}
