package strategies

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// ptFakeBatches is an accumulator measured in records: a batch holds perBatch
// records; drain sends every batch, as a sender with linger.ms=0 does between
// two slow sends.
type ptFakeBatches struct {
	perBatch  int
	open      map[int]int // records in each partition's last batch, if open
	lastBytes int         // bytes the last ptSend appended
}

func ptNewFakeBatches(perBatch int) *ptFakeBatches {
	return &ptFakeBatches{perBatch: perBatch, open: map[int]int{}}
}

func (f *ptFakeBatches) CloseIfNoRoom(p int, _ ProducerRecord) bool {
	if n, ok := f.open[p]; ok && n < f.perBatch {
		return false
	}
	delete(f.open, p)
	return true
}

func (f *ptFakeBatches) AllBatchesFull(p int) bool {
	n, ok := f.open[p]
	return !ok || n >= f.perBatch
}

// append adds one record to p and reports whether it opened a batch.
func (f *ptFakeBatches) append(p int) bool {
	n, ok := f.open[p]
	if !ok || n >= f.perBatch {
		f.open[p] = 1
		return true
	}
	f.open[p] = n + 1
	return false
}

func (f *ptFakeBatches) drain() { clear(f.open) }

// ptTB is what both *testing.T and *rapid.T offer.
type ptTB interface {
	Helper()
	require.TestingT
}

const (
	ptRecordBytes = 100
	ptBatchHeader = 61
)

// send runs one record through partitioner and accumulator, like doSend.
func ptSend(t ptTB, pt Partitioner, rec ProducerRecord, lay TopicLayout, fb *ptFakeBatches) PartitionChoice {
	t.Helper()
	c, err := pt.Choose(rec, lay, fb, nil)
	require.NoError(t, err)
	bytes := ptRecordBytes
	if fb.append(c.Partition) {
		bytes += ptBatchHeader
	}
	pt.Appended(c, bytes, fb.AllBatchesFull(c.Partition))
	fb.lastBytes = bytes
	return c
}

func ptNew(t ptTB, name, version string, seed uint64) Partitioner {
	t.Helper()
	pt, err := NewPartitioner(PartitionerConfig{Name: name, Version: version, Rand: rand.New(rand.NewPCG(seed, 1))})
	require.NoError(t, err)
	return pt
}

func ptLayout(n int) TopicLayout {
	l := TopicLayout{Partitions: n}
	for p := range n {
		l.Available = append(l.Available, p)
	}
	return l
}

var ptEvery = []struct{ name, version string }{
	{"default", "2.3"}, {"default", "3.2"}, {"default", "3.9"}, {"default", "4.0"},
	{"DefaultPartitioner", "3.5"}, {"uniform-sticky", "3.0"},
	{"round-robin", "3.7"}, {"RoundRobinPartitioner", "4.0"},
}

// Seed example 16: an explicit partition wins over everything.
func TestExplicitPartitionWins(t *testing.T) {
	for _, c := range ptEvery {
		pt := ptNew(t, c.name, c.version, 1)
		got := ptSend(t, pt, ProducerRecord{Key: []byte("key1"), Partition: 4}, ptLayout(6), ptNewFakeBatches(10))
		assert.Equal(t, 4, got.Partition, "%s %s", c.name, c.version)
		assert.Equal(t, ChoseExplicit, got.Kind)
	}
}

// Seed example 16: "key1" over 6 partitions goes to 2 wherever keys count.
func TestKeyGoesByMurmur2(t *testing.T) {
	for _, v := range []string{"0.11", "2.3", "3.2", "3.3", "4.0"} {
		pt := ptNew(t, "default", v, 1)
		got := ptSend(t, pt, ProducerRecord{Key: []byte("key1"), Partition: NoPartition}, ptLayout(6), ptNewFakeBatches(10))
		assert.Equal(t, 2, got.Partition, v)
		assert.Equal(t, ChoseKey, got.Kind, v)
		assert.Equal(t, int32(28543940), got.Route.Murmur2)
	}
	// Keys count over all partitions, even unavailable ones.
	lay := TopicLayout{Partitions: 6, Available: []int{0, 1}}
	got := ptSend(t, ptNew(t, "default", "4.0", 1), ProducerRecord{Key: []byte("key1"), Partition: NoPartition}, lay, ptNewFakeBatches(10))
	assert.Equal(t, 2, got.Partition)
}

