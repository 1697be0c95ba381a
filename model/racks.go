package model

import (
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
