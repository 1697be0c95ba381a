package strategies

import "slices"

// The KIP-848 group coordinator hands its assignors the members as the key
// set of a java.util.HashMap<String, …> (TargetAssignmentBuilder.build fills
// one with a put per member; GroupSpecImpl.memberIds returns its keySet).
// Which member comes first decides who gets the extra partitions of a fresh
// assignment, so kviz reproduces that order instead of sorting by id.
//
// The order is JavaHashMap's (javahashmap.go) for puts in some order. Keys
// sharing a bucket come in insertion order, which follows the coordinator's
// own TimelineHashMap of members and is not reproducible: kviz takes member
// id order (Java String order) for it, both for the ties and for the puts.

// memberOrder is serverMemberOrder in sc's memory; the order is valid until
// sc is used again.
func (sc *uniformScratch) memberOrder(members []Member) ([]int, int) {
	order := serverGrow(&sc.byID, len(members))
	for i := range order {
		order[i] = i
	}
	capacity, fixed := javaLoadCapacity(javaInitialCapacity, len(members))
	if !fixed {
		return sc.memberOrderByPuts(members)
	}
	// The capacity does not depend on the order of the puts here, so sorting
	// by (bucket, id) gives the same order as id order then a stable sort by
	// bucket, when ids are distinct. A counting sort by bucket first (no
	// comparisons: this runs on every epoch bump), then each bucket's few
	// members in id order.
	bucket := serverGrow(&sc.bucket, len(members))
	start := serverFilled(&sc.bucketStart, capacity+1, 0)
	for i, m := range members {
		bucket[i] = javaHashMapBucket(m.ID, capacity)
		start[bucket[i]+1]++
	}
	for b := 1; b <= capacity; b++ {
		start[b] += start[b-1]
	}
	for i, b := range bucket {
		order[start[b]] = i
		start[b]++
	}
	for from := 0; from < len(order); {
		to := from + 1
		for to < len(order) && bucket[order[to]] == bucket[order[from]] {
			to++
		}
		if to-from > 1 {
			slices.SortFunc(order[from:to], func(a, b int) int { return JavaCompare(members[a].ID, members[b].ID) })
		}
		from = to
	}
	if serverAdjacentDuplicateID(members, order) {
		for i := range order {
			order[i] = i
		}
		return sc.memberOrderByPuts(members)
	}
	return order, capacity
}

// memberOrderByPuts replays the puts in id order, for small groups (where
// treeifyBin can grow the table) and for ids listed twice (where the sorts'
// tie order is part of the answer).
func (sc *uniformScratch) memberOrderByPuts(members []Member) ([]int, int) {
	byID := sc.byID
	slices.SortFunc(byID, func(a, b int) int { return JavaCompare(members[a].ID, members[b].ID) })
	spread := serverGrow(&sc.spread, len(members))
	for k, i := range byID {
		spread[k] = javaSpread(JavaHashCode(members[i].ID))
	}
	capacity := javaCapacityAfter(javaInitialCapacity, len(spread), func(k int) uint32 { return spread[k] })
	bucket := serverGrow(&sc.bucket, len(members))
	for k, i := range byID {
		bucket[i] = int(spread[k] & uint32(capacity-1))
	}
	// A stable sort of the id-ordered list by bucket keeps id order inside a bucket.
	slices.SortStableFunc(byID, func(a, b int) int { return bucket[a] - bucket[b] })
	return byID, capacity
}

// serverAdjacentDuplicateID reports whether two members next to each other in
// order share an id (input that failed Validate, which Assign still answers
// without panicking). Sorted by (bucket, id), equal ids are neighbours.
func serverAdjacentDuplicateID(members []Member, order []int) bool {
	for k := 1; k < len(order); k++ {
		if members[order[k-1]].ID == members[order[k]].ID {
			return true
		}
	}
	return false
}

// The coordinator rebuilds each member's target from its record as
// new HashSet<>(partitionList) (Assignment.fromRecord), and the homogeneous
// builder keeps a member's partitions in that set's iteration order when it
// must trim to quota. Such a set starts with a table of
// tableSizeFor(max((int)(n/.75f)+1, 16)) buckets, which only treeifyBin can
// grow (nine partitions sharing a bucket of a table below 64); partition p
// sits in bucket (p ^ p>>>16) & (size-1). So {3, 17} iterates 17 first
// (bucket 1) and 3 second: not simply ascending. Partitions sharing a bucket
// come in list order, which kviz takes as ascending.

