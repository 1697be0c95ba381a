package model

import (
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

// Simulating builds no data path views; drawing step i builds those up to i.
func TestFlowIsReplayedOnDemand(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte(`topics: {t0: 2}
members:
  - {id: c1}
producers:
  - {topic: t0, rate: 10}
timeline:
  - {at_ms: 20000, commit: c1}
`))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sim.flows.views); n != 0 {
		t.Fatalf("Simulate built %d flow views", n)
	}
	v := sim.View(5)
	if n := len(sim.flows.views); n != 0 || !v.HasFlow() {
		t.Fatalf("a group view built %d flow views (has flow: %v)", n, v.HasFlow())
	}
	if v.Flow() == nil || len(sim.flows.views) != 6 {
		t.Fatalf("Flow() of step 5 built %d views", len(sim.flows.views))
	}
	if sim.View(2).Flow() != sim.flows.views[2] || len(sim.flows.views) != 6 {
		t.Fatal("an earlier step is replayed again")
	}
}
