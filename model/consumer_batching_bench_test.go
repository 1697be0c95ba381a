package model_test

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// BenchmarkBatching1000x10000: BenchmarkRebalance1000x10000's group under
// uniform at Kafka 4.1 (a target per joiner) and 4.3 (KAFKA-20291: the
// joiners after the first share one target per assignment interval).
func BenchmarkBatching1000x10000(b *testing.B) {
	needStrategy(b, "uniform")
	for _, v := range []string{"4.1", "4.3"} {
		b.Run(v, func(b *testing.B) {
			src := strings.Replace(bigGroupYAML(1000, 10000, "uniform"), "strategy: uniform}", `strategy: uniform, kafka_version: "`+v+`"}`, 1)
			sc := benchScenario(b, src)
			b.ReportAllocs()
			for b.Loop() {
				sim, err := model.Simulate(sc)
				if err != nil {
					b.Fatal(err)
				}
				if st := sim.Step(sim.Len() - 1); st.GroupState != kafka.KStable {
					b.Fatalf("ends %s", st.GroupState)
				}
			}
		})
	}
}
