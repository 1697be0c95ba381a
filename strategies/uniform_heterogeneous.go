package strategies

import (
	"fmt"
	"slices"
	"strings"
)

// The uniform assignor when members subscribe to different topics: Kafka's
// UniformHeterogeneousAssignmentBuilder as rewritten by KAFKA-17710 (apache/kafka
// 017da210, Oct 2024, in 4.0; the same logic at the later commit fc28b22b).
//
//  1. Every member keeps its whole current target in the topics it still
//     subscribes to (no quota yet).
//  2. Topics are ordered by partitions per subscriber (descending), then by
//     subscriber count (ascending), then by topic id — kviz: topic name.
//  3. Each topic's unassigned partitions, ascending, go round-robin to its
//     least loaded subscribers (load = partitions of all topics).
//  4. Balance: topic by topic, partitions move from the most loaded to the
//     least loaded subscribers until their loads differ by at most one; the
//     pass repeats until a whole round moves nothing (at most 16 rounds).
//     A member gives up its highest-numbered partition of the topic first.

// uniformMaxRounds is Kafka's MAX_ITERATION_COUNT for the balancing phase.
const uniformMaxRounds = 16

type uniformHeterogeneous struct {
	s           *serverSpec
	ex          *Explainer
	owner       []int32   // member index per flat partition, -1 = unassigned
	sizes       []int32   // partitions per member, all topics
	subscribers [][]int32 // per topic: subscribing members, ascending
	bal         uniformBalancer

	// scratch for balanceTopic, indexed by member
	start, end []int32
	grouped    []int32
}

func assignUniformHeterogeneous(s *serverSpec, ex *Explainer) []int32 {
	b := &uniformHeterogeneous{s: s, ex: ex}
	b.owner = serverFilled(&s.sc.owner, s.total, -1)
	b.sizes = make([]int32, len(s.members))
	b.bal.sizes = b.sizes
	b.subscribers = make([][]int32, len(s.topics))
	var subscribed []int32
	for i, topics := range s.subs {
		for _, t := range topics {
			if len(b.subscribers[t]) == 0 {
				subscribed = append(subscribed, t)
			}
			b.subscribers[t] = append(b.subscribers[t], int32(i))
		}
	}
	if len(subscribed) == 0 {
		ex.Addf("no member subscribes to any topic: nothing to assign")
		return b.owner
	}
	b.keepTargets()
	b.assignUnassigned(subscribed)
	b.balance(subscribed)
	return b.owner
}

// keepTargets is Kafka's maybeRevokePartitions: only topics a member no
// longer subscribes to leave its target (already done by serverSpec).
func (b *uniformHeterogeneous) keepTargets() {
	s := b.s
	for i, claims := range s.claims {
		for _, f := range claims {
			b.owner[f] = int32(i)
		}
		b.sizes[i] = int32(len(claims))
		if !b.ex.Enabled() {
			b.ex.Skip()
			continue
		}
		if len(s.droppedBy(i)) > 0 {
			b.ex.Addf("%s drops %s (topics it no longer subscribes to)", s.members[i].ID, serverFormatTPs(s.droppedBy(i)))
		}
		if len(claims) > 0 {
			b.ex.Addf("%s keeps %s (its target)", s.members[i].ID, s.formatFlat(claims))
		}
	}
}

// sortTopics orders topics as Kafka's topicComparator does, with the topic
// name standing in for the topic UUID in the last tie-break.
func (b *uniformHeterogeneous) sortTopics(topics []int32) []int32 {
	out := slices.Clone(topics)
	slices.SortFunc(out, func(x, y int32) int {
		px := float64(b.s.parts[x]) / float64(len(b.subscribers[x]))
		py := float64(b.s.parts[y]) / float64(len(b.subscribers[y]))
		switch {
		case px > py:
			return -1
		case px < py:
			return 1
		case len(b.subscribers[x]) != len(b.subscribers[y]):
			return len(b.subscribers[x]) - len(b.subscribers[y])
		default:
			return int(x - y)
		}
	})
	return out
}

// assignUnassigned is Kafka's assignRemainingPartitions.
func (b *uniformHeterogeneous) assignUnassigned(subscribed []int32) {
	s := b.s
	var withFree []int32
	for _, t := range subscribed {
		for f := s.base[t]; f < s.base[t]+int(s.parts[t]); f++ {
			if b.owner[f] < 0 {
				withFree = append(withFree, t)
				break
			}
		}
	}
	sorted := b.sortTopics(withFree)
	b.explainTopicOrder("hand out unassigned partitions, topics in order", sorted)
	var given []int32 // (partition, member) pairs of the current topic, for the explanation
	for _, t := range sorted {
		b.bal.initialize(b.subscribers[t])
		explain := b.ex.Enabled()
		given = given[:0]
		for f := s.base[t]; f < s.base[t]+int(s.parts[t]); f++ {
			if b.owner[f] >= 0 {
				continue
			}
			m := b.bal.nextLeastLoaded()
			b.move(f, m)
			if explain {
				given = append(given, int32(f-s.base[t]), m)
			}
		}
		b.explainGiven(t, given)
	}
}

