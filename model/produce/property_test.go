package produce

import (
	"testing"

	"github.com/kvizlab/kviz/strategies"
	"pgregory.net/rapid"
)

// Property: whatever producers, consumers, commits and rebalances do, every
// record lands in 0..N-1, and committed ≤ position ≤ log-end offset.
func TestCommittedNeverPassesLogEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sim := NewSim(rapid.Uint64().Draw(t, "seed"))
		n := rapid.IntRange(1, 8).Draw(t, "partitions")
		if err := sim.AddTopic("t", n); err != nil {
			t.Fatal(err)
		}
		version := rapid.SampledFrom([]string{"2.3", "3.2", "3.9", "4.0"}).Draw(t, "version")
		keys := rapid.SampledFrom([]Keys{{Kind: KeysNull}, {Kind: KeysUniform, Count: 50}, {Kind: KeysHot, Hot: "h", HotShare: 0.3, Count: 10}}).Draw(t, "keys")
		p, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: float64(rapid.IntRange(0, 20000).Draw(t, "rate")),
			Version: version, Keys: keys, BatchSize: rapid.IntRange(200, 20000).Draw(t, "batch")})
		if err != nil {
			t.Fatal(err)
		}
		g := sim.Group("g")
		members := []string{"c0", "c1", "c2"}
		for _, m := range members {
			cfg := ConsumerConfig{Rate: float64(rapid.IntRange(1, 5000).Draw(t, "crate")),
				Commit:               rapid.SampledFrom([]CommitMode{CommitAuto, CommitSync, CommitAsync}).Draw(t, "commit"),
				OffsetReset:          rapid.SampledFrom([]OffsetReset{ResetEarliest, ResetLatest, ResetNone}).Draw(t, "reset"),
				AutoCommitIntervalMs: rapid.IntRange(1, 100).Draw(t, "interval")}
			if err := g.Join(m, cfg); err != nil {
				t.Fatal(err)
			}
		}
		for step := range rapid.IntRange(1, 30).Draw(t, "steps") {
			_ = step
			part := rapid.IntRange(0, n-1).Draw(t, "partition")
			tp := strategies.TopicPartition{Topic: "t", Partition: int32(part)}
			v, _ := g.Partition("t", part)
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				if v.Owner == "" {
					_ = g.Own(rapid.SampledFrom(members).Draw(t, "to"), []strategies.TopicPartition{tp})
				}
			case 1:
				if v.Owner != "" {
					_ = g.Release(v.Owner, []strategies.TopicPartition{tp}, rapid.SampledFrom([]Handover{Revoked, Lost}).Draw(t, "how"))
				}
			case 2:
				_ = sim.Produce("t", nil, rapid.IntRange(0, 50).Draw(t, "count"))
			}
			if err := sim.Advance(int64(rapid.IntRange(0, 50).Draw(t, "ms"))); err != nil {
				t.Fatal(err)
			}
			var sent int64
			for q := range n {
				v, _ := g.Partition("t", q)
				if v.Committed > v.LogEnd || v.Position > v.LogEnd {
					t.Fatalf("p%d: committed %d, position %d, log end %d", q, v.Committed, v.Position, v.LogEnd)
				}
				if v.Committed >= 0 && v.Position >= 0 && v.Committed > v.Position && v.Owner != "" {
					t.Fatalf("p%d: committed %d ahead of the owner's position %d", q, v.Committed, v.Position)
				}
				sent += p.Sent[q]
			}
			if p.Last.Partition >= n {
				t.Fatalf("record sent to partition %d of %d", p.Last.Partition, n)
			}
			if len(p.Sent) != n {
				t.Fatalf("%d partition counters for %d partitions", len(p.Sent), n)
			}
		}
	})
}

// The lab needs ≥ 1,000,000 simulated records per wall second on one core.
// b.N counts records; records/s is reported.
func benchmarkProducer(b *testing.B, keys Keys, version string) {
	sim := NewSim(1)
	_ = sim.AddTopic("t", 12)
	const rate = 1_000_000 // records per virtual second: 1000 a millisecond
	_, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: rate, Keys: keys, Version: version})
	if err != nil {
		b.Fatal(err)
	}
	g := sim.Group("g")
	_ = g.Join("c0", ConsumerConfig{Rate: rate, OffsetReset: ResetEarliest})
	all := make([]strategies.TopicPartition, 12)
	for i := range all {
		all[i] = strategies.TopicPartition{Topic: "t", Partition: int32(i)}
	}
	_ = g.Own("c0", all)
	b.ReportAllocs()
	b.ResetTimer()
	ms := int64(b.N / 1000)
	if ms == 0 {
		ms = 1
	}
	if err := sim.Advance(ms); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(ms*1000)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkProducerUniformKeys(b *testing.B) {
	benchmarkProducer(b, Keys{Kind: KeysUniform, Count: 10000}, "4.0")
}
func BenchmarkProducerNullKeysBuiltIn(b *testing.B) {
	benchmarkProducer(b, Keys{Kind: KeysNull}, "4.0")
}
func BenchmarkProducerNullKeysSticky(b *testing.B) { benchmarkProducer(b, Keys{Kind: KeysNull}, "3.2") }
