package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// BenchmarkOpenWeek200x2000: from the scenario's bytes to the lab's first
// frame at 160×48 (target: under 1 s).
func BenchmarkOpenWeek200x2000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			src := []byte(modeltest.Week(200, 2000, strategy))
			b.ReportAllocs()
			for b.Loop() {
				sc, err := scenario.Parse("week.yaml", src)
				if err != nil {
					b.Fatal(err)
				}
				a, err := New(sc)
				if err != nil {
					b.Fatal(err)
				}
				_ = realDrive(a, tea.WindowSizeMsg{Width: 160, Height: 48}).View()
			}
		})
	}
}