func TestIgnoreKeysAndKeyIgnoringClasses(t *testing.T) {
	pt, err := NewPartitioner(PartitionerConfig{Version: "3.3", IgnoreKeys: true, Rand: rand.New(rand.NewPCG(1, 1))})
	require.NoError(t, err)
	got := ptSend(t, pt, ProducerRecord{Key: []byte("key1"), Partition: NoPartition}, ptLayout(6), ptNewFakeBatches(10))
	assert.Equal(t, ChoseSticky, got.Kind)
	got = ptSend(t, ptNew(t, "round-robin", "3.7", 1), ProducerRecord{Key: []byte("key1"), Partition: NoPartition}, ptLayout(6), ptNewFakeBatches(10))
	assert.Equal(t, ChoseRoundRob, got.Kind)
	_, err = NewPartitioner(PartitionerConfig{Version: "3.2", IgnoreKeys: true, Rand: rand.New(rand.NewPCG(1, 1))})
	assert.ErrorContains(t, err, "since 3.3")
}

// Seed example 16, ≤ 2.3: keyless records go round robin over the available
// partitions from a random start, one step per record, batches or not.
func TestDefaultUpTo23IsRoundRobinOverAvailable(t *testing.T) {
	lay := TopicLayout{Partitions: 6, Available: []int{0, 2, 4, 5}}
	pt := ptNew(t, "default", "2.3", 7)
	fb := ptNewFakeBatches(1)
	first := ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb)
	start := ptIndexOf(lay.Available, first.Partition)
	require.GreaterOrEqual(t, start, 0)
	for i := 1; i < 12; i++ {
		got := ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb)
		assert.Equal(t, lay.Available[(start+i)%4], got.Partition, "record %d", i)
		assert.Equal(t, -1, got.Abandoned, "no second call before KIP-480")
	}
}

func ptIndexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// ptKeylessRun sends n keyless records, draining after each (linger.ms=0 and a
// fast sender: every record opens a batch), and counts records per partition.
func ptKeylessRun(t *testing.T, pt Partitioner, partitions, n int) map[int]int {
	counts := map[int]int{}
	fb := ptNewFakeBatches(100)
	for range n {
		c := ptSend(t, pt, ProducerRecord{Partition: NoPartition}, ptLayout(partitions), fb)
		counts[c.Partition]++
		fb.drain()
	}
	return counts
}

// KAFKA-9965 / KAFKA-16283: before the fix, RoundRobinPartitioner with an
// even partition count and every record opening a batch feeds only half the
// partitions. KAFKA-17632 fixed it in 4.0 and (backported) 3.9.2.
func TestRoundRobinSkipsHalfThePartitionsUntilFixed(t *testing.T) {
	for _, v := range []string{"2.4", "3.7", "3.9.1"} {
		counts := ptKeylessRun(t, ptNew(t, "round-robin", v, 1), 6, 60)
		assert.Equal(t, map[int]int{1: 20, 3: 20, 5: 20}, counts, v)
	}
	for _, v := range []string{"3.9.2", "4.0"} {
		counts := ptKeylessRun(t, ptNew(t, "round-robin", v, 1), 6, 60)
		assert.Equal(t, map[int]int{0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 5: 10}, counts, v)
	}
	// An odd count hides the bug: the skips cycle through every partition.
	counts := ptKeylessRun(t, ptNew(t, "round-robin", "3.7", 1), 5, 50)
	assert.Len(t, counts, 5)
}

func TestRoundRobinExplainsTheSkip(t *testing.T) {
	pt := ptNew(t, "round-robin", "3.7", 1)
	ex := NewExplainer(0)
	c, err := pt.Choose(ProducerRecord{Partition: NoPartition}, ptLayout(6), ptNewFakeBatches(10), ex)
	require.NoError(t, err)
	assert.Equal(t, 1, c.Partition)
	assert.Equal(t, 0, c.Abandoned)
	assert.Contains(t, ex.Lines()[len(ex.Lines())-2], "KAFKA-9965")
}

// Seed example 16, 2.4–3.2: keyless records stick to one partition until a
// new batch is needed there; then a different random available partition.
func TestDefaultStickyPerBatch(t *testing.T) {
	pt := ptNew(t, "default", "3.2", 3)
	fb := ptNewFakeBatches(3)
	lay := ptLayout(4)
	var seq []PartitionChoice
	for range 30 {
		seq = append(seq, ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb))
	}
	// The very first record finds no batch anywhere, so it already moves once.
	assert.NotEqual(t, -1, seq[0].Abandoned)
	for i := 1; i < len(seq); i++ {
		if i%3 == 0 {
			assert.Equal(t, seq[i-1].Partition, seq[i].Abandoned, "record %d opens a batch", i)
			assert.NotEqual(t, seq[i-1].Partition, seq[i].Partition, "a different partition")
		} else {
			assert.Equal(t, seq[i-1].Partition, seq[i].Partition, "record %d stays", i)
			assert.Equal(t, -1, seq[i].Abandoned)
		}
	}
}

