// Package cluster models the broker side kviz needs: brokers with racks,
// topics with replica assignments, leaders and in-sync replicas, and what a
// broker failure does to them — including moving a group's coordinator,
// the leader of its __consumer_offsets partition.
//
// The rules are the controller's: a new leader is the first replica, in
// assignment order, that is alive and in the ISR (unclean election, off by
// default, may take any live replica); a failed broker leaves every ISR
// unless it was the last member, so a partition whose ISR all died stays
// offline until one of them returns. A returning broker rejoins the ISRs
// (kviz treats it as caught up at once); leadership goes back to preferred
// leaders only through PreferredLeaderElection, which Kafka runs on its own
// every leader.imbalance.check.interval.seconds (auto.leader.rebalance.enable).
//
// Everything is deterministic; nothing here knows about time.
package cluster

import (
	"fmt"
	"slices"
	"sort"

	"github.com/kvizlab/kviz/strategies"
)

// OffsetsTopic is the internal topic holding committed offsets and groups.
const OffsetsTopic = "__consumer_offsets"

// NoLeader is the leader of an offline partition.
const NoLeader = -1

// Broker is one broker.
type Broker struct {
	ID    int
	Rack  string // "" = none
	Alive bool
}

// Partition is one partition's replica state.
type Partition struct {
	Replicas    []int // assignment order; the first is the preferred leader
	ISR         []int // in-sync replicas, in assignment order
	Leader      int   // NoLeader when offline
	LeaderEpoch int   // +1 on every leader change
}

// LeaderChange is one partition's leader moving (To may be NoLeader).
type LeaderChange struct {
	Topic     string
	Partition int
	From, To  int
}

// Cluster is brokers and topics.
type Cluster struct {
	brokers map[int]*Broker
	ids     []int // sorted
	topics  map[string][]*Partition
	// UncleanLeaderElection is unclean.leader.election.enable (default false).
	UncleanLeaderElection bool
}

// New makes a cluster of live brokers.
func New(brokers []strategies.BrokerRack) (*Cluster, error) {
	if len(brokers) == 0 {
		return nil, fmt.Errorf("a cluster needs at least one broker")
	}
	c := &Cluster{brokers: map[int]*Broker{}, topics: map[string][]*Partition{}}
	for _, b := range brokers {
		if b.ID < 0 {
			return nil, fmt.Errorf("broker id %d is negative", b.ID)
		}
		if c.brokers[b.ID] != nil {
			return nil, fmt.Errorf("broker id %d is listed twice", b.ID)
		}
		c.brokers[b.ID] = &Broker{ID: b.ID, Rack: b.Rack, Alive: true}
		c.ids = append(c.ids, b.ID)
	}
	sort.Ints(c.ids)
	return c, nil
}

// NewNumbered makes brokers 0..n-1 without racks.
func NewNumbered(n int) (*Cluster, error) {
	list := make([]strategies.BrokerRack, max(n, 0))
	for i := range list {
		list[i].ID = i
	}
	return New(list)
}

// Brokers lists the brokers by id.
func (c *Cluster) Brokers() []Broker {
	out := make([]Broker, len(c.ids))
	for i, id := range c.ids {
		out[i] = *c.brokers[id]
	}
	return out
}

// CreateTopic places a topic's replicas with Kafka's AdminUtils algorithm
// over the live brokers (rack-aware when they all have racks) and makes each
// partition's preferred leader its leader.
func (c *Cluster) CreateTopic(name string, partitions, replicationFactor, startIndex, shift int) error {
	var live []strategies.BrokerRack
	for _, id := range c.ids {
		if b := c.brokers[id]; b.Alive {
			live = append(live, strategies.BrokerRack{ID: id, Rack: b.Rack})
		}
	}
	if len(live) == 0 {
		return fmt.Errorf("topic %q: no live broker", name)
	}
	if partitions < 1 {
		return fmt.Errorf("topic %q: partitions must be at least 1, got %d", name, partitions)
	}
	placed, err := strategies.PlaceReplicasOn(live, partitions, replicationFactor, startIndex, shift)
	if err != nil {
		return fmt.Errorf("topic %q: %w", name, err)
	}
	return c.CreateTopicWithAssignment(name, placed)
}

// DeleteTopic removes a topic and its partitions (DeleteTopics).
func (c *Cluster) DeleteTopic(name string) { delete(c.topics, name) }

