package produce

import (
	"testing"

	"github.com/kvizlab/kviz/strategies"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tps(topic string, parts ...int32) []strategies.TopicPartition {
	out := make([]strategies.TopicPartition, len(parts))
	for i, p := range parts {
		out[i] = strategies.TopicPartition{Topic: topic, Partition: p}
	}
	return out
}

func view(t *testing.T, g *Group, topic string, p int) PartitionView {
	t.Helper()
	v, err := g.Partition(topic, p)
	require.NoError(t, err)
	return v
}

func intp(n int) *int { return &n }

// Seed example 19: 6 messages; group A consumed and committed 4. A restarts →
// reads 2 under earliest and latest alike. A new group B → earliest reads 6,
// latest reads 0.
func TestSeedExample19OffsetReset(t *testing.T) {
	for _, reset := range []OffsetReset{ResetEarliest, ResetLatest} {
		sim := NewSim(1)
		require.NoError(t, sim.AddTopic("t", 1))
		require.NoError(t, sim.Produce("t", nil, 6))
		require.NoError(t, sim.Advance(5)) // linger.ms 5 (4.0)
		require.Equal(t, int64(6), view(t, sim.Group("A"), "t", 0).LogEnd)

		a := sim.Group("A")
		require.NoError(t, a.Join("a", ConsumerConfig{Rate: 1000, Commit: CommitSync, OffsetReset: ResetEarliest}))
		require.NoError(t, a.Own("a", tps("t", 0)))
		require.NoError(t, sim.Advance(4))
		v := view(t, a, "t", 0)
		require.Equal(t, int64(4), v.Committed)
		require.Equal(t, int64(4), v.Consumed)

		// A restarts with the policy under test: the committed offset wins.
		require.NoError(t, a.Leave("a", Lost))
		require.NoError(t, a.Join("a2", ConsumerConfig{Rate: 1000, OffsetReset: reset}))
		require.NoError(t, a.Own("a2", tps("t", 0)))
		require.NoError(t, sim.Advance(100))
		assert.Equal(t, int64(6), view(t, a, "t", 0).Consumed, "A reads 2 more (%s)", reset)
		assert.Equal(t, int64(0), view(t, a, "t", 0).Duplicates)

		b := sim.Group("B")
		require.NoError(t, b.Join("b", ConsumerConfig{Rate: 1000, OffsetReset: reset}))
		require.NoError(t, b.Own("b", tps("t", 0)))
		require.NoError(t, sim.Advance(100))
		want := map[OffsetReset]int64{ResetEarliest: 6, ResetLatest: 0}[reset]
		assert.Equal(t, want, view(t, b, "t", 0).Consumed, "B with %s", reset)
	}
}

func TestResetNoneStopsTheConsumer(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 1))
	require.NoError(t, sim.Produce("t", nil, 3))
	g := sim.Group("g")
	require.NoError(t, g.Join("c", ConsumerConfig{OffsetReset: ResetNone}))
	require.NoError(t, g.Own("c", tps("t", 0)))
	require.NoError(t, sim.Advance(50))
	assert.Equal(t, int64(0), view(t, g, "t", 0).Consumed)
	assert.Contains(t, sim.Events()[0].Text, "NoOffsetForPartitionException")
}

