package model_test

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// AppendStepJSON writes what encoding/json writes for Step, byte for byte:
// for every step of every demo (producers' lag included) and of random
// groups under every strategy and protocol.
func TestAppendStepJSONMatchesMarshal(t *testing.T) {
	for _, name := range demo.Names() {
		checkStepJSON(t, simDemo(t, name), name)
	}
	for _, setup := range registeredSetups() {
		t.Run(setup[0]+"/"+setup[1], func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				yaml := genScenario(t, setup)
				sc, err := scenario.Parse("random.yaml", []byte(yaml))
				if err != nil {
					t.Fatalf("%v\n%s", err, yaml)
				}
				sim, _ := model.Simulate(sc) // a group that never settles still has its steps
				checkStepJSON(t, sim, yaml)
			})
		})
	}
}

func checkStepJSON(t interface{ Fatalf(string, ...any) }, sim *model.Sim, what string) {
	for i := 0; i < sim.Len(); i++ {
		want, err := json.Marshal(sim.Step(i))
		if err != nil {
			t.Fatalf("%s step %d: %v", what, i, err)
		}
		if got := sim.AppendStepJSON(nil, i); string(got) != string(want) {
			t.Fatalf("%s step %d:\n got %s\nwant %s", what, i, got, want)
		}
	}
}
