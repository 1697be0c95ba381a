package strategies

import (
	"slices"
	"unsafe"
)

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
	// missingDiffer: members name different topics that do not exist. The
	// assignor never sees those, but the group counts them when it decides
	// whether subscriptions are homogeneous (ModernGroup.subscriptionType).
	missingDiffer bool

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
	s.members = serverGrow(&sc.members, len(order))
	for i, k := range order {
		s.members[i] = g.Members[k]
	}
	s.subs = serverSubscriptionIndicesInto(s.members, index, serverGrow(&sc.subs, len(order)))
	s.missingDiffer = missingNamesDiffer(s.members, index)
	s.readClaims(index)
	return s
}

// missingNamesDiffer reports whether two members name different sets of
// topics that are not in index. Members sharing one topic list are compared
// once.
func missingNamesDiffer(members []Member, index map[string]int32) bool {
	var first []string
	for i, m := range members {
		if i > 0 && slices.Equal(m.Topics, members[i-1].Topics) {
			continue
		}
		var missing []string
		for _, t := range m.Topics {
			if _, ok := index[t]; !ok {
				missing = append(missing, t)
			}
		}
		slices.Sort(missing)
		missing = slices.Compact(missing)
		if i == 0 {
			first = missing
		} else if !slices.Equal(first, missing) {
			return true
		}
	}
	return false
}

// serverSubscriptionIndices maps each member's subscription to topic indices.
// Members usually share a subscription: a member whose topic list equals the
// previous one's reuses its indices (read-only) instead of hashing every name.
func serverSubscriptionIndices(members []Member, index map[string]int32) [][]int32 {
	return serverSubscriptionIndicesInto(members, index, make([][]int32, len(members)))
}

// serverSubscriptionIndicesInto is serverSubscriptionIndices filling out (one
// entry per member).
func serverSubscriptionIndicesInto(members []Member, index map[string]int32, out [][]int32) [][]int32 {
	for i, m := range members {
		if i > 0 && slices.Equal(m.Topics, members[i-1].Topics) {
			out[i] = out[i-1]
			continue
		}
		out[i] = serverTopicIndices(m.Topics, index)
	}
	return out
}