// balance is Kafka's balance/balanceTopics: rounds over the topics with two
// or more subscribers until a full round moves nothing.
func (b *uniformHeterogeneous) balance(subscribed []int32) {
	var shared []int32
	for _, t := range subscribed {
		if len(b.subscribers[t]) >= 2 {
			shared = append(shared, t)
		}
	}
	if len(shared) == 0 {
		return
	}
	sorted := b.sortTopics(shared)
	m := len(b.s.members)
	b.start, b.end = make([]int32, m), make([]int32, m)
	last := -1 // index in sorted of the last topic that moved anything
	for round := 0; round < uniformMaxRounds; round++ {
		for i, t := range sorted {
			if i == last {
				return // a whole round since the last move: nothing more to gain
			}
			if moved := b.balanceTopic(t); moved > 0 || last == -1 {
				last = i
			}
		}
	}
	b.ex.Addf("balance: stopped after %d rounds (Kafka's limit); overlapping subscriptions may stay slightly uneven", uniformMaxRounds)
}

// balanceTopic is Kafka's balanceTopic: returns how many partitions moved.
func (b *uniformHeterogeneous) balanceTopic(t int32) int {
	if b.bal.initialize(b.subscribers[t]) <= 1 {
		return 0
	}
	b.groupByOwner(t)
	base := b.s.base[t]
	moved := 0
	for !b.bal.balanced() {
		most := b.bal.nextMostLoaded()
		for most >= 0 && b.end[most] <= b.start[most] {
			b.bal.excludeMostLoaded()
			most = b.bal.nextMostLoaded()
		}
		if most < 0 {
			break // nobody left with a partition of this topic to give
		}
		b.end[most]--
		p := b.grouped[b.end[most]]
		least := b.bal.nextLeastLoaded()
		if b.bal.balanced() {
			break
		}
		if b.ex.Enabled() {
			b.ex.Addf("balance %s: %s-%d moves %s → %s (%s has %s, %s has %d)",
				b.s.topics[t], b.s.topics[t], p, b.s.members[most].ID, b.s.members[least].ID,
				b.s.members[most].ID, serverPlural(int(b.sizes[most])), b.s.members[least].ID, b.sizes[least])
		} else {
			b.ex.Skip()
		}
		b.move(base+int(p), least)
		moved++
	}
	return moved
}

// groupByOwner lists topic t's partitions grouped by owner (owners in member
// index order, partitions ascending within each), as Kafka's sort by
// (owner, partition) does, and records each owner's run in start/end.
func (b *uniformHeterogeneous) groupByOwner(t int32) {
	s := b.s
	n := int(s.parts[t])
	for _, m := range b.subscribers[t] {
		b.start[m], b.end[m] = 0, 0
	}
	for f := s.base[t]; f < s.base[t]+n; f++ {
		b.end[b.owner[f]]++ // count for now
	}
	pos := int32(0)
	for _, m := range b.subscribers[t] {
		count := b.end[m]
		b.start[m], b.end[m] = pos, pos
		pos += count
	}
	if cap(b.grouped) < n {
		b.grouped = make([]int32, n)
	}
	b.grouped = b.grouped[:n]
	for p := 0; p < n; p++ {
		m := b.owner[s.base[t]+p]
		b.grouped[b.end[m]] = int32(p)
		b.end[m]++
	}
}

// move gives flat partition f to member m.
func (b *uniformHeterogeneous) move(f int, m int32) {
	if old := b.owner[f]; old >= 0 {
		b.sizes[old]--
	}
	b.owner[f] = m
	b.sizes[m]++
}

func (b *uniformHeterogeneous) explainTopicOrder(what string, topics []int32) {
	if !b.ex.Enabled() || len(topics) == 0 {
		return
	}
	parts := make([]string, 0, len(topics))
	for _, t := range topics {
		parts = append(parts, fmt.Sprintf("%s (%d/%d)", b.s.topics[t], b.s.parts[t], len(b.subscribers[t])))
	}
	b.ex.Addf("%s (partitions/subscribers, most first): %s", what, strings.Join(parts, ", "))
	for k := 1; k < len(topics); k++ {
		x, y := topics[k-1], topics[k]
		if b.s.parts[x] == b.s.parts[y] && len(b.subscribers[x]) == len(b.subscribers[y]) {
			b.ex.Addf("order: %s and %s tie, so kviz takes name order; Kafka breaks the tie by topic UUID, which a real cluster picks at random", b.s.topics[x], b.s.topics[y])
			return
		}
	}
}

// explainGiven says who took which partitions of topic t; given holds
// (partition, member) pairs.
func (b *uniformHeterogeneous) explainGiven(t int32, given []int32) {
	if !b.ex.Enabled() {
		b.ex.Skip()
		return
	}
	var order []int32
	taken := map[int32][]int{}
	for k := 0; k < len(given); k += 2 {
		p, m := given[k], given[k+1]
		if _, seen := taken[m]; !seen {
			order = append(order, m)
		}
		taken[m] = append(taken[m], b.s.base[t]+int(p))
	}
	parts := make([]string, 0, len(order))
	for _, m := range order {
		parts = append(parts, fmt.Sprintf("%s takes %s", b.s.members[m].ID, b.s.formatFlat(taken[m])))
	}
	b.ex.Addf("%s: least loaded subscribers first: %s", b.s.topics[t], strings.Join(parts, ", "))
}
