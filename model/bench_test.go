package model_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func bigGroupYAML(members, partitions int, strategy string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "topics: {t0: %d}\ngroup: {id: big, strategy: %s}\nmembers:\n", partitions, strategy)
	for i := 0; i < members; i++ {
		fmt.Fprintf(&b, "  - {id: c%04d}\n", i)
	}
	return b.String()
}

func benchScenario(b *testing.B, yaml string) *scenario.Scenario {
	b.Helper()
	sc, err := scenario.Parse("bench.yaml", []byte(yaml))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkRebalance1000x10000: 1,000 members join a 10,000-partition topic
// and the group is simulated to Stable (target: under 1 s).
func BenchmarkRebalance1000x10000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			needStrategy(b, strategy)
			sc := benchScenario(b, bigGroupYAML(1000, 10000, strategy))
			b.ReportAllocs()
			for b.Loop() {
				sim, err := model.Simulate(sc)
				if err != nil {
					b.Fatal(err)
				}
				if st := sim.Step(sim.Len() - 1); st.GroupState != kafka.Stable && st.GroupState != kafka.KStable {
					b.Fatalf("ends %s", st.GroupState)
				}
			}
		})
	}
}

// BenchmarkStep: one step with its snapshot, for the lab's workshop group
// (target: under 50 µs).
func BenchmarkStep(b *testing.B) {
	data, _ := demo.Get("lab")
	sc := benchScenario(b, string(data))
	steps := 0
	b.ReportAllocs()
	for b.Loop() {
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		steps += sim.Len()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}

// longWorkshop is four members committing every 20 s for hours: about
// 100,000 steps of history.
func longWorkshop(commits int) string {
	var b strings.Builder
	b.WriteString("topics: {t0: 6}\ngroup: {id: long}\nmembers:\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "  - {id: c%d}\n", i)
	}
	b.WriteString("timeline:\n")
	for i := 1; i <= commits; i++ {
		fmt.Fprintf(&b, "  - {at_ms: %d, commit: c%d}\n", i*20000, 1+i%4)
	}
	return b.String()
}

// BenchmarkHistory100k: the memory 100,000 steps of a workshop group keep
// (target: within 200 MB), reported as history-MB.
func BenchmarkHistory100k(b *testing.B) {
	sc := benchScenario(b, longWorkshop(1800))
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(sim.Len()), "steps")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "history-MB")
		runtime.KeepAlive(sim)
	}
}

// BenchmarkInsert: a keystroke-style what-if on the lab scenario: insert
// a crash and recompute (target: under 16 ms).
func BenchmarkInsert(b *testing.B) {
	data, _ := demo.Get("lab")
	sim, err := model.Simulate(benchScenario(b, string(data)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sim.Insert(scenario.Event{AtMs: 60000, Kind: "crash", Member: "c1"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRebalancesLab: the lab asks for the rebalance summary after every
// what-if, so it shares the keystroke budget with Insert.
func BenchmarkRebalancesLab(b *testing.B) {
	data, _ := demo.Get("lab")
	sim, err := model.Simulate(benchScenario(b, string(data)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(sim.Rebalances()) == 0 {
			b.Fatal("no rebalances")
		}
	}
}
