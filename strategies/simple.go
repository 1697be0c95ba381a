package strategies

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// simpleAssignor is the share-group (KIP-932) assignor "simple"
// (org.apache.kafka.coordinator.group.assignor.SimpleAssignor), the only
// one Kafka's coordinator has for share groups. Members of a share group
// may share a partition, so an Assignment here may list one partition under
// several members. Member.Owned carries each member's current target.
//
// It changed with every release:
//   - 4.0 (early access): every member gets every partition of the topics
//     it subscribes to (simple_kafka40 in this file);
//   - 4.1 (preview): each member is hashed onto one partition, current
//     holders keep theirs up to ceil(partitions/members), the rest is dealt
//     round-robin (KAFKA-18757, KAFKA-18901; simple_kafka41.go);
//   - 4.2 and later (GA): balanced sharing, ceil(members/partitions) members
//     per partition and a quota per member (KAFKA-19362, KAFKA-19363;
//     simple_balanced.go).
//
// From 4.1 only initialised share-partitions are assigned (Group.Assignable),
// and the answer depends on the order Java's HashMaps and HashSets iterate
// member ids and TopicIdPartitions, so on the topics' ids (Group.TopicIDs):
// shareSpec reproduces how the coordinator hands the group over.
type simpleAssignor struct{}

func (simpleAssignor) Name() string          { return "simple" }
func (simpleAssignor) KafkaName() string     { return "simple" }
func (simpleAssignor) Protocols() []Protocol { return []Protocol{Share} }
func (simpleAssignor) readsOwned() bool      { return true }

// Assign computes the target assignment. Result.Err is set when Kafka's
// assignor throws for this group (the coordinator then fails the heartbeat
// that asked for a new target).
func (simpleAssignor) Assign(g Group, ex *Explainer) Result {
	if len(g.Members) == 0 {
		ex.Addf("no members: nothing to assign")
		return Result{Assignment: Assignment{}, Explanation: ex.Lines()}
	}
	s := newShareSpec(g)
	s.explainOrder(ex)
	v := g.release()
	if !v.AtLeast(4, 1, 0) {
		a := s.assignKafka40(ex)
		return Result{Assignment: a, Explanation: ex.Lines()}
	}
	var held []shareHeld
	var err error
	if !v.AtLeast(4, 2, 0) {
		held, err = s.assignKafka41(ex)
	} else {
		held, err = s.assignBalanced(ex)
	}
	if err != nil {
		ex.Addf("%v", err)
		return Result{Assignment: NewAssignment(g.Members), Err: err, Explanation: ex.Lines()}
	}
	return Result{Assignment: s.assignment(held), Explanation: ex.Lines()}
}

// shareSpec is a share group as the coordinator hands it to the assignor
// (GroupSpecImpl over TargetAssignmentBuilder's member map), in integers.
//
// Partitions are numbered flat: partition p of topic t is base[t]+p. The
// topics are the group's, in Java String order, then the topics members
// hold partitions of that no longer exist (their ids may still sit in a
// target assignment).
type shareSpec struct {
	g      Group
	topics []string
	exists int // topics[:exists] are in g.Topics
	parts  []int32
	base   []int32
	total  int
	ids    []TopicID
	idHash []int32 // per topic: Uuid.hashCode()
	tip    []int32 // per flat partition: TopicIdPartition.hashCode(); see tipHash
	lookup map[string]int32

	// members are in the order Kafka iterates them: the keys of
	// TargetAssignmentBuilder's new HashMap<>() of member specs, put in
	// input order (the group's own TimelineHashMap order, which kviz does not
	// know). Its table had memberTable buckets.
	members     []Member
	memberTable int
	memberTree  bool // a bucket of the member map became a red-black tree
	// names is each member's subscription as its HashSet<String> iterates it
	// (ShareGroupMember: new HashSet<>(subscribedTopicNames)); subs the topics
	// of those names that exist, in that order (TopicIds iterates the names
	// and resolves each against the metadata image).
	names [][]string
	subs  [][]int32
	// old is each member's current target as the coordinator holds it
	// (Assignment.fromRecord): a HashMap<Uuid, HashSet<Integer>>, topics put
	// in name order, each topic's partitions in new HashSet<>(ascending list)
	// order. Both are iteration orders.
	old [][]shareHolding

	homogeneous bool // ModernGroup.subscriptionType: every member subscribes to the same names
}

