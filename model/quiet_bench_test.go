package model_test

import (
	"fmt"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
)

// quietYAML is three members and one crash at atMs: the scenario of issue
// 13 (30 days against 60 s).
func quietYAML(atMs int64) string {
	return fmt.Sprintf("topics: {t0: 6}\ngroup: {id: g, strategy: range}\nmembers: [{id: c1}, {id: c2}, {id: c3}]\ntimeline: [{at_ms: %d, crash: c1}]\n", atMs)
}

func benchSimulate(b *testing.B, yaml string) {
	sc := benchScenario(b, yaml)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.Simulate(sc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuiet: the 30-day scenario must cost within 3× the 60-second one
// (quiet stretches are jumped, quiet.go).
func BenchmarkQuiet(b *testing.B) {
	b.Run("60s", func(b *testing.B) { benchSimulate(b, quietYAML(60000)) })
	b.Run("30days", func(b *testing.B) { benchSimulate(b, quietYAML(30*24*3600*1000)) })
}

// BenchmarkWeek200x2000: a week-long 200-member × 2,000-partition scenario
// with ten events, simulated whole (the lab opens on it: target under 1 s).
func BenchmarkWeek200x2000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			needStrategy(b, strategy)
			benchSimulate(b, modeltest.Week(200, 2000, strategy))
		})
	}
}
