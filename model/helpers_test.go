package model_test

import (
	"slices"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// needStrategy skips a test whose assignor another package has not landed yet.
func needStrategy(t testing.TB, name string) {
	t.Helper()
	if _, err := strategies.Lookup(name); err != nil {
		t.Skipf("strategy %s is not registered yet: %v", name, err)
	}
}

func simDemo(t testing.TB, name string) *model.Sim {
	t.Helper()
	data, ok := demo.Get(name)
	if !ok {
		t.Fatalf("no demo %s", name)
	}
	return simYAML(t, name+".yaml", string(data))
}

// demoAndScaleSims is every demo simulated, and each Kafka-scale group
// at the size given, by name.
func demoAndScaleSims(t testing.TB, scales ...modeltest.Scale) map[string]*model.Sim {
	t.Helper()
	sims := map[string]*model.Sim{}
	for _, name := range demo.Names() {
		sims[name] = simDemo(t, name)
	}
	for _, s := range scales {
		y, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		sims[s.Name()] = simYAML(t, s.Name()+".yaml", y)
	}
	return sims
}

func simYAML(t testing.TB, file, yaml string) *model.Sim {
	t.Helper()
	sc, err := scenario.Parse(file, []byte(yaml))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	sim, err := model.Simulate(sc)
	if err != nil {
		t.Fatalf("simulate: %v", err)
	}
	return sim
}

// last returns the final step.
func last(sim *model.Sim) model.Step { return sim.Step(sim.Len() - 1) }

// steps returns the steps of a kind (and member, if not "").
func steps(sim *model.Sim, kind kafka.StepKind, member string) []model.Step {
	var out []model.Step
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.Kind == kind && (member == "" || st.Member == member) {
			out = append(out, st)
		}
	}
	return out
}

// firstAt returns the index of the first step at or after ms.
func firstAt(sim *model.Sim, ms int64) int {
	for i := 0; i < sim.Len(); i++ {
		if sim.Step(i).TimeMs >= ms {
			return i
		}
	}
	return sim.Len()
}

func owns(st model.Step, member, topic string, ps ...int32) bool {
	got := st.Owned[member][topic]
	return slices.Equal(got, ps)
}

func assertOwned(t *testing.T, st model.Step, want map[string]map[string][]int32) {
	t.Helper()
	for m, topics := range want {
		for tp, ps := range topics {
			if !owns(st, m, tp, ps...) {
				t.Errorf("step %d: %s owns %v of %s, want %v (all: %v)", st.Index, m, st.Owned[m][tp], tp, ps, st.Owned)
			}
		}
		if len(topics) == 0 && len(st.Owned[m]) != 0 {
			t.Errorf("step %d: %s owns %v, want nothing", st.Index, m, st.Owned[m])
		}
	}
}
