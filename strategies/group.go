// Package strategies holds Kafka's consumer assignors and producer partitioners
// as pure functions: no clock, no I/O, no terminal. Each one explains its steps.
//
// The rule for "who gets partition 3" lives in the file named after the
// assignor: range.go, roundrobin.go, sticky*.go, uniform*.go, range_server.go.
package strategies

import (
	"fmt"
	"slices"
	"sort"
)

// NoGeneration is the generation a member reports when it has none
// (Kafka's DEFAULT_GENERATION = -1).
const NoGeneration int32 = -1

// MaxPartitions bounds a topic's partition count. Kafka itself allows up to
// int32, but a count beyond this is a typo, not a workshop.
const MaxPartitions = 1 << 20

// TopicPartition names one partition of one topic.
type TopicPartition struct {
	Topic     string
	Partition int32
}

func (tp TopicPartition) String() string { return string(tp.AppendTo(nil)) }

// Member is one consumer as an assignor sees it: what it subscribes to and
// what it reports owning.
type Member struct {
	ID         string           // member.id
	InstanceID string           // group.instance.id; "" for a dynamic member
	Rack       string           // client.rack; "" when not set
	Topics     []string         // subscribed topics
	Owned      []TopicPartition // partitions it reports owning (sticky family; server-side: current target)
	Generation int32            // generation of Owned; NoGeneration when unknown
}

// Group is the input of one assignment.
type Group struct {
	Topics         map[string]int32      // topic -> partition count
	PartitionRacks map[string][][]string // topic -> partition -> racks of its replicas (optional)
	Members        []Member
	// Version is the Kafka release whose assignor runs (versions.go); the
	// zero value is the newest kviz models.
	Version ClientVersion

	// What only the share-group assignor (simple.go) reads:
	// TopicIDs gives topics their Kafka Uuid (optional: a topic without one
	// gets NameTopicID). A topic named only in members' owned partitions
	// (deleted) may have one too.
	TopicIDs map[string]TopicID
	// Assignable lists, per topic, the share-partitions whose state is
	// initialised: the coordinator's map of assignable partitions. nil means
	// every partition of every topic; otherwise a topic it does not list has
	// none (GroupSpecImpl.isPartitionAssignable). Ascending, distinct.
	Assignable map[string][]int32
}

// Assignment maps member id -> topic -> partitions, ascending.
// Every member of the group has an entry, even when it gets nothing.
type Assignment map[string]map[string][]int32

// Withheld is a partition a cooperative assignor moves from one live owner to
// another: this round it goes to nobody, the owner revokes it, and the
// follow-up rebalance gives it to To.
type Withheld struct {
	TopicPartition
	From string // the member that still owns it and must revoke it
	To   string // the member it will go to in the follow-up rebalance
}

// Result is an assignment plus the steps that led to it.
type Result struct {
	Assignment  Assignment
	Withheld    []Withheld // cooperative-sticky only; sorted by topic, partition
	Explanation []string   // the steps a trainer would say aloud
	// Err is set when Kafka's assignor throws for this group instead of
	// answering (the coordinator then fails the heartbeat that asked for a
	// new target); Assignment then gives every member nothing.
	Err error
}

// Partitions returns every partition in the group's topics, sorted by (topic, partition).
func (g Group) Partitions() []TopicPartition {
	var out []TopicPartition
	for _, t := range SortedTopics(g.Topics) {
		for p := int32(0); p < g.Topics[t]; p++ {
			out = append(out, TopicPartition{t, p})
		}
	}
	return out
}

// Validate reports the first thing that makes g impossible to assign. A
// member may subscribe to, or own partitions of, a topic that is not in
// Topics (deleted, or never created), and list a topic twice: each assignor
// treats those as Kafka's does (InputNotes). Group.CheckFor adds what one
// assignor in particular cannot take.
func (g Group) Validate() error {
	for _, t := range SortedTopics(g.Topics) {
		n := g.Topics[t]
		if t == "" {
			return fmt.Errorf("topics: empty topic name")
		}
		if n < 0 {
			return fmt.Errorf("topics: %q has a negative partition count (%d)", t, n)
		}
		if n > MaxPartitions {
			return fmt.Errorf("topics: %q has %d partitions; at most %d are supported", t, n, MaxPartitions)
		}
	}
	for _, t := range SortedTopics(g.PartitionRacks) {
		racks := g.PartitionRacks[t]
		n, ok := g.Topics[t]
		if !ok {
			return fmt.Errorf("partition_racks: unknown topic %q", t)
		}
		if int32(len(racks)) != n {
			return fmt.Errorf("partition_racks: %q lists racks for %d partitions but the topic has %d", t, len(racks), n)
		}
	}
	if err := g.validateShare(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(g.Members))
	instances := make(map[string]string)
	for i, m := range g.Members {
		if m.ID == "" {
			return fmt.Errorf("members[%d]: empty member id", i)
		}
		if seen[m.ID] {
			return fmt.Errorf("members[%d]: duplicate member id %q", i, m.ID)
		}
		seen[m.ID] = true
		if m.InstanceID != "" {
			if other, dup := instances[m.InstanceID]; dup {
				return fmt.Errorf("members[%d]: instance %q is already used by member %q", i, m.InstanceID, other)
			}
			instances[m.InstanceID] = m.ID
		}
		for _, tp := range m.Owned {
			if tp.Partition < 0 {
				return fmt.Errorf("members[%d] (%s): owns %s, but partitions are numbered from 0", i, m.ID, tp)
			}
		}
	}
	return nil
}

