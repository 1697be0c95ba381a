package live

import (
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// Snapshot is one read of a live group as the live lab shows it: the group
// imported as a scenario from its state, what moved since the previous
// read, and the lag.
type Snapshot struct {
	Group    *Group
	Scenario *scenario.Scenario
	Notes    []string     // what the import could not carry exactly
	Changes  []kafka.Move // owners (scenario ids) that changed since the previous read
	// Lag is the sum of the lag of each member's partitions (scenario id);
	// partitions without a commit count nothing.
	Lag map[string]int64
	// PartitionLag is each partition's lag, in the group's offset order;
	// nil entries have no commit.
	PartitionLag []Offset
	lagOf        map[kafka.TP]int64 // the known lags, for LagOf
}

// LagOf is a partition's lag (log end minus committed offset), and false
// when it has no commit (or no log end) to tell.
func (s *Snapshot) LagOf(tp kafka.TP) (int64, bool) {
	n, ok := s.lagOf[tp]
	return n, ok
}

// Showable reports whether the read can stand for the group on screen: a
// settled group, or a KIP-848 group at any moment (the import carries its
// epochs and targets). A classic group mid-rebalance shows members without
// assignments, so the lab keeps the last settled read (the read still
// imports, caught mid-rebalance, with what it takes from that one).
func (g *Group) Showable() bool { return g.Settled() || g.Type == Consumer }

// NewSnapshot imports g and compares it with the previous read (nil for
// the first).
func NewSnapshot(g *Group, prev *Snapshot) (*Snapshot, error) {
	if prev != nil {
		g.Carry(prev.Group) // a classic group mid-rebalance: what the read cannot show
	}
	_, sc, notes, err := g.Import()
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Group: g, Scenario: sc, Notes: notes, Lag: map[string]int64{}, PartitionLag: g.Offsets, lagOf: map[kafka.TP]int64{}}
	owners := OwnersOf(sc)
	if prev != nil {
		s.Changes = kafka.Diff(OwnersOf(prev.Scenario), owners)
	}
	for _, o := range g.Offsets {
		tp := kafka.TP{Topic: o.Topic, Partition: o.Partition}
		if o.Lag == nil {
			continue
		}
		s.lagOf[tp] = *o.Lag
		if id, ok := owners[tp]; ok {
			s.Lag[id] += *o.Lag
		}
	}
	return s, nil
}

// OwnersOf is who owns what at a given start: the scenario's members'
// owned partitions by scenario id.
func OwnersOf(sc *scenario.Scenario) kafka.Owners {
	out := kafka.Owners{}
	for _, m := range sc.Members {
		for _, tp := range m.Owned {
			out[tp] = m.ID
		}
	}
	return out
}

// Settled reports whether the group is at rest: Stable (KIP-848: STABLE,
// which Kafka's describe prints as Stable too) or Empty. A rebalancing
// classic group shows members without assignments.
func (g *Group) Settled() bool {
	switch g.State {
	case "Stable", "STABLE", "Empty", "EMPTY":
		return true
	}
	return false
}
