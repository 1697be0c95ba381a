package strategies

import (
	"slices"
	"strings"
)

// stickyClaims is what AbstractStickyAssignor.allSubscriptionsEqual works out
// before either algorithm runs: whether every member subscribes to the same
// topics, and which owned partitions survive conflicting claims.
type stickyClaims struct {
	allEqual bool
	// owned[m] is the member's valid owned partitions (consumerToOwnedPartitions).
	owned [][]int32
	// multi marks partitions claimed by two members of the same generation
	// (partitionsWithMultiplePreviousOwners).
	multi map[int32]bool
	// claimants of each multi partition, for explanations and Withheld.From.
	claimants     map[int32][]int
	maxGeneration int32
}

// resolveClaims follows allSubscriptionsEqual step by step, visiting members
// in Kafka's HashMap order, because the order decides odd cases (three
// claimants of mixed generations).
func resolveClaims(in *stickyInput, ex *Explainer) stickyClaims {
	c := stickyClaims{
		allEqual:      true,
		owned:         make([][]int32, len(in.members)),
		multi:         map[int32]bool{},
		claimants:     map[int32][]int{},
		maxGeneration: NoGeneration,
	}
	first := -1                     // the member whose topics fill subscribedTopics
	owner := make([]int32, in.numP) // allPreviousPartitionsToOwner, -1 = none
	for i := range owner {
		owner[i] = -1
	}
	for _, m := range in.order {
		if first < 0 || in.subCount[first] == 0 {
			// Kafka re-initialises while the set is still empty, so members
			// with no topics before the first real one do not break equality.
			first = m
		} else if c.allEqual && !in.sameSubscription(first, m) {
			c.allEqual = false
		}
		g := in.gen[m]
		if g > c.maxGeneration {
			c.maxGeneration = g
		}
		c.owned[m] = make([]int32, 0, len(in.rawOwned[m]))
		for _, pid := range in.rawOwned[m] {
			c.claim(in, m, pid, owner, ex)
		}
	}
	return c
}

func (c *stickyClaims) claim(in *stickyInput, m int, pid int32, owner []int32, ex *Explainer) {
	other := int(owner[pid])
	if other < 0 {
		c.owned[m] = append(c.owned[m], pid)
		owner[pid] = int32(m)
		return
	}
	g, og := in.gen[m], in.gen[other]
	switch {
	case g == og:
		c.multi[pid] = true
		c.claimants[pid] = appendUnique(appendUnique(c.claimants[pid], other), m)
		c.owned[other] = removeFirst(c.owned[other], pid)
		owner[pid] = int32(m)
		if ex.Enabled() {
			ex.Addf("%s claimed by %s and %s at generation %d: void, reassigned", in.tp(pid), in.ids[other], in.ids[m], g)
		} else {
			ex.Skip()
		}
	case g > og:
		c.owned[m] = append(c.owned[m], pid)
		c.owned[other] = removeFirst(c.owned[other], pid)
		owner[pid] = int32(m)
		if ex.Enabled() {
			ex.Addf("%s claimed by %s (generation %d) and %s (generation %d): the higher generation keeps it", in.tp(pid), in.ids[m], g, in.ids[other], og)
		}
	default:
		if ex.Enabled() {
			ex.Addf("%s claimed by %s (generation %d) and %s (generation %d): the higher generation keeps it", in.tp(pid), in.ids[other], og, in.ids[m], g)
		}
	}
}

// claimantNames lists who claimed a void partition, in member-id order,
// comma-separated: Withheld.From when every claimant must let go of it.
func (c *stickyClaims) claimantNames(in *stickyInput, pid int32) string {
	names := make([]string, 0, len(c.claimants[pid]))
	for _, m := range c.claimants[pid] {
		names = append(names, in.ids[m])
	}
	slices.SortFunc(names, JavaCompare)
	return strings.Join(names, ",")
}

// removeFirst is java.util.List.remove(Object): the first occurrence goes.
func removeFirst(xs []int32, v int32) []int32 {
	for i, x := range xs {
		if x == v {
			return append(xs[:i], xs[i+1:]...)
		}
	}
	return xs
}

func appendUnique(xs []int, v int) []int {
	for _, x := range xs {
		if x == v {
			return xs
		}
	}
	return append(xs, v)
}
