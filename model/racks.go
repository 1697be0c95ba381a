package model

import (
	"maps"
	"slices"
	"strings"

	kcluster "github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/strategies"
)

// partitionRacks gives the leader's assignor input, when some member has
// a rack and the brokers have racks, each partition's replica racks as the
// leader's metadata shows them: a replica on a broker that is down has no
// rack there (MetadataResponse lists only live brokers, and the client
// makes a rackless Node for the others).
func (w *world) partitionRacks(grp *strategies.Group) {
	if len(w.sc.BrokerRacks) == 0 || len(strategies.MemberRacks(grp.Members)) == 0 {
		return
	}
	grp.PartitionRacks = make(map[string][][]string, len(grp.Topics))
	for t := range grp.Topics {
		parts, err := w.cluster.k.Partitions(t)
		if err != nil {
			continue // not in the cluster: no racks
		}
		out := make([][]string, len(parts))
		for p, part := range parts {
			out[p] = w.replicaRacks(part)
		}
		grp.PartitionRacks[t] = out
	}
}

// replicaRacks is the racks of a partition's replicas on live brokers.
func (w *world) replicaRacks(part kcluster.Partition) []string {
	out := make([]string, 0, len(part.Replicas))
	for _, b := range part.Replicas {
		if b < len(w.cluster.up) && w.cluster.up[b] && b < len(w.sc.BrokerRacks) {
			out = append(out, w.sc.BrokerRacks[b])
		}
	}
	return out
}

// rackSnapshot is the racks half of a classic leader's MetadataSnapshot
// (ConsumerCoordinator.PartitionRackInfo): when the leader has a
// client.rack, every partition of the group's topics is the set of its
// replicas' racks, a replica on a broker that is down counting as no rack
// (the client's rackless Node). A broker failing or coming back changes it,
// and MetadataSnapshot.matches then sends the leader back to rejoin. "" when
// the leader or the brokers have no racks: racks are not compared.
func (w *world) rackSnapshot(leaderRack string, topics map[string]bool) string {
	if leaderRack == "" || len(w.sc.BrokerRacks) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range slices.Sorted(maps.Keys(topics)) {
		parts, err := w.cluster.k.Partitions(t)
		if err != nil {
			continue
		}
		b.WriteString(t)
		for _, part := range parts {
			set := map[string]bool{}
			for _, r := range part.Replicas {
				rack := "" // down, or a broker without a rack: null
				if r < len(w.cluster.up) && w.cluster.up[r] && r < len(w.sc.BrokerRacks) {
					rack = "=" + w.sc.BrokerRacks[r]
				}
				set[rack] = true
			}
			b.WriteString("|" + strings.Join(slices.Sorted(maps.Keys(set)), ","))
		}
		b.WriteString(";")
	}
	return b.String()
}

// racksMoved reports whether the replicas' racks the leader's last
// assignment saw differ from its metadata now.
func (c *client) racksMoved() bool {
	return c.assignRacks != "" && c.assignRacks != c.w.rackSnapshot(c.rack(), c.assignRackSubs)
}

// rack is the client's client.rack ("" = not set).
func (c *client) rack() string { return c.w.sc.MemberRacks()[c.id] }

// brokersMovedRacks: a broker failed or recovered; a classic leader whose
// assignment saw the replicas' racks notices at its next metadata refresh
// (metadata.max.age.ms; kviz does not model the refresh a failed fetch
// would bring sooner).
func (w *world) brokersMovedRacks() {
	for _, c := range w.clients {
		if c.running && c.isLeader && c.assignRacks != "" {
			c.scheduleMetadataRefresh()
		}
	}
}
