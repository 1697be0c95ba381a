package strategies

import (
	"math/rand/v2"
	"strconv"
)

// partitionerClassFlow is the producer flow around a Partitioner class, as
// Kafka ran it before 3.3 and still runs it for any partitioner.class: ask
// the class; from 2.4 (KIP-480), if the record needs a new batch on that
// partition, call onNewBatch and ask the class again (KafkaProducer.doSend,
// abortOnNewBatch).
type partitionerClassFlow struct {
	name            string
	retryOnNewBatch bool // 2.4+: abortOnNewBatch and the second call
	hashKeys        bool // DefaultPartitioner hashes keys; the others ignore them
	keyless         keylessClass
}

// keylessClass is the part of a Partitioner class that handles records the
// key path does not decide.
type keylessClass interface {
	partition(t TopicLayout, ex *Explainer) PartitionChoice
	onNewBatch(t TopicLayout, prev int, ex *Explainer)
}

func newPartitionerClassFlow(name string, retryOnNewBatch, hashKeys bool, k keylessClass) *partitionerClassFlow {
	return &partitionerClassFlow{name: name, retryOnNewBatch: retryOnNewBatch, hashKeys: hashKeys, keyless: k}
}

func (f *partitionerClassFlow) Name() string { return f.name }

// Choose picks rec's partition. b may be nil (no accumulator: the first
// answer stands).
func (f *partitionerClassFlow) Choose(rec ProducerRecord, t TopicLayout, b Batches, ex *Explainer) (PartitionChoice, error) {
	if err := checkProducerRecord(rec, t); err != nil {
		return PartitionChoice{}, err
	}
	first := f.partition(rec, t, ex)
	if !f.retryOnNewBatch || b == nil || !b.CloseIfNoRoom(first.Partition, rec) {
		return first, nil
	}
	if ex.Enabled() {
		ex.Addf("partition %d has no batch open for this record: the producer calls onNewBatch(%d) and asks the partitioner again", first.Partition, first.Partition)
	}
	f.keyless.onNewBatch(t, first.Partition, ex)
	again := f.partition(rec, t, ex)
	again.Abandoned = first.Partition
	return again, nil
}

func (f *partitionerClassFlow) partition(rec ProducerRecord, t TopicLayout, ex *Explainer) PartitionChoice {
	switch {
	case rec.Partition != NoPartition:
		if ex.Enabled() {
			ex.Addf("the record names partition %d: it goes there, no partitioner involved", rec.Partition)
		}
		return PartitionChoice{Partition: rec.Partition, Kind: ChoseExplicit, Abandoned: -1}
	case f.hashKeys && rec.Key != nil:
		route := RouteKey(rec.Key, t.Partitions)
		if ex.Enabled() {
			ex.Addf("%s", route.Line())
		}
		return PartitionChoice{Partition: route.Partition, Kind: ChoseKey, Abandoned: -1, Route: route}
	default:
		return f.keyless.partition(t, ex)
	}
}

// Appended and UpdateLoadStats feed the built-in partitioner only.
func (f *partitionerClassFlow) Appended(PartitionChoice, int, bool) {}
func (f *partitionerClassFlow) UpdateLoadStats(_, _ []int, _ int)   {}

// partitionFromCounter maps a non-negative number onto the available
// partitions, or onto all partitions when none is available, as every Kafka
// partitioner does.
func partitionFromCounter(n int, t TopicLayout) int {
	if len(t.Available) > 0 {
		return t.Available[n%len(t.Available)]
	}
	return n % t.Partitions
}

// keylessRoundRobin is DefaultPartitioner's keyless path up to 2.3: a
// per-topic counter that starts at a random int and steps once per record.
type keylessRoundRobin struct {
	rng     *rand.Rand
	counter int32
	started bool
}

func (k *keylessRoundRobin) partition(t TopicLayout, ex *Explainer) PartitionChoice {
	if !k.started {
		k.counter, k.started = int32(k.rng.Uint32()), true
		if ex.Enabled() {
			ex.Addf("first keyless record: the topic's round-robin counter starts at a random int, %d", k.counter)
		}
	}
	next := k.counter
	k.counter++ // wraps like Java's AtomicInteger
	p := partitionFromCounter(int(ToPositive(next)), t)
	if ex.Enabled() {
		ex.Addf("round robin: counter %d → toPositive %d → %s → partition %d", next, ToPositive(next), counterRangeText(t), p)
	}
	return PartitionChoice{Partition: p, Kind: ChoseRoundRob, Abandoned: -1}
}