type shareHolding struct {
	topic int32
	parts []int32
}

// shareHeld is what one member ends with, flat partitions as a set.
type shareHeld map[int32]bool

func newShareSpec(g Group) *shareSpec {
	s := &shareSpec{g: g}
	s.readTopics()
	ids := NewJavaHashMap(JavaHashCode)
	byID := make(map[string]int, len(g.Members))
	for i, m := range g.Members {
		ids.Put(m.ID)
		byID[m.ID] = i
	}
	s.memberTable, s.memberTree = ids.Capacity(), ids.treeified()
	for _, id := range ids.Keys() {
		s.members = append(s.members, g.Members[byID[id]])
	}
	s.readSubscriptions()
	s.old = make([][]shareHolding, len(s.members))
	for i, m := range s.members {
		s.old[i] = s.holdings(m)
	}
	return s
}

// readTopics numbers the group's topics, then those only held.
func (s *shareSpec) readTopics() {
	s.topics = SortedTopics(s.g.Topics)
	s.exists = len(s.topics)
	gone := map[string]int32{} // held topics that do not exist -> partitions to number
	for _, m := range s.g.Members {
		for _, tp := range m.Owned {
			if _, ok := s.g.Topics[tp.Topic]; !ok && tp.Partition >= 0 {
				gone[tp.Topic] = max(gone[tp.Topic], tp.Partition+1)
			}
		}
	}
	s.topics = append(s.topics, SortedTopics(gone)...)
	s.lookup = make(map[string]int32, len(s.topics))
	for t, name := range s.topics {
		s.lookup[name] = int32(t)
		n := s.g.Topics[name]
		if t >= s.exists {
			n = gone[name]
		}
		id := s.g.TopicIDOf(name)
		s.parts = append(s.parts, n)
		s.base = append(s.base, int32(s.total))
		s.ids = append(s.ids, id)
		s.idHash = append(s.idHash, id.HashCode())
		s.total += int(n)
	}
}

// index maps the existing topics' names to their numbers.
func (s *shareSpec) index() map[string]int32 {
	if s.exists == len(s.topics) {
		return s.lookup
	}
	index := make(map[string]int32, s.exists)
	for t, name := range s.topics[:s.exists] {
		index[name] = int32(t)
	}
	return index
}

// readSubscriptions fills names, subs and homogeneous. Members sharing one
// topic list share its sets.
func (s *shareSpec) readSubscriptions() {
	index := s.index()
	s.names = make([][]string, len(s.members))
	s.subs = make([][]int32, len(s.members))
	for i, m := range s.members {
		if i > 0 && slices.Equal(m.Topics, s.members[i-1].Topics) {
			s.names[i], s.subs[i] = s.names[i-1], s.subs[i-1]
			continue
		}
		set := newJavaHashMapSized(JavaHashCode, javaHashSetTable(len(m.Topics)))
		for _, t := range m.Topics {
			set.Put(t)
		}
		s.names[i] = set.Keys()
		for _, name := range s.names[i] {
			if t, ok := index[name]; ok {
				s.subs[i] = append(s.subs[i], t)
			}
		}
	}
	s.homogeneous = sameSubscriptions(serverSubscriptionIndices(s.members, index), missingNamesDiffer(s.members, index))
}

