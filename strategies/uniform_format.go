package strategies

import (
	"strconv"
	"strings"
)

// Explanations name partition sets the way the assignment table does
// ("t0:0–3,5; t1:2"), with runs shortened so a line stays readable.

// formatMaxRuns is how many runs formatFlat writes before it only counts.
const formatMaxRuns = 40

// formatFlat formats flat partitions of spec s, ascending within each topic.
func (s *serverSpec) formatFlat(flat []int) string {
	var b strings.Builder
	t := -1
	runStart, runEnd := -1, -1
	runs := 0
	flush := func() {
		if runStart < 0 {
			return
		}
		writeRun(&b, runStart-s.base[t], runEnd-s.base[t])
		runStart = -1
		runs++
	}
	for _, f := range flat {
		ft := s.topicOf(f)
		if ft == t && f == runEnd+1 {
			runEnd = f
			continue
		}
		flush()
		if runs >= formatMaxRuns {
			b.WriteString(" … (" + pluralParts(len(flat)) + " in all)")
			return b.String()
		}
		if ft != t {
			if t >= 0 {
				b.WriteString("; ")
			}
			t = ft
			b.WriteString(s.topics[t])
			b.WriteByte(':')
		} else {
			b.WriteByte(',')
		}
		runStart, runEnd = f, f
	}
	flush()
	return b.String()
}

// writeRun writes "a" or "a–b".
func writeRun(b *strings.Builder, from, to int) {
	b.WriteString(strconv.Itoa(from))
	if to > from {
		b.WriteString("–")
		b.WriteString(strconv.Itoa(to))
	}
}

// formatRange formats partitions [from, to) of one topic, "t0:4–6".
func formatRange(topic string, from, to int32) string {
	var b strings.Builder
	b.WriteString(topic)
	b.WriteByte(':')
	writeRun(&b, int(from), int(to-1))
	return b.String()
}

// formatTPs formats a short list of partitions, in the given order.
func formatTPs(tps []TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return strings.Join(parts, ", ")
}

// plural returns "1 partition" or "n partitions".
func pluralParts(n int) string {
	if n == 1 {
		return "1 partition"
	}
	return strconv.Itoa(n) + " partitions"
}
