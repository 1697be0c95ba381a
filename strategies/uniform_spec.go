package strategies

import "slices"

// serverSpec is a group as the KIP-848 uniform assignor sees it (Kafka's
// GroupSpec plus SubscribedTopicDescriber), turned into integers so the hot
// loops index slices instead of hashing strings.
//
// Partitions are numbered flat: partition p of topic t is base[t]+p. Topics
// are in Java String order of their names (Kafka iterates random topic
// UUIDs, which cannot be reproduced).
type serverSpec struct {
	topics []string // every topic of the group, Java String order
	parts  []int32  // partition count per topic
	base   []int    // flat index of each topic's partition 0
	total  int      // number of partitions in all topics

	members []Member  // in the coordinator's HashMap order (serverMemberOrder)
	subs    [][]int32 // per member: subscribed topics, ascending, without duplicates

	// claims holds, per member, the flat partitions of its current target
	// (Member.Owned) that it may keep: in a subscribed topic, not listed twice,
	// not claimed by an earlier member. Ascending.
	claims [][]int
	// claimedBy is the member index holding each flat partition's claim, -1 if none.
	claimedBy []int32
	// dropped lists, per member, the owned partitions of topics it no longer
	// subscribes to: Kafka removes those topics from its target.
	dropped [][]TopicPartition
	// conflicts lists owned partitions also claimed by an earlier member. A
	// real target assignment never holds one partition twice; kviz lets the
	// first member in order keep it.
	conflicts []serverConflict

	sc *uniformScratch // working memory of this call
}

type serverConflict struct {
	tp     TopicPartition
	keeper string
	loser  string
}

// newServerSpec builds the spec for g (which passed Validate), with members
// in the given order.
func newServerSpec(g Group, order []int) *serverSpec {
	return newServerSpecIn(g, order, new(uniformScratch))
}

// newServerSpecIn is newServerSpec working in sc's memory: the spec is valid
// until sc is used again.
func newServerSpecIn(g Group, order []int, sc *uniformScratch) *serverSpec {
	s := &serverSpec{topics: SortedTopics(g.Topics), sc: sc}
	index := make(map[string]int32, len(s.topics))
	s.parts = make([]int32, len(s.topics))
	s.base = make([]int, len(s.topics))
	for t, name := range s.topics {
		index[name] = int32(t)
		s.parts[t] = g.Topics[name]
		s.base[t] = s.total
		s.total += int(g.Topics[name])
	}
	s.members = srvGrow(&sc.members, len(order))
	for i, k := range order {
		s.members[i] = g.Members[k]
	}
	s.subs = srvSubscriptionIndicesInto(s.members, index, srvGrow(&sc.subs, len(order)))
	s.readClaims(index)
	return s
}

// srvSubscriptionIndices maps each member's subscription to topic indices.
// Members usually share a subscription: a member whose topic list equals the
// previous one's reuses its indices (read-only) instead of hashing every name.
func srvSubscriptionIndices(members []Member, index map[string]int32) [][]int32 {
	return srvSubscriptionIndicesInto(members, index, make([][]int32, len(members)))
}

// srvSubscriptionIndicesInto is srvSubscriptionIndices filling out (one
// entry per member).
func srvSubscriptionIndicesInto(members []Member, index map[string]int32, out [][]int32) [][]int32 {
	for i, m := range members {
		if i > 0 && slices.Equal(m.Topics, members[i-1].Topics) {
			out[i] = out[i-1]
			continue
		}
		out[i] = srvTopicIndices(m.Topics, index)
	}
	return out
}