// Across a rebalance: a crash re-reads what was processed since the last
// auto-commit; a clean revoke commits first and re-reads nothing.
func TestDuplicatesAfterRebalance(t *testing.T) {
	for _, how := range []Handover{Lost, Revoked} {
		sim := NewSim(7)
		require.NoError(t, sim.AddTopic("t", 1))
		_, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 2000, Version: "3.9"}) // linger.ms 0
		require.NoError(t, err)
		g := sim.Group("g")
		require.NoError(t, g.Join("c0", ConsumerConfig{Rate: 1000, OffsetReset: ResetEarliest}))
		require.NoError(t, g.Join("c1", ConsumerConfig{Rate: 1000, OffsetReset: ResetEarliest}))
		require.NoError(t, g.Own("c0", tps("t", 0)))
		require.NoError(t, sim.Advance(6000)) // auto-commit at 5000 ms
		before := view(t, g, "t", 0)
		assert.Equal(t, int64(5000), before.Committed, "auto-commit every 5 s commits what poll returned")
		assert.Equal(t, int64(6000), before.Position)

		require.NoError(t, g.Release("c0", tps("t", 0), how))
		require.NoError(t, g.Own("c1", tps("t", 0)))
		require.NoError(t, sim.Advance(3000))
		after := view(t, g, "t", 0)
		if how == Lost {
			assert.Equal(t, int64(1000), after.Duplicates, "the second since the last commit is read twice")
		} else {
			assert.Equal(t, int64(0), after.Duplicates)
		}
		assert.LessOrEqual(t, after.Committed, after.LogEnd)
		assert.True(t, after.LagKnown)
		assert.Equal(t, after.LogEnd-after.Committed, after.Lag)
	}
}

func TestAsyncCommitLandsAfterRoundTripAndDiesWithThePartition(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 1))
	require.NoError(t, sim.Produce("t", nil, 100))
	require.NoError(t, sim.Advance(5)) // lands at 5 ms (linger.ms 5)
	g := sim.Group("g")
	require.NoError(t, g.Join("c", ConsumerConfig{Rate: 1000, Commit: CommitAsync, AsyncCommitMs: 10, OffsetReset: ResetEarliest}))
	require.NoError(t, g.Own("c", tps("t", 0)))
	require.NoError(t, sim.Advance(5))
	assert.Equal(t, int64(-1), view(t, g, "t", 0).Committed, "still in flight")
	require.NoError(t, sim.Advance(6))
	assert.Equal(t, int64(1), view(t, g, "t", 0).Committed, "the first commit (offset 1, sent at 6 ms) landed at 16 ms")
	require.NoError(t, g.Release("c", tps("t", 0), Lost))
	require.NoError(t, sim.Advance(50))
	assert.Equal(t, int64(1), view(t, g, "t", 0).Committed, "commits in flight for a lost partition fail")
}

// Seed example 17: a batch goes when full (batch.size) or after linger.ms —
// 0 up to 3.9, 5 since 4.0.
func TestSeedExample17Batching(t *testing.T) {
	landsAfter := func(version string) int {
		sim := NewSim(1)
		require.NoError(t, sim.AddTopic("t", 1))
		p, err := sim.AddProducer(ProducerConfig{Topic: "t", Version: version})
		require.NoError(t, err)
		require.NoError(t, p.SendNow(nil, 1))
		for ms := 1; ms < 100; ms++ {
			require.NoError(t, sim.Advance(1))
			if end, _ := sim.LogEnd("t", 0); end == 1 {
				return ms
			}
		}
		return -1
	}
	assert.Equal(t, 1, landsAfter("3.9"), "linger.ms 0: the next sender pass")
	assert.Equal(t, 5, landsAfter("4.0"), "linger.ms 5")

	// With a long linger only a full batch goes. A keyless record with a
	// 100-byte value is 109 bytes in record format v2 (170 with the batch
	// header) while its offset delta is below 64, 110 from then on (the
	// zig-zag varint grows), so a 16384-byte batch holds 148:
	// 170 + 63·109 + 84·110 = 16277, and a 149th would need 16387.
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 1))
	p, err := sim.AddProducer(ProducerConfig{Topic: "t", LingerMs: intp(60000)})
	require.NoError(t, err)
	require.NoError(t, p.SendTo(nil, 0, 148))
	require.NoError(t, sim.Advance(1))
	end, _ := sim.LogEnd("t", 0)
	assert.Equal(t, int64(0), end, "148 records fit: the batch is not full yet")
	require.NoError(t, p.SendTo(nil, 0, 1))
	require.NoError(t, sim.Advance(1))
	end, _ = sim.LogEnd("t", 0)
	assert.Equal(t, int64(148), end, "the 149th closed the first batch, which went")
	assert.Equal(t, 1, p.Queued(0))
}

