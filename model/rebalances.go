package model

import (
	"slices"

	"github.com/kvizlab/kviz/model/scenario"
)

// Rebalances lists every completed rebalance.
//
// Classic protocol: a rebalance starts when a join phase starts (the group
// enters PreparingRebalance) and ends when the group is Stable again, at a
// later generation, with no member of it still joining, rejoining or
// waiting for a withheld partition (or when it ends Empty). A join phase a
// coordinator failover throws away is part of the rebalance that follows
// it. A cooperative dance is one rebalance:
// after round 1 the revoking member rejoins, so the group is not settled
// until round 2 has handed the partitions over. A static member that
// restarts within its session timeout starts no join phase, so it makes no
// rebalance (its gap is in Outages).
//
// Consumer protocol (KIP-848): a rebalance starts with a group-epoch bump
// and ends when the group is STABLE (or EMPTY) again and the members have
// taken what the coordinator gave them (it marks a member STABLE one
// network hop before the member consumes its new partitions); partitions
// targeted at a crashed member whose session has not expired do not hold
// it up.
//
// A member that revokes before it tells the coordinator (eager rejoin after
// a subscription change or new partitions) starts the rebalance at its
// revocation; so does a member that drops its partitions one network hop
// before the coordinator starts the join phase (a leave, a poll timeout).
//
// Moved counts partitions consumed just before the start by a member and,
// at the end, by another member or by nobody (a partition whose owner had
// already died before the start is in the outage before it, not moved).
// UnownedMs is, per partition, how long within the rebalance nobody
// consumed it. A partition whose onPartitionsRevoked or onPartitionsLost is
// running is no longer consumed: Kafka pauses fetching it and drops it when
// the callback returns.
//
// The list is the caller's; the UnownedMs lists are shared: read them only.
func (s *Sim) Rebalances() []Rebalance {
	return slices.Clone(s.scan().done)
}

// Outage is a stretch outside any rebalance when some partition a member
// subscribes to had no consumer: a crashed static member waiting to come
// back within its session timeout, a zombie until its session expires, new
// partitions until the leader notices them.
type Outage struct {
	StartStep, EndStep int
	StartMs, EndMs     int64
	// UnownedMs is, per partition, how long it had no consumer.
	UnownedMs PartitionMs
}

// Outages lists the completed stretches outside rebalances when some
// subscribed partition had no consumer. A stretch that runs into a
// rebalance ends where the rebalance starts.
func (s *Sim) Outages() []Outage {
	return slices.Clone(s.scan().outs)
}

// scan walks the history once. It is cached: the lab asks after every what-if.
func (s *Sim) scan() *ownershipScan {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scanned == nil && scenario.IsShare(s.sc) {
		s.scanned = s.shareScan() // several holders per partition (share_ledger.go)
	}
	if s.scanned == nil {
		s.scanned = newOwnershipScan(scenario.IsConsumer(s.sc))
		s.scanned.mixed = s.sc.Mixed()
		s.scanned.run(s.steps, s.vlog, s.tlog, s.tids)
	}
	return s.scanned
}
