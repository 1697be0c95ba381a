package strategies

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// NoPartition marks a record without an explicit partition (Java's null).
const NoPartition = -1

// ProducerRecord is what the producer's partitioning sees of one record.
type ProducerRecord struct {
	// Key is the serialized key. nil is a null key; an empty, non-nil slice
	// is a real (empty) key and is hashed like any other.
	Key []byte
	// Partition is the record's explicit partition, or NoPartition.
	Partition int
}

// TopicLayout is the producer's metadata for the topic it writes to.
type TopicLayout struct {
	Partitions int   // all partitions of the topic
	Available  []int // partitions that have a leader, ascending
}

// Batches is the part of the record accumulator that partitioning depends on.
// Kafka's partitioners react to batch boundaries, so the producer model hands
// its accumulator in through this interface.
type Batches interface {
	// CloseIfNoRoom reports whether appending rec to partition p needs a new
	// batch: p has no queued batch open for appends, or its last one has no
	// room for rec. Like RecordAccumulator.tryAppend, a last batch without
	// room is closed for appends as a side effect.
	CloseIfNoRoom(p int, rec ProducerRecord) bool
	// AllBatchesFull reports whether p's queue is empty or its last batch is
	// full or closed (RecordAccumulator.allBatchesFull).
	AllBatchesFull(p int) bool
}

// ChoiceKind says which rule picked a record's partition.
type ChoiceKind string

const (
	ChoseExplicit ChoiceKind = "explicit"   // the record named its partition
	ChoseKey      ChoiceKind = "key"        // toPositive(murmur2(key)) % partitions
	ChoseRoundRob ChoiceKind = "roundrobin" // a counter over available partitions
	ChoseSticky   ChoiceKind = "sticky"     // the topic's current sticky partition
)

// PartitionChoice is where one record goes and why.
type PartitionChoice struct {
	Partition int
	Kind      ChoiceKind
	// Abandoned is the partition a first partitioner call picked before the
	// record turned out to need a new batch there, so the producer called
	// onNewBatch and asked the partitioner again (KIP-480, 2.4+); -1 if the
	// first answer stood. Under RoundRobinPartitioner this is KAFKA-9965.
	Abandoned int
	// Route is the key path when the key decided (Kind == ChoseKey). A value,
	// not a pointer: the producer model chooses millions of partitions a second.
	Route KeyRoute
}

// Partitioner picks partitions for one topic the way a Kafka producer of a
// given version does. Implementations keep per-topic state (counters, the
// sticky partition) and are not safe for concurrent use.
type Partitioner interface {
	// Name is the kviz name it was created under (see PartitionerNames).
	Name() string
	// Choose picks rec's partition. b is consulted, and may close a full
	// batch, exactly where Kafka's producer consults its accumulator. ex may
	// be nil.
	Choose(rec ProducerRecord, t TopicLayout, b Batches, ex *Explainer) (PartitionChoice, error)
	// Appended reports that the record chosen as c was appended, adding
	// appendedBytes to its batch (a new batch counts its header), and whether
	// the partition's batches are all full afterwards. The built-in sticky
	// partitioner switches partitions here (KIP-794); the others ignore it.
	Appended(c PartitionChoice, appendedBytes int, allBatchesFull bool)
	// UpdateLoadStats gives the built-in partitioner the queue sizes (in
	// batches) of partitions with a leader, as RecordAccumulator.ready does;
	// only the first length entries count (the rest were excluded by
	// partitioner.availability.timeout.ms). nil queueSizes turns adaptive
	// partitioning off until the next call. Others ignore it.
	UpdateLoadStats(queueSizes, partitionIDs []int, length int)
}

// PartitionerConfig chooses and configures a partitioner.
type PartitionerConfig struct {
	// Name is a kviz name or a Java class name (see PartitionerNames);
	// "" means "default".
	Name string
	// Version is the Kafka client version ("" = latest).
	Version string
	// BatchSize is batch.size (0 = 16384): the built-in partitioner's
	// stickiness threshold in bytes.
	BatchSize int
	// IgnoreKeys is partitioner.ignore.keys (3.3+, built-in partitioner only).
	IgnoreKeys bool
	// DisableAdaptive is partitioner.adaptive.partitioning.enable=false.
	DisableAdaptive bool
	// Rand is the source of every random pick (Kafka uses ThreadLocalRandom).
	// Required: kviz is deterministic given a seed.
	Rand *rand.Rand
}

// Partitioner names, as kviz spells them.
const (
	PartitionerDefault       = "default"        // no partitioner.class: the version's built-in behaviour
	PartitionerDefaultClass  = "default-class"  // partitioner.class=...internals.DefaultPartitioner
	PartitionerUniformSticky = "uniform-sticky" // partitioner.class=...UniformStickyPartitioner
	PartitionerRoundRobin    = "round-robin"    // partitioner.class=...RoundRobinPartitioner
)

