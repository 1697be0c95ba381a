package model

import (
	"fmt"

	"github.com/kvizlab/kviz/strategies"
)

// cluster is the brokers and the leadership of __consumer_offsets, whose
// partition abs(hashCode(group.id)) % offsets_partitions names the
// coordinator. Replicas come from Kafka's rack-unaware placement with a
// replication factor of min(3, brokers); the random start index and shift
// come from the scenario's seed.
type cluster struct {
	w              *world
	up             []bool
	replicas       [][]int
	leader         []int // per offsets partition; -1 = none
	groupPartition int32
}

func newCluster(w *world) (*cluster, error) {
	n := w.sc.Brokers
	rf := min(3, n)
	start, shift := w.rng.IntN(n), w.rng.IntN(n)
	reps, err := strategies.PlaceReplicas(n, int(w.sc.OffsetsPartitions), rf, start, shift)
	if err != nil {
		return nil, fmt.Errorf("__consumer_offsets: %v", err)
	}
	c := &cluster{w: w, up: make([]bool, n), replicas: reps, leader: make([]int, len(reps)),
		groupPartition: strategies.CoordinatorPartition(w.sc.GroupID, w.sc.OffsetsPartitions)}
	for b := range c.up {
		c.up[b] = true
	}
	for p, r := range reps {
		c.leader[p] = r[0]
	}
	return c, nil
}

// coordinator is the broker leading the group's offsets partition, or -1.
func (c *cluster) coordinator() int { return c.leader[c.groupPartition] }

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
	for _, l := range c.leader {
		if l >= 0 {
			out[l].LeadsOffsets++
		}
	}
	if co := c.coordinator(); co >= 0 {
		out[co].IsCoordinator = true
	}
	return out
}

// fail takes a broker down. Every offsets partition it led moves to its next
// live replica; if that includes the group's, the coordinator moves.
func (c *cluster) fail(b int) {
	if !c.up[b] {
		c.w.record("BrokerFailed", "", "", false, fmt.Sprintf("Broker %d is already down.", b))
		return
	}
	before := c.coordinator()
	c.up[b] = false
	moved := 0
	for p, l := range c.leader {
		if l == b {
			c.leader[p] = c.nextLive(p)
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
	c.w.record("BrokerFailed", "", "", false, text)
	if before == b {
		c.w.coordinatorMoved(before, after)
	}
}

// recover brings a broker back. It rejoins as a follower; partitions left
// without a leader elect it. (Preferred-leader rebalancing, every
// leader.imbalance.check.interval.seconds, is not simulated.)
func (c *cluster) recover(b int) {
	if c.up[b] {
		c.w.record("BrokerRecovered", "", "", false, fmt.Sprintf("Broker %d is already up.", b))
		return
	}
	before := c.coordinator()
	c.up[b] = true
	for p, l := range c.leader {
		if l < 0 && containsInt(c.replicas[p], b) {
			c.leader[p] = b
		}
	}
	c.w.hist.brokersChanged()
	after := c.coordinator()
	text := fmt.Sprintf("Broker %d recovers and rejoins as a follower of the partitions it holds.", b)
	if before < 0 && after >= 0 {
		text += fmt.Sprintf(" It leads __consumer_offsets partition %d again, so %s has a coordinator.", c.groupPartition, c.w.sc.GroupID)
	}
	c.w.record("BrokerRecovered", "", "", false, text)
	if before < 0 && after >= 0 {
		c.w.coordinatorMoved(before, after)
	}
}

func (c *cluster) nextLive(p int) int {
	for _, r := range c.replicas[p] {
		if c.up[r] {
			return r
		}
	}
	return -1
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// coordinatorMoved unloads the group from the old coordinator and loads it
// on the new one from what was stored.
func (w *world) coordinatorMoved(from, to int) {
	if w.consumer {
		w.modern.moved(from, to)
	} else {
		w.classic.moved(from, to)
	}
}
