package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// BenchmarkRebalancesScan1000x10000: reading rebalances and outages from
// the history of 1,000 members joining a 10,000-partition topic. Its cost
// follows the members whose views changed, not steps × partitions (before:
// 32 s for this history).
func BenchmarkRebalancesScan1000x10000(b *testing.B) {
	var y strings.Builder
	y.WriteString("topics: {t0: 10000}\ngroup: {id: big, strategy: range}\nmembers:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&y, "  - {id: c%04d}\n", i)
	}
	sc, err := scenario.Parse("big.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	sim, err := Simulate(sc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := newOwnershipScan(false)
		s.run(sim.steps, sim.vlog, sim.tlog, sim.tids)
		if len(s.done) != 1 {
			b.Fatalf("%d rebalances, want 1", len(s.done))
		}
	}
}

// BenchmarkRebalancesScanLab: the first Rebalances() of a what-if fork of
// the lab scenario (later calls hit the Sim's cache).
func BenchmarkRebalancesScanLab(b *testing.B) {
	data, _ := demo.Get("lab")
	sc, err := scenario.Parse("lab.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	sim, err := Simulate(sc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := newOwnershipScan(false)
		s.run(sim.steps, sim.vlog, sim.tlog, sim.tids)
		if len(s.done) == 0 {
			b.Fatal("no rebalances")
		}
	}
}
