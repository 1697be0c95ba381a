package model

import (
	"fmt"
	"math/rand/v2"

	kcluster "github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// The seed's random streams: the world's (the offsets topic's placement
// first, then member ids) and the data topics' placement.
const (
	worldStream = 0x6b76697a
	topicStream = 0x666c6f77
)

// newWorldRand is the world's random stream for a scenario.
func newWorldRand(sc *scenario.Scenario) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(sc.Seed), worldStream))
}

// replicationFactor is the replication factor kviz gives __consumer_offsets
// and the data topics: min(3, brokers). Kafka's offsets.topic.replication.factor
// is 3 (and it refuses to create the topic with fewer live brokers);
// default.replication.factor is 1, but a picture of failover needs copies.
func replicationFactor(brokers int) int { return min(3, brokers) }

// newKafkaCluster builds a run's brokers and topics: __consumer_offsets,
// placed with a start index and shift drawn from rng (the world's stream),
// and the scenario's topics, placed from the seed's topic stream. The group
// simulation and the data path replay the same timeline at different times,
// so each builds its own cluster here and moves it with model/cluster's
// FailBroker and RecoverBroker: one placement, one failover rule.
func newKafkaCluster(sc *scenario.Scenario, rng *rand.Rand) (*kcluster.Cluster, error) {
	n := sc.Brokers
	c, err := kcluster.New(sc.BrokerList())
	if err != nil {
		return nil, err
	}
	rf := replicationFactor(n)
	start, shift := rng.IntN(n), rng.IntN(n)
	if err := c.CreateOffsetsTopic(int(sc.OffsetsPartitions), rf, start, shift); err != nil {
		return nil, err
	}
	// Each topic's placement starts where Kafka's random start index and
	// shift would; drawn from the seed so a scenario always looks the same.
	topics := rand.New(rand.NewPCG(uint64(sc.Seed), topicStream))
	for _, t := range strategies.SortedTopics(sc.Topics) {
		if t == kcluster.OffsetsTopic {
			return nil, fmt.Errorf("topic %s is Kafka's internal offsets topic; a scenario cannot create it", t)
		}
		start, shift := topics.IntN(n), topics.IntN(n) // drawn for every topic: a given assignment moves no other topic's
		if reps := sc.Replicas[t]; reps != nil {
			if err := c.CreateTopicWithAssignment(t, reps); err != nil {
				return nil, err
			}
			continue
		}
		if err := c.CreateTopic(t, int(sc.Topics[t]), rf, start, shift); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// cluster is the group simulation's side of the run's cluster: whether each
// broker is up and who leads the group's __consumer_offsets partition,
// abs(hashCode(group.id)) % offsets_partitions, which names the coordinator.
// Leadership and failover are model/cluster's.
type cluster struct {
	w *world
	k *kcluster.Cluster
	// up mirrors the brokers' liveness for the clients' request path; it
	// changes only in fail and recover, right after the cluster does.
	up             []bool
	groupPartition int32
}

func newCluster(w *world) (*cluster, error) {
	k, err := newKafkaCluster(w.sc, w.rng)
	if err != nil {
		return nil, err
	}
	co, err := k.CoordinatorFor(w.sc.GroupID)
	if err != nil {
		return nil, err
	}
	c := &cluster{w: w, k: k, groupPartition: int32(co.Partition)}
	c.syncUp()
	return c, nil
}

func (c *cluster) syncUp() {
	bs := c.k.Brokers()
	c.up = make([]bool, len(bs))
	for i, b := range bs {
		c.up[i] = b.Alive
	}
}

// coordinator is the broker leading the group's offsets partition, or -1.
func (c *cluster) coordinator() int {
	l, err := c.k.Leader(kcluster.OffsetsTopic, int(c.groupPartition))
	if err != nil {
		return kcluster.NoLeader
	}
	return l
}

// anyUp returns the lowest live broker (FindCoordinator's least-loaded
// broker, in a cluster where all are idle), or -1.
func (c *cluster) anyUp() int {
	for b, up := range c.up {
		if up {
			return b
		}
	}
	return -1
}

func (c *cluster) view() []BrokerView {
	out := make([]BrokerView, len(c.up))
	for b := range c.up {
		out[b] = BrokerView{ID: b, Up: c.up[b]}
	}
	parts, _ := c.k.Partitions(kcluster.OffsetsTopic)
	for _, p := range parts {
		if p.Leader >= 0 {
			out[p.Leader].LeadsOffsets++
		}
	}
	if co := c.coordinator(); co >= 0 {
		out[co].IsCoordinator = true
	}
	return out
}

// fail takes a broker down. Every offsets partition it led moves to its next
// live in-sync replica; if that includes the group's, the coordinator moves.
func (c *cluster) fail(b int) {
	if !c.up[b] {
		c.w.record(kafka.KindBrokerFailed, "", "", false, fmt.Sprintf("Broker %d is already down.", b))
		return
	}
	before := c.coordinator()
	changes, err := c.k.FailBroker(b)
	if err != nil {
		c.w.fail("fail_broker %d: %v", b, err)
		return
	}
	c.syncUp()
	moved := 0
	for _, ch := range changes {
		if ch.Topic == kcluster.OffsetsTopic && ch.From == b {
			moved++
		}
	}
	c.w.hist.brokersChanged()
	after := c.coordinator()
	text := fmt.Sprintf("Broker %d fails; leadership of the %d __consumer_offsets partitions it led moves to their next live replica.", b, moved)
	if before == b {
		if after >= 0 {
			text += fmt.Sprintf(" It was the coordinator of %s: partition %d is now led by broker %d.", c.w.sc.GroupID, c.groupPartition, after)
		} else {
			text += fmt.Sprintf(" It was the coordinator of %s, and partition %d has no live replica left.", c.w.sc.GroupID, c.groupPartition)
		}
	}
	c.w.record(kafka.KindBrokerFailed, "", "", false, text)
	if before == b {
		c.w.coordinatorMoved(before, after)
	}
	c.w.brokersMovedRacks() // racks.go
	if c.w.share != nil {
		c.w.share.leadersMoved(changes, kafka.KindBrokerFailed) // share_brokers.go
	}
}

// recover brings a broker back. It rejoins as a follower; partitions whose
// last in-sync replica it was elect it. (Preferred-leader rebalancing, every
// leader.imbalance.check.interval.seconds, is not simulated.)
func (c *cluster) recover(b int) {
	if c.up[b] {
		c.w.record(kafka.KindBrokerRecovered, "", "", false, fmt.Sprintf("Broker %d is already up.", b))
		return
	}
	before := c.coordinator()
	changes, err := c.k.RecoverBroker(b)
	if err != nil {
		c.w.fail("recover_broker %d: %v", b, err)
		return
	}
	c.syncUp()
	c.w.hist.brokersChanged()
	after := c.coordinator()
	text := fmt.Sprintf("Broker %d recovers and rejoins as a follower of the partitions it holds.", b)
	if before < 0 && after >= 0 {
		text += fmt.Sprintf(" It leads __consumer_offsets partition %d again, so %s has a coordinator.", c.groupPartition, c.w.sc.GroupID)
	}
	c.w.record(kafka.KindBrokerRecovered, "", "", false, text)
	if before < 0 && after >= 0 {
		c.w.coordinatorMoved(before, after)
	}
	c.w.brokersMovedRacks() // racks.go
	if c.w.share != nil {
		c.w.share.leadersMoved(changes, kafka.KindBrokerRecovered) // share_brokers.go
	}
}

// grow adds partitions to a data topic, as the data path does; the group
// reads counts from world.topics, so only the replicas are new here. With no
// live broker (Kafka would refuse the request) the cluster keeps its count.
func (c *cluster) grow(topic string, count int32) {
	_ = c.k.AddPartitions(topic, int(count))
}

// create places a topic created during the run, its start index and
// shift drawn from the seed and the topic's name (so no other topic moves).
func (c *cluster) create(topic string, count int32) {
	n := c.w.sc.Brokers
	r := rand.New(rand.NewPCG(uint64(c.w.sc.Seed), topicStream^uint64(uint32(strategies.JavaHashCode(topic)))))
	_ = c.k.CreateTopic(topic, int(count), replicationFactor(n), r.IntN(n), r.IntN(n))
}

// coordinatorMoved unloads the group from the old coordinator and loads it
// on the new one from what was stored.
func (w *world) coordinatorMoved(from, to int) {
	if w.share != nil {
		w.share.moved(from, to) // share_brokers.go
	} else if w.consumer {
		w.consumerGroup.moved(from, to)
	} else {
		w.classic.moved(from, to)
	}
}