// holdings is m's current target in the coordinator's iteration order.
// Partitions beyond an existing topic's count cannot pass CheckFor; they
// are dropped rather than numbered into the next topic.
func (s *shareSpec) holdings(m Member) []shareHolding {
	if len(m.Owned) == 0 {
		return nil
	}
	var byTopic [][]int32
	slot := map[int32]int{}
	topics := NewJavaHashMap(func(t int32) int32 { return s.idHash[t] }).withCompare(func(a, b int32) int { return s.ids[a].compare(s.ids[b]) })
	for _, tp := range m.Owned {
		t, ok := s.lookup[tp.Topic]
		if !ok || tp.Partition < 0 || tp.Partition >= s.parts[t] {
			continue
		}
		k, ok := slot[t]
		if !ok {
			k = len(byTopic)
			slot[t] = k
			byTopic = append(byTopic, nil)
			topics.Put(t) // Collectors.toMap: putIfAbsent, record order
		}
		byTopic[k] = append(byTopic[k], tp.Partition)
	}
	out := make([]shareHolding, 0, len(byTopic))
	for _, t := range topics.Keys() {
		ps := byTopic[slot[t]]
		set := newJavaHashMapSized(javaIntegerHash, javaHashSetTable(len(ps))).withCompare(cmp.Compare[int32])
		for _, p := range ps {
			set.Put(p)
		}
		out = append(out, shareHolding{t, set.Keys()})
	}
	return out
}

// tipHash is TopicIdPartition.hashCode of flat partition f.
func (s *shareSpec) tipHash(f int32) int32 {
	if s.tip == nil {
		s.tip = make([]int32, s.total)
		for t := range s.topics {
			for p := range s.parts[t] {
				s.tip[s.base[t]+p] = topicPartitionHash(s.idHash[t], p)
			}
		}
	}
	return s.tip[f]
}

// topicOf is the topic holding flat partition f.
func (s *shareSpec) topicOf(f int32) int32 { return int32(flatTopic(s.base, f)) }

// assignable lists topic t's initialised share-partitions, flat, ascending
// (computeTargetPartitions with GroupSpec.isPartitionAssignable).
func (s *shareSpec) assignable(t int32) []int32 {
	var out []int32
	if s.g.Assignable == nil {
		for p := range s.parts[t] {
			out = append(out, s.base[t]+p)
		}
		return out
	}
	for _, p := range s.g.Assignable[s.topics[t]] {
		out = append(out, s.base[t]+p)
	}
	return out
}

// targets is computeTargetPartitions over topics, in their order.
func (s *shareSpec) targets(topics []int32) []int32 {
	var out []int32
	for _, t := range topics {
		out = append(out, s.assignable(t)...)
	}
	return out
}

// tp names flat partition f.
func (s *shareSpec) tp(f int32) TopicPartition {
	t := s.topicOf(f)
	return TopicPartition{s.topics[t], f - s.base[t]}
}

// assignment turns each member's set into an Assignment.
func (s *shareSpec) assignment(held []shareHeld) Assignment {
	a := make(Assignment, len(s.members))
	for i, m := range s.members {
		flat := make([]int32, 0, len(held[i]))
		for f := range held[i] {
			flat = append(flat, f)
		}
		slices.Sort(flat)
		mine := map[string][]int32{}
		for _, f := range flat {
			tp := s.tp(f)
			mine[tp.Topic] = append(mine[tp.Topic], tp.Partition)
		}
		a[m.ID] = mine
	}
	return a
}

// newHeld is an empty set per member.
func (s *shareSpec) newHeld() []shareHeld {
	held := make([]shareHeld, len(s.members))
	for i := range held {
		held[i] = shareHeld{}
	}
	return held
}

