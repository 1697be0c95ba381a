package strategies

import "sort"

// stickyRacks is AbstractStickyAssignor.RackInfo (KIP-881): which members and
// partitions have racks, and whether rack-aware assignment is on at all.
type stickyRacks struct {
	// on: some member has a rack, some partition rack matches a member rack,
	// and not every partition is on every rack (useRackAwareAssignment).
	on         bool
	memberRack []string          // "" when the member has no rack or racks are off
	partRacks  []map[string]bool // pid -> racks of its replicas; nil when off
	// numConsumers[pid] is how many members sit on the partition's racks;
	// nil when no member has a rack (Kafka then skips the sort it feeds).
	numConsumers []int32
}

// newStickyRacks follows RackInfo's constructor. A replica rack "" counts as
// no rack (Kafka's Node.rack() is null then).
func newStickyRacks(g Group, in *stickyInput) stickyRacks {
	var r stickyRacks
	consumersByRack := map[string]int32{}
	for _, m := range in.members {
		if m.Rack != "" {
			consumersByRack[m.Rack]++
		}
	}
	if len(consumersByRack) == 0 {
		return r
	}
	partRacks := make([]map[string]bool, in.numP)
	allRacks := map[string]bool{}
	for ti, t := range in.topics {
		lists := g.PartitionRacks[t]
		for p := int32(0); p < in.counts[ti]; p++ {
			set := map[string]bool{}
			if int(p) < len(lists) {
				for _, rk := range lists[p] {
					if rk != "" {
						set[rk] = true
						allRacks[rk] = true
					}
				}
			}
			partRacks[in.base[ti]+p] = set
		}
	}
	r.numConsumers = make([]int32, in.numP)
	for pid, set := range partRacks {
		for rk := range set {
			r.numConsumers[pid] += consumersByRack[rk]
		}
	}
	if !useRackAware(consumersByRack, allRacks, partRacks) {
		return r
	}
	r.on = true
	r.partRacks = partRacks
	r.memberRack = make([]string, len(in.members))
	for i, m := range in.members {
		r.memberRack[i] = m.Rack
	}
	return r
}

// useRackAware is AbstractPartitionAssignor.useRackAwareAssignment: off when
// no member rack is a replica rack, or when every partition is on every rack.
func useRackAware(consumerRacks map[string]int32, allRacks map[string]bool, partRacks []map[string]bool) bool {
	disjoint := true
	for rk := range consumerRacks {
		if allRacks[rk] {
			disjoint = false
			break
		}
	}
	if disjoint {
		return false
	}
	for _, set := range partRacks {
		if len(set) != len(allRacks) {
			return true
		}
	}
	return false
}

// mismatch is racksMismatch: the member has a rack and the partition has no
// replica there.
func (r *stickyRacks) mismatch(m int, pid int32) bool {
	if !r.on || r.memberRack[m] == "" {
		return false
	}
	return !r.partRacks[pid][r.memberRack[m]]
}

// onRack reports whether the member has a rack holding a replica of pid.
func (r *stickyRacks) onRack(m int, pid int32) bool {
	return r.on && r.memberRack[m] != "" && r.partRacks[pid][r.memberRack[m]]
}

// sortByRackConsumers is sortPartitionsByRackConsumers: a stable sort by how
// many members could take the partition on-rack, fewest first.
func (r *stickyRacks) sortByRackConsumers(pids []int32) {
	if r.numConsumers == nil {
		return
	}
	sort.SliceStable(pids, func(i, j int) bool { return r.numConsumers[pids[i]] < r.numConsumers[pids[j]] })
}

// nextRackConsumer returns the index in list, scanning circularly from
// first, of the first member on one of pid's racks; -1 if none.
func (r *stickyRacks) nextRackConsumer(pid int32, list []int, first int) int {
	if !r.on || len(r.partRacks[pid]) == 0 {
		return -1
	}
	for i := range list {
		idx := (first + i) % len(list)
		if r.onRack(list[idx], pid) {
			return idx
		}
	}
	return -1
}
