package model

import "fmt"

// Sim is a finished simulation: its steps and the state after each.
type Sim struct {
	sc    *Scenario
	steps []Step
	views []*GroupView
}

// Simulate runs the scenario until the timeline is done and the group is quiet.
func Simulate(sc *Scenario) (*Sim, error) {
	if sc == nil {
		return nil, fmt.Errorf("no scenario")
	}
	return &Sim{sc: sc, steps: []Step{{Kind: "GroupStateChanged", Text: "stub"}}, views: []*GroupView{{}}}, nil
}

// Scenario returns the scenario that was simulated (with Insert's events).
func (s *Sim) Scenario() *Scenario { return s.sc }

// Len is the number of steps.
func (s *Sim) Len() int { return len(s.steps) }

// Step returns the trace line for step i.
func (s *Sim) Step(i int) Step { return s.steps[i] }

// View returns the state after step i (shared, read-only).
func (s *Sim) View(i int) *GroupView { return s.views[i] }

// Insert returns a fork with ev added to the timeline at ev.AtMs.
func (s *Sim) Insert(ev Event) (*Sim, error) { return nil, fmt.Errorf("not yet") }

// Rebalances lists the completed rebalances.
func (s *Sim) Rebalances() []Rebalance { return nil }
