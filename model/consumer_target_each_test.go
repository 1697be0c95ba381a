package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// assignOnly hides an assignor's AssignEach, so the model takes its general
// path: Assign, then compare each member's new target with its old one.
type assignOnly struct{ strategies.Assignor }

func (a assignOnly) Name() string { return a.Assignor.Name() + "-assign-only" }

func init() {
	for _, name := range []string{"uniform", "range-server"} {
		if a, err := strategies.Lookup(name); err == nil {
			strategies.Register(assignOnly{a})
		}
	}
}

// The model's fast path for uniform (AssignEach, which says which members
// keep their target) must give the very trace the general path gives, step
// for step, over random KIP-848 groups and timelines.
func TestAssignEachPathMatchesAssign(t *testing.T) {
	if _, err := strategies.Lookup("uniform-assign-only"); err != nil {
		t.Skip("uniform is not registered")
	}
	rapid.Check(t, func(t *rapid.T) {
		yaml := genScenario(t, [2]string{"uniform", "consumer"})
		fast := simulateJSON(t, yaml)
		slow := simulateJSON(t, strings.Replace(yaml, "strategy: uniform,", "strategy: uniform-assign-only,", 1))
		for i := range slow { // the narration names the strategy
			slow[i] = strings.ReplaceAll(slow[i], "uniform-assign-only", "uniform")
		}
		if len(fast) != len(slow) {
			t.Fatalf("%d steps with AssignEach, %d without\n%s", len(fast), len(slow), yaml)
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("step %d differs\nAssignEach: %s\nAssign:     %s\n%s", i, fast[i], slow[i], yaml)
			}
		}
	})
}

func simulateJSON(t *rapid.T, yaml string) []string {
	sc, err := scenario.Parse("random.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("%v\n%s", err, yaml)
	}
	sim, err := model.Simulate(sc)
	if err != nil {
		t.Fatalf("%v\n%s", err, yaml)
	}
	out := make([]string, sim.Len())
	for i := range out {
		b, err := json.Marshal(sim.Step(i))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// The history logs a new target by the members the assignor changed
// (consumerGroup.targetDelta); on random KIP-848 runs, joins, leaves,
// crashes and subscription changes, every such delta holds every entry
// that differs from the target before.
func TestTargetDeltasNameEveryChange(t *testing.T) {
	defer model.SetCheckTargetDeltas(true)()
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		simGenerated(t, genScenario(t, rapid.SampledFrom(available).Draw(t, "setup")))
	})
	for _, s := range []modeltest.Scale{{Members: 300, Partitions: 1000, Topics: 1, Strategy: "uniform"},
		{Members: 60, Partitions: 600, Topics: 12, Strategy: "uniform", Given: true, Crash: true}} {
		y, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		simYAML(t, s.Name()+".yaml", y)
	}
}