// flatString names flat partitions for an explanation, at most a dozen.
func (s *shareSpec) flatString(fs []int32) string {
	var parts []string
	for i, f := range fs {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(fs)))
			break
		}
		parts = append(parts, s.tp(f).String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// assignKafka40 is Kafka 4.0's SimpleAssignor: every member gets every
// partition of its subscribed topics. Homogeneous groups take the first
// member's subscription for all. The lists of one topic are shared between
// members (read them, do not change them).
func (s *shareSpec) assignKafka40(ex *Explainer) Assignment {
	a := NewAssignment(s.members)
	all := make([][]int32, s.exists)
	give := func(m Member, topics []int32) {
		for _, t := range topics {
			if s.parts[t] == 0 {
				continue
			}
			if all[t] == nil {
				all[t] = make([]int32, s.parts[t])
				for p := range s.parts[t] {
					all[t][p] = p
				}
			}
			a[m.ID][s.topics[t]] = all[t][:s.parts[t]:s.parts[t]]
		}
	}
	if s.homogeneous {
		ex.Addf("Kafka %s: all members subscribe to the same topics; the simple assignor (4.0) gives each of them every partition of %s", s.g.release(), s.topicList(s.subs[0]))
		if len(s.names[0]) > 0 {
			for _, m := range s.members {
				give(m, s.subs[0])
			}
		}
	} else {
		ex.Addf("Kafka %s: members subscribe to different topics; the simple assignor (4.0) gives each member every partition of its own topics", s.g.release())
		for i, m := range s.members {
			if len(s.names[i]) > 0 {
				give(m, s.subs[i])
			}
		}
	}
	if s.g.Assignable != nil {
		ex.Addf("4.0 does not ask which share-partitions are initialised: \"assignable\" does not apply")
	}
	return a
}

// topicList names topics for an explanation.
func (s *shareSpec) topicList(topics []int32) string {
	if len(topics) == 0 {
		return "no existing topic"
	}
	var names []string
	for _, t := range topics {
		names = append(names, s.topics[t])
	}
	return strings.Join(names, ", ")
}

// explainOrder states the member order and, from 4.1, the topic ids.
func (s *shareSpec) explainOrder(ex *Explainer) {
	if !ex.Enabled() {
		return
	}
	const show = 12
	var ids []string
	for i, m := range s.members {
		if i == show {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, fmt.Sprintf("%s (%d)", m.ID, javaHashMapBucket(m.ID, s.memberTable)))
	}
	ex.Addf("order: members as the coordinator's HashMap of member ids iterates them (put in input order), by bucket of String.hashCode among %d: %s", s.memberTable, strings.Join(ids, ", "))
	if s.memberTree {
		ex.Addf("order: nine or more member ids share a bucket of a table of 64+: Java's HashMap holds them as a red-black tree, and iterates them in the order that tree gives")
	}
	if !s.g.release().AtLeast(4, 1, 0) {
		return
	}
	var named []string
	for t, name := range s.topics {
		if _, given := s.g.TopicIDs[name]; !given && len(named) < show {
			named = append(named, fmt.Sprintf("%s=%s (hashCode %d)", name, s.ids[t], s.idHash[t]))
		}
	}
	if len(named) > 0 {
		ex.Addf("topic ids derived from names (UUID.nameUUIDFromBytes): %s", strings.Join(named, ", "))
	}
}

// shareOwnedRule is what the simple assignor of g's release does with a
// current partition of a topic that no longer exists.
func shareOwnedRule(g Group) string {
	v := g.release()
	switch {
	case !v.AtLeast(4, 1, 0):
		return fmt.Sprintf("Kafka %s's simple assignor does not read current assignments", v)
	case !v.AtLeast(4, 2, 0):
		return fmt.Sprintf("Kafka %s's simple assignor keeps only current partitions of subscribed topics", v)
	}
	index := make(map[string]int32, len(g.Topics))
	for t, name := range SortedTopics(g.Topics) {
		index[name] = int32(t)
	}
	if sameSubscriptions(serverSubscriptionIndices(g.Members, index), missingNamesDiffer(g.Members, index)) {
		return "the homogeneous builder revokes every topic the group does not subscribe to"
	}
	return "the heterogeneous builder (Kafka 4.2+) visits only subscribed topics, so the member keeps them in its target"
}