func TestRecordSizesMatchKafka(t *testing.T) {
	assert.Equal(t, 109, recordSize(0, 0, -1, 100))
	assert.Equal(t, 109, recordSize(63, 0, -1, 100))
	assert.Equal(t, 110, recordSize(64, 0, -1, 100))
	assert.Equal(t, 113, recordSize(0, 0, 4, 100), `key "key1": 1 byte of length + 4`)
	assert.Equal(t, 2, varintSize(100))
	assert.Equal(t, 1, varintSize(-1))
	assert.Equal(t, 1, varintSize(63))
	assert.Equal(t, 2, varintSize(64))
}

// KAFKA-16283 end to end: RoundRobinPartitioner, linger 0, a slow producer
// (every record opens a batch), 6 partitions → only the odd ones get data.
func TestRoundRobinHalfPartitionsInTheModel(t *testing.T) {
	counts := func(version string) []int64 {
		sim := NewSim(3)
		require.NoError(t, sim.AddTopic("t", 6))
		p, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 100, Partitioner: "round-robin", Version: version})
		require.NoError(t, err)
		require.NoError(t, sim.Advance(600))
		return p.Sent
	}
	assert.Equal(t, []int64{0, 20, 0, 20, 0, 20}, counts("3.7"))
	assert.Equal(t, []int64{10, 10, 10, 10, 10, 10}, counts("3.9.2"))
}

func TestHotKeyOverloadsOnePartition(t *testing.T) {
	sim := NewSim(11)
	require.NoError(t, sim.AddTopic("t", 6))
	p, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 10000,
		Keys: Keys{Kind: KeysHot, Hot: "key1", HotShare: 0.5, Count: 1000}})
	require.NoError(t, err)
	require.NoError(t, sim.Advance(1000))
	total := int64(0)
	for _, n := range p.Sent {
		total += n
	}
	assert.Greater(t, p.Sent[2], total/2, `"key1" → partition 2 takes the hot half and its share of the rest`)
	assert.Equal(t, strategies.ChoseKey, p.Last.Kind)
}

func TestPartitionWithoutLeaderIsSkippedOrWaits(t *testing.T) {
	sim := NewSim(5)
	require.NoError(t, sim.AddTopic("t", 6))
	require.NoError(t, sim.SetLeaders("t", []int{0, 1, -1, 3, 4, 5}))
	keyless, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 5000})
	require.NoError(t, err)
	require.NoError(t, sim.Advance(200))
	assert.Equal(t, int64(0), keyless.Sent[2], "keyless records avoid a partition without leader")
	keyed, err := sim.AddProducer(ProducerConfig{Topic: "t", Keys: Keys{Kind: KeysFixed, Fixed: []string{"key1"}}})
	require.NoError(t, err)
	require.NoError(t, keyed.SendNow([]byte("key1"), 3))
	require.NoError(t, sim.Advance(10))
	end, _ := sim.LogEnd("t", 2)
	assert.Equal(t, int64(0), end, `"key1" still goes to 2, and waits for a leader`)
	assert.Equal(t, 3, keyed.Queued(2))
	require.NoError(t, sim.SetLeaders("t", []int{0, 1, 2, 3, 4, 5}))
	require.NoError(t, sim.Advance(1))
	end, _ = sim.LogEnd("t", 2)
	assert.Equal(t, int64(3), end)
}

