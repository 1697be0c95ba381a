package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// benchDemo simulates demo:producers b.N times, with or without its data
// path (replayed to the last step), and reports the cost per group step:
// the difference between the two is what producers add to each step the
// lab shows (target < 50 µs).
func benchDemo(b *testing.B, withFlow bool) {
	data, _ := demo.Get("producers")
	sc, err := scenario.Parse("producers.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	if !withFlow {
		sc.Flow = nil
	}
	steps := 0
	for b.Loop() {
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		steps = sim.Len()
		if withFlow && sim.View(steps-1).Flow() == nil { // the replay runs on demand
			b.Fatal("no flow")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps)/1000, "µs/step")
}

func BenchmarkProducersDemoWithFlow(b *testing.B)    { benchDemo(b, true) }
func BenchmarkProducersDemoWithoutFlow(b *testing.B) { benchDemo(b, false) }

// BenchmarkProducersStepView is one keystroke's step in the lab: the view
// of the next step, data path included.
func BenchmarkProducersStepView(b *testing.B) {
	data, _ := demo.Get("producers")
	sc, _ := scenario.Parse("producers.yaml", data)
	sim, err := model.Simulate(sc)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if sim.View(i%sim.Len()).Flow() == nil {
			b.Fatal("no flow")
		}
		i++
	}
}

// BenchmarkFlow1000Partitions replays a 1,000-partition topic with a
// 1,000 records/s producer through a join and reports the cost per group
// step of the data path alone.
func BenchmarkFlow1000Partitions(b *testing.B) {
	sc, err := scenario.Parse("big.yaml", []byte(`topics: {orders: 1000}
members:
  - {id: c1}
  - {id: c2}
producers:
  - {topic: orders, rate: 1000, keys: {uniform: 5000}}
timeline:
  - {at_ms: 20000, join: {id: c3}}
`))
	if err != nil {
		b.Fatal(err)
	}
	steps := 0
	for b.Loop() {
		b.StopTimer()
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		steps = sim.Len()
		_ = sim.View(steps - 1).Flow()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps)/1000, "µs/step")
}
