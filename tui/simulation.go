package tui

import (
	"context"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// simulation is what the lab needs from a finished model run. *model.Sim
// provides it through modelSim; tests can supply a scripted one, so the
// screens are testable on their own.
type simulation interface {
	Scenario() *scenario.Scenario
	Len() int
	// StepLine is a step without its maps (owned, target): the lab draws
	// those from View, and Step would build them for every member.
	StepLine(i int) model.Step
	// StepHead is StepLine without its sentence (written on demand).
	StepHead(i int) model.Step
	View(i int) *model.GroupView
	Rebalances() []model.Rebalance
	Outages() []model.Outage
	// AssignedIn lists the members whose onPartitionsAssigned ran in steps
	// from..to.
	AssignedIn(from, to int) map[string]bool
	// Insert returns a fork with ev on the timeline, the rest recomputed;
	// it gives up once ctx is done (a newer key made it useless).
	Insert(ctx context.Context, ev scenario.Event) (simulation, error)
	// Forecast is what inserting ev leads to, run until settled.
	Forecast(ctx context.Context, ev scenario.Event) (model.Outcome, error)
	// Compare runs the scenario under each variant and reads the moment
	// (model.Compare).
	Compare(ctx context.Context, atMs int64, ev *scenario.Event, vs []model.Variant) []model.CompareRow
}

// modelSim adapts *model.Sim to simulation.
type modelSim struct{ *model.Sim }

func (s modelSim) Insert(ctx context.Context, ev scenario.Event) (simulation, error) {
	next, err := s.Sim.InsertContext(ctx, ev)
	if err != nil {
		return nil, err
	}
	return modelSim{next}, nil
}

func (s modelSim) Forecast(ctx context.Context, ev scenario.Event) (model.Outcome, error) {
	f, err := s.Sim.ForecastContext(ctx, ev)
	if err != nil {
		return model.Outcome{}, err
	}
	return f.Outcome, nil
}

func (s modelSim) Compare(ctx context.Context, atMs int64, ev *scenario.Event, vs []model.Variant) []model.CompareRow {
	return model.CompareContext(ctx, s.Scenario(), atMs, ev, vs)
}

// simulateFunc runs a scenario. The app holds one (the s/e keys
// re-simulate through it), so tests on a scripted model keep using that
// model after a switch.
type simulateFunc func(ctx context.Context, sc *scenario.Scenario) (simulation, error)

// simulateModel runs the real model.
func simulateModel(ctx context.Context, sc *scenario.Scenario) (simulation, error) {
	sim, err := model.SimulateContext(ctx, sc)
	if err != nil {
		return nil, err
	}
	return modelSim{sim}, nil
}
