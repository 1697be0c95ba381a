package produce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/kvizlab/kviz/strategies"
)

// KeyKind is how a producer's records are keyed.
type KeyKind string

const (
	KeysNull    KeyKind = "null"    // no key: the keyless partitioner path
	KeysFixed   KeyKind = "fixed"   // Keys.Fixed, in turn
	KeysUniform KeyKind = "uniform" // one of Keys.Count keys "key-0".., uniformly
	KeysHot     KeyKind = "hot"     // Keys.Hot with Keys.HotShare, else uniform over Count
)

// Keys is a key distribution.
type Keys struct {
	Kind     KeyKind
	Fixed    []string
	Count    int
	Hot      string
	HotShare float64
}

// ProducerConfig configures one producer writing to one topic.
type ProducerConfig struct {
	Name  string
	Topic string
	// Rate is records per virtual second (0: only SendNow sends).
	Rate float64
	Keys Keys
	// Partitioner is a strategies partitioner name ("" = default), Version
	// the Kafka client version ("" = latest).
	Partitioner, Version string
	// BatchSize is batch.size (0 = 16384). LingerMs is linger.ms (nil = the
	// version's default: 0 up to 3.9, 5 since 4.0).
	BatchSize int
	LingerMs  *int
	// ValueBytes is each record's value size (0 = 100).
	ValueBytes      int
	IgnoreKeys      bool
	DisableAdaptive bool
	// AvailabilityTimeoutMs is partitioner.availability.timeout.ms (0 = off):
	// the built-in partitioner avoids partitions whose broker kept data
	// waiting longer than this (see Sim.StallBroker).
	AvailabilityTimeoutMs int
}

// Producer is one simulated producer.
type Producer struct {
	cfg      ProducerConfig
	sim      *Sim
	topic    *topicLog
	part     strategies.Partitioner
	acc      *accumulator
	rng      *rand.Rand
	keys     [][]byte
	hot      []byte
	nextKey  int
	pace     pacer
	lingerMs int64
	ready    readyList
	// leaderGen is the topic's leaderGen the load stats were computed at.
	leaderGen int
	stats     pendingStats

	// Sent counts the records this producer appended, per partition.
	Sent []int64
	// Last is the latest record's partition choice; LastKey its key (nil = null).
	Last    strategies.PartitionChoice
	LastKey []byte
	// Records counts every record sent.
	Records int64
	// lastSent and batchesSent: the sender's latest batch and its count.
	lastSent    SentBatch
	batchesSent int64
}

