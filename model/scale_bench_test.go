package model_test

import (
	"runtime"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 21's targets, on this machine's 2 cores: each Kafka-scale group
// (modeltest.IssueScales: given 10,000 members × 500,000 partitions over
// 1,000 topics with a crash, under uniform, range-server and
// cooperative-sticky; joining from empty under Kafka 4.1 and 4.3), and the
// same group at a tenth of the size, so the ratio shows how cost grows.
// Run with -benchtime=1x: a full-size iteration takes seconds (-short
// runs the tenths only).
//
//	go test ./model/ -run '^$' -bench 'Scale' -benchtime=1x
//
// scripts/scale.sh measures the same groups as whole kviz processes (wall
// time and peak resident memory).
func scaleCases() []modeltest.Scale {
	var out []modeltest.Scale
	for _, s := range modeltest.IssueScales() {
		out = append(out, s.Tenth())
		if !testing.Short() { // -short: the tenths only, a minute instead of six
			out = append(out, s)
		}
	}
	return out
}

// scaleScenario is the group's file, parsed.
func scaleScenario(b *testing.B, s modeltest.Scale) *scenario.Scenario {
	b.Helper()
	src, err := s.YAML()
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.Parse(s.Name()+".yaml", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// reportLive adds the heap the simulation keeps (MB-live) and its steps.
func reportLive(b *testing.B, sim *model.Sim) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MB-live")
	b.ReportMetric(float64(sim.Len()), "steps")
	runtime.KeepAlive(sim)
}

// BenchmarkSimulateScale: parse and simulate until settled, and walk the
// steps as `kviz simulate --format text` does (target at full size: 3 s,
// 1.5 GB resident for the given groups; 10 s and 1 GB joining under 4.1,
// 2 s under 4.3).
func BenchmarkSimulateScale(b *testing.B) {
	for _, s := range scaleCases() {
		b.Run(s.Name(), func(b *testing.B) {
			src, err := s.YAML()
			if err != nil {
				b.Fatal(err)
			}
			var sim *model.Sim
			for b.Loop() {
				sc, err := scenario.Parse(s.Name()+".yaml", []byte(src))
				if err != nil {
					b.Fatal(err)
				}
				if sim, err = model.Simulate(sc); err != nil {
					b.Fatal(err)
				}
				for i := 0; i < sim.Len(); i++ { // as printSim: routine steps are skipped unread
					if !sim.StepHead(i).Routine {
						_ = sim.StepLine(i)
					}
				}
			}
			reportLive(b, sim)
		})
	}
}

// BenchmarkWhatIfScale: a second member crashing at 5 s, run until
// settled (the lab's w; `kviz whatif` also simulates the group without
// it, alongside), on the given groups.
func BenchmarkWhatIfScale(b *testing.B) {
	for _, s := range scaleCases() {
		if !s.Given {
			continue
		}
		b.Run(s.Name(), func(b *testing.B) {
			sc := scaleScenario(b, s)
			sim, err := model.Simulate(sc)
			if err != nil {
				b.Fatal(err)
			}
			var f *model.Forecast
			for b.Loop() {
				if f, err = sim.Forecast(scenario.Event{AtMs: 5000, Kind: "crash", Member: sc.Members[1].ID}); err != nil {
					b.Fatal(err)
				}
			}
			reportLive(b, f.Sim)
		})
	}
}

// BenchmarkChangeLinesScale: writing `kviz simulate --format jsonl
// --changes` (the lines `kviz simulate` prints) of a simulated group; its
// size is reported as MB-out (target: 200 MB at 5,000 × 250,000).
func BenchmarkChangeLinesScale(b *testing.B) {
	for _, s := range scaleCases() {
		b.Run(s.Name(), func(b *testing.B) {
			sim, err := model.Simulate(scaleScenario(b, s))
			if err != nil {
				b.Fatal(err)
			}
			size := 0
			for b.Loop() {
				lines := sim.ChangeLines()
				var line []byte
				size = 0
				for i := 0; i < sim.Len(); i++ {
					if sim.StepLine(i).Routine {
						continue
					}
					line = lines.Append(line[:0], i)
					size += len(line) + 1
				}
			}
			b.ReportMetric(float64(size)/(1<<20), "MB-out")
		})
	}
}
