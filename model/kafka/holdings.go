package kafka

import (
	"slices"
	"strings"

	"github.com/kvizlab/kviz/strategies"
)

// Holdings is an assignment listed member by member: every member id once,
// in id order, each with its partitions topic by topic, in Kafka's topic
// order (strategies.JavaCompare) and each topic's partitions ascending. It
// is what an outcome's before and after are: at Kafka's scale (500 members
// of 1,000 topics each) an Assignment is half a million map entries, built
// only for every reader to sort them again (issue 21). A share group's
// partition may be held by several members.
//
// The zero Holdings is no assignment at all (JSON null); an empty one has
// no members.
type Holdings struct {
	ids    []string
	topics [][]TopicPartitions
}

// TopicPartitions is one topic's partitions of a member, ascending.
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// HoldingsFrom is the holdings of ids (in id order, each once) with, for
// each, its topics (in Kafka's topic order, none empty). It keeps both
// lists.
func HoldingsFrom(ids []string, topics [][]TopicPartitions) Holdings {
	if ids == nil {
		ids = []string{}
	}
	return Holdings{ids: ids, topics: topics}
}

// HoldingsOf lists an assignment (nil: the zero Holdings).
func HoldingsOf(a Assignment) Holdings {
	if a == nil {
		return Holdings{}
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range a {
			if !yield(id) {
				return
			}
		}
	})
	topics := make([][]TopicPartitions, len(ids))
	for i, id := range ids {
		for _, t := range strategies.SortedTopics(a[id]) {
			if ps := a[id][t]; len(ps) > 0 {
				topics[i] = append(topics[i], TopicPartitions{Topic: t, Partitions: slices.Sorted(slices.Values(ps))})
			}
		}
	}
	return HoldingsFrom(ids, topics)
}

// IsZero reports whether this is no assignment at all.
func (h Holdings) IsZero() bool { return h.ids == nil }

// Len is how many members it lists.
func (h Holdings) Len() int { return len(h.ids) }

// Member is the i-th member in id order and its topics (the caller keeps
// both as they are).
func (h Holdings) Member(i int) (id string, topics []TopicPartitions) {
	return h.ids[i], h.topics[i]
}

// Members is every member's id, in id order (the caller keeps it as it is).
func (h Holdings) Members() []string { return h.ids }

// Has reports whether the member is listed (with partitions or without).
func (h Holdings) Has(id string) bool {
	_, ok := slices.BinarySearch(h.ids, id)
	return ok
}

// Topics is one member's topics (nil for one it does not list).
func (h Holdings) Topics(id string) []TopicPartitions {
	if i, ok := slices.BinarySearch(h.ids, id); ok {
		return h.topics[i]
	}
	return nil
}

// Partitions is one member's partitions, in partition order (as
// Assignment.Partitions).
func (h Holdings) Partitions(id string) []TP {
	var out []TP
	for _, tp := range h.Topics(id) {
		for _, p := range tp.Partitions {
			out = append(out, TP{Topic: tp.Topic, Partition: p})
		}
	}
	return out
}

// Assignment is the holdings as a map, every listed member present (nil
// for the zero Holdings).
func (h Holdings) Assignment() Assignment {
	if h.IsZero() {
		return nil
	}
	out := make(Assignment, len(h.ids))
	for i, id := range h.ids {
		m := make(map[string][]int32, len(h.topics[i]))
		for _, tp := range h.topics[i] {
			m[tp.Topic] = tp.Partitions
		}
		out[id] = m
	}
	return out
}

// Holders is each held partition's members, in id order.
func (h Holdings) Holders() map[TP][]string {
	out := map[TP][]string{}
	for i, id := range h.ids {
		for _, tp := range h.topics[i] {
			for _, p := range tp.Partitions {
				k := TP{Topic: tp.Topic, Partition: p}
				out[k] = append(out[k], id) // members come in id order
			}
		}
	}
	return out
}

// Owners is each held partition's member: one per partition outside a
// share group (where the last in id order is kept).
func (h Holdings) Owners() Owners {
	out := Owners{}
	for i, id := range h.ids {
		for _, tp := range h.topics[i] {
			for _, p := range tp.Partitions {
				out[TP{Topic: tp.Topic, Partition: p}] = id
			}
		}
	}
	return out
}

// ByName is topics in byte order, as JSON writes a map's keys: the same
// list when Kafka's order agrees (always, but for names with characters
// above U+FFFF or in U+E000–U+FFFF), else a sorted copy.
func ByName(topics []TopicPartitions) []TopicPartitions {
	byName := func(a, b TopicPartitions) int { return strings.Compare(a.Topic, b.Topic) }
	if slices.IsSortedFunc(topics, byName) {
		return topics
	}
	return slices.SortedFunc(slices.Values(topics), byName)
}
