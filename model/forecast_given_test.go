package model

import (
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

// A what-if at time 0 on a scenario that starts from a given state starts
// from that state, not from nobody (kviz live's imports ask exactly that).
func TestForecastAtZeroOfAGivenStartBeginsWithTheGivenOwners(t *testing.T) {
	sc, err := scenario.Parse("given.yaml", []byte(`
topics: {orders: 6}
group: {id: g, strategy: range, generation: 3}
members:
  - {id: c1, member_id: c1-a, owned: {orders: [0, 1]}}
  - {id: c2, member_id: c2-b, owned: {orders: [2, 3]}}
  - {id: c3, member_id: c3-c, owned: {orders: [4, 5]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sim.Forecast(scenario.Event{AtMs: 0, Kind: "leave", Member: "c2"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Outcome
	if got := o.Before.Assignment()["c2"]["orders"]; len(got) != 2 || got[0] != 2 {
		t.Errorf("before %v, want the given owners", o.Before)
	}
	if o.Moved != 2 || len(o.Moves) != 2 {
		t.Errorf("moves %v: only c2's two partitions move", o.Moves)
	}
}