// srvTopicIndices maps topic names to sorted, distinct topic indices. A
// subscription is a set in Kafka; a name listed twice counts once.
func srvTopicIndices(names []string, index map[string]int32) []int32 {
	out := make([]int32, 0, len(names))
	for _, n := range names {
		if t, ok := index[n]; ok {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// readClaims fills claims, claimedBy, dropped and conflicts from Member.Owned.
// All claims share one backing array: a member claims at most what it owns.
func (s *serverSpec) readClaims(index map[string]int32) {
	owned := 0
	for _, m := range s.members {
		owned += len(m.Owned)
	}
	buf := srvGrow(&s.sc.claimBuf, owned)
	s.claims = srvGrow(&s.sc.claims, len(s.members))
	s.claimedBy = srvFilled(&s.sc.claimedBy, s.total, -1)
	subscribed := make([]bool, len(s.topics))
	for i, m := range s.members {
		for _, t := range s.subs[i] {
			subscribed[t] = true
		}
		claims := buf[:0:len(m.Owned)]
		buf = buf[len(m.Owned):]
		lastName, last := "", int32(-1)
		for _, tp := range m.Owned {
			// Owned lists usually run topic by topic: skip the map lookup
			// while the topic stays the same.
			if last < 0 || tp.Topic != lastName {
				t, known := index[tp.Topic]
				if !known {
					t = -1
				}
				lastName, last = tp.Topic, t
			}
			if last < 0 || tp.Partition < 0 || tp.Partition >= s.parts[last] || !subscribed[last] {
				// Unknown partitions cannot pass Validate; drop them rather than panic.
				s.drop(i, tp)
				continue
			}
			f := s.base[last] + int(tp.Partition)
			switch holder := s.claimedBy[f]; {
			case holder < 0:
				s.claimedBy[f] = int32(i)
				claims = append(claims, f)
			case holder != int32(i):
				s.conflicts = append(s.conflicts, serverConflict{tp, s.members[holder].ID, m.ID})
			}
		}
		if !slices.IsSorted(claims) {
			slices.Sort(claims)
		}
		s.claims[i] = claims
		for _, t := range s.subs[i] {
			subscribed[t] = false
		}
	}
}

// drop records that member i loses tp from its target. The list of lists is
// made on the first drop: most calls have none.
func (s *serverSpec) drop(i int, tp TopicPartition) {
	if s.dropped == nil {
		s.dropped = make([][]TopicPartition, len(s.members))
	}
	s.dropped[i] = append(s.dropped[i], tp)
}

// droppedBy returns the partitions member i lost with topics it left.
func (s *serverSpec) droppedBy(i int) []TopicPartition {
	if s.dropped == nil {
		return nil
	}
	return s.dropped[i]
}

// topicOf returns the topic index holding flat partition f.
func (s *serverSpec) topicOf(f int) int {
	t, found := slices.BinarySearch(s.base, f)
	if !found {
		t--
	}
	// Topics without partitions share their base with the next topic.
	for t+1 < len(s.base) && s.base[t+1] == f {
		t++
	}
	return t
}

// tp names flat partition f.
func (s *serverSpec) tp(f int) TopicPartition {
	t := s.topicOf(f)
	return TopicPartition{s.topics[t], int32(f - s.base[t])}
}

// homogeneous reports whether every member subscribes to the same topics
// (Kafka's SubscriptionType.HOMOGENEOUS: each subscribed topic has as many
// subscribers as the group has members).
func (s *serverSpec) homogeneous() bool {
	for i := 1; i < len(s.subs); i++ {
		if !slices.Equal(s.subs[i], s.subs[0]) {
			return false
		}
	}
	return true
}

// assignment turns owner (member index per flat partition, -1 = nobody) into
// an Assignment. All partitions share one backing array; each member's run of
// a topic is capped so an append cannot spill into the next one. The runs are
// found in one pass over the partitions and put in the maps member by member,
// which keeps each map's memory hot (the 1M-partition case has 1M runs).
func (s *serverSpec) assignment(owner []int32) Assignment {
	count, segments := s.countRuns(owner)
	buf, segTopic, segEnd, firstSeg, segCursor := s.layoutRuns(owner, count, segments, nil)
	a := make(Assignment, len(s.members))
	start := 0
	for m, member := range s.members {
		mine := make(map[string][]int32, segments[m])
		for k := firstSeg[m]; k < segCursor[m]; k++ {
			mine[s.topics[segTopic[k]]] = buf[start:segEnd[k]:segEnd[k]]
			start = segEnd[k]
		}
		a[member.ID] = mine
	}
	return a
}

// layoutRuns writes every member's partitions into one buffer, member by
// member and topic by topic (partitions ascending): member m's k-th topic
// segment, for k in [firstSeg[m], segCursor[m]), is topic segTopic[k] with
// partitions buf[previous segEnd:segEnd[k]]. A nil into allocates the
// buffer (it is returned to the caller); otherwise into's memory is used.
func (s *serverSpec) layoutRuns(owner []int32, count, segments []int, into *[]int32) (buf, segTopic []int32, segEnd, firstSeg, segCursor []int) {
	sc := s.sc
	cursor := srvPrefixSums(count, &sc.cursor)
	segCursor = srvPrefixSums(segments, &sc.segCursor)
	firstSeg = srvGrow(&sc.firstSeg, len(segCursor))
	copy(firstSeg, segCursor)
	n := cursor[len(cursor)-1] + count[len(count)-1]
	if into == nil {
		buf = make([]int32, n)
	} else {
		buf = srvGrow(into, n)
	}
	nSegs := segCursor[len(segCursor)-1] + segments[len(segments)-1]
	segTopic, segEnd = srvGrow(&sc.segTopic, nSegs), srvGrow(&sc.segEnd, nSegs)
	lastTopic := srvFilled(&sc.lastTopic, len(s.members), -1)
	for t := range s.topics {
		base := s.base[t]
		s.forEachRun(owner, t, func(m int32, from, to int) {
			if lastTopic[m] != int32(t) {
				lastTopic[m] = int32(t)
				segTopic[segCursor[m]] = int32(t)
				segCursor[m]++
			}
			c := cursor[m]
			for f := from; f < to; f++ {
				buf[c] = int32(f - base)
				c++
			}
			cursor[m] = c
			segEnd[segCursor[m]-1] = c
		})
	}
	return buf, segTopic, segEnd, firstSeg, segCursor
}

// srvPrefixSums returns the exclusive prefix sums of xs (xs must not be
// empty), in buf's memory.
func srvPrefixSums(xs []int, buf *[]int) []int {
	out := srvGrow(buf, len(xs))
	out[0] = 0
	for i := 1; i < len(xs); i++ {
		out[i] = out[i-1] + xs[i-1]
	}
	return out
}

// countRuns returns, per member, how many partitions it owns and in how many
// topics, so assignment can size everything once.
func (s *serverSpec) countRuns(owner []int32) (count, topics []int) {
	count = srvFilled(&s.sc.count, len(s.members), 0)
	topics = srvFilled(&s.sc.segments, len(s.members), 0)
	lastTopic := srvFilled(&s.sc.lastTopic, len(s.members), -1)
	for t := range s.topics {
		s.forEachRun(owner, t, func(m int32, from, to int) {
			count[m] += to - from
			if lastTopic[m] != int32(t) {
				lastTopic[m] = int32(t)
				topics[m]++
			}
		})
	}
	return count, topics
}

// forEachRun calls fn for each run of topic t's flat partitions [from, to)
// with the same owner m, skipping unowned ones. Owners mostly hold long runs,
// so this touches each member's counters once per run, not per partition.
func (s *serverSpec) forEachRun(owner []int32, t int, fn func(m int32, from, to int)) {
	end := s.base[t] + int(s.parts[t])
	for f := s.base[t]; f < end; {
		m, from := owner[f], f
		for f < end && owner[f] == m {
			f++
		}
		if m >= 0 {
			fn(m, from, f)
		}
	}
}
