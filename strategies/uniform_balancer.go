package strategies

import "slices"

// uniformBalancer is Kafka's MemberAssignmentBalancer (inside
// UniformHeterogeneousAssignmentBuilder, KAFKA-17710): the subscribers of one
// topic sorted by load, with a "least loaded" range growing rightwards that
// receives partitions round-robin, and a "most loaded" range growing leftwards
// that gives them up. It reads the live load of every member from sizes, which
// the builder changes as partitions move, exactly as Kafka's shared int[] does.
type uniformBalancer struct {
	sizes  []int32 // partitions per member, owned by the builder
	sorted []int32 // the topic's subscribers by (load, member index)

	leastEnd   int   // least loaded range is sorted[0:leastEnd]
	leastCount int32 // load of that range before this round
	nextLeast  int   // next position in it to receive a partition

	mostStart int   // most loaded range is sorted[mostStart:mostEnd]
	mostEnd   int   // members past it have nothing left to give
	mostCount int32 // load of that range before this round
	nextMost  int   // next position in it to give up a partition
}

// initialize resets the balancer to members (not empty) and returns the
// difference between the most and least loaded of them.
func (b *uniformBalancer) initialize(members []int32) int32 {
	b.sorted = append(b.sorted[:0], members...)
	sizes := b.sizes
	slices.SortFunc(b.sorted, func(x, y int32) int {
		if sizes[x] != sizes[y] {
			return int(sizes[x] - sizes[y])
		}
		return int(x - y)
	})
	n := len(b.sorted)
	first, last := sizes[b.sorted[0]], sizes[b.sorted[n-1]]
	b.leastEnd, b.leastCount, b.nextLeast = 0, first-1, 0
	b.mostStart, b.mostEnd, b.mostCount, b.nextMost = n, n, last+1, n-1
	return last - first
}

// nextLeastLoaded returns the member to receive the next partition. When
// every member of the least loaded range has had one, the range's level goes
// up by one and it takes in the members now level with it.
func (b *uniformBalancer) nextLeastLoaded() int32 {
	if b.nextLeast >= b.leastEnd {
		b.leastCount++
		for b.leastEnd < len(b.sorted) && b.sizes[b.sorted[b.leastEnd]] == b.leastCount {
			b.leastEnd++
		}
		b.nextLeast = 0
	}
	m := b.sorted[b.nextLeast]
	b.nextLeast++
	return m
}

// nextMostLoaded returns the member to give up the next partition, or -1 when
// no member is left that could.
func (b *uniformBalancer) nextMostLoaded() int32 {
	if b.nextMost < b.mostStart {
		if b.mostEnd <= b.mostStart && b.mostStart > 0 {
			// Every member of the range was excluded: restart the level from
			// the next member down so the range is sure to grow.
			b.mostCount = b.sizes[b.sorted[b.mostStart-1]]
		} else {
			b.mostCount--
		}
		for b.mostStart > 0 && b.sizes[b.sorted[b.mostStart-1]] == b.mostCount {
			b.mostStart--
		}
		b.nextMost = b.mostEnd - 1
	}
	if b.nextMost < 0 {
		return -1
	}
	m := b.sorted[b.nextMost]
	b.nextMost--
	return m
}

// excludeMostLoaded drops the member nextMostLoaded just returned from the
// most loaded range: it has no partition of this topic to give.
func (b *uniformBalancer) excludeMostLoaded() {
	i := b.nextMost + 1
	b.sorted[i], b.sorted[b.mostEnd-1] = b.sorted[b.mostEnd-1], b.sorted[i]
	b.mostEnd--
}

// balanced reports whether the two ranges' levels differ by one or less.
func (b *uniformBalancer) balanced() bool { return b.mostCount-b.leastCount <= 1 }
