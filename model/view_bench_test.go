package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
)

// What a lab's step key asks the model for on a Kafka-scale group (issue
// 21: every key within 16 ms at 10,000 members × 500,000 partitions), one
// question at a time, each on steps not asked about before (a Sim keeps
// the views it built): the view after the step, which partitions nobody
// consumes, the balance and counts of the numbers pane, the members the
// step changed first. -short runs the tenth-size group only.
//
//	go test ./model/ -run '^$' -bench 'ScaleStep' -benchtime=200x
func BenchmarkScaleStep(b *testing.B) {
	big := modeltest.Scale{Members: 10000, Partitions: 500000, Topics: 1000, Strategy: "uniform", Given: true, Crash: true}
	cases := []modeltest.Scale{big.Tenth()}
	if !testing.Short() {
		cases = append(cases, big)
	}
	asks := []struct {
		name string
		ask  func(v *model.GroupView)
	}{
		{"view", func(*model.GroupView) {}},
		{"unconsumed", func(v *model.GroupView) { _ = v.Unconsumed() }},
		{"numbers", func(v *model.GroupView) { _ = v.Balance(); _, _ = v.Consumed() }},
		{"changed-first", func(v *model.GroupView) { _ = v.ChangedFirst() }},
	}
	for _, s := range cases {
		for _, a := range asks {
			b.Run(s.Name()+"/"+a.name, func(b *testing.B) {
				sim, err := model.Simulate(scaleScenario(b, s))
				if err != nil {
					b.Fatal(err)
				}
				sim.View(0).Unconsumed()
				i := 0
				b.ReportAllocs()
				from := modeltest.CPUMs()
				for b.Loop() {
					i = (i + 1) % sim.Len()
					a.ask(sim.View(i))
				}
				modeltest.ReportCPU(b, from)
			})
		}
	}
}
