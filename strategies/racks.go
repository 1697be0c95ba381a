package strategies

import "slices"

// KIP-881 (Kafka 3.5): assignors that know the client's rack (client.rack)
// and the racks of each partition's replicas prefer partitions with a replica
// on the member's own rack, to avoid cross-rack fetch traffic. These helpers
// hold the rules every rack-aware assignor shares (Range, and the sticky
// family in AbstractStickyAssignor), so they give the same answer everywhere.

// RackSet is the set of racks holding a partition's replicas: sorted, without
// duplicates, without "" (a broker without a rack contributes nothing, like
// Kafka's Node.rack() == null).
type RackSet []string

// NewRackSet builds a RackSet from a replica list as given in the input.
func NewRackSet(racks []string) RackSet {
	out := make(RackSet, 0, len(racks))
	for _, r := range racks {
		if r != "" {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Contains reports whether rack holds a replica.
func (s RackSet) Contains(rack string) bool {
	for _, r := range s {
		if r == rack {
			return true
		}
	}
	return false
}

// TopicRackSets returns the replica racks of every partition of topic, or
// nil when the group gives none for it (then no partition of it is on any
// rack, as for brokers without broker.rack). It always has one entry per
// partition, even for a group that did not pass Validate.
func TopicRackSets(g Group, topic string) []RackSet {
	racks, ok := g.PartitionRacks[topic]
	if !ok {
		return nil
	}
	out := make([]RackSet, max(g.Topics[topic], 0))
	for p := range min(len(out), len(racks)) {
		out[p] = NewRackSet(racks[p])
	}
	return out
}

// MemberRacks returns the set of non-empty member racks among members
// (Kafka ignores an empty client.rack).
func MemberRacks(members []Member) map[string]bool {
	out := make(map[string]bool)
	for _, m := range members {
		if m.Rack != "" {
			out[m.Rack] = true
		}
	}
	return out
}

// UseRackAwareAssignment is Kafka's AbstractPartitionAssignor.useRackAwareAssignment:
// rack matching is worth doing only when some member has a rack, some
// partition has a replica on one of those racks, and not every partition is
// on every rack (otherwise every member is equally close to every partition).
// partitions holds the replica racks of each partition considered (one
// topic for Range, all subscribed topics for the sticky assignors); a nil
// entry is a partition on no rack.
func UseRackAwareAssignment(memberRacks map[string]bool, partitions []RackSet) bool {
	if len(memberRacks) == 0 {
		return false
	}
	all := make(map[string]bool)
	for _, rs := range partitions {
		for _, r := range rs {
			all[r] = true
		}
	}
	shared := false
	for r := range memberRacks {
		if all[r] {
			shared = true
			break
		}
	}
	if !shared {
		return false
	}
	// Every partition's set must equal the union for rack matching to be
	// pointless; one partition on fewer racks is enough to turn it on.
	for _, rs := range partitions {
		if len(rs) != len(all) {
			return true
		}
	}
	return false
}

// RackMatches is Range's racksMatch: a member without a rack may take any
// partition; a member with one only a partition with a replica on it.
func RackMatches(memberRack string, replicas RackSet) bool {
	return memberRack == "" || replicas.Contains(memberRack)
}