// Any record (even explicit) that opens a batch on the sticky partition
// makes DefaultPartitioner move on: onNewBatch does not look at the key.
func TestStickyMovesWhenAnyRecordOpensABatchOnIt(t *testing.T) {
	pt := ptNew(t, "default", "3.2", 5)
	fb := ptNewFakeBatches(1)
	lay := ptLayout(4)
	s := ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition
	c := ptSend(t, pt, ProducerRecord{Partition: s}, lay, fb)
	assert.Equal(t, s, c.Partition)
	assert.NotEqual(t, s, pt.(*partitionerClassFlow).keyless.(*stickyPartitionCache).current, "the explicit record's new batch moved the sticky partition")
}

// Seed example 16, 3.3+: the built-in partitioner switches after batch.size
// bytes, and waits (up to twice that) while the batch is still open.
func TestBuiltInSwitchesAfterBatchSizeBytes(t *testing.T) {
	pt, err := NewPartitioner(PartitionerConfig{Version: "3.3", BatchSize: 1000, Rand: rand.New(rand.NewPCG(9, 9))})
	require.NoError(t, err)
	lay := ptLayout(4)
	// Batches never fill (perBatch huge) and are never drained: the switch
	// is held back until 2 × batch.size. 161 + 100·n ≥ 2000 at n = 19.
	fb := ptNewFakeBatches(1 << 20)
	first := ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition
	for i := 1; i <= 19; i++ {
		assert.Equal(t, first, ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition, "record %d", i)
	}
	_, produced, _ := pt.(*builtInPartitioner).SwitchThreshold()
	assert.Equal(t, 0, produced, "the 19th record reached 2 × batch.size: switched")

	// With one record per batch (batches always full), it switches as soon
	// as batch.size bytes went: each record adds 161 bytes, 7 × 161 ≥ 1000.
	pt2, _ := NewPartitioner(PartitionerConfig{Version: "4.0", BatchSize: 1000, Rand: rand.New(rand.NewPCG(9, 9))})
	bi := pt2.(*builtInPartitioner)
	fb = ptNewFakeBatches(1)
	for i := 1; i <= 6; i++ {
		ptSend(t, pt2, ProducerRecord{Partition: NoPartition}, lay, fb)
		_, produced, _ = bi.SwitchThreshold()
		assert.Equal(t, 161*i, produced)
	}
	ptSend(t, pt2, ProducerRecord{Partition: NoPartition}, lay, fb)
	_, produced, _ = bi.SwitchThreshold()
	assert.Equal(t, 0, produced, "switched after the 7th record")
}

// Property: a sticky partitioner changes its keyless partition only at a
// batch boundary — the old partition needed a new batch (KIP-480), or had
// taken batch.size bytes with its batches full, or 2 × batch.size (KIP-794).
func TestStickySwitchesOnlyAtBatchBoundaries(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		pick := rapid.SampledFrom([][2]string{{"default", "2.4"}, {"default", "3.2"}, {"DefaultPartitioner", "3.9"},
			{"uniform-sticky", "3.5"}, {"default", "3.3"}, {"default", "4.0"}}).Draw(rt, "partitioner")
		name, version := pick[0], pick[1]
		n := rapid.IntRange(1, 8).Draw(rt, "partitions")
		perBatch := rapid.IntRange(1, 12).Draw(rt, "recordsPerBatch")
		batchSize := rapid.IntRange(100, 3000).Draw(rt, "batchSize")
		pt, err := NewPartitioner(PartitionerConfig{Name: name, Version: version, BatchSize: batchSize,
			Rand: rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))})
		require.NoError(rt, err)
		legacySticky := name != "default" || version == "2.4" || version == "3.2"
		fb := ptNewFakeBatches(perBatch)
		lay := ptLayout(n)
		prev, produced := -1, 0
		steps := rapid.SliceOfN(rapid.IntRange(0, 9), 1, 200).Draw(rt, "steps")
		for _, s := range steps {
			if s == 0 {
				fb.drain()
				continue
			}
			fullBefore := prev >= 0 && fb.AllBatchesFull(prev)
			c := ptSend(rt, pt, ProducerRecord{Partition: NoPartition}, lay, fb)
			if c.Partition < 0 || c.Partition >= n {
				rt.Fatalf("partition %d outside 0..%d", c.Partition, n-1)
			}
			if prev >= 0 && c.Partition != prev {
				if legacySticky && c.Abandoned != prev {
					rt.Fatalf("sticky moved from %d to %d without a new batch on %d", prev, c.Partition, prev)
				}
				if !legacySticky && !(produced >= batchSize && fullBefore) && produced < 2*batchSize {
					rt.Fatalf("built-in moved from %d after %d bytes (full=%v)", prev, produced, fullBefore)
				}
			}
			if c.Partition != prev {
				produced = 0
			}
			produced += fb.lastBytes
			prev = c.Partition
		}
	})
}

