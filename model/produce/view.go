package produce

import (
	"slices"

	"github.com/kvizlab/kviz/strategies"
)

// Read-only accessors for the lab's panes.

// Topics lists the topics in the order added.
func (s *Sim) Topics() []string { return slices.Clone(s.names) }

// PartitionCount is a topic's partition count (0 for an unknown topic).
func (s *Sim) PartitionCount(topic string) int {
	if t, ok := s.topics[topic]; ok {
		return t.partitions()
	}
	return 0
}

// Groups lists the groups in the order first asked for.
func (s *Sim) Groups() []*Group { return slices.Clone(s.groupList) }

// Name is the group's name.
func (g *Group) Name() string { return g.name }

// Members lists the members in join order.
func (g *Group) Members() []string { return slices.Clone(g.order) }

// Owned lists a member's partitions in the order it got them.
func (g *Group) Owned(member string) []strategies.TopicPartition {
	if m, ok := g.members[member]; ok {
		return slices.Clone(m.owned)
	}
	return nil
}

// Topic is the topic the producer writes to.
func (p *Producer) Topic() string { return p.cfg.Topic }

// LastLine explains the latest record's partition in one line
// ("" before the first record).
func (p *Producer) LastLine() string {
	if p.Records == 0 {
		return ""
	}
	return strategies.ChoiceLine(p.Last)
}