// serverTopicIndices maps topic names to sorted, distinct topic indices. A
// subscription is a set in Kafka; a name listed twice counts once.
func serverTopicIndices(names []string, index map[string]int32) []int32 {
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
	buf := serverGrow(&s.sc.claimBuf, owned)
	s.claims = serverGrow(&s.sc.claims, len(s.members))
	s.claimedBy = serverFilled(&s.sc.claimedBy, s.total, -1)
	subscribed := make([]bool, len(s.topics))
	// The topic looked up last: members of one topic (7,000 of them,
	// re-read at every join) name it alike, and a hash per member was
	// most of a join's cost.
	lastName, lastT, lastKnown, looked := "", int32(0), false, false
	for i, m := range s.members {
		for _, t := range s.subs[i] {
			subscribed[t] = true
		}
		claims := buf[:0:len(m.Owned)]
		buf = buf[len(m.Owned):]
		// Owned lists run topic by topic: one lookup per topic, then a
		// tight loop over its partitions.
		for k := 0; k < len(m.Owned); {
			name := m.Owned[k].Topic
			if !looked || name != lastName {
				lastT, lastKnown = index[name]
				lastName, looked = name, true
			}
			t, known := lastT, lastKnown
			if !known || !subscribed[t] {
				for ; k < len(m.Owned) && serverSameString(m.Owned[k].Topic, name); k++ {
					s.drop(i, m.Owned[k]) // a topic it left
				}
				continue
			}
			var run int
			claims, run = s.claimRun(i, m.Owned[k:], t, claims)
			k += run
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

// claimRun reads member i's owned partitions of topic t, the leading run of
// owned, into claims, and returns them and the run's length. The usual
// partition (valid, unclaimed) takes the tight loop of claimFast; the rest
// come one at a time.
func (s *serverSpec) claimRun(i int, owned []TopicPartition, t int32, claims []int) ([]int, int) {
	name := owned[0].Topic
	k := 0
	for {
		var n int
		claims, n = s.claimFast(int32(i), owned[k:], name, t, claims)
		k += n
		if k == len(owned) || !serverSameString(owned[k].Topic, name) {
			return claims, k
		}
		claims = s.claimOne(i, owned[k], t, claims)
		k++
	}
}

// claimFast claims the leading partitions of owned that name topic t with
// the very string name, exist and nobody has claimed, and stops at the
// first other one. Kept small so the compiler keeps it in registers: it
// runs for every partition of every member on every heartbeat that bumps
// the epoch.
func (s *serverSpec) claimFast(me int32, owned []TopicPartition, name string, t int32, claims []int) ([]int, int) {
	base, count, claimedBy := s.base[t], uint32(s.parts[t]), s.claimedBy
	namePtr, nameLen := unsafe.StringData(name), len(name)
	for k := range owned {
		tp := &owned[k]
		if unsafe.StringData(tp.Topic) != namePtr || len(tp.Topic) != nameLen || uint32(tp.Partition) >= count {
			return claims, k
		}
		f := base + int(tp.Partition)
		if claimedBy[f] >= 0 {
			return claims, k
		}
		claimedBy[f] = me
		claims = append(claims, f)
	}
	return claims, len(owned)
}

// claimOne reads one owned partition of topic t that claimFast left.
func (s *serverSpec) claimOne(i int, tp TopicPartition, t int32, claims []int) []int {
	if tp.Partition < 0 || tp.Partition >= s.parts[t] {
		s.drop(i, tp) // cannot pass Validate; dropped rather than panic
		return claims
	}
	f := s.base[t] + int(tp.Partition)
	switch holder := s.claimedBy[f]; {
	case holder < 0:
		s.claimedBy[f] = int32(i)
		claims = append(claims, f)
	case holder != int32(i): // holder == i: listed twice, counts once
		s.conflicts = append(s.conflicts, serverConflict{tp, s.members[holder].ID, s.members[i].ID})
	}
	return claims
}

// serverSameString is a == b, answering at once for the usual case of one
// string shared by every partition of a topic.
func serverSameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
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
func (s *serverSpec) topicOf(f int) int { return flatTopic(s.base, f) }

// flatTopic is the topic holding flat partition f, given where each
// topic's partition 0 is (ascending).
func flatTopic[T int | int32](base []T, f T) int {
	t, found := slices.BinarySearch(base, f)
	if !found {
		t--
	}
	// Topics without partitions share their base with the next topic.
	for t+1 < len(base) && base[t+1] == f {
		t++
	}
	return t
}

// homogeneous reports whether every member subscribes to the same topics
// (Kafka's SubscriptionType.HOMOGENEOUS: each subscribed topic name, existing
// or not, has as many subscribers as the group has members).
func (s *serverSpec) homogeneous() bool { return sameSubscriptions(s.subs, s.missingDiffer) }

// sameSubscriptions is SubscriptionType.HOMOGENEOUS for members subscribing
// to the existing topics subs (serverSubscriptionIndices) whose names of
// topics that do not exist differ when missingDiffer (missingNamesDiffer).
func sameSubscriptions(subs [][]int32, missingDiffer bool) bool {
	if missingDiffer {
		return false
	}
	for i := 1; i < len(subs); i++ {
		if !slices.Equal(subs[i], subs[0]) {
			return false
		}
	}
	return true
}

// assignment turns owner (member index per flat partition, -1 = nobody) into
// an Assignment. All partitions share one backing array; each member's list
// of a topic is capped so an append cannot spill into the next one.
func (s *serverSpec) assignment(owner []int32) Assignment {
	var buf []int32 // outlives the call: not scratch
	flat, start := s.layoutByMember(owner, &buf)
	a := make(Assignment, len(s.members))
	for m, member := range s.members {
		list := flat[start[m]:start[m+1]]
		segs := s.topicSegments(list)
		mine := make(map[string][]int32, len(segs))
		for _, seg := range segs {
			mine[s.topics[seg.topic]] = list[seg.from:seg.to:seg.to]
		}
		a[member.ID] = mine // an id listed twice (invalid input): the last in order
	}
	return a
}

// layoutByMember writes every member's flat partitions, ascending, into one
// buffer (buf's memory), member after member: member m's are
// flat[start[m]:start[m+1]]. A counting sort: one scan of owner counts, one
// places. Targets are scattered after a few rebalances (a joiner collects
// one partition from each member), so this works per partition, in two
// tight loops.
func (s *serverSpec) layoutByMember(owner []int32, buf *[]int32) (flat []int32, start []int) {
	start = serverFilled(&s.sc.count, len(s.members)+1, 0)
	for _, m := range owner {
		start[m+1]++ // m = -1 (nobody) counts in start[0], which is dropped below
	}
	start[0] = 0
	for m := 1; m < len(start); m++ {
		start[m] += start[m-1]
	}
	flat = serverGrow(buf, start[len(start)-1])
	next := serverGrow(&s.sc.cursor, len(s.members))
	copy(next, start)
	for f, m := range owner {
		if m >= 0 {
			flat[next[m]] = int32(f)
			next[m]++
		}
	}
	return flat, start
}

// serverSegment is one topic's part [from, to) of a member's list.
type serverSegment struct {
	topic, from, to int
}

// topicSegments splits list (flat partitions, ascending) by topic, turning
// its flat indices into partition numbers in place; the segments live in
// the scratch until the next call. Each segment's topic is found by
// walking forward from the last one: a member's topics are ascending, and
// usually neighbours.
func (s *serverSpec) topicSegments(list []int32) []serverSegment {
	segs := s.sc.segments[:0]
	t := 0
	for i := 0; i < len(list); {
		for t+1 < len(s.base) && int32(s.base[t+1]) <= list[i] {
			t++ // past topics without partitions too: they share the next base
		}
		base, end := int32(s.base[t]), int32(s.base[t])+s.parts[t]
		j := i
		for ; j < len(list) && list[j] < end; j++ {
			list[j] -= base
		}
		segs = append(segs, serverSegment{t, i, j})
		i = j
	}
	s.sc.segments = segs
	return segs
}
