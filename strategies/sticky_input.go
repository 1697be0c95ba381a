package strategies

import (
	"slices"
	"sort"
)

// stickyInput is a Group turned into the int-indexed form the sticky
// assignors work on. Members keep their input index; partitions get a
// partition id (pid) in (topic, partition) order over Kafka's
// partitionsPerTopic: the topics some member subscribes to that have at
// least one partition (AbstractPartitionAssignor.assign skips the others).
type stickyInput struct {
	members []Member // input order = the order the leader put them in its HashMap
	ids     []string
	gen     []int32 // generation; any negative value is "none" (-1)

	// order is the iteration order of Kafka's member-id HashMap
	// (ConsumerCoordinator.onLeaderElected puts members in JoinGroup order).
	order []int

	topics     []string       // partitionsPerTopic, in Java String order
	topicIndex map[string]int // topic name -> index in topics
	base       []int32        // first pid of each topic
	counts     []int32        // partitions per topic
	topicOf    []int32        // pid -> topic index
	numP       int

	// subscribed[m] lists the member's topics (indices) that are in
	// partitionsPerTopic, subBits[m] the same as a bitset; subAll[m] is its
	// whole subscription (topics without partitions too), subCount[m] its size.
	// listed[m] is the length of its topic list as given, repeats included,
	// and repeats[m] the repeated entries that are in partitionsPerTopic
	// (AbstractStickyAssignor reads the list, not a set: see sameSubscription).
	subscribed [][]int
	subBits    []bitset
	subAll     []bitset
	subCount   []int
	listed     []int
	repeats    [][]int

	// rawOwned[m] is what the member reports owning, as pids, keeping only
	// partitions of topics in partitionsPerTopic (Kafka drops the others
	// everywhere it looks at them), in report order.
	rawOwned [][]int32

	racks stickyRacks
}

type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i/64] |= 1 << (uint(i) % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }

func bitsetBytes(b bitset) []byte {
	out := make([]byte, 0, len(b)*8)
	for _, w := range b {
		for i := 0; i < 8; i++ {
			out = append(out, byte(w>>(8*i)))
		}
	}
	return out
}

func newStickyInput(g Group) *stickyInput {
	n := len(g.Members)
	in := &stickyInput{
		members: append([]Member(nil), g.Members...),
		ids:     make([]string, n),
		gen:     make([]int32, n),
	}
	for i, m := range g.Members {
		in.ids[i] = m.ID
		in.gen[i] = m.Generation
		if in.gen[i] < 0 {
			in.gen[i] = NoGeneration
		}
	}
	in.order = javaHashMapOrder(in.ids)
	names, perMember := nameTopics(g.Members)
	remap := in.indexTopics(g, names)
	in.indexSubscriptions(len(names), remap, perMember)
	in.indexOwned()
	in.racks = newStickyRacks(g, in)
	return in
}

// nameTopics numbers every topic any member names, in the order first
// named, and lists each member's topics by that number. One map, one pass:
// this runs on every assignment, and at workshop size the conversion costs
// more than the assignment itself.
func nameTopics(members []Member) ([]string, [][]int32) {
	named := make(map[string]int32)
	var names []string
	perMember := make([][]int32, len(members))
	for i, m := range members {
		if i > 0 && slices.Equal(m.Topics, members[i-1].Topics) {
			// The same list as the member before (a group mostly shares
			// one): the same ids, and indexSubscriptions reuses its sets.
			perMember[i] = perMember[i-1]
			continue
		}
		ids := make([]int32, 0, len(m.Topics))
		for _, t := range m.Topics {
			id, ok := named[t]
			if !ok {
				id = int32(len(names))
				named[t] = id
				names = append(names, t)
			}
			ids = append(ids, id)
		}
		perMember[i] = ids
	}
	return names, perMember
}

// indexTopics builds partitionsPerTopic: the named topics with at least one
// partition, in Java String order. It returns, per named topic, its index
// there, or -1.
func (in *stickyInput) indexTopics(g Group, names []string) []int {
	used := make([]string, 0, len(names))
	for _, t := range names {
		if g.Topics[t] > 0 {
			used = append(used, t)
		}
	}
	sort.Slice(used, func(i, j int) bool { return JavaLess(used[i], used[j]) })
	in.topics = used
	in.topicIndex = make(map[string]int, len(used))
	in.base = make([]int32, len(used))
	in.counts = make([]int32, len(used))
	for i, t := range used {
		in.topicIndex[t] = i
		in.base[i] = int32(in.numP)
		in.counts[i] = g.Topics[t]
		in.numP += int(g.Topics[t])
	}
	in.topicOf = make([]int32, in.numP)
	for i := range in.topics {
		for p := int32(0); p < in.counts[i]; p++ {
			in.topicOf[in.base[i]+p] = int32(i)
		}
	}
	remap := make([]int, len(names))
	for k, t := range names {
		remap[k] = -1
		if i, ok := in.topicIndex[t]; ok {
			remap[k] = i
		}
	}
	return remap
}

