package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// BenchmarkCompareLab: compare mode on the lab scenario — five strategies
// simulated and read at the c4 join (what the c key costs).
func BenchmarkCompareLab(b *testing.B) {
	data, _ := demo.Get("lab")
	sc := benchScenario(b, string(data))
	var vs []model.Variant
	for _, n := range kafka.CompareStrategies() {
		vs = append(vs, model.Variant{Strategy: n})
	}
	b.ReportAllocs()
	for b.Loop() {
		rows := model.Compare(sc, 20000, nil, vs)
		for _, r := range rows {
			if r.Err != nil || !r.Found {
				b.Fatalf("%s: %v", r.Strategy, r.Err)
			}
		}
	}
}

// BenchmarkWhatIf200x2000: the w key on a settled 200-member group of
// 2,000 partitions — fork, re-run, read the outcome once settled.
func BenchmarkWhatIf200x2000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			sim, at := settled200x2000(b, strategy)
			b.ReportAllocs()
			for b.Loop() {
				f, err := sim.Forecast(scenario.Event{AtMs: at, Kind: "leave", Member: "c0007"})
				if err != nil || !f.Outcome.Settled {
					b.Fatalf("%v %+v", err, f)
				}
			}
		})
	}
}

// BenchmarkInsert200x2000: a key that inserts an event (x, a, d, t) on a
// settled 200-member group of 2,000 partitions: fork and recompute
// (target: 50 ms; the lab runs it in the background).
func BenchmarkInsert200x2000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			sim, at := settled200x2000(b, strategy)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sim.Insert(scenario.Event{AtMs: at, Kind: "crash", Member: "c0007"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompare200x2000: the c key on that group: five strategies, each
// run and read at a leave (target: 250 ms).
func BenchmarkCompare200x2000(b *testing.B) {
	sc := benchScenario(b, bigGroupYAML(200, 2000, "range"))
	sim, err := model.Simulate(sc)
	if err != nil {
		b.Fatal(err)
	}
	at := sim.Step(sim.Len()-1).TimeMs + 1
	ev := scenario.Event{AtMs: at, Kind: "leave", Member: "c0007"}
	var vs []model.Variant
	for _, n := range kafka.CompareStrategies() {
		vs = append(vs, model.Variant{Strategy: n})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range model.Compare(sc, at, &ev, vs) {
			if r.Err != nil {
				b.Fatalf("%s: %v", r.Strategy, r.Err)
			}
		}
	}
}

// settled200x2000 is a 200-member group of 2,000 partitions, simulated,
// and the first millisecond after it settled.
func settled200x2000(b *testing.B, strategy string) (*model.Sim, int64) {
	b.Helper()
	sim, err := model.Simulate(benchScenario(b, bigGroupYAML(200, 2000, strategy)))
	if err != nil {
		b.Fatal(err)
	}
	return sim, sim.Step(sim.Len()-1).TimeMs + 1
}
