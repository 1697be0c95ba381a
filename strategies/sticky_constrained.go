package strategies

import (
	"slices"
	"sort"
)

// constrainedBuilder is AbstractStickyAssignor.ConstrainedAssignmentBuilder
// (KAFKA-9987, since 2.7): the fast path when every member subscribes to the
// same topics. Members are int indices, partitions pids; the lists keep the
// exact order of Kafka's LinkedLists, because that order decides who gets what.
type constrainedBuilder struct {
	in       *stickyInput
	sortKeys []uint64 // scratch for sortPartitionThenTopic
	claims   *stickyClaims
	ex       *Explainer

	minQuota, maxQuota int
	expectedOverMin    int // members that end with maxQuota (P % M)
	currentOverMin     int

	assignment   [][]int32
	assigned     []bool  // pid already placed
	maybeRevoked []int32 // pid -> member that gave it up, -1 if none
	underMin     []int   // unfilledMembersWithUnderMinQuotaPartitions
	exactlyMin   []int   // unfilledMembersWithExactlyMinQuotaPartitions
	transferring map[int32]int
	keptByMember []int
}

func newConstrainedBuilder(in *stickyInput, claims *stickyClaims, ex *Explainer) *constrainedBuilder {
	n := len(in.members)
	b := &constrainedBuilder{
		in: in, claims: claims, ex: ex,
		assignment:   make([][]int32, n),
		assigned:     make([]bool, in.numP),
		maybeRevoked: make([]int32, in.numP),
		transferring: map[int32]int{},
		keptByMember: make([]int, n),
	}
	for i := range b.maybeRevoked {
		b.maybeRevoked[i] = -1
	}
	if n > 0 {
		b.minQuota = in.numP / n
		b.maxQuota = (in.numP + n - 1) / n
		b.expectedOverMin = in.numP % n
	}
	return b
}

func (b *constrainedBuilder) build() [][]int32 {
	in := b.in
	if len(in.members) == 0 {
		return nil
	}
	b.explainQuota()
	b.assignOwned()
	unassigned := make([]int32, 0, in.numP)
	for pid := int32(0); pid < int32(in.numP); pid++ {
		if !b.assigned[pid] {
			unassigned = append(unassigned, pid)
		}
	}
	sort.SliceStable(b.underMin, func(i, j int) bool { return JavaLess(in.ids[b.underMin[i]], in.ids[b.underMin[j]]) })
	sort.SliceStable(b.exactlyMin, func(i, j int) bool { return JavaLess(in.ids[b.exactlyMin[i]], in.ids[b.exactlyMin[j]]) })
	in.racks.sortByRackConsumers(unassigned)
	unassigned = b.assignRackAwareRoundRobin(unassigned)
	b.assignRoundRobin(unassigned)
	return b.assignment
}

func (b *constrainedBuilder) explainQuota() {
	in, ex := b.in, b.ex
	if !ex.Enabled() {
		return
	}
	n := len(in.members)
	switch {
	case b.expectedOverMin == 0:
		ex.Addf("quota: %d partitions / %d members → %d each", in.numP, n, b.minQuota)
	case b.expectedOverMin == 1:
		ex.Addf("quota: %d partitions / %d members → min %d, max %d, one member may hold %d", in.numP, n, b.minQuota, b.maxQuota, b.maxQuota)
	default:
		ex.Addf("quota: %d partitions / %d members → min %d, max %d, %d members may hold %d", in.numP, n, b.minQuota, b.maxQuota, b.expectedOverMin, b.maxQuota)
	}
}

// assignOwned is assignOwnedPartitions: members in HashMap order keep owned
// partitions, sorted by (partition, topic), up to their quota.
func (b *constrainedBuilder) assignOwned() {
	in := b.in
	for _, m := range in.order {
		owned := make([]int32, 0, len(b.claims.owned[m]))
		for _, pid := range b.claims.owned[m] {
			if in.racks.mismatch(m, pid) {
				b.maybeRevoked[pid] = int32(m)
				if b.ex.Enabled() {
					b.ex.Addf("%s gives up %s: no replica on its rack %s", in.ids[m], in.tp(pid), in.racks.memberRack[m])
				}
				continue
			}
			if b.claims.multi[pid] {
				continue
			}
			owned = append(owned, pid)
		}
		b.sortKeys = sortPartitionThenTopic(in, owned, b.sortKeys)
		keep := len(owned)
		switch {
		case len(owned) < b.minQuota:
			b.underMin = append(b.underMin, m)
		case len(owned) >= b.maxQuota && b.currentOverMin < b.expectedOverMin:
			b.currentOverMin++
			if b.currentOverMin == b.expectedOverMin {
				b.exactlyMin = b.exactlyMin[:0]
			}
			keep = b.maxQuota
		default:
			keep = b.minQuota
			if b.currentOverMin < b.expectedOverMin {
				b.exactlyMin = append(b.exactlyMin, m)
			}
		}
		for _, pid := range owned[:keep] {
			b.assignment[m] = append(b.assignment[m], pid)
			b.assigned[pid] = true
		}
		for _, pid := range owned[keep:] {
			b.maybeRevoked[pid] = int32(m)
		}
		b.keptByMember[m] = keep
		b.explainKeep(m, owned, keep)
	}
}