func TestBadConfigIsAnError(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 2))
	for _, cfg := range []ProducerConfig{
		{Topic: "nope"},
		{Topic: "t", Rate: -1},
		{Topic: "t", Partitioner: "DefaultPartitioner", Version: "4.0"},
		{Topic: "t", Keys: Keys{Kind: KeysUniform}},
		{Topic: "t", Keys: Keys{Kind: KeysHot, Count: 3, HotShare: 2}},
		{Topic: "t", Keys: Keys{Kind: "zipf"}},
		{Topic: "t", LingerMs: intp(-1)},
	} {
		_, err := sim.AddProducer(cfg)
		assert.Error(t, err, "%+v", cfg)
	}
	assert.Error(t, sim.AddTopic("t", 1))
	assert.Error(t, sim.AddTopic("u", 0))
	g := sim.Group("g")
	assert.Error(t, g.Join("c", ConsumerConfig{Commit: "sometimes"}))
	assert.Error(t, g.Join("c", ConsumerConfig{OffsetReset: "by_duration:PT1H"}))
	assert.Error(t, g.Own("ghost", tps("t", 0)))
	require.NoError(t, g.Join("c", ConsumerConfig{}))
	assert.Error(t, g.Own("c", tps("t", 5)))
	require.NoError(t, g.Join("d", ConsumerConfig{}))
	require.NoError(t, g.Own("c", tps("t", 0)))
	assert.ErrorContains(t, g.Own("d", tps("t", 0)), "release it")
	assert.Error(t, g.Release("d", tps("t", 0), Lost))
	assert.Error(t, sim.Advance(-1))
}

// partitioner.availability.timeout.ms: a broker that keeps data waiting is
// left out of the built-in partitioner's picks; adaptive partitioning alone
// only makes it less likely.
func TestAvailabilityTimeoutAvoidsAStalledBroker(t *testing.T) {
	queuedOnStalled := func(timeoutMs int) int {
		sim := NewSim(21)
		require.NoError(t, sim.AddTopic("t", 6))
		p, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 20000, AvailabilityTimeoutMs: timeoutMs})
		require.NoError(t, err)
		require.NoError(t, sim.Advance(100))
		sim.StallBroker(2, true)
		require.NoError(t, sim.Advance(3000))
		return p.Queued(2)
	}
	withTimeout, adaptiveOnly := queuedOnStalled(50), queuedOnStalled(0)
	assert.Less(t, withTimeout, adaptiveOnly)
	assert.LessOrEqual(t, withTimeout, 2*2*148, "at most the sticky runs begun before the timeout passed")
	t.Logf("records stuck on the stalled broker after 3 s: %d with a 50 ms timeout, %d without", withTimeout, adaptiveOnly)
}

func TestViews(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 6))
	p, err := sim.AddProducer(ProducerConfig{Topic: "t", Keys: Keys{Kind: KeysFixed, Fixed: []string{"key1"}}})
	require.NoError(t, err)
	assert.Equal(t, "", p.LastLine())
	require.NoError(t, p.SendNow([]byte("key1"), 1))
	assert.Equal(t, `key "key1" → murmur2 28543940 → toPositive 28543940 → % 6 = partition 2`, p.LastLine())
	assert.Equal(t, []string{"t"}, sim.Topics())
	assert.Equal(t, 6, sim.PartitionCount("t"))
	g := sim.Group("g")
	require.NoError(t, g.Join("c", ConsumerConfig{}))
	require.NoError(t, g.Own("c", tps("t", 3, 1)))
	assert.Equal(t, tps("t", 3, 1), g.Owned("c"))
	assert.Equal(t, []string{"c"}, g.Members())
	assert.Equal(t, "g", sim.Groups()[0].Name())
}

func TestGrowTopicMovesKeys(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 6))
	p, err := sim.AddProducer(ProducerConfig{Topic: "t"})
	require.NoError(t, err)
	g := sim.Group("g")
	require.NoError(t, g.Join("c", ConsumerConfig{}))
	require.NoError(t, g.Own("c", tps("t", 0)))
	require.NoError(t, p.SendNow([]byte("key1"), 1))
	assert.Equal(t, 2, p.Last.Partition)
	require.NoError(t, sim.GrowTopic("t", 12))
	require.NoError(t, p.SendNow([]byte("key1"), 1))
	assert.Equal(t, strategies.KeyPartition([]byte("key1"), 12), p.Last.Partition)
	assert.Equal(t, 8, p.Last.Partition, "28543940 % 12")
	require.NoError(t, sim.Advance(10))
	end, _ := sim.LogEnd("t", 8)
	assert.Equal(t, int64(1), end)
	require.NoError(t, g.Own("c", tps("t", 11)))
	assert.Error(t, sim.GrowTopic("t", 12))
}