// partitionerAlias is the kviz name for a partitioner name or Java class
// name, lower-cased (a switch, not a map: nothing to build at start-up).
func partitionerAlias(name string) (string, bool) {
	switch name {
	case "default", "built-in", "builtin":
		return PartitionerDefault, true
	case "default-class", "defaultpartitioner", "org.apache.kafka.clients.producer.internals.defaultpartitioner":
		return PartitionerDefaultClass, true
	case "uniform-sticky", "uniformstickypartitioner", "org.apache.kafka.clients.producer.uniformstickypartitioner":
		return PartitionerUniformSticky, true
	case "round-robin", "roundrobin", "roundrobinpartitioner", "org.apache.kafka.clients.producer.roundrobinpartitioner":
		return PartitionerRoundRobin, true
	}
	return "", false
}

// PartitionerNames lists the kviz partitioner names.
func PartitionerNames() []string {
	return []string{PartitionerDefault, PartitionerDefaultClass, PartitionerUniformSticky, PartitionerRoundRobin}
}

// NewPartitioner builds the partitioner a producer of cfg.Version uses under
// cfg.Name. Asking for a class the version does not have is an error.
func NewPartitioner(cfg PartitionerConfig) (Partitioner, error) {
	v, err := ParseClientVersion(cfg.Version)
	if err != nil {
		return nil, err
	}
	if cfg.Rand == nil {
		return nil, fmt.Errorf("partitioner needs a seeded random source")
	}
	if cfg.BatchSize < 0 {
		return nil, fmt.Errorf("batch.size must not be negative, got %d", cfg.BatchSize)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	name := strings.ToLower(strings.TrimSpace(cfg.Name))
	if name == "" {
		name = PartitionerDefault
	}
	kvizName, ok := partitionerAlias(name)
	if !ok {
		known := PartitionerNames()
		sort.Strings(known)
		return nil, fmt.Errorf("unknown partitioner %q (valid: %s)", cfg.Name, strings.Join(known, ", "))
	}
	if cfg.IgnoreKeys && (kvizName != PartitionerDefault || !v.AtLeast(3, 3, 0)) {
		return nil, fmt.Errorf("partitioner.ignore.keys exists since 3.3 and applies only to the built-in partitioner")
	}
	return buildPartitioner(kvizName, v, cfg)
}

func buildPartitioner(name string, v ClientVersion, cfg PartitionerConfig) (Partitioner, error) {
	sinceKIP480 := v.AtLeast(2, 4, 0)
	switch name {
	case PartitionerDefault:
		switch {
		case v.AtLeast(3, 3, 0):
			return newBuiltInPartitioner(name, cfg), nil
		case sinceKIP480:
			return newPartitionerClassFlow(name, true, true, &stickyPartitionCache{rng: cfg.Rand}), nil
		default:
			return newPartitionerClassFlow(name, false, true, &keylessRoundRobin{rng: cfg.Rand}), nil
		}
	case PartitionerDefaultClass:
		if v.AtLeast(4, 0, 0) {
			return nil, fmt.Errorf("DefaultPartitioner was removed in Kafka 4.0 (KAFKA-18262); use %q, the built-in partitioner", PartitionerDefault)
		}
		if sinceKIP480 {
			return newPartitionerClassFlow(name, true, true, &stickyPartitionCache{rng: cfg.Rand}), nil
		}
		return newPartitionerClassFlow(name, false, true, &keylessRoundRobin{rng: cfg.Rand}), nil
	case PartitionerUniformSticky:
		if v.AtLeast(4, 0, 0) {
			return nil, fmt.Errorf("UniformStickyPartitioner was removed in Kafka 4.0 (KAFKA-18262); use %q with partitioner.ignore.keys", PartitionerDefault)
		}
		if !sinceKIP480 {
			return nil, fmt.Errorf("UniformStickyPartitioner does not exist before Kafka 2.4 (KIP-480); %s has none", v)
		}
		return newPartitionerClassFlow(name, true, false, &stickyPartitionCache{rng: cfg.Rand}), nil
	case PartitionerRoundRobin:
		if !sinceKIP480 {
			return nil, fmt.Errorf("RoundRobinPartitioner does not exist before Kafka 2.4 (KAFKA-3333); %s has none", v)
		}
		return newPartitionerClassFlow(name, true, false, &roundRobinClass{fixed: roundRobinFixed(v)}), nil
	}
	return nil, fmt.Errorf("unknown partitioner %q", name)
}

// roundRobinFixed reports whether v has KAFKA-17632's fix: RoundRobinPartitioner
// answers the second call for a record with its first answer. Merged for 4.0
// and backported to the 3.9 branch in August 2025, after 3.9.1 shipped, so
// the first 3.9 release with it is 3.9.2.
func roundRobinFixed(v ClientVersion) bool {
	return v.AtLeast(4, 0, 0) || (v.Major == 3 && v.Minor == 9 && v.Patch >= 2)
}

// randomToPositive is Utils.toPositive(ThreadLocalRandom.nextInt()).
func randomToPositive(r *rand.Rand) int {
	return int(ToPositive(int32(r.Uint32())))
}

func checkProducerRecord(rec ProducerRecord, t TopicLayout) error {
	if t.Partitions <= 0 {
		return fmt.Errorf("topic has no partitions")
	}
	if rec.Partition < NoPartition {
		return fmt.Errorf("invalid partition %d: a partition number is never negative", rec.Partition)
	}
	if rec.Partition >= t.Partitions {
		return fmt.Errorf("invalid partition given with record: %d is not in the range [0...%d)", rec.Partition, t.Partitions)
	}
	return nil
}
