package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 21, goal 3: the lab on a given-start group of 10,000 members ×
// 500,000 partitions over 1,000 topics with one crash. Targets: the first
// frame within 5 s (from the scenario's bytes), every key within one frame
// (16 ms), memory within 2 GB. -short runs the tenth-size group only.

func scaleCases(b *testing.B) []modeltest.Scale {
	big := modeltest.Scale{Members: 10000, Partitions: 500000, Topics: 1000, Strategy: "uniform", Given: true, Crash: true}
	if testing.Short() {
		return []modeltest.Scale{big.Tenth()}
	}
	return []modeltest.Scale{big.Tenth(), big}
}

func scaleYAML(b *testing.B, s modeltest.Scale) []byte {
	b.Helper()
	y, err := s.YAML()
	if err != nil {
		b.Fatal(err)
	}
	return []byte(y)
}

// BenchmarkScaleFirstFrame: parse, simulate, open the lab and draw its first frame.
func BenchmarkScaleFirstFrame(b *testing.B) {
	for _, s := range scaleCases(b) {
		data := scaleYAML(b, s)
		b.Run(s.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				firstFrame(b, "scale.yaml", data)
			}
		})
	}
}

// BenchmarkScaleKey: a key's Update and the View after it, on the open lab.
func BenchmarkScaleKey(b *testing.B) {
	for _, s := range scaleCases(b) {
		sc, err := scenario.Parse("scale.yaml", scaleYAML(b, s))
		if err != nil {
			b.Fatal(err)
		}
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range []struct{ key, wrap string }{{"n", "g"}, {"b", "G"}, {"]", "g"}, {"G", "g"}, {"down", ""}, {"pgdown", ""}, {"tab", ""}} {
			b.Run(s.Name()+"/"+k.key, func(b *testing.B) {
				app := NewFromSim(sim)
				app.ledger() // what Init's command brings
				var m tea.Model = realDrive(app, tea.WindowSizeMsg{Width: 120, Height: 40})
				_ = m.View()
				msg := benchKey(k.key)
				b.ReportAllocs()
				for b.Loop() {
					before := m.(App).Step()
					m, _ = m.Update(msg)
					_ = m.View()
					if k.wrap != "" && m.(App).Step() == before {
						m, _ = m.Update(benchKey(k.wrap))
					}
				}
			})
		}
	}
}
