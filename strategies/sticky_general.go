package strategies

import (
	"fmt"
	"sort"
	"strings"
)

// generalBuilder is AbstractStickyAssignor.GeneralAssignmentBuilder, used
// when members subscribe to different topics: keep valid owned partitions,
// give each remaining partition to its first subscriber in (partitions held,
// member id) order, then move partitions until Kafka's isBalanced holds,
// keeping that only if the balance score improved.
type generalBuilder struct {
	in     *stickyInput
	claims *stickyClaims
	ex     *Explainer

	owner     []int32 // currentPartitionConsumer: pid -> member, -1 none
	count     []int   // partitions held per member
	potential [][]int // topic -> subscribed members (topic2AllPotentialConsumers)
	maxSize   []int   // getMaxAssignmentSize per member
	fixed     []bool  // member taken out of reassignment (fixedAssignments)
	order     *memberOrder
	moves     *stickyMovements

	sortedAll          []int32 // sortedAllPartitions
	prevOwner          []int32 // prevAssignment: pid -> member, -1 none
	prevGen            []int32
	revocationRequired bool

	balancedCache   bool
	balancedVersion int
	version         int
	kafkaWouldFail  bool
}

func newGeneralBuilder(in *stickyInput, claims *stickyClaims, ex *Explainer) *generalBuilder {
	n := len(in.members)
	b := &generalBuilder{
		in: in, claims: claims, ex: ex,
		owner:           make([]int32, in.numP),
		count:           make([]int, n),
		potential:       make([][]int, len(in.topics)),
		maxSize:         make([]int, n),
		fixed:           make([]bool, n),
		moves:           newStickyMovements(in),
		balancedVersion: -1,
	}
	for i := range b.owner {
		b.owner[i] = -1
	}
	for _, m := range in.order {
		// topic2AllPotentialConsumers and getMaxAssignmentSize read the
		// member's list: a repeated topic counts as often as it is listed.
		for _, t := range in.subscribed[m] {
			b.potential[t] = append(b.potential[t], m)
		}
		for _, t := range in.repeats[m] {
			b.potential[t] = append(b.potential[t], m)
		}
		if len(in.subscribed[m])+len(in.repeats[m]) == len(in.topics) {
			b.maxSize[m] = in.numP
		} else {
			for _, t := range in.subscribed[m] {
				b.maxSize[m] += int(in.counts[t])
			}
			for _, t := range in.repeats[m] {
				b.maxSize[m] += int(in.counts[t])
			}
		}
	}
	rack := func(m int) string { return "" }
	if in.racks.on {
		rack = func(m int) string { return in.racks.memberRack[m] }
	}
	b.order = newMemberOrder(in, b.count, rack)
	return b
}

func (b *generalBuilder) build() [][]int32 {
	in := b.in
	if b.ex.Enabled() {
		b.ex.Addf("members subscribe to different topics: Kafka's general sticky algorithm")
	}
	b.sortAllPartitions()
	b.prepopulatePrevious()
	assigned := b.assignOwned()
	unassigned := make([]int32, 0, in.numP)
	for _, pid := range b.sortedAll {
		if !assigned[pid] {
			unassigned = append(unassigned, pid)
		}
	}
	for m := range in.members {
		b.order.add(m)
	}
	b.balance(unassigned)
	lists := make([][]int32, len(in.members))
	for pid := int32(0); pid < int32(in.numP); pid++ {
		if m := b.owner[pid]; m >= 0 {
			lists[m] = append(lists[m], pid)
		}
	}
	return lists
}

// sortAllPartitions orders topics by how many members could take them, then
// by name (TopicComparator), each topic's partitions ascending.
func (b *generalBuilder) sortAllPartitions() {
	in := b.in
	topics := make([]int, len(in.topics))
	for i := range topics {
		topics[i] = i
	}
	sort.SliceStable(topics, func(i, j int) bool {
		return len(b.potential[topics[i]]) < len(b.potential[topics[j]])
	})
	if b.ex.Enabled() {
		var parts []string
		for i, t := range topics {
			if i == 8 {
				parts = append(parts, fmt.Sprintf("… %d more", len(topics)-i))
				break
			}
			parts = append(parts, fmt.Sprintf("%s (%d)", in.topics[t], len(b.potential[t])))
		}
		b.ex.Addf("topics by how many members could take them, fewest first: %s", strings.Join(parts, ", "))
	}
	b.sortedAll = make([]int32, 0, in.numP)
	for _, t := range topics {
		for p := int32(0); p < in.counts[t]; p++ {
			b.sortedAll = append(b.sortedAll, in.base[t]+p)
		}
	}
}

// prepopulatePrevious records, for members reporting an older generation
// than the newest one, what they owned then (prepopulateCurrentAssignments).
// Kafka takes their raw report here, unfiltered by subscription.
func (b *generalBuilder) prepopulatePrevious() {
	in := b.in
	b.prevOwner = make([]int32, in.numP)
	b.prevGen = make([]int32, in.numP)
	for i := range b.prevOwner {
		b.prevOwner[i] = -1
	}
	for _, m := range in.order {
		g := in.gen[m]
		if g >= b.claims.maxGeneration {
			continue
		}
		for _, pid := range in.rawOwned[m] {
			if b.prevOwner[pid] < 0 || g > b.prevGen[pid] {
				b.prevOwner[pid] = int32(m)
				b.prevGen[pid] = g
			}
		}
	}
}

