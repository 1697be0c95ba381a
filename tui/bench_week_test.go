package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/kvizlab/kviz/model"
)

// weekScenario is a week-long 200-member × 2,000-partition group with ten
// events spread over the days (issue 13: it opens in under 1 s).
func weekScenario(strategy string) string {
	var b strings.Builder
	b.WriteString("topics: {")
	for t := 0; t < 10; t++ {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "t%d: 200", t)
	}
	fmt.Fprintf(&b, "}\ngroup: {id: week, strategy: %s}\nmembers:\n", strategy)
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "  - {id: c%03d}\n", i)
	}
	b.WriteString("timeline:\n")
	const day = 24 * 3600 * 1000
	events := []string{"leave: c001", "crash: c002", "restart: c002", "join: {id: x1}", "leave: c010",
		"crash: c020", "join: {id: x2}", "restart: c020", "leave: x1", "crash: c030"}
	for i, ev := range events {
		fmt.Fprintf(&b, "  - {at_ms: %d, %s}\n", int64(i+1)*day*7/11, ev)
	}
	return b.String()
}

// BenchmarkOpenWeek200x2000: from the scenario's bytes to the lab's first
// frame at 160×48 (target: under 1 s).
func BenchmarkOpenWeek200x2000(b *testing.B) {
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		b.Run(strategy, func(b *testing.B) {
			src := []byte(weekScenario(strategy))
			b.ReportAllocs()
			for b.Loop() {
				sc, err := model.ParseScenario("week.yaml", src)
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
