package model

import (
	"testing"

	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// BenchmarkOutcomeScale: what `kviz whatif` adds to the fork on the given
// Kafka-scale groups, OutcomeOfEvent (the rebalance scan over every step,
// the owners before and after and their diff), the scan's cache dropped
// each time. The fork is made once, outside the timing.
//
//	go test ./model/ -run '^$' -bench 'OutcomeScale' -benchtime=1x
func BenchmarkOutcomeScale(b *testing.B) {
	for _, s := range modeltest.IssueScales() {
		if !s.Given {
			continue
		}
		cases := []modeltest.Scale{s.Tenth()}
		if !testing.Short() {
			cases = append(cases, s)
		}
		for _, c := range cases {
			b.Run(c.Name(), func(b *testing.B) {
				src, err := c.YAML()
				if err != nil {
					b.Fatal(err)
				}
				sc, err := scenario.Parse(c.Name()+".yaml", []byte(src))
				if err != nil {
					b.Fatal(err)
				}
				ev := scenario.Event{AtMs: 5000, Kind: "crash", Member: sc.Members[1].ID}
				f, err := ForecastScenario(sc, ev)
				if err != nil {
					b.Fatal(err)
				}
				fork := f.Sim
				for b.Loop() {
					fork.mu.Lock()
					fork.scanned = nil
					fork.mu.Unlock()
					_ = fork.OutcomeOfEvent(ev.AtMs)
				}
			})
		}
	}
}
