package strategies

import (
	"math/rand/v2"
	"sort"
)

// builtInPartitioner is the producer's built-in partitioning since 3.3 (KIP-794,
// BuiltInPartitioner): keys hash as always; keyless records stick to a
// partition until batch.size bytes went there, switching only once the
// partition's batches are all full — but always by 2 × batch.size. The next
// partition is uniform over available partitions or, with adaptive
// partitioning, weighted towards short queues.
type builtInPartitioner struct {
	name       string
	batchSize  int
	ignoreKeys bool
	adaptive   bool
	rng        *rand.Rand

	sticky    int
	stickySet bool
	produced  int // bytes appended to the sticky partition since it was picked
	layout    TopicLayout

	cft []int // cumulative frequency table; nil = no load stats
	ids []int
}

func newBuiltInPartitioner(name string, cfg PartitionerConfig) *builtInPartitioner {
	return &builtInPartitioner{name: name, batchSize: cfg.BatchSize, ignoreKeys: cfg.IgnoreKeys, adaptive: !cfg.DisableAdaptive, rng: cfg.Rand}
}

func (p *builtInPartitioner) Name() string { return p.name }

// Choose picks rec's partition. b may be nil (no accumulator).
func (p *builtInPartitioner) Choose(rec ProducerRecord, t TopicLayout, b Batches, ex *Explainer) (PartitionChoice, error) {
	if err := checkProducerRecord(rec, t); err != nil {
		return PartitionChoice{}, err
	}
	switch {
	case rec.Partition != NoPartition:
		if ex.Enabled() {
			ex.Addf("the record names partition %d: it goes there", rec.Partition)
		}
		return PartitionChoice{Partition: rec.Partition, Kind: ChoseExplicit, Abandoned: -1}, nil
	case rec.Key != nil && !p.ignoreKeys:
		route := RouteKey(rec.Key, t.Partitions)
		if ex.Enabled() {
			ex.Addf("%s", route.Line())
		}
		return PartitionChoice{Partition: route.Partition, Kind: ChoseKey, Abandoned: -1, Route: route}, nil
	}
	p.layout = t // the keyless path picks from it, now and in Appended
	if !p.stickySet {
		p.switchPartition(ex)
	}
	// RecordAccumulator.partitionChanged: a switch held back while a batch
	// was incomplete happens once the partition's batches are all full.
	for b != nil && b.AllBatchesFull(p.sticky) && p.produced >= p.batchSize {
		if ex.Enabled() {
			ex.Addf("partition %d already took %d ≥ batch.size %d bytes and its batches are full: switch now", p.sticky, p.produced, p.batchSize)
		}
		p.switchPartition(ex)
	}
	if ex.Enabled() {
		ex.Addf("uniform sticky: partition %d (%d of batch.size %d bytes so far)", p.sticky, p.produced, p.batchSize)
	}
	return PartitionChoice{Partition: p.sticky, Kind: ChoseSticky, Abandoned: -1}, nil
}

// Appended is BuiltInPartitioner.updatePartitionInfo.
func (p *builtInPartitioner) Appended(c PartitionChoice, appendedBytes int, allBatchesFull bool) {
	if c.Kind != ChoseSticky || !p.stickySet {
		return
	}
	p.produced += appendedBytes
	if (p.produced >= p.batchSize && allBatchesFull) || p.produced >= 2*p.batchSize {
		p.switchPartition(nil)
	}
}

func (p *builtInPartitioner) switchPartition(ex *Explainer) {
	old, had := p.sticky, p.stickySet
	p.sticky, p.stickySet, p.produced = p.nextPartition(), true, 0
	switch {
	case !had:
		if ex.Enabled() {
			ex.Addf("first keyless record: random partition %d%s", p.sticky, p.weighting())
		}
	default:
		if ex.Enabled() {
			ex.Addf("switch from partition %d to %d%s (may pick the same one again)", old, p.sticky, p.weighting())
		}
	}
}

func (p *builtInPartitioner) weighting() string {
	if p.cft == nil {
		return ", uniform over available partitions"
	}
	return ", weighted by (longest queue + 1 − own queue)"
}

// nextPartition is BuiltInPartitioner.nextPartition.
func (p *builtInPartitioner) nextPartition() int {
	random := randomToPositive(p.rng)
	if p.cft == nil {
		return partitionFromCounter(random, p.layout)
	}
	weighted := random % p.cft[len(p.cft)-1]
	i := sort.Search(len(p.cft), func(i int) bool { return p.cft[i] > weighted })
	return p.ids[i]
}

// SwitchThreshold reports the sticky partition and the bytes it has taken,
// for display. ok is false before the first keyless record.
func (p *builtInPartitioner) SwitchThreshold() (partition, produced int, ok bool) {
	return p.sticky, p.produced, p.stickySet
}

// UpdateLoadStats is BuiltInPartitioner.updatePartitionLoadStats. queueSizes
// and partitionIDs list partitions with a leader; the first length are not
// excluded by partitioner.availability.timeout.ms.
func (p *builtInPartitioner) UpdateLoadStats(queueSizes, partitionIDs []int, length int) {
	p.cft, p.ids = nil, nil
	if length > len(queueSizes) || length > len(partitionIDs) {
		return // inconsistent input: stay uniform rather than index past the end
	}
	if !p.adaptive || queueSizes == nil || length < 1 || len(queueSizes) < 2 {
		return
	}
	maxPlus1, allEqual := queueSizes[0], true
	for _, q := range queueSizes[1:length] {
		if q != maxPlus1 {
			allEqual = false
		}
		maxPlus1 = max(maxPlus1, q)
	}
	maxPlus1++
	if allEqual && length == len(queueSizes) {
		return // all the same: uniform
	}
	cft := make([]int, length)
	running := 0
	for i, q := range queueSizes[:length] {
		running += maxPlus1 - q
		cft[i] = running
	}
	p.cft, p.ids = cft, append([]int(nil), partitionIDs[:length]...)
}