func TestSetOwnersMovesPartitionsLikeARebalance(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 2))
	_, err := sim.AddProducer(ProducerConfig{Topic: "t", Rate: 2000, Version: "3.9"})
	require.NoError(t, err)
	g := sim.Group("g")
	require.NoError(t, g.Join("c0", ConsumerConfig{Rate: 500, OffsetReset: ResetEarliest, AutoCommitIntervalMs: 1000}))
	tp0, tp1 := tps("t", 0)[0], tps("t", 1)[0]
	require.NoError(t, g.SetOwners(map[strategies.TopicPartition]string{tp0: "c0", tp1: "c0"}, nil))
	require.NoError(t, sim.Advance(1500))
	// c0 dies: c1 (joined on the fly, default config) takes both.
	lost := func(string) Handover { return Lost }
	require.NoError(t, g.SetOwners(map[strategies.TopicPartition]string{tp0: "c1", tp1: "c1"}, lost))
	assert.Empty(t, g.Owned("c0"))
	assert.Equal(t, []strategies.TopicPartition{tp0, tp1}, g.Owned("c1"))
	require.NoError(t, sim.Advance(2000))
	d0, d1 := view(t, g, "t", 0).Duplicates, view(t, g, "t", 1).Duplicates
	assert.Equal(t, int64(750-500), d0+d1, "what c0 read after its 1000 ms auto-commit is read again")
	// Dropping a partition from the map releases it.
	require.NoError(t, g.SetOwners(map[strategies.TopicPartition]string{tp0: "c1"}, func(string) Handover { return Revoked }))
	assert.Equal(t, "", view(t, g, "t", 1).Owner)
}

// A consumer reset to latest that reads nothing still commits its
// position: commitSync() and commitAsync() with no arguments commit
// SubscriptionState.allConsumed(), every assigned partition with a valid
// position, a reset one included (ClassicKafkaConsumer.commitSync →
// ConsumerCoordinator.commitOffsetsSync; auto-commit takes the same map in
// ConsumerCoordinator.autoCommitOffsetsAsync). A stalled application
// (no poll) commits nothing.
func TestCommitWithoutRecordsCommitsResetPosition(t *testing.T) {
	for _, tc := range []struct {
		cfg  ConsumerConfig
		wait int64
		want int64
	}{
		{ConsumerConfig{Commit: CommitSync}, 1, 6},
		{ConsumerConfig{Commit: CommitAsync, AsyncCommitMs: 7}, 6, -1},
		{ConsumerConfig{Commit: CommitAsync, AsyncCommitMs: 7}, 8, 6},
		{ConsumerConfig{Commit: CommitAuto, AutoCommitIntervalMs: 100}, 99, -1},
		{ConsumerConfig{Commit: CommitAuto, AutoCommitIntervalMs: 100}, 100, 6},
		{ConsumerConfig{Commit: CommitSync, Paused: true}, 1000, -1},
	} {
		sim := NewSim(1)
		require.NoError(t, sim.AddTopic("t", 1))
		require.NoError(t, sim.Produce("t", nil, 6))
		require.NoError(t, sim.Advance(10))
		b := sim.Group("B")
		cfg := tc.cfg
		cfg.OffsetReset = ResetLatest
		require.NoError(t, b.Join("b", cfg))
		require.NoError(t, b.Own("b", tps("t", 0)))
		assert.False(t, b.Idle("b") && !cfg.Paused, "%+v: a position to commit is work", tc.cfg)
		require.NoError(t, sim.Advance(tc.wait))
		v := view(t, b, "t", 0)
		assert.Equal(t, int64(0), v.Consumed, "%+v", tc.cfg)
		assert.Equal(t, int64(6), v.Position, "%+v", tc.cfg)
		assert.Equal(t, tc.want, v.Committed, "%+v after %d ms", tc.cfg, tc.wait)
	}
}