// sortPartitionThenTopic sorts pids as Kafka's
// Comparator.comparing(partition).thenComparing(topic) does (3.8+, so members
// keep a spread of partition numbers across topics). Topic
// indices follow Java String order, so one integer key per pid, partition
// high and topic low, sorts the same; keys is scratch space, returned for reuse.
func sortPartitionThenTopic(in *stickyInput, pids []int32, keys []uint64) []uint64 {
	keys = keys[:0]
	for _, pid := range pids {
		t := in.topicOf[pid]
		keys = append(keys, uint64(pid-in.base[t])<<32|uint64(t))
	}
	slices.Sort(keys)
	for i, k := range keys {
		t := int32(uint32(k))
		pids[i] = in.base[t] + int32(k>>32)
	}
	return keys
}

func (b *constrainedBuilder) explainKeep(m int, owned []int32, keep int) {
	in, ex := b.in, b.ex
	if keep == 0 && len(owned) == 0 {
		return
	}
	if !ex.Enabled() {
		ex.Skip()
		return
	}
	g := in.gen[m]
	for _, pid := range owned[:keep] {
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		ex.Addf("%s keeps %s: owned at generation %d", in.ids[m], in.tp(pid), g)
	}
	for _, pid := range owned[keep:] {
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		ex.Addf("%s gives up %s: it already keeps %d, its share", in.ids[m], in.tp(pid), keep)
	}
}

// assignRackAwareRoundRobin is KIP-881's first fill: only on-rack placements,
// walking the under-quota list round-robin. It returns what is left.
func (b *constrainedBuilder) assignRackAwareRoundRobin(unassigned []int32) []int32 {
	in := b.in
	if !in.racks.on {
		return unassigned
	}
	next := 0
	left := unassigned[:0:0]
	for _, pid := range unassigned {
		consumer := -1
		if idx := in.racks.nextRackConsumer(pid, b.underMin, next); idx >= 0 {
			consumer = b.underMin[idx]
			count := len(b.assignment[consumer]) + 1
			if count >= b.minQuota {
				b.underMin = append(b.underMin[:idx], b.underMin[idx+1:]...)
				if count < b.maxQuota && b.currentOverMin < b.expectedOverMin {
					b.exactlyMin = append(b.exactlyMin, consumer)
				}
			} else {
				idx++
			}
			next = 0
			if len(b.underMin) > 0 {
				next = idx % len(b.underMin)
			}
		} else if len(b.exactlyMin) > 0 {
			if first := in.racks.nextRackConsumer(pid, b.exactlyMin, 0); first >= 0 {
				consumer = b.exactlyMin[first]
				if len(b.assignment[consumer])+1 == b.maxQuota {
					b.exactlyMin = append(b.exactlyMin[:first], b.exactlyMin[first+1:]...)
					b.currentOverMin++
					if b.currentOverMin == b.expectedOverMin {
						b.exactlyMin = b.exactlyMin[:0]
					}
				}
			}
		}
		if consumer >= 0 {
			b.assignNew(pid, consumer, true)
		} else {
			left = append(left, pid)
		}
	}
	return left
}

// assignRoundRobin is the last fill: under-quota members round-robin in
// member-id order; a member reaching minQuota moves to the end of the
// at-minQuota queue, whose head takes a partition once nobody is under quota.
func (b *constrainedBuilder) assignRoundRobin(unassigned []int32) {
	cursor := 0 // a live iterator over underMin: the next index to return
	for _, pid := range unassigned {
		consumer, fromUnder := -1, true
		switch {
		case cursor < len(b.underMin):
		case len(b.underMin) == 0 && len(b.exactlyMin) == 0:
			// Kafka throws IllegalStateException here; the quotas make it
			// unreachable, so stop rather than invent an owner.
			return
		case len(b.underMin) == 0:
			consumer, fromUnder = b.exactlyMin[0], false
			b.exactlyMin = b.exactlyMin[1:]
		default:
			cursor = 0 // a fresh iterator
		}
		if fromUnder {
			consumer = b.underMin[cursor]
			cursor++
		}
		count := b.assignNew(pid, consumer, false)
		if count == b.minQuota {
			// unfilledConsumerIter.remove(); only a member taken from the
			// under-quota list can have just reached minQuota.
			if fromUnder {
				cursor--
				b.underMin = append(b.underMin[:cursor], b.underMin[cursor+1:]...)
			}
			b.exactlyMin = append(b.exactlyMin, consumer)
		} else if count == b.maxQuota {
			b.currentOverMin++
		}
	}
}

// assignNew is assignNewPartition: it records a transfer of ownership when
// the partition leaves another live owner or was claimed twice.
func (b *constrainedBuilder) assignNew(pid int32, consumer int, onRack bool) int {
	in, ex := b.in, b.ex
	b.assignment[consumer] = append(b.assignment[consumer], pid)
	if prev := b.maybeRevoked[pid]; (prev >= 0 && int(prev) != consumer) || b.claims.multi[pid] {
		b.transferring[pid] = consumer
	}
	if ex.Enabled() {
		why := "next in round-robin"
		if onRack {
			why = "on its rack"
		}
		if len(b.assignment[consumer]) > b.minQuota {
			why += ", one of the extra slots"
		}
		ex.Addf("%s → %s (%s, now %d)", in.tp(pid), in.ids[consumer], why, len(b.assignment[consumer]))
	} else {
		ex.Skip()
	}
	return len(b.assignment[consumer])
}

// from names who must give up a transferring partition.
func (b *constrainedBuilder) from(pid int32) string {
	if b.claims.multi[pid] {
		return b.claims.claimantNames(b.in, pid)
	}
	if m := b.maybeRevoked[pid]; m >= 0 {
		return b.in.ids[m]
	}
	return ""
}