func TestRemovedAndMissingPartitioners(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct{ name, version, msg string }{
		{"DefaultPartitioner", "4.0", "removed in Kafka 4.0"},
		{"org.apache.kafka.clients.producer.UniformStickyPartitioner", "4.1", "removed in Kafka 4.0"},
		{"round-robin", "2.3", "does not exist before Kafka 2.4"},
		{"uniform-sticky", "2.3.1", "does not exist before Kafka 2.4"},
		{"hash", "3.0", "unknown partitioner"},
		{"default", "three", "kafka version"},
	} {
		_, err := NewPartitioner(PartitionerConfig{Name: c.name, Version: c.version, Rand: rng})
		assert.ErrorContains(t, err, c.msg, "%s %s", c.name, c.version)
	}
	_, err := NewPartitioner(PartitionerConfig{})
	assert.ErrorContains(t, err, "random source")
}

func TestBadRecordsAreErrors(t *testing.T) {
	pt := ptNew(t, "default", "4.0", 1)
	_, err := pt.Choose(ProducerRecord{Partition: 6}, ptLayout(6), nil, nil)
	assert.ErrorContains(t, err, "not in the range [0...6)")
	_, err = pt.Choose(ProducerRecord{Partition: -2}, ptLayout(6), nil, nil)
	assert.ErrorContains(t, err, "never negative")
	_, err = pt.Choose(ProducerRecord{Partition: NoPartition}, TopicLayout{}, nil, nil)
	assert.ErrorContains(t, err, "no partitions")
}

// BuiltInPartitioner's own example: queues 0 3 1 → frequencies 4 1 3 → CFT 4 5 8.
func TestAdaptiveLoadStats(t *testing.T) {
	pt := ptNew(t, "default", "3.3", 11).(*builtInPartitioner)
	pt.UpdateLoadStats([]int{0, 3, 1}, []int{0, 1, 2}, 3)
	assert.Equal(t, []int{4, 5, 8}, pt.cft)
	pt.layout = ptLayout(3)
	counts := map[int]int{}
	for range 8000 {
		counts[pt.nextPartition()]++
	}
	assert.InDelta(t, 4000, counts[0], 300)
	assert.InDelta(t, 1000, counts[1], 200)
	assert.InDelta(t, 3000, counts[2], 300)

	pt.UpdateLoadStats([]int{2, 2, 2}, []int{0, 1, 2}, 3)
	assert.Nil(t, pt.cft, "equal queues: uniform")
	pt.UpdateLoadStats([]int{2, 2, 2}, []int{0, 2, 1}, 2)
	assert.Equal(t, []int{1, 2}, pt.cft, "one excluded by the availability timeout: adaptive over the rest")
	assert.Equal(t, []int{0, 2}, pt.ids)

	pt.UpdateLoadStats([]int{1, 2}, []int{0, 1}, 5)
	assert.Nil(t, pt.cft, "a length past the slices is ignored, not a panic")

	off, _ := NewPartitioner(PartitionerConfig{Version: "3.3", DisableAdaptive: true, Rand: rand.New(rand.NewPCG(1, 1))})
	off.UpdateLoadStats([]int{0, 3, 1}, []int{0, 1, 2}, 3)
	assert.Nil(t, off.(*builtInPartitioner).cft)
}

func TestParseClientVersion(t *testing.T) {
	v, err := ParseClientVersion("3.9.1")
	require.NoError(t, err)
	assert.True(t, v.AtLeast(3, 9, 1))
	assert.False(t, v.AtLeast(3, 9, 2))
	assert.Equal(t, 0, v.DefaultLingerMs())
	v, _ = ParseClientVersion("")
	assert.Equal(t, 5, v.DefaultLingerMs())
	for _, bad := range []string{"3", "3.x", "1.2.3.4", "-1.0"} {
		_, err := ParseClientVersion(bad)
		assert.Error(t, err, bad)
	}
}

