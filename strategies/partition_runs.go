package strategies

import (
	"cmp"
	"slices"
	"strconv"
)

// CompareTopicPartitions is kviz's one order of partitions: by topic (Java
// String order, as Kafka's sorted collections keep them), then by number.
func CompareTopicPartitions(a, b TopicPartition) int {
	if a.Topic != b.Topic {
		return JavaCompare(a.Topic, b.Topic)
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// SortTopicPartitions sorts s in that order.
func SortTopicPartitions(s []TopicPartition) { slices.SortFunc(s, CompareTopicPartitions) }

// AppendTo appends tp as Kafka prints it, "t0-3" (String without the
// allocation).
func (tp TopicPartition) AppendTo(b []byte) []byte {
	b = append(b, tp.Topic...)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(tp.Partition), 10)
}

// Partition runs are how kviz names a set of partitions to a person: topic
// by topic, consecutive partitions folded, "t0:0–3,5; t1:2" (a single
// topic's numbers alone: "0–3,5"). Past a given number of runs the rest is
// only counted: "t0:0,2,4 … (120 partitions in all)". Kafka's own list,
// "[t0-0, t0-1]", is for the trace's log lines (TopicPartition.AppendTo).

// FormatRuns writes partitions, grouped by topic and ascending within it
// (as CompareTopicPartitions sorts them), as runs; maxRuns = 0 writes all.
func FormatRuns(tps []TopicPartition, maxRuns int) string {
	w := runWriter{named: true, maxRuns: maxRuns}
	for _, tp := range tps {
		w.add(tp.Topic, tp.Partition)
	}
	return w.String()
}

// FormatPartitions writes one topic's ascending partition numbers as runs,
// as a trainer would say them: "0–3,7,9–10"; past explainListMax runs it
// counts.
func FormatPartitions(ps []int32) string {
	w := runWriter{maxRuns: explainListMax}
	for _, p := range ps {
		w.add("", p)
	}
	return w.String()
}

// runWriter folds partitions into runs as they come.
type runWriter struct {
	named    bool // write "topic:" before each topic's runs
	maxRuns  int  // 0: no limit
	b        []byte
	topic    string
	from, to int32
	open     bool // a run from..to is not written yet
	runs     int  // runs written or open
	count    int  // partitions seen
	cut      bool // runs were left out
}

func (w *runWriter) add(topic string, p int32) {
	w.count++
	if w.cut {
		return
	}
	if w.open && topic == w.topic && p == w.to+1 {
		w.to = p
		return
	}
	w.flush()
	if w.maxRuns > 0 && w.runs == w.maxRuns {
		w.cut = true // from here on only counted
		return
	}
	switch {
	case w.runs == 0 || topic != w.topic:
		if w.runs > 0 {
			w.b = append(w.b, "; "...)
		}
		if w.named {
			w.b = append(append(w.b, topic...), ':')
		}
	default:
		w.b = append(w.b, ',')
	}
	w.topic, w.from, w.to, w.open = topic, p, p, true
	w.runs++
}

func (w *runWriter) flush() {
	if !w.open {
		return
	}
	w.b = strconv.AppendInt(w.b, int64(w.from), 10)
	if w.to > w.from {
		w.b = append(w.b, "–"...)
		w.b = strconv.AppendInt(w.b, int64(w.to), 10)
	}
	w.open = false
}

// String ends the last run and, when some were left out, the count.
func (w *runWriter) String() string {
	w.flush()
	if w.cut {
		w.b = append(w.b, " … ("...)
		w.b = append(w.b, serverPlural(w.count)...)
		w.b = append(w.b, " in all)"...)
	}
	return string(w.b)
}