// assignOwned keeps each member's valid owned partitions of topics it still
// subscribes to (and, with racks, that are on its rack).
func (b *generalBuilder) assignOwned() []bool {
	in, ex := b.in, b.ex
	assigned := make([]bool, in.numP)
	for _, m := range in.order {
		for _, pid := range b.claims.owned[m] {
			b.owner[pid] = int32(m) // currentPartitionConsumer is filled before filtering
			t := in.topics[in.topicOf[pid]]
			if !in.subscribes(m, in.topicOf[pid]) || in.racks.mismatch(m, pid) {
				b.revocationRequired = true
				if ex.Enabled() {
					why := "no longer subscribed to " + t
					if in.subscribes(m, in.topicOf[pid]) {
						why = "not on its rack"
					}
					ex.Addf("%s loses %s: %s", in.ids[m], in.tp(pid), why)
				}
				continue
			}
			assigned[pid] = true
			b.count[m]++
			if ex.Enabled() {
				ex.Addf("%s keeps %s: owned at generation %d", in.ids[m], in.tp(pid), in.gen[m])
			} else {
				ex.Skip()
			}
		}
	}
	// Filtered partitions keep a stale currentPartitionConsumer entry in
	// Kafka until they are assigned again, which always happens (every
	// topic here has a subscriber), so only kept ones matter from now on.
	for pid := range b.owner {
		if !assigned[pid] {
			b.owner[pid] = -1
		}
	}
	return assigned
}

func (b *generalBuilder) balance(unassigned []int32) {
	in := b.in
	_, maxCount := b.order.minMax()
	initializing := maxCount == 0
	toAssign := unassigned
	if in.racks.on {
		toAssign = b.maybeAssign(append([]int32(nil), unassigned...), true)
	}
	b.maybeAssign(toAssign, false)

	sortedAll := b.withoutFixedTopics(b.sortedAll)
	unassigned = b.withoutFixedTopics(unassigned)
	b.fixMembers()

	preOwner := append([]int32(nil), b.owner...)
	preCount := append([]int(nil), b.count...)
	preScore := b.score()

	if !b.revocationRequired {
		b.performReassignments(unassigned)
	}
	performed := b.performReassignments(sortedAll)
	if !initializing && performed {
		if score := b.score(); score >= preScore {
			copy(b.owner, preOwner)
			copy(b.count, preCount)
			if b.ex.Enabled() {
				b.ex.Addf("moving partitions did not improve the balance score (%d, was %d): keep the assignment from before", score, preScore)
			}
		} else if b.ex.Enabled() {
			b.ex.Addf("balance score improved from %d to %d", preScore, score)
		}
	}
}

// maybeAssign gives each partition to the first eligible member in order.
// With onRack it only considers members whose rack matches (members
// without a rack always match) and returns the partitions it could not
// place; otherwise it returns nil.
func (b *generalBuilder) maybeAssign(pids []int32, onRack bool) []int32 {
	in, ex := b.in, b.ex
	var left []int32
	for _, pid := range pids {
		t := int(in.topicOf[pid])
		if len(b.potential[t]) == 0 {
			continue
		}
		var ok func(string) bool
		if onRack {
			racks := in.racks.partRacks[pid]
			ok = func(rack string) bool { return rack == "" || racks[rack] }
		}
		m := b.order.firstFor(t, ok)
		if m < 0 {
			left = append(left, pid)
			continue
		}
		b.order.inc(m)
		b.owner[pid] = int32(m)
		b.version++
		if ex.Enabled() {
			ex.Addf("%s → %s (fewest partitions among its subscribers, now %d)", in.tp(pid), in.ids[m], b.count[m])
		} else {
			ex.Skip()
		}
	}
	return left
}

// withoutFixedTopics drops partitions of topics with fewer than two
// possible members: nothing can move them.
func (b *generalBuilder) withoutFixedTopics(pids []int32) []int32 {
	out := make([]int32, 0, len(pids))
	for _, pid := range pids {
		if len(b.potential[b.in.topicOf[pid]]) >= 2 {
			out = append(out, pid)
		}
	}
	return out
}

// fixMembers takes out members that cannot take part in reassignment: they
// hold every partition they could, all of topics nobody else wants.
func (b *generalBuilder) fixMembers() {
	in := b.in
	movable := make([]bool, len(in.members))
	for pid, m := range b.owner {
		if m >= 0 && len(b.potential[in.topicOf[pid]]) >= 2 {
			movable[m] = true
		}
	}
	for m := range in.members {
		if b.count[m] < b.maxSize[m] || movable[m] {
			continue
		}
		b.fixed[m] = true
		b.order.remove(m)
	}
}

// score is getBalanceScore over the members still in play: the sum over
// all pairs of the difference of their partition counts.
func (b *generalBuilder) score() int64 {
	var counts []int
	for m, c := range b.count {
		if !b.fixed[m] {
			counts = append(counts, c)
		}
	}
	sort.Ints(counts)
	var s int64
	n := len(counts)
	for i, c := range counts {
		s += int64(c) * int64(2*i-(n-1))
	}
	return s
}
