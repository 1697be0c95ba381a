package cluster

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// CreateOffsetsTopic creates __consumer_offsets (offsets.topic.num.partitions,
// default 50; replication factor default 3). Kafka refuses to create it with
// fewer live brokers than its replication factor, and FindCoordinator answers
// COORDINATOR_NOT_AVAILABLE meanwhile.
func (c *Cluster) CreateOffsetsTopic(partitions, replicationFactor, startIndex, shift int) error {
	return c.CreateTopic(OffsetsTopic, partitions, replicationFactor, startIndex, shift)
}

// Coordinator is where a group's coordinator is: its __consumer_offsets
// partition, that partition's leader (NoLeader = COORDINATOR_NOT_AVAILABLE)
// and its replicas in assignment order (the first is the preferred leader).
type Coordinator struct {
	Partition int
	Broker    int
	Replicas  []int
}

// CoordinatorFor finds group's coordinator. The offsets topic must exist.
func (c *Cluster) CoordinatorFor(group string) (Coordinator, error) {
	parts, ok := c.topics[OffsetsTopic]
	if !ok {
		return Coordinator{Broker: NoLeader}, fmt.Errorf("%s does not exist yet (create it first): COORDINATOR_NOT_AVAILABLE", OffsetsTopic)
	}
	p := int(strategies.CoordinatorPartition(group, int32(len(parts))))
	return Coordinator{Partition: p, Broker: parts[p].Leader, Replicas: slices.Clone(parts[p].Replicas)}, nil
}

// CoordinatorMove finds, among leader changes, the one that moves group's
// coordinator, so the group simulation can make its members rediscover it
// (NOT_COORDINATOR, then FindCoordinator).
func (c *Cluster) CoordinatorMove(group string, changes []LeaderChange) (LeaderChange, bool) {
	parts, ok := c.topics[OffsetsTopic]
	if !ok {
		return LeaderChange{}, false
	}
	p := int(strategies.CoordinatorPartition(group, int32(len(parts))))
	for _, ch := range changes {
		if ch.Topic == OffsetsTopic && ch.Partition == p {
			return ch, true
		}
	}
	return LeaderChange{}, false
}
