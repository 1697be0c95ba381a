package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// largeShare is a share group at Kafka's largest (group.share.max.size
// 1000) on 100 partitions, settled, with records flowing.
func largeShare(b *testing.B) *scenario.Scenario {
	b.Helper()
	var y strings.Builder
	y.WriteString("seed: 9\ntopics: {t0: 100}\ngroup: {id: q, type: share, kafka_version: \"4.2\", max_size: 1000}\nmembers:\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&y, "  - {id: c%d}\n", i)
	}
	y.WriteString("timeline:\n  - {at_ms: 60000, records: {topic: t0, partition: 0, count: 50}}\n  - {at_ms: 61000, fetch: {id: c1}}\n")
	sc, err := scenario.Parse("large-share.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkShareOutcomeLarge is the what-if's reading of a fork of a
// thousand-member share group: a member leaves, the group settles again.
// Its cost follows the steps that changed something, not steps × members.
func BenchmarkShareOutcomeLarge(b *testing.B) {
	sc := largeShare(b)
	ev := scenario.Event{AtMs: 90000, Kind: "leave", Member: "c7"}
	f, err := model.ForecastScenario(sc, ev)
	if err != nil {
		b.Fatal(err)
	}
	if !f.Outcome.Settled || !f.Outcome.Rebalanced {
		b.Fatalf("the leave did not settle: %+v", f.Outcome.Rounds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		o := f.Sim.OutcomeOfEvent(ev.AtMs)
		if !o.Settled {
			b.Fatal("not settled")
		}
	}
}

// BenchmarkShareWhatIfLarge is the whole what-if: the fork runs and is read.
func BenchmarkShareWhatIfLarge(b *testing.B) {
	sc := largeShare(b)
	ev := scenario.Event{AtMs: 90000, Kind: "leave", Member: "c7"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.ForecastScenario(sc, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShareLedgerLarge is the numbers pane's first read of the same
// group's run: every rebalance and outage.
func BenchmarkShareLedgerLarge(b *testing.B) {
	sc := largeShare(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		sim, err := model.Simulate(sc)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if len(sim.Rebalances()) == 0 {
			b.Fatal("no rebalance")
		}
	}
}
