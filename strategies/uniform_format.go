package strategies

import (
	"slices"
	"strconv"
)

// Explanations name partition sets as partition runs (partition_runs.go),
// shortened so a line stays readable.

// serverFormatMaxRuns is how many runs formatFlat writes before it only counts.
const serverFormatMaxRuns = 40

// formatFlat formats flat partitions of spec s, ascending within each topic.
func (s *serverSpec) formatFlat(flat []int) string {
	w := runWriter{named: true, maxRuns: serverFormatMaxRuns}
	for _, f := range flat {
		t := s.topicOf(f)
		w.add(s.topics[t], int32(f-s.base[t]))
	}
	return w.String()
}

// serverFormatTPs formats partitions in any order (a member's owned list).
func serverFormatTPs(tps []TopicPartition) string {
	sorted := slices.Clone(tps)
	SortTopicPartitions(sorted)
	return FormatRuns(sorted, serverFormatMaxRuns)
}

// serverPlural returns "1 partition" or "n partitions".
func serverPlural(n int) string {
	if n == 1 {
		return "1 partition"
	}
	return strconv.Itoa(n) + " partitions"
}

// serverCount returns "1 member" or "n members".
func serverCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