// javaHashSetTable is the table size new HashSet<>(c) starts with for a
// collection of n.
func javaHashSetTable(n int) int {
	want := max(int(float32(n)/0.75)+1, 16)
	c := 1
	for c < want && c < 1<<30 {
		c <<= 1
	}
	return c
}

// javaHashSetTrimInto splits flat partitions (ascending) the way a member
// trims its target to keep of them: it returns them reordered so that
// [keep:] is the tail of javaHashSetOrder — the partitions given up, in
// Kafka's order — and [:keep] the partitions kept, in no particular order.
// The result lives in out's memory.
//
// Only the tail's order matters, and a member usually gives up a few
// partitions of many, so the tail is picked without sorting the rest:
// within a topic the hash keys of ascending partitions form a few ascending
// segments (one per multiple of the table size the partitions cross), and
// the largest keys are at their ends.
func (s *serverSpec) javaHashSetTrimInto(flat []int, keep int, out *[]int) []int {
	sc := s.sc
	res := serverGrow(out, len(flat))
	keys := serverGrow(&sc.trimKeys, len(flat))
	front, back := 0, len(flat) // kept fill res[:front], given up res[back:]
	for end := len(flat); end > 0; {
		t := s.topicOf(flat[end-1])
		start := end
		for start > 0 && flat[start-1] >= s.base[t] {
			start--
		}
		n, give := end-start, back-keep
		switch {
		case give <= 0:
			front += copy(res[front:], flat[start:end])
		case give >= n:
			s.hashSetKeys(flat[start:end], t, keys[start:end])
			slices.Sort(keys[start:end])
			back -= n
			s.fromHashSetKeys(keys[start:end], t, res[back:back+n])
		default:
			s.hashSetKeys(flat[start:end], t, keys[start:end])
			kept := serverTrimTail(keys[start:end], give, sc)
			back -= give
			s.fromHashSetKeys(keys[start+kept:end], t, res[back:back+give])
			s.fromHashSetKeys(keys[start:start+kept], t, res[front:front+kept])
			front += kept
		}
		end = start
	}
	return res
}

// hashSetKeys writes the sort key bucket<<32 | partition of each of topic
// t's flat partitions (ascending) in a HashSet holding just them.
func (s *serverSpec) hashSetKeys(flat []int, t int, keys []uint64) {
	base := s.base[t]
	spread := func(i int) uint32 { return javaSpread(int32(flat[i] - base)) } // Integer.hashCode() is the value
	mask := uint32(javaCapacityAfter(javaHashSetTable(len(flat)), len(flat), spread) - 1)
	for i, f := range flat {
		keys[i] = uint64(spread(i)&mask)<<32 | uint64(f-base)
	}
}

// fromHashSetKeys turns topic t's sort keys back into flat partitions, into out.
func (s *serverSpec) fromHashSetKeys(keys []uint64, t int, out []int) []int {
	base := s.base[t]
	for i, k := range keys {
		out[i] = base + int(uint32(k))
	}
	return out
}

// serverTrimTail reorders keys (distinct) so that its last give elements are
// its largest, ascending, and returns how many come before them. It picks
// from the ends of keys' ascending segments while there are few, and sorts
// otherwise. sc lends the working memory.
func serverTrimTail(keys []uint64, give int, sc *uniformScratch) int {
	// bounds[j] is where segment j starts; tails[j] how far it is unpicked.
	bounds := append(sc.trimSegs[:0], 0)
	for i := 1; i < len(keys); i++ {
		if keys[i] < keys[i-1] {
			bounds = append(bounds, i)
		}
	}
	segs := len(bounds)
	bounds = append(bounds, len(keys))
	sc.trimSegs = bounds
	if segs*give > 4*len(keys) {
		slices.Sort(keys)
		return len(keys) - give
	}
	tails := append(sc.trimTails[:0], bounds[1:]...)
	sc.trimTails = tails
	picked := serverGrow(&sc.trimPicked, give) // largest first
	for n := range picked {
		best := -1
		for j, tail := range tails {
			if tail > bounds[j] && (best < 0 || keys[tail-1] > keys[tails[best]-1]) {
				best = j
			}
		}
		tails[best]--
		picked[n] = keys[tails[best]]
	}
	kept := 0
	for j, tail := range tails {
		kept += copy(keys[kept:], keys[bounds[j]:tail])
	}
	for n, k := range picked {
		keys[len(keys)-1-n] = k
	}
	return kept
}