// Property: every record lands in 0..N-1; an explicit partition is kept; a
// key goes to toPositive(murmur2(key)) % N under the partitioners that hash
// keys; a keyless record goes to an available partition when there is one.
func TestEveryRecordLandsInRange(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		pick := rapid.SampledFrom(ptEvery).Draw(rt, "partitioner")
		pt := ptNew(rt, pick.name, pick.version, rapid.Uint64().Draw(rt, "seed"))
		hashes := pick.name == "default" || pick.name == "DefaultPartitioner"
		n := rapid.IntRange(1, 64).Draw(rt, "partitions")
		lay := TopicLayout{Partitions: n}
		for p := range n {
			if rapid.Bool().Draw(rt, "available") {
				lay.Available = append(lay.Available, p)
			}
		}
		fb := ptNewFakeBatches(rapid.IntRange(1, 5).Draw(rt, "perBatch"))
		// The fixed RoundRobinPartitioner answers the next call with the
		// partition onNewBatch saw, even one named explicitly by the record
		// before (see TestFixedRoundRobinCarriesAnExplicitPartitionOver).
		carried := false
		for range rapid.IntRange(1, 100).Draw(rt, "records") {
			rec := ProducerRecord{Partition: NoPartition}
			switch rapid.IntRange(0, 2).Draw(rt, "kind") {
			case 0:
				rec.Key = rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(rt, "key")
			case 1:
				rec.Partition = rapid.IntRange(0, n-1).Draw(rt, "explicit")
			}
			if rapid.IntRange(0, 4).Draw(rt, "drain") == 0 {
				fb.drain()
			}
			c := ptSend(rt, pt, rec, lay, fb)
			switch {
			case c.Partition < 0 || c.Partition >= n:
				rt.Fatalf("partition %d outside 0..%d", c.Partition, n-1)
			case rec.Partition != NoPartition && c.Partition != rec.Partition:
				rt.Fatalf("explicit partition %d went to %d", rec.Partition, c.Partition)
			case rec.Partition == NoPartition && rec.Key != nil && hashes && c.Partition != KeyPartition(rec.Key, n):
				rt.Fatalf("key %x went to %d, not %d", rec.Key, c.Partition, KeyPartition(rec.Key, n))
			case c.Kind != ChoseExplicit && c.Kind != ChoseKey && len(lay.Available) > 0 && ptIndexOf(lay.Available, c.Partition) < 0 && !carried:
				rt.Fatalf("keyless record went to unavailable partition %d (available %v)", c.Partition, lay.Available)
			}
			if c.Kind == ChoseRoundRob || c.Kind == ChoseSticky {
				carried = false
			}
			if c.Kind == ChoseExplicit && c.Abandoned >= 0 {
				carried = true
			}
		}
	})
}

func TestChoicesExplainThemselves(t *testing.T) {
	ex := NewExplainer(0)
	pt := ptNew(t, "default", "4.0", 1)
	c, err := pt.Choose(ProducerRecord{Key: []byte("key1"), Partition: NoPartition}, ptLayout(6), nil, ex)
	require.NoError(t, err)
	assert.Equal(t, []string{`key "key1" → murmur2 28543940 → toPositive 28543940 → % 6 = partition 2`}, ex.Lines())
	assert.Equal(t, ex.Lines()[0], ChoiceLine(c))

	ex = NewExplainer(0)
	c, _ = pt.Choose(ProducerRecord{Partition: NoPartition}, ptLayout(6), nil, ex)
	assert.Contains(t, ex.Lines()[0], "first keyless record: random partition")
	assert.Contains(t, ChoiceLine(c), "sticky partition")
}

// KAFKA-17632's fix remembers the partition onNewBatch was called with and
// returns it from the next partition() call. For a record with an explicit
// partition the producer calls onNewBatch but never partition(), so the
// next keyless record inherits that partition.
func TestFixedRoundRobinCarriesAnExplicitPartitionOver(t *testing.T) {
	pt := ptNew(t, "round-robin", "4.0", 1)
	fb := ptNewFakeBatches(10)
	lay := ptLayout(6)
	assert.Equal(t, 0, ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition)
	assert.Equal(t, 4, ptSend(t, pt, ProducerRecord{Partition: 4}, lay, fb).Partition)
	assert.Equal(t, 4, ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition, "inherited")
	assert.Equal(t, 1, ptSend(t, pt, ProducerRecord{Partition: NoPartition}, lay, fb).Partition, "the counter resumes")
}
