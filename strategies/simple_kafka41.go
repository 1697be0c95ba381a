package strategies

import (
	"errors"
	"slices"
	"strings"
)

// Kafka 4.1's simple assignor (KAFKA-18757, KAFKA-18901): hash each member
// onto one partition, keep current holders, deal the rest round-robin.

// assignKafka41 dispatches on the subscription type as SimpleAssignor.assign does.
func (s *shareSpec) assignKafka41(ex *Explainer) ([]shareHeld, error) {
	if s.homogeneous {
		return s.kafka41Homogeneous(ex)
	}
	return s.kafka41Heterogeneous(ex), nil
}

// shareHashIndex is memberHashAssignment's pick among n partitions:
// Math.abs(memberId.hashCode() % n).
func shareHashIndex(id string, n int) int {
	i := int(JavaHashCode(id) % int32(n))
	if i < 0 {
		i = -i
	}
	return i
}

// kafka41Homogeneous is newAssignmentHomogeneous.
func (s *shareSpec) kafka41Homogeneous(ex *Explainer) ([]shareHeld, error) {
	held := s.newHeld()
	if len(s.names[0]) == 0 {
		ex.Addf("all members subscribe to nothing: nobody gets a partition")
		return held, nil
	}
	target := s.targets(s.subs[0])
	m, p := len(s.members), len(target)
	desired := (p + m - 1) / m
	ex.Addf("Kafka %s: all members subscribe to the same topics: homogeneous hash and round-robin (4.1); %d initialised partitions of %s for %d members: at most ⌈%d/%d⌉ = %d each, one more where round-robin must",
		s.g.release(), p, s.topicList(s.subs[0]), m, p, m, desired)

	// The current assignment by partition: a HashMap<TopicIdPartition,
	// List<String>> filled by computeIfAbsent, member by member.
	current := NewJavaHashMap(s.tipHash)
	holders := map[int32][]int{}
	for i := range s.members {
		for _, h := range s.old[i] {
			for _, q := range h.parts {
				f := s.base[h.topic] + q
				current.ComputeIfAbsent(f)
				holders[f] = append(holders[f], i)
			}
		}
	}

	hashed := make([]bool, s.total)
	if p > 0 {
		for i, mem := range s.members {
			f := target[shareHashIndex(mem.ID, p)]
			hashed[f] = true
			held[i][f] = true
			if ex.Enabled() {
				ex.Addf("hash: %s (hashCode %d) → index |%d %% %d| = %d: %s", mem.ID, JavaHashCode(mem.ID), JavaHashCode(mem.ID), p, shareHashIndex(mem.ID, p), s.tp(f))
			} else {
				ex.Skip()
			}
		}
	}
	covered := slices.Clone(hashed)
	subscribed := make([]bool, len(s.topics))
	for _, t := range s.subs[0] {
		subscribed[t] = true
	}
	for _, f := range current.Keys() {
		if !subscribed[s.topicOf(f)] {
			continue
		}
		for _, i := range holders[f] {
			switch {
			case hashed[f]:
			case len(held[i]) < desired:
				held[i][f] = true
				covered[f] = true
				if ex.Enabled() {
					ex.Addf("keep: %s keeps %s (%d of %d)", s.members[i].ID, s.tp(f), len(held[i]), desired)
				} else {
					ex.Skip()
				}
			default:
				if ex.Enabled() {
					ex.Addf("drop: %s already has %d, the most it keeps: %s goes", s.members[i].ID, desired, s.tp(f))
				} else {
					ex.Skip()
				}
			}
		}
	}
	var unassigned []int32
	for _, f := range target {
		if !covered[f] {
			unassigned = append(unassigned, f)
		}
	}
	return held, s.roundRobinWithCount(unassigned, held, desired, ex)
}

