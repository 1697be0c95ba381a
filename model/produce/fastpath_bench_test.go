package produce

import (
	"testing"

	"github.com/kvizlab/kviz/strategies"
)

// BenchmarkSparseTraffic is demo:producers' data path without the group
// simulation: 300 keyed records/s to 6 partitions, 40 keyless records/s
// to 3 (linger.ms 50), four members reading 100 records/s each, for two
// virtual minutes. Such sparse traffic is where the per-millisecond walk
// cost the most; ns/op is one run.
func BenchmarkSparseTraffic(b *testing.B) {
	linger := 50
	for b.Loop() {
		sim := NewSim(5)
		_ = sim.AddTopic("orders", 6)
		_ = sim.AddTopic("clicks", 3)
		_, _ = sim.AddProducer(ProducerConfig{Topic: "orders", Rate: 300, Version: "3.9",
			Keys: Keys{Kind: KeysHot, Hot: "user-42", HotShare: 0.6, Count: 50}})
		_, _ = sim.AddProducer(ProducerConfig{Topic: "clicks", Rate: 40, Version: "3.0", BatchSize: 2048, LingerMs: &linger})
		g := sim.Group("billing")
		for i, m := range []string{"c1", "c2", "c3"} {
			_ = g.Join(m, ConsumerConfig{Rate: 100, OffsetReset: ResetEarliest})
			_ = g.Own(m, []strategies.TopicPartition{{Topic: "orders", Partition: int32(2 * i)},
				{Topic: "orders", Partition: int32(2*i + 1)}, {Topic: "clicks", Partition: int32(i)}})
		}
		if err := sim.Advance(120_000); err != nil {
			b.Fatal(err)
		}
	}
}