// validateShare checks TopicIDs and Assignable: no two topics share an id,
// and assignable partitions exist, ascending and once each.
func (g Group) validateShare() error {
	owners := make(map[TopicID]string, len(g.TopicIDs))
	for _, t := range SortedTopics(g.TopicIDs) {
		id := g.TopicIDs[t]
		if name, reserved := reservedTopicID(id); reserved {
			return fmt.Errorf("topic_ids: %q has %s, which Kafka reserves: no topic has it", t, name)
		}
		if other, dup := owners[id]; dup {
			return fmt.Errorf("topic_ids: %q and %q have the same id %s; a topic id names one topic", other, t, id)
		}
		owners[id] = t
	}
	for _, t := range SortedTopics(g.Assignable) {
		n, ok := g.Topics[t]
		if !ok {
			return fmt.Errorf("assignable: unknown topic %q", t)
		}
		for i, p := range g.Assignable[t] {
			switch {
			case p < 0 || p >= n:
				return fmt.Errorf("assignable: %q has partitions 0..%d, not %d", t, n-1, p)
			case i > 0 && p <= g.Assignable[t][i-1]:
				return fmt.Errorf("assignable: %q lists partition %d twice or out of order (want ascending)", t, p)
			}
		}
	}
	return nil
}

// NewAssignment returns an assignment with an empty entry for every member.
func NewAssignment(members []Member) Assignment {
	a := make(Assignment, len(members))
	for _, m := range members {
		a[m.ID] = map[string][]int32{}
	}
	return a
}

// Add gives tp to member.
func (a Assignment) Add(member string, tp TopicPartition) {
	a[member][tp.Topic] = append(a[member][tp.Topic], tp.Partition)
}

// Normalize sorts every member's partitions ascending and drops empty topics.
func (a Assignment) Normalize() {
	for _, topics := range a {
		for t, ps := range topics {
			if len(ps) == 0 {
				delete(topics, t)
				continue
			}
			sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
		}
	}
}

// Count returns how many partitions member holds.
func (a Assignment) Count(member string) int {
	n := 0
	for _, ps := range a[member] {
		n += len(ps)
	}
	return n
}

// Owner maps every assigned partition to its member.
func (a Assignment) Owner() map[TopicPartition]string {
	out := make(map[TopicPartition]string)
	for m, topics := range a {
		for t, ps := range topics {
			for _, p := range ps {
				out[TopicPartition{t, p}] = m
			}
		}
	}
	return out
}

// SortedTopics returns the keys of a topic-keyed map in Java String order.
func SortedTopics[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for t := range m {
		out = append(out, t)
	}
	slices.SortFunc(out, JavaCompare)
	return out
}

// SortMembers orders members as Kafka's AbstractPartitionAssignor.MemberInfo
// does: static members first, by group.instance.id, then dynamic members by
// member id, all in Java String order. The input is not modified.
func SortMembers(members []Member) []Member {
	order := MemberOrder(members)
	out := make([]Member, len(order))
	for k, i := range order {
		out[k] = members[i]
	}
	return out
}

// MemberOrder is SortMembers as places: the k-th member in Kafka's order
// is members[MemberOrder(members)[k]] (an assignor that reports members
// by their index in the group: EachAssigner).
func MemberOrder(members []Member) []int {
	order := make([]int, len(members))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return MemberLess(members[order[a]], members[order[b]]) })
	return order
}

// MemberLess is the order of SortMembers.
func MemberLess(a, b Member) bool {
	switch {
	case a.InstanceID != "" && b.InstanceID != "":
		if a.InstanceID != b.InstanceID {
			return JavaLess(a.InstanceID, b.InstanceID)
		}
		return JavaLess(a.ID, b.ID)
	case a.InstanceID != "":
		return true
	case b.InstanceID != "":
		return false
	default:
		return JavaLess(a.ID, b.ID)
	}
}