func newProducer(cfg ProducerConfig, t *topicLog, rng *rand.Rand) (*Producer, error) {
	if cfg.Rate < 0 || math.IsNaN(cfg.Rate) || math.IsInf(cfg.Rate, 0) {
		return nil, fmt.Errorf("producer %q: rate must be a finite number ≥ 0, got %v", cfg.Name, cfg.Rate)
	}
	if cfg.ValueBytes < 0 {
		return nil, fmt.Errorf("producer %q: value size must not be negative, got %d", cfg.Name, cfg.ValueBytes)
	}
	if cfg.AvailabilityTimeoutMs < 0 {
		return nil, fmt.Errorf("producer %q: partitioner.availability.timeout.ms must not be negative, got %d", cfg.Name, cfg.AvailabilityTimeoutMs)
	}
	if cfg.ValueBytes == 0 {
		cfg.ValueBytes = 100
	}
	version, err := strategies.ParseClientVersion(cfg.Version)
	if err != nil {
		return nil, fmt.Errorf("producer %q: %w", cfg.Name, err)
	}
	linger := int64(version.DefaultLingerMs())
	if cfg.LingerMs != nil {
		if *cfg.LingerMs < 0 {
			return nil, fmt.Errorf("producer %q: linger.ms must not be negative, got %d", cfg.Name, *cfg.LingerMs)
		}
		linger = int64(*cfg.LingerMs)
	}
	part, err := strategies.NewPartitioner(strategies.PartitionerConfig{Name: cfg.Partitioner, Version: cfg.Version,
		BatchSize: cfg.BatchSize, IgnoreKeys: cfg.IgnoreKeys, DisableAdaptive: cfg.DisableAdaptive, Rand: rng})
	if err != nil {
		return nil, fmt.Errorf("producer %q: %w", cfg.Name, err)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = strategies.DefaultBatchSize
	}
	p := &Producer{cfg: cfg, pace: newPacer(cfg.Rate), topic: t, part: part, acc: newAccumulator(t.partitions(), cfg.BatchSize), rng: rng,
		lingerMs: linger, Sent: make([]int64, t.partitions()), Last: strategies.PartitionChoice{Partition: -1, Abandoned: -1},
	}
	if err := p.prepareKeys(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Producer) prepareKeys() error {
	k := p.cfg.Keys
	switch k.Kind {
	case "", KeysNull:
	case KeysFixed:
		if len(k.Fixed) == 0 {
			return fmt.Errorf("producer %q: fixed keys need at least one key", p.cfg.Name)
		}
		for _, s := range k.Fixed {
			p.keys = append(p.keys, []byte(s))
		}
	case KeysUniform, KeysHot:
		if k.Count < 1 {
			return fmt.Errorf("producer %q: %s keys need a key count ≥ 1, got %d", p.cfg.Name, k.Kind, k.Count)
		}
		// One backing array for all keys: a random key is then usually a
		// cache hit, which keeps the model above a million records a second.
		var buf []byte
		ends := make([]int, k.Count)
		for i := range k.Count {
			buf = append(buf, "key-"...)
			buf = strconv.AppendInt(buf, int64(i), 10)
			ends[i] = len(buf)
		}
		start := 0
		for _, end := range ends {
			p.keys = append(p.keys, buf[start:end:end])
			start = end
		}
		if k.Kind == KeysHot {
			if k.HotShare < 0 || k.HotShare > 1 || math.IsNaN(k.HotShare) {
				return fmt.Errorf("producer %q: hot key share must be within 0..1, got %v", p.cfg.Name, k.HotShare)
			}
			p.hot = []byte(k.Hot)
		}
	default:
		return fmt.Errorf("producer %q: unknown key kind %q (valid: null, fixed, uniform, hot)", p.cfg.Name, k.Kind)
	}
	return nil
}

// Name is the producer's name.
func (p *Producer) Name() string { return p.cfg.Name }

// Partitioner is the producer's partitioner.
func (p *Producer) Partitioner() strategies.Partitioner { return p.part }

// LingerMs is the linger.ms in effect.
func (p *Producer) LingerMs() int64 { return p.lingerMs }

// Queued is how many records wait in the accumulator for partition.
func (p *Producer) Queued(partition int) int { return p.acc.queued(partition) }

func (p *Producer) nextKeyBytes() []byte {
	switch p.cfg.Keys.Kind {
	case KeysFixed:
		k := p.keys[p.nextKey]
		p.nextKey = (p.nextKey + 1) % len(p.keys)
		return k
	case KeysUniform:
		return p.keys[p.rng.IntN(len(p.keys))]
	case KeysHot:
		if p.rng.Float64() < p.cfg.Keys.HotShare {
			return p.hot
		}
		return p.keys[p.rng.IntN(len(p.keys))]
	}
	return nil
}

// send runs one record through partitioner and accumulator at nowMs.
func (p *Producer) send(key []byte, partition int, nowMs int64) error {
	rec := strategies.ProducerRecord{Key: key, Partition: partition}
	if partition == strategies.NoPartition && (key == nil || p.cfg.IgnoreKeys) {
		// Only the keyless path reaches the built-in partitioner's load
		// stats (KafkaProducer.partition: an explicit partition, or a key
		// not ignored, never asks it).
		p.handStats()
	}
	p.acc.nowMs, p.acc.valueLen = nowMs, p.cfg.ValueBytes
	p.acc.keyLen = -1
	if key != nil {
		p.acc.keyLen = len(key)
	}
	c, err := p.part.Choose(rec, p.topic.layout, p.acc, nil)
	if err != nil {
		return fmt.Errorf("producer %q: %w", p.cfg.Name, err)
	}
	bytes := p.acc.append(c.Partition)
	p.part.Appended(c, bytes, p.acc.AllBatchesFull(c.Partition))
	p.Last, p.LastKey = c, key
	p.Records++
	return nil
}

// tick sends this millisecond's records.
func (p *Producer) tick(nowMs int64) error {
	n := p.pace.step()
	for range n {
		if err := p.send(p.nextKeyBytes(), strategies.NoPartition, nowMs); err != nil {
			return err
		}
	}
	return nil
}

// drain is the sender thread's pass. As in Kafka, ready() first hands the
// built-in partitioner the queue sizes, then ready batches are drained and
// land in the log.
func (p *Producer) drain(nowMs int64) {
	t := p.topic
	p.refreshLoadStats()
	p.acc.drainReady(nowMs, p.lingerMs, t.leader, p.sim.stalled, &p.ready, func(part int, b *batch, why SendReason) {
		records := b.records
		p.lastSent = SentBatch{Partition: part, Records: records, Bytes: b.bytes, AtMs: nowMs, Why: why}
		p.batchesSent++
		t.logEnd[part] += int64(records)
		p.Sent[part] += int64(records)
		for _, g := range p.sim.groupList {
			g.landed(t, part)
		}
	})
}

// refreshLoadStats is ready()'s first half: the partitioner gets the queue
// sizes. UpdateLoadStats replaces its table from its input alone, so while
// nothing that input reads changed, the last call still stands.
func (p *Producer) refreshLoadStats() {
	t := p.topic
	if !p.acc.statsDirty && t.leaderGen == p.leaderGen {
		return
	}
	leadersChanged := t.leaderGen != p.leaderGen
	p.acc.statsDirty, p.leaderGen = false, t.leaderGen
	sizes, ids, length, ok := p.acc.loadStats(t.leader, int64(p.cfg.AvailabilityTimeoutMs), leadersChanged)
	p.stats = pendingStats{sizes: sizes, ids: ids, length: length, ok: ok, due: true}
}

// handStats gives the partitioner the load stats of the latest drain, just
// before a keyless record needs them: only Choose and Appended of a keyless
// record read them, and each call replaces the last, so the calls in
// between would change nothing.
func (p *Producer) handStats() {
	if !p.stats.due {
		return
	}
	p.stats.due = false
	if p.stats.ok {
		p.part.UpdateLoadStats(p.stats.sizes, p.stats.ids, p.stats.length)
	} else {
		p.part.UpdateLoadStats(nil, nil, 0)
	}
}

// pendingStats is what the last drain computed for the partitioner; sizes
// and ids belong to the accumulator and hold until its next drain.
type pendingStats struct {
	sizes, ids []int
	length     int
	ok, due    bool
}

// SendNow sends count records with key (nil = no key) at the current
// virtual time, as a timeline "produce" step does. They land in the log when
// the sender next drains (the next Advance).
func (p *Producer) SendNow(key []byte, count int) error {
	return p.SendTo(key, strategies.NoPartition, count)
}

// SendTo is SendNow with an explicit partition (strategies.NoPartition = none).
func (p *Producer) SendTo(key []byte, partition, count int) error {
	if count < 0 {
		return fmt.Errorf("producer %q: record count must not be negative, got %d", p.cfg.Name, count)
	}
	for range count {
		if err := p.send(key, partition, p.sim.nowMs); err != nil {
			return err
		}
	}
	return nil
}

// pacer turns a rate per second into whole records per millisecond without
// drift: it counts in millionths of a record, so 100/s is exactly one record
// every 10 ms.
type pacer struct{ perMs, carry int64 }

func newPacer(perSecond float64) pacer { return pacer{perMs: int64(math.Round(perSecond * 1000))} }

// pacerUnit is one record in the pacer's millionths.
const pacerUnit = 1_000_000

func (p *pacer) step() int64 {
	p.carry += p.perMs
	n := p.carry / pacerUnit
	p.carry -= n * pacerUnit
	return n
}
