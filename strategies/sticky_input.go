package strategies

import "sort"

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
	// partitionsPerTopic; subSet[m] is the member's raw subscription, as a set.
	subscribed [][]int
	subSet     []map[string]bool
	subBits    []bitset // subscribed, as a bitset over topic indices

	// rawOwned[m] is what the member reports owning, as pids, keeping only
	// partitions of topics in partitionsPerTopic (Kafka drops the others
	// everywhere it looks at them), in report order.
	rawOwned [][]int32

	racks stickyRacks
}

type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)   { b[i/64] |= 1 << (uint(i) % 64) }

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
	in := &stickyInput{topicIndex: map[string]int{}}
	in.members = make([]Member, len(g.Members))
	in.ids = make([]string, len(g.Members))
	in.gen = make([]int32, len(g.Members))
	used := map[string]bool{}
	for i, m := range g.Members {
		m.Topics = dedupTopics(m.Topics)
		in.members[i] = m
		in.ids[i] = m.ID
		in.gen[i] = m.Generation
		if in.gen[i] < 0 {
			in.gen[i] = NoGeneration
		}
		for _, t := range m.Topics {
			if g.Topics[t] > 0 {
				used[t] = true
			}
		}
	}
	in.order = javaHashMapOrder(in.ids)
	in.topics = SortedTopics(used)
	in.base = make([]int32, len(in.topics))
	in.counts = make([]int32, len(in.topics))
	for i, t := range in.topics {
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
	in.indexSubscriptions()
	in.indexOwned()
	in.racks = newStickyRacks(g, in)
	return in
}

// dedupTopics drops repeated topic names: a Kafka consumer sends its
// subscription from a Set, so a topic can never appear twice.
func dedupTopics(ts []string) []string {
	seen := make(map[string]bool, len(ts))
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func (in *stickyInput) indexSubscriptions() {
	n := len(in.members)
	in.subscribed = make([][]int, n)
	in.subSet = make([]map[string]bool, n)
	in.subBits = make([]bitset, n)
	for i, m := range in.members {
		in.subSet[i] = make(map[string]bool, len(m.Topics))
		in.subBits[i] = newBitset(len(in.topics))
		for _, t := range m.Topics {
			in.subSet[i][t] = true
			if ti, ok := in.topicIndex[t]; ok {
				in.subscribed[i] = append(in.subscribed[i], ti)
				in.subBits[i].set(ti)
			}
		}
		sort.Ints(in.subscribed[i])
	}
}

func (in *stickyInput) indexOwned() {
	in.rawOwned = make([][]int32, len(in.members))
	for i, m := range in.members {
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

// result turns per-member pid lists into an Assignment.
func (in *stickyInput) result(lists [][]int32) Assignment {
	a := NewAssignment(in.members)
	for m, ps := range lists {
		for _, pid := range ps {
			a.Add(in.ids[m], in.tp(pid))
		}
	}
	a.Normalize()
	return a
}