func (k *keylessRoundRobin) onNewBatch(TopicLayout, int, *Explainer) {}

func counterRangeText(t TopicLayout) string {
	if len(t.Available) > 0 {
		return "mod the " + strconv.Itoa(len(t.Available)) + " available partitions"
	}
	return "no partition is available: mod all " + strconv.Itoa(t.Partitions)
}

// stickyPartitionCache is StickyPartitionCache (KIP-480, 2.4–3.9): keyless records
// stick to one partition until a new batch is created on it; then a random
// *different* available partition is picked.
type stickyPartitionCache struct {
	rng     *rand.Rand
	current int
	set     bool
}

func (s *stickyPartitionCache) partition(t TopicLayout, ex *Explainer) PartitionChoice {
	if !s.set {
		s.next(t, -1, ex)
	} else {
		if ex.Enabled() {
			ex.Addf("sticky: keyless records stay on partition %d until it needs a new batch", s.current)
		}
	}
	return PartitionChoice{Partition: s.current, Kind: ChoseSticky, Abandoned: -1}
}

func (s *stickyPartitionCache) onNewBatch(t TopicLayout, prev int, ex *Explainer) {
	s.next(t, prev, ex)
}

// next is StickyPartitionCache.nextPartition: it only moves when there is no
// sticky partition yet or the batch that filled up was on the sticky one.
func (s *stickyPartitionCache) next(t TopicLayout, prev int, ex *Explainer) {
	if s.set && s.current != prev {
		if ex.Enabled() {
			ex.Addf("the new batch is on partition %d, not the sticky partition %d: sticky stays", prev, s.current)
		}
		return
	}
	old, had := s.current, s.set
	switch len(t.Available) {
	case 0:
		s.current = randomToPositive(s.rng) % t.Partitions
	case 1:
		s.current = t.Available[0]
	default:
		for {
			p := t.Available[randomToPositive(s.rng)%len(t.Available)]
			if !had || p != old {
				s.current = p
				break
			}
		}
	}
	s.set = true
	if had {
		if ex.Enabled() {
			ex.Addf("sticky: new random partition %d (never the previous %d while another is available)", s.current, old)
		}
	} else {
		if ex.Enabled() {
			ex.Addf("sticky: first keyless record picks random partition %d", s.current)
		}
	}
}

// roundRobinClass is RoundRobinPartitioner (2.4+): a per-topic counter from
// 0, keys ignored. Before KAFKA-17632 the second call for a record that opens
// a new batch steps the counter again, skipping a partition (KAFKA-9965):
// with linger.ms=0 and an even partition count only every other partition
// gets data (KAFKA-16283). With the fix, onNewBatch remembers the partition
// and the next call answers it.
type roundRobinClass struct {
	counter  int32
	fixed    bool
	prev     int
	havePrev bool
}

func (r *roundRobinClass) partition(t TopicLayout, ex *Explainer) PartitionChoice {
	if r.havePrev {
		r.havePrev = false
		if ex.Enabled() {
			ex.Addf("round robin: answers %d again, the partition it gave before the new batch (KAFKA-17632 fix)", r.prev)
		}
		return PartitionChoice{Partition: r.prev, Kind: ChoseRoundRob, Abandoned: -1}
	}
	next := r.counter
	r.counter++
	p := partitionFromCounter(int(ToPositive(next)), t)
	if ex.Enabled() {
		ex.Addf("round robin: counter %d → %s → partition %d", next, counterRangeText(t), p)
	}
	return PartitionChoice{Partition: p, Kind: ChoseRoundRob, Abandoned: -1}
}

func (r *roundRobinClass) onNewBatch(_ TopicLayout, prev int, ex *Explainer) {
	if r.fixed {
		r.prev, r.havePrev = prev, true
		return
	}
	if ex.Enabled() {
		ex.Addf("round robin: onNewBatch does nothing, so the second call steps the counter again and skips a partition (KAFKA-9965)")
	}
}
