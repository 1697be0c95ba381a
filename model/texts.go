package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// The few texts both faces print, written once: a virtual time, a span, a
// duration, a rebalance's rounds.

// FormatMs is virtual time as seconds with millisecond precision: "12.345 s".
func FormatMs(ms int64) string { return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000) }

// FormatSpan is a stretch of virtual time to a tenth of a second: "12.0–12.3 s".
func FormatSpan(from, to int64) string {
	return fmt.Sprintf("%.1f–%.1f s", float64(from)/1000, float64(to)/1000)
}

// FormatDur is a duration in ms or s, whichever reads better: "4 ms", "42.0 s".
func FormatDur(ms int64) string {
	if ms < 1000 {
		return strconv.FormatInt(ms, 10) + " ms"
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// Text is the k-th round (0-based) of a rebalance on a line of its own:
// "round 1: generation 4, 60.0–60.0 s".
func (r Round) Text(k int) string {
	if r.EndStep < 0 { // under way, as a quiz question sees it (Numbers.Hiding)
		return fmt.Sprintf("round %d: generation %d, %.1f s–…", k+1, r.Generation, float64(r.StartMs)/1000)
	}
	return fmt.Sprintf("round %d: generation %d, %s", k+1, r.Generation, FormatSpan(r.StartMs, r.EndMs))
}

// RoundsText is what an outcome's rebalance took, in one line: "2 rounds:
// generation 4 (60.0–60.0 s), 5 (60.0–63.0 s); settled at 63.000 s".
func (o Outcome) RoundsText() string {
	if !o.Rebalanced {
		return "no rebalance"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d round", len(o.Rounds))
	if len(o.Rounds) != 1 {
		b.WriteString("s")
	}
	for i, r := range o.Rounds {
		sep := ", "
		if i == 0 {
			sep = ": generation "
		}
		fmt.Fprintf(&b, "%s%d (%s)", sep, r.Generation, FormatSpan(r.StartMs, r.EndMs))
	}
	if !o.Settled {
		return b.String() + "; not settled when the run ends"
	}
	return b.String() + "; settled at " + FormatMs(o.SettledMs)
}

// Text is the group's line, its duration right-aligned so a list of them
// reads as a column: "   42.0 s  orders:4".
func (g GapGroup) Text() string {
	return fmt.Sprintf("%9s  %s", FormatDur(g.Ms), kafka.PartitionRuns(g.Partitions))
}

// Text is the outage's line: when, the longest gap, the partitions:
// "30.0–40.0 s        10.0 s  t0:0–1".
func (o OutageRow) Text() string {
	return fmt.Sprintf("%-15s %9s  %s", FormatSpan(o.StartMs, o.EndMs), FormatDur(o.WorstGapMs), kafka.PartitionRuns(o.Partitions))
}
