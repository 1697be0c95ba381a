package model

import "github.com/kvizlab/kviz/model/produce"

// FlowView is the data path after one step: producers, partitions' offsets
// and the brokers leading them. Views are shared between steps where nothing
// changed: treat them as read-only.
type FlowView struct {
	TimeMs    int64
	Topics    []FlowTopic // in name order
	Producers []ProducerView
	Brokers   []FlowBroker // by id
	Records   int64        // every record produced so far
	// Readers are the other groups reading the topics (readers:), in file order.
	Readers []FlowReader
	// Err is set when the data path could not go on (the views after it
	// repeat the last good one).
	Err string
	// Events are the data path's notes so far worth telling (an offset
	// reset, a failed commit), latest last; at most maxFlowEvents.
	Events []string
}

// FlowTopic is one topic's partitions, by partition number.
type FlowTopic struct {
	Name       string
	Partitions []FlowPartition
}

// FlowPartition is one partition's log, its leader and the group's offsets.
type FlowPartition struct {
	Partition int32
	Owner     string // member consuming it now ("" = nobody)
	LogEnd    int64  // high watermark: every record that landed
	Committed int64  // the group's committed offset; -1 = none
	Position  int64  // the owner's next offset; -1 = none
	// Lag is LogEnd − Committed, as kafka-consumer-groups prints it;
	// LagKnown is false without a committed offset.
	Lag        int64
	LagKnown   bool
	Consumed   int64   // records processed, re-reads included
	Duplicates int64   // records processed a second time
	PerSec     float64 // records landing per second, over the last second or more
	// Hot: at least twice the mean rate of the topic's partitions that
	// receive records (a hot key).
	Hot      bool
	Leader   int   // broker; -1 = offline
	Replicas []int // assignment order: the first is the preferred leader
	ISR      []int
}

// ProducerView is one producer and its latest record's partition choice.
type ProducerView struct {
	Name, Topic string
	Partitioner string
	Version     string // the Kafka client version the scenario gave ("" = latest)
	Records     int64
	// LastKey is the latest record's key (nil = null key); LastPartition is
	// where it went (-1 before the first record), LastLine why in one line,
	// and Route, for a hashed key, the murmur2 path step by step.
	LastKey       []byte
	LastPartition int
	LastLine      string
	Route         []string
	// For a producer with a hot key: the key, the share of records it
	// gets, its partition and its route in one line.
	HotKey       string
	HotShare     float64
	HotPartition int
	HotLine      string
	// The accumulator: batch.size and linger.ms in force, the first
	// partitions with batches waiting (at most 8; QueuedPartitions counts
	// them all), the sender's latest batch (nil before the first) and how
	// many it has sent.
	BatchSize        int
	LingerMs         int64
	Queues           []ProducerQueue
	QueuedPartitions int
	LastSent         *produce.SentBatch
	BatchesSent      int64
}

// ProducerQueue is one partition's waiting batches, the next to go first.
type ProducerQueue struct {
	Partition int
	Batches   []produce.BatchView
}

// FlowBroker is one broker as the data path sees it.
type FlowBroker struct {
	ID       int
	Up       bool
	Leads    int // data partitions it leads
	Replicas int // data partition replicas it holds
}

// maxFlowEvents bounds FlowView.Events.
const maxFlowEvents = 20

// Partition returns a topic's partition view, if any.
func (f *FlowView) Partition(topic string, partition int32) (FlowPartition, bool) {
	for _, t := range f.Topics {
		if t.Name == topic && partition >= 0 && int(partition) < len(t.Partitions) {
			return t.Partitions[partition], true
		}
	}
	return FlowPartition{}, false
}
