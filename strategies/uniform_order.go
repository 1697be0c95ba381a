package strategies

import "slices"

// The KIP-848 group coordinator hands its assignors the members as the key
// set of a java.util.HashMap<String, …> (TargetAssignmentBuilder.build fills
// one with a put per member; GroupSpecImpl.memberIds returns its keySet).
// Which member comes first decides who gets the extra partitions of a fresh
// assignment, so kviz reproduces that order instead of sorting by id.
//
// A HashMap iterates its table bucket by bucket. A key's bucket is
// (h ^ h>>>16) & (capacity-1) with h = String.hashCode(). The table starts
// with 16 buckets and doubles when a put makes the map hold more than 3/4 of
// its capacity, or makes one bucket 9 long while the table is below 64
// (treeifyBin grows small tables instead of building a tree). Keys sharing a
// bucket come in insertion order, which follows the coordinator's own
// TimelineHashMap of members and is not reproducible: kviz takes member id
// order (Java String order) for it, both for the ties and for the puts.

// javaHashMapCapacityAfter is the table size after putting keys with the given
// spread hashes (h ^ h>>>16) in this order, counting treeifyBin's growth.
func javaHashMapCapacityAfter(spread []uint32) int {
	c := 16
	inBucket := make([]int, c)
	for n, h := range spread {
		b := int(h & uint32(c-1))
		grow := false
		if inBucket[b] >= 8 && c < 64 {
			c, grow = c*2, true
		}
		inBucket[b]++
		if n+1 > c/4*3 {
			c, grow = c*2, true
		}
		if grow {
			inBucket = make([]int, c)
			for _, h := range spread[:n+1] {
				inBucket[h&uint32(c-1)]++
			}
		}
	}
	return c
}

// javaSpread is HashMap.hash for a String key.
func javaSpread(key string) uint32 {
	h := uint32(JavaHashCode(key))
	return h ^ h>>16
}

// javaHashMapBucket is the table index of key in a HashMap of the given capacity.
func javaHashMapBucket(key string, capacity int) int {
	return int(javaSpread(key) & uint32(capacity-1))
}

// serverMemberOrder returns the indices of members in the order Kafka's group
// coordinator iterates them (see above), and the table size it assumed.
func serverMemberOrder(members []Member) ([]int, int) {
	byID := make([]int, len(members))
	for i := range byID {
		byID[i] = i
	}
	slices.SortFunc(byID, func(a, b int) int { return JavaCompare(members[a].ID, members[b].ID) })
	spread := make([]uint32, len(members))
	for k, i := range byID {
		spread[k] = javaSpread(members[i].ID)
	}
	capacity := javaHashMapCapacityAfter(spread)
	bucket := make([]int, len(members))
	for k, i := range byID {
		bucket[i] = int(spread[k] & uint32(capacity-1))
	}
	// A stable sort of the id-ordered list by bucket keeps id order inside a bucket.
	slices.SortStableFunc(byID, func(a, b int) int { return bucket[a] - bucket[b] })
	return byID, capacity
}

// The coordinator rebuilds each member's target from its record as
// new HashSet<>(partitionList) (Assignment.fromRecord), and the homogeneous
// builder keeps a member's partitions in that set's iteration order when it
// must trim to quota. Such a set has a table of
// tableSizeFor(max((int)(n/.75f)+1, 16)) buckets; partition p sits in bucket
// (p ^ p>>>16) & (size-1). So {3, 17} iterates 17 first (bucket 1) and 3 second:
// not simply ascending. Partitions sharing a bucket come in list order, which
// kviz takes as ascending.

// javaHashSetTable is the table size of new HashSet<>(c) for a collection of n.
func javaHashSetTable(n int) int {
	want := max(int(float32(n)/0.75)+1, 16)
	c := 1
	for c < want && c < 1<<30 {
		c <<= 1
	}
	return c
}

// javaHashSetOrder returns flat partitions (ascending) reordered, topic by
// topic, into the iteration order of the HashSet<Integer> Kafka holds them in.
func (s *serverSpec) javaHashSetOrder(flat []int) []int {
	out := slices.Clone(flat)
	for start := 0; start < len(out); {
		t := s.topicOf(out[start])
		end := start
		for end < len(out) && out[end] < s.base[t]+int(s.parts[t]) {
			end++
		}
		mask := uint32(javaHashSetTable(end-start) - 1)
		base := s.base[t]
		bucket := func(f int) int {
			p := uint32(f - base)
			return int((p ^ p>>16) & mask)
		}
		slices.SortStableFunc(out[start:end], func(a, b int) int { return bucket(a) - bucket(b) })
		start = end
	}
	return out
}