// indexSubscriptions turns each member's topic list into bitsets: over every
// topic it names (its raw subscription, for allSubscriptionsEqual) and over
// partitionsPerTopic. A real consumer sends its subscription from a Set, but
// the assignor takes a List (Kafka's own tests repeat topics in it), so a
// repeat is kept aside in repeats: the sets count it once, the list twice.
func (in *stickyInput) indexSubscriptions(numNamed int, remap []int, perMember [][]int32) {
	n := len(in.members)
	in.subscribed = make([][]int, n)
	in.subAll = make([]bitset, n)
	in.subBits = make([]bitset, n)
	in.subCount = make([]int, n)
	in.listed = make([]int, n)
	in.repeats = make([][]int, n)
	for i, ids := range perMember {
		if i > 0 && len(ids) > 0 && len(ids) == len(perMember[i-1]) && &ids[0] == &perMember[i-1][0] {
			// nameTopics found the same list as the member before's:
			// share its sets (read-only from here on).
			in.listed[i], in.subCount[i], in.repeats[i] = in.listed[i-1], in.subCount[i-1], in.repeats[i-1]
			in.subscribed[i], in.subAll[i], in.subBits[i] = in.subscribed[i-1], in.subAll[i-1], in.subBits[i-1]
			continue
		}
		in.listed[i] = len(ids)
		all, usedBits := newBitset(numNamed), newBitset(len(in.topics))
		for _, id := range ids {
			if all.has(int(id)) {
				if ti := remap[id]; ti >= 0 {
					in.repeats[i] = append(in.repeats[i], ti)
				}
				continue
			}
			all.set(int(id))
			in.subCount[i]++
			if ti := remap[id]; ti >= 0 {
				usedBits.set(ti)
				in.subscribed[i] = append(in.subscribed[i], ti)
			}
		}
		sort.Ints(in.subscribed[i])
		in.subAll[i], in.subBits[i] = all, usedBits
	}
}

// subscribes reports whether member m subscribes to topic t (an index into topics).
func (in *stickyInput) subscribes(m int, t int32) bool { return in.subBits[m].has(int(t)) }

// sameSubscription is allSubscriptionsEqual's test of member m against the
// set of the first member's topics: m's list has as many entries as that set
// and names only topics in it. Without repeats this is set equality; with
// them Kafka counts the list, so [a, a] equals {a, b} and [a, a] differs
// from {a}.
func (in *stickyInput) sameSubscription(first, m int) bool {
	if in.listed[m] != in.subCount[first] {
		return false
	}
	if in.listed[m] == in.subCount[m] {
		return slices.Equal(in.subAll[first], in.subAll[m])
	}
	for w, bits := range in.subAll[m] {
		if bits&^in.subAll[first][w] != 0 {
			return false
		}
	}
	return true
}

func (in *stickyInput) indexOwned() {
	in.rawOwned = make([][]int32, len(in.members))
	for i, m := range in.members {
		in.rawOwned[i] = make([]int32, 0, len(m.Owned))
		for _, tp := range m.Owned {
			ti, ok := in.topicIndex[tp.Topic]
			if !ok || tp.Partition < 0 || tp.Partition >= in.counts[ti] {
				continue
			}
			in.rawOwned[i] = append(in.rawOwned[i], in.base[ti]+tp.Partition)
		}
	}
}

func (in *stickyInput) tp(pid int32) TopicPartition {
	t := in.topicOf[pid]
	return TopicPartition{Topic: in.topics[t], Partition: pid - in.base[t]}
}

// tpHash is Kafka's TopicPartition.hashCode: 31·(31 + partition) + topic.hashCode().
func (in *stickyInput) tpHash(pid int32, topicHash []int32) int32 {
	t := in.topicOf[pid]
	return 31*(31+(pid-in.base[t])) + topicHash[t]
}

func (in *stickyInput) topicHashes() []int32 {
	out := make([]int32, len(in.topics))
	for i, t := range in.topics {
		out[i] = JavaHashCode(t)
	}
	return out
}

// result turns per-member pid lists into an Assignment. Sorting pids sorts
// by (topic, partition), so each topic's run is already ascending; all runs
// share one backing array.
func (in *stickyInput) result(lists [][]int32) Assignment {
	a := make(Assignment, len(in.members))
	total := 0
	for _, ps := range lists {
		total += len(ps)
	}
	backing := make([]int32, 0, total)
	for m, id := range in.ids {
		topics := map[string][]int32{}
		a[id] = topics
		if m >= len(lists) || len(lists[m]) == 0 {
			continue
		}
		ps := lists[m]
		slices.Sort(ps)
		runs := 1
		for i := 1; i < len(ps); i++ {
			if in.topicOf[ps[i]] != in.topicOf[ps[i-1]] {
				runs++
			}
		}
		topics = make(map[string][]int32, runs)
		a[id] = topics
		for i := 0; i < len(ps); {
			t := in.topicOf[ps[i]]
			start := len(backing)
			for ; i < len(ps) && in.topicOf[ps[i]] == t; i++ {
				backing = append(backing, ps[i]-in.base[t])
			}
			topics[in.topics[t]] = backing[start:len(backing):len(backing)]
		}
	}
	return a
}
