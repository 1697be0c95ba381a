package cluster

import (
	"fmt"
	"slices"
)

// FailBroker stops a broker: it leaves every ISR it is in (unless it is the
// last member), and every partition it led elects a new leader. It returns
// the leader changes, in topic-name then partition order.
func (c *Cluster) FailBroker(id int) ([]LeaderChange, error) {
	b := c.brokers[id]
	if b == nil {
		return nil, fmt.Errorf("unknown broker %d", id)
	}
	if !b.Alive {
		return nil, fmt.Errorf("broker %d is already down", id)
	}
	b.Alive = false
	return c.eachPartition(func(p *Partition) {
		if len(p.ISR) > 1 {
			p.ISR = slices.DeleteFunc(p.ISR, func(r int) bool { return r == id })
		}
		if p.Leader == id {
			c.elect(p)
		}
	}), nil
}

// RecoverBroker restarts a broker. It rejoins the ISR of its partitions
// (caught up at once, in kviz), and offline partitions it can lead elect it;
// a partition back online takes every live replica into its ISR again.
// Leadership elsewhere stays put until PreferredLeaderElection.
func (c *Cluster) RecoverBroker(id int) ([]LeaderChange, error) {
	b := c.brokers[id]
	if b == nil {
		return nil, fmt.Errorf("unknown broker %d", id)
	}
	if b.Alive {
		return nil, fmt.Errorf("broker %d is already up", id)
	}
	b.Alive = true
	return c.eachPartition(func(p *Partition) {
		if !slices.Contains(p.Replicas, id) {
			return
		}
		if p.Leader == NoLeader {
			// Offline: it may lead only if it was in the last ISR (or unclean).
			c.elect(p)
			if p.Leader == NoLeader {
				return
			}
		}
		if p.Leader != NoLeader {
			// With a leader to fetch from, every live replica catches up
			// (at once, in kviz) — also those that came back while the
			// partition was offline and had no leader to follow.
			p.ISR = c.liveReplicas(p)
		}
	}), nil
}

// PreferredLeaderElection moves leadership back to each partition's first
// replica where it is alive and in sync (kafka-leader-election --preferred,
// or the controller's auto leader rebalance).
func (c *Cluster) PreferredLeaderElection() []LeaderChange {
	return c.eachPartition(func(p *Partition) {
		pref := p.Replicas[0]
		if p.Leader != pref && c.brokers[pref].Alive && slices.Contains(p.ISR, pref) {
			p.Leader = pref
			p.LeaderEpoch++
		}
	})
}

// elect is the controller's offline-partition election: the first replica in
// assignment order that is alive and in the ISR; with unclean election, else
// the first live replica (which then is the whole ISR).
func (c *Cluster) elect(p *Partition) {
	leader := NoLeader
	for _, r := range p.Replicas {
		if c.brokers[r].Alive && slices.Contains(p.ISR, r) {
			leader = r
			break
		}
	}
	if leader == NoLeader && c.UncleanLeaderElection {
		for _, r := range p.Replicas {
			if c.brokers[r].Alive {
				leader, p.ISR = r, []int{r}
				break
			}
		}
	}
	if leader != p.Leader {
		p.Leader = leader
		p.LeaderEpoch++
	}
}

// liveReplicas is p's live replicas in assignment order.
func (c *Cluster) liveReplicas(p *Partition) []int {
	out := make([]int, 0, len(p.Replicas))
	for _, r := range p.Replicas {
		if c.brokers[r].Alive {
			out = append(out, r)
		}
	}
	return out
}

// eachPartition applies f to every partition and reports leader changes.
func (c *Cluster) eachPartition(f func(p *Partition)) []LeaderChange {
	var changes []LeaderChange
	names := make([]string, 0, len(c.topics))
	for n := range c.topics {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		for i, p := range c.topics[name] {
			before := p.Leader
			f(p)
			if p.Leader != before {
				changes = append(changes, LeaderChange{Topic: name, Partition: i, From: before, To: p.Leader})
			}
		}
	}
	return changes
}
