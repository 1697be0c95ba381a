package tui

import (
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 21, goal 3: the lab on a given-start group of 10,000 members ×
// 500,000 partitions over 1,000 topics with one crash, under uniform and
// range (the consumer protocol) and cooperative-sticky (classic). Targets:
// the first frame within 5 s (from the scenario's bytes), every key within
// one frame (16 ms), memory within 2 GB. -short runs the tenth-size
// uniform group only; -bench 'ScaleKey/given-10000x500000-range-server'
// picks one.

func scaleCases(b *testing.B) []modeltest.Scale {
	big := modeltest.Scale{Members: 10000, Partitions: 500000, Topics: 1000, Strategy: "uniform", Given: true, Crash: true}
	if testing.Short() {
		return []modeltest.Scale{big.Tenth()}
	}
	cases := []modeltest.Scale{big.Tenth(), big}
	for _, strategy := range []string{"range-server", "cooperative-sticky"} {
		c := big
		c.Strategy = strategy
		cases = append(cases, c)
	}
	return cases
}

func scaleYAML(b *testing.B, s modeltest.Scale) []byte {
	b.Helper()
	y, err := s.YAML()
	if err != nil {
		b.Fatal(err)
	}
	return []byte(y)
}

// scaleSim is the group simulated.
func scaleSim(b *testing.B, s modeltest.Scale) *model.Sim {
	b.Helper()
	sc, err := scenario.Parse("scale.yaml", scaleYAML(b, s))
	if err != nil {
		b.Fatal(err)
	}
	sim, err := model.Simulate(sc)
	if err != nil {
		b.Fatal(err)
	}
	return sim
}

// BenchmarkScaleFirstFrame: parse, simulate, open the lab and draw its first frame.
func BenchmarkScaleFirstFrame(b *testing.B) {
	for _, s := range scaleCases(b) {
		data := scaleYAML(b, s)
		b.Run(s.Name(), func(b *testing.B) {
			b.ReportAllocs()
			from := modeltest.CPUMs()
			for b.Loop() {
				firstFrame(b, "scale.yaml", data)
			}
			modeltest.ReportCPU(b, from)
		})
	}
}

// scaleKeys are the keys BenchmarkScaleKey presses, each walking on from
// where the last press left the lab: a step key wraps (wrap, untimed) at
// the end, a jump is undone (back, untimed) after every press, so each
// press is a real jump to a step drawn afresh. "p" is autoplay's step (a
// tick while playing), "find" a search (/) by member and "find-tp" one by
// partition, typed and entered.
var scaleKeys = []struct{ key, wrap, back string }{
	{"n", "g", ""}, {"b", "G", ""}, {"p", "g", ""},
	{"]", "", "g"}, {"[", "", "G"}, {"G", "", "g"}, {"g", "", "G"},
	{"down", "", ""}, {"pgdown", "", ""}, {"tab", "", ""}, {"find", "", ""}, {"find-tp", "", ""},
}

// BenchmarkScaleKey: a key's Update and the View after it, on the open lab.
func BenchmarkScaleKey(b *testing.B) {
	for _, s := range scaleCases(b) {
		sim := scaleSim(b, s)
		for _, k := range scaleKeys {
			b.Run(s.Name()+"/"+k.key, func(b *testing.B) {
				app := NewFromSim(sim)
				app.ledger() // what Init's command brings
				var m tea.Model = realDrive(app, tea.WindowSizeMsg{Width: 120, Height: 40})
				_ = m.View()
				if k.key == "p" {
					m, _ = m.Update(press("p"))
				}
				runtime.GC() // the simulation's garbage is not the key's
				b.ReportAllocs()
				cpu := 0.0 // the presses' own, not the untimed wraps'
				for b.Loop() {
					before := m.(App).Step()
					from := modeltest.CPUMs()
					m = scaleKey(m, k.key)
					_ = m.View()
					cpu += modeltest.CPUMs() - from
					undo := k.back
					if k.wrap != "" && m.(App).Step() == before {
						undo = k.wrap
					}
					if undo != "" {
						b.StopTimer()
						m, _ = m.Update(benchKey(undo))
						if k.key == "p" {
							m, _ = m.Update(press("p")) // play again from the start
						}
						_ = m.View()
						b.StartTimer()
					}
				}
				b.ReportMetric(cpu/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// scaleKey presses one of scaleKeys.
func scaleKey(m tea.Model, key string) tea.Model {
	switch key {
	case "p":
		m, _ = m.Update(tickMsg{gen: m.(App).playGen})
	case "find", "find-tp":
		q := "c4321"
		if key == "find-tp" {
			q = "t500-7"
		}
		m, _ = m.Update(press("/"))
		for _, r := range q {
			m, _ = m.Update(press(string(r)))
		}
		m, _ = m.Update(press("enter"))
	default:
		m, _ = m.Update(benchKey(key))
	}
	return m
}

// BenchmarkScaleRecompute: a recomputing key until its result is on
// screen (the key, its background work, the frame after): x crashes the
// selected member, d makes it leave (issue 21's target: 3 s).
func BenchmarkScaleRecompute(b *testing.B) {
	for _, s := range scaleCases(b) {
		sim := scaleSim(b, s)
		for _, key := range []string{"x", "d"} {
			b.Run(s.Name()+"/"+key, func(b *testing.B) {
				app := NewFromSim(sim)
				app.ledger()
				start := realDrive(app, tea.WindowSizeMsg{Width: 120, Height: 40}, press("]"), press("down"))
				_ = start.View()
				b.ReportAllocs()
				from := modeltest.CPUMs()
				for b.Loop() {
					m, cmd := tea.Model(start).Update(press(key))
					m = deliver(m, cmd)
					_ = m.View()
				}
				modeltest.ReportCPU(b, from)
			})
		}
	}
}
