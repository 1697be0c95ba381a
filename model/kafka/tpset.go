package kafka

import (
	"slices"
	"strings"

	"github.com/kvizlab/kviz/strategies"
)

// TP is a topic-partition.
type TP = strategies.TopicPartition

// Sets of partitions are sorted slices, never changed in place once built:
// snapshots share them.

func SortTPs(s []TP) []TP {
	strategies.SortTopicPartitions(s)
	return s
}

// PartitionRuns names partitions for a person, the one way kviz does:
// "t0:0–3,5; t1:2" (any order in, topic then partition order out).
func PartitionRuns(tps []TP) string {
	return strategies.FormatRuns(SortTPs(slices.Clone(tps)), 0)
}

// TPsOf flattens an assignor's topic -> partitions map. Assignors give each
// topic's partitions ascending, so only the topics need sorting.
func TPsOf(a map[string][]int32) []TP {
	n := 0
	for _, ps := range a {
		n += len(ps)
	}
	if n == 0 {
		return nil
	}
	out := make([]TP, 0, n)
	ascending := true
	for _, t := range strategies.SortedTopics(a) {
		ps := a[t]
		for i, p := range ps {
			out = append(out, TP{Topic: t, Partition: p})
			ascending = ascending && (i == 0 || ps[i-1] < p)
		}
	}
	if !ascending {
		return SortTPs(out)
	}
	return out
}

func TPIndex(s []TP) map[TP]bool {
	m := make(map[TP]bool, len(s))
	for _, tp := range s {
		m[tp] = true
	}
	return m
}

// MinusTPs returns a - b.
func MinusTPs(a, b []TP) []TP {
	if len(b) == 0 {
		return a
	}
	return FilterTPs(a, b, false)
}

// IntersectTPs returns a ∩ b.
func IntersectTPs(a, b []TP) []TP {
	return FilterTPs(a, b, true)
}

// FilterTPs returns the partitions of a that are in b (in = true) or not,
// in a's order. Sets are sorted, so one merge decides, without a map; a
// list that is not sorted (none should be) still gets the right answer.
func FilterTPs(a, b []TP, in bool) []TP {
	var out []TP
	if !IsSortedTPs(a) || !IsSortedTPs(b) {
		index := TPIndex(b)
		for _, tp := range a {
			if index[tp] == in {
				out = append(out, tp)
			}
		}
		return out
	}
	// Counted first, then made at its size: grown by appending, the
	// lists of a range-server member of a thousand topics were most of a
	// reconciliation's time (issue 21). A filter that keeps all of a is a
	// itself, as MinusTPs(a, nil) always was.
	n := mergeTPs(a, b, in, nil)
	switch n {
	case 0:
		return nil
	case len(a):
		return a
	}
	out = make([]TP, 0, n)
	mergeTPs(a, b, in, func(tp TP) { out = append(out, tp) })
	return out
}

// mergeTPs walks sorted a against sorted b and counts the partitions of a
// that are in b (in = true) or not, handing each to keep when it is set.
func mergeTPs(a, b []TP, in bool, keep func(TP)) int {
	n, j := 0, 0
	for _, tp := range a {
		for j < len(b) && CompareTPs(b[j], tp) < 0 {
			j++
		}
		if (j < len(b) && b[j] == tp) == in {
			n++
			if keep != nil {
				keep(tp)
			}
		}
	}
	return n
}

// CompareTPs is the order of partitions and of sets: topic (Java String
// order), then partition.
func CompareTPs(a, b TP) int { return strategies.CompareTopicPartitions(a, b) }

// MaxPartitions is the most partitions a topic may have in a scenario.
const MaxPartitions = strategies.MaxPartitions

func IsSortedTPs(s []TP) bool {
	for i := 1; i < len(s); i++ {
		if CompareTPs(s[i-1], s[i]) > 0 {
			return false
		}
	}
	return true
}

func UnionTPs(a, b []TP) []TP {
	if !isSetTPs(a) || !isSetTPs(b) {
		out := append(append([]TP(nil), a...), MinusTPs(b, a)...)
		return SortTPs(out)
	}
	// Two sets (ascending, each partition once): one merge into a list of
	// the union's size, instead of a copy, a filter and a sort of a
	// thousand-topic member's partitions (issue 21).
	out := make([]TP, 0, len(a)+mergeTPs(b, a, false, nil))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := CompareTPs(a[i], b[j]); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(append(out, a[i:]...), b[j:]...)
	if len(out) == 0 {
		return nil
	}
	return out
}

// isSetTPs: s ascends strictly (each partition once).
func isSetTPs(s []TP) bool {
	for i := 1; i < len(s); i++ {
		if CompareTPs(s[i-1], s[i]) >= 0 {
			return false
		}
	}
	return true
}

// OnTopics keeps the partitions of the given topics.
func OnTopics(s []TP, topics []string) []TP {
	in := func(t string) bool { return slices.Contains(topics, t) }
	if len(topics) > 16 {
		// A member of a thousand topics: no scan of them per partition.
		if slices.IsSorted(topics) {
			in = func(t string) bool { _, found := slices.BinarySearch(topics, t); return found }
		} else {
			set := make(map[string]bool, len(topics))
			for _, t := range topics {
				set[t] = true
			}
			in = func(t string) bool { return set[t] }
		}
	}
	var out []TP
	keep := false
	for i, tp := range s {
		if i == 0 || tp.Topic != s[i-1].Topic {
			keep = in(tp.Topic)
		}
		if keep {
			out = append(out, tp)
		}
	}
	return out
}

// FormatTPs prints partitions as Kafka logs them: [t0-0, t0-1].
// One buffer, no string per partition: heartbeats name every owned
// partition, thousands per rebalance of a large group.
func FormatTPs(s []TP) string {
	b := make([]byte, 0, 2+12*len(s))
	b = append(b, '[')
	for i, tp := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = tp.AppendTo(b)
	}
	return string(append(b, ']'))
}

// TPMap turns a set into the JSON shape {"t0": [0, 1]}. A set runs topic by
// topic: one map entry per run, all the partitions in one array (`kviz
// simulate` writes a map per member per step).
func TPMap(s []TP) map[string][]int32 {
	out := map[string][]int32{}
	ps := make([]int32, len(s))
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j].Topic == s[i].Topic {
			j++
		}
		run := ps[i:j:j]
		for k := range run {
			run[k] = s[i+k].Partition
		}
		if before, seen := out[s[i].Topic]; seen {
			run = append(before, run...) // only in a list that is not sorted
		}
		out[s[i].Topic] = run
		i = j
	}
	return out
}

// MaxListed is how many members a sentence lists before it summarises.
const MaxListed = 12

// Summarize joins per-member parts, cutting long lists short: a trainer
// reads a dozen members aloud, not a thousand.
func Summarize(parts []string) string {
	if len(parts) <= MaxListed {
		return strings.Join(parts, ", ")
	}
	return strings.Join(parts[:MaxListed], ", ") + ", …"
}