// CreateTopicWithAssignment creates a topic with given replicas per partition.
func (c *Cluster) CreateTopicWithAssignment(name string, replicas [][]int) error {
	if name == "" {
		return fmt.Errorf("a topic needs a name")
	}
	if c.topics[name] != nil {
		return fmt.Errorf("topic %q already exists", name)
	}
	if len(replicas) == 0 {
		return fmt.Errorf("topic %q: partitions must be at least 1", name)
	}
	// One allocation each for the partitions, their replicas and their
	// ISRs, not three per partition: 1,000 topics of 500 partitions are
	// made again for every what-if. Each partition's lists are capped at
	// their own length, so growing one never writes into its neighbour's.
	parts := make([]*Partition, len(replicas))
	slab := make([]Partition, len(replicas))
	n := 0
	for _, rs := range replicas {
		n += len(rs)
	}
	reps, isrs := make([]int, 0, n), make([]int, n)
	for p, rs := range replicas {
		if err := c.checkReplicas(rs); err != nil {
			return fmt.Errorf("topic %q partition %d: %w", name, p, err)
		}
		from := len(reps)
		reps = append(reps, rs...)
		part := &slab[p]
		part.Replicas, part.Leader = reps[from:len(reps):len(reps)], NoLeader
		isr := isrs[from:from:len(reps)]
		for _, b := range rs {
			if c.brokers[b].Alive {
				isr = append(isr, b)
			}
		}
		if len(isr) > 0 {
			part.ISR, part.Leader = isr, isr[0]
		}
		parts[p] = part
	}
	c.topics[name] = parts
	return nil
}

func (c *Cluster) checkReplicas(rs []int) error {
	if len(rs) == 0 {
		return fmt.Errorf("no replicas")
	}
	for i, b := range rs {
		if c.brokers[b] == nil {
			return fmt.Errorf("replica on unknown broker %d", b)
		}
		if slices.Contains(rs[:i], b) { // a few replicas: no set needed
			return fmt.Errorf("broker %d holds two replicas", b)
		}
	}
	return nil
}

// Partitions returns a topic's partitions (copies).
func (c *Cluster) Partitions(topic string) ([]Partition, error) {
	parts, ok := c.topics[topic]
	if !ok {
		return nil, fmt.Errorf("unknown topic %q", topic)
	}
	out := make([]Partition, len(parts))
	for i, p := range parts {
		out[i] = Partition{Replicas: slices.Clone(p.Replicas), ISR: slices.Clone(p.ISR), Leader: p.Leader, LeaderEpoch: p.LeaderEpoch}
	}
	return out, nil
}

// Leader is a partition's leader broker, NoLeader when offline.
func (c *Cluster) Leader(topic string, partition int) (int, error) {
	parts, ok := c.topics[topic]
	if !ok {
		return NoLeader, fmt.Errorf("unknown topic %q", topic)
	}
	if partition < 0 || partition >= len(parts) {
		return NoLeader, fmt.Errorf("topic %q has no partition %d", topic, partition)
	}
	return parts[partition].Leader, nil
}

// Layout is the producer's view of a topic: its partition count and the
// partitions that have a leader (Cluster.availablePartitionsForTopic).
func (c *Cluster) Layout(topic string) (strategies.TopicLayout, error) {
	parts, ok := c.topics[topic]
	if !ok {
		return strategies.TopicLayout{}, fmt.Errorf("unknown topic %q", topic)
	}
	l := strategies.TopicLayout{Partitions: len(parts)}
	for i, p := range parts {
		if p.Leader != NoLeader {
			l.Available = append(l.Available, i)
		}
	}
	return l, nil
}

// AddPartitions grows a topic to newCount partitions the way Kafka's admin
// path does (AdminZkClient.createNewPartitionsAssignment): the existing
// replication factor, the walk continued from the current partition count,
// and as start index (and initial shift) the index, among the live brokers by
// id, of the first broker whose id is ≥ partition 0's first replica. Keys map
// differently afterwards: toPositive(murmur2(key)) % newCount.
func (c *Cluster) AddPartitions(topic string, newCount int) error {
	parts, ok := c.topics[topic]
	if !ok {
		return fmt.Errorf("unknown topic %q", topic)
	}
	if newCount <= len(parts) {
		return fmt.Errorf("topic %q has %d partitions; %d would not be an increase", topic, len(parts), newCount)
	}
	var live []strategies.BrokerRack
	for _, id := range c.ids {
		if b := c.brokers[id]; b.Alive {
			live = append(live, strategies.BrokerRack{ID: id, Rack: b.Rack})
		}
	}
	first := parts[0].Replicas[0]
	start := 0
	for i, b := range live {
		if b.ID >= first {
			start = i
			break
		}
	}
	placed, err := strategies.PlaceNewPartitions(live, len(parts), newCount-len(parts), len(parts[0].Replicas), start, start)
	if err != nil {
		return fmt.Errorf("topic %q: %w", topic, err)
	}
	for _, rs := range placed {
		part := &Partition{Replicas: rs, ISR: slices.Clone(rs), Leader: rs[0]}
		parts = append(parts, part)
	}
	c.topics[topic] = parts
	return nil
}
