package strategies

import (
	"strconv"
	"strings"
)

// Explanations name partition sets the way the assignment table does
// ("t0:0–3,5; t1:2"), with runs shortened so a line stays readable.

// srvFormatMaxRuns is how many runs formatFlat writes before it only counts.
const srvFormatMaxRuns = 40

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
		srvWriteRun(&b, runStart-s.base[t], runEnd-s.base[t])
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
		if runs >= srvFormatMaxRuns {
			b.WriteString(" … (" + srvPlural(len(flat)) + " in all)")
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

// srvWriteRun writes "a" or "a–b".
func srvWriteRun(b *strings.Builder, from, to int) {
	b.WriteString(strconv.Itoa(from))
	if to > from {
		b.WriteString("–")
		b.WriteString(strconv.Itoa(to))
	}
}

// srvFormatTPs formats a list of partitions in the given order, the first
// srvFormatMaxRuns of them.
func srvFormatTPs(tps []TopicPartition) string {
	parts := make([]string, 0, min(len(tps), srvFormatMaxRuns)+1)
	for i, tp := range tps {
		if i == srvFormatMaxRuns {
			parts = append(parts, "… ("+srvPlural(len(tps))+" in all)")
			break
		}
		parts = append(parts, tp.String())
	}
	return strings.Join(parts, ", ")
}

// srvPlural returns "1 partition" or "n partitions".
func srvPlural(n int) string {
	if n == 1 {
		return "1 partition"
	}
	return strconv.Itoa(n) + " partitions"
}

// srvCount returns "1 member" or "n members".
func srvCount(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