// roundRobinWithCount is roundRobinAssignmentWithCount: the partitions go
// to the members in order, each taking while it holds at most desired
// (so up to desired+1); a full member leaves the rotation. Kafka throws
// when the rotation empties with partitions left.
func (s *shareSpec) roundRobinWithCount(partitions []int32, held []shareHeld, desired int, ex *Explainer) error {
	if len(partitions) == 0 {
		return nil
	}
	ex.Addf("round-robin: %s to the members in order, each while it holds at most %d", s.flatString(partitions), desired)
	ring := make([]int, len(s.members))
	for i := range ring {
		ring[i] = i
	}
	next := 0
	for k := 0; k < len(partitions); {
		if next == len(ring) {
			next = 0
			if len(ring) == 0 {
				//lint:ignore ST1005 the message begins with a name (Kafka)
				return errors.New(`Kafka's simple assignor throws PartitionAssignorException "Inconsistent number of member IDs": every member is full with partitions left to deal (members share more of the current assignment than 4.1 expects), so the coordinator fails the heartbeat with UNKNOWN_SERVER_ERROR`)
			}
		}
		i := ring[next]
		next++
		if len(held[i]) <= desired {
			held[i][partitions[k]] = true
			if ex.Enabled() {
				ex.Addf("round-robin: %s → %s", s.tp(partitions[k]), s.members[i].ID)
			} else {
				ex.Skip()
			}
			k++
			continue
		}
		next--
		ring = append(ring[:next], ring[next+1:]...)
	}
	return nil
}

// kafka41Heterogeneous is newAssignmentHeterogeneous.
func (s *shareSpec) kafka41Heterogeneous(ex *Explainer) []shareHeld {
	held := s.newHeld()
	ex.Addf("Kafka %s: members subscribe to different topics: heterogeneous hash and round-robin (4.1), topic by topic, without quotas", s.g.release())
	// memberToPartitionsSubscription: a new HashMap<>() of the members whose
	// subscription names something, put in member order.
	subscribers := NewJavaHashMap(func(i int) int32 { return JavaHashCode(s.members[i].ID) }).
		withCompare(func(a, b int) int { return JavaCompare(s.members[a].ID, s.members[b].ID) })
	for i := range s.members {
		if len(s.names[i]) > 0 {
			subscribers.Put(i)
		}
	}
	order := subscribers.Keys()
	if len(order) < len(s.members) || ex.Enabled() {
		var ids []string
		for _, i := range order {
			ids = append(ids, s.members[i].ID)
		}
		ex.Addf("order: the subscribing members as a HashMap of their ids iterates them: %s", strings.Join(ids, ", "))
	}
	partitionsOf := make([][]int32, len(s.members))
	topicSubs := make([][]int, len(s.topics)) // topicToMemberSubscription: LinkedHashSets
	for _, i := range order {
		partitionsOf[i] = s.targets(s.subs[i])
		seen := -1
		for _, f := range partitionsOf[i] {
			if t := int(s.topicOf(f)); t != seen {
				seen = t
				topicSubs[t] = append(topicSubs[t], i)
			}
		}
	}
	hashed := make([]bool, s.total)
	for _, i := range order {
		if n := len(partitionsOf[i]); n > 0 {
			f := partitionsOf[i][shareHashIndex(s.members[i].ID, n)]
			hashed[f] = true
			held[i][f] = true
			if ex.Enabled() {
				ex.Addf("hash: %s (hashCode %d) → index %d of its %d partitions: %s", s.members[i].ID, JavaHashCode(s.members[i].ID), shareHashIndex(s.members[i].ID, n), n, s.tp(f))
			} else {
				ex.Skip()
			}
		}
	}
	current := make([]bool, s.total)
	for i := range s.members {
		for _, h := range s.old[i] {
			for _, q := range h.parts {
				current[s.base[h.topic]+q] = true
			}
		}
	}
	for t, members := range topicSubs {
		if len(members) == 0 {
			continue
		}
		var unassigned []int32
		for _, f := range s.assignable(int32(t)) {
			if !hashed[f] && !current[f] {
				unassigned = append(unassigned, f)
			}
		}
		shareRoundRobin(members, unassigned, held)
		if len(unassigned) > 0 {
			var ids []string
			for _, i := range members {
				ids = append(ids, s.members[i].ID)
			}
			ex.Addf("round-robin: %s to %s's subscribers in turn: %s", s.flatString(unassigned), s.topics[t], strings.Join(ids, ", "))
		}
	}
	for i := range s.members {
		for _, h := range s.old[i] {
			if !slices.Contains(topicSubs[h.topic], i) {
				continue
			}
			for _, q := range h.parts {
				if f := s.base[h.topic] + q; !hashed[f] {
					held[i][f] = true
					if ex.Enabled() {
						ex.Addf("keep: %s keeps %s", s.members[i].ID, s.tp(f))
					} else {
						ex.Skip()
					}
				}
			}
		}
	}
	return held
}

// shareRoundRobin is roundRobinAssignment: the partitions to the members in
// turn, starting again from the first.
func shareRoundRobin(members []int, partitions []int32, held []shareHeld) {
	for k, f := range partitions {
		held[members[k%len(members)]][f] = true
	}
}
