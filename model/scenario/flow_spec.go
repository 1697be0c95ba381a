package scenario

import (
	"github.com/kvizlab/kviz/model/produce"
)

// FlowSpec is a scenario's data path: its producers, the group's consumers'
// rates and commit settings, and the records the timeline produces by hand.
// Scenario.Flow is nil without a producers: section, produce: entries and readers:,
// and then the simulation is exactly the group's.
type FlowSpec struct {
	Producers []produce.ProducerConfig
	// Consumer is the group-level consumer configuration; Members holds a
	// member's own when it sets any (group settings merged in).
	Consumer produce.ConsumerConfig
	Members  map[string]produce.ConsumerConfig
	// Produces are the timeline's produce: {topic, key, count} entries, by time.
	Produces []ProduceEvent
	// Readers are other groups reading the same topics, in file order.
	Readers []ReaderSpec
}

// ProduceEvent sends Count records with Key (nil = null key) to Topic at AtMs.
type ProduceEvent struct {
	AtMs  int64
	Topic string
	Key   []byte
	Count int
	line  int
}

// ConsumerFor is the configuration member id consumes with.
func (f *FlowSpec) ConsumerFor(id string) produce.ConsumerConfig {
	if c, ok := f.Members[id]; ok {
		return c
	}
	return f.Consumer
}

// ReaderSpec is another consumer group reading the scenario's topics
// (`readers:`), for what a different group sees of the same log: one
// consumer that gets every partition of its topics at AtMs and reads from
// its own committed offsets, or from auto_offset_reset without any. Only
// its offsets are followed: it has no protocol steps, and it is never part
// of the simulated group.
type ReaderSpec struct {
	Group    string
	Topics   []string // as given; every topic by default
	AtMs     int64
	Consumer produce.ConsumerConfig
}
