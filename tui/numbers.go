package tui

import (
	"fmt"
	"strconv"
)

// numbersLines is the numbers pane: balance now, then one row per
// rebalance with its moves and how long partitions went without a consumer
// (the stop-the-world cost).
func (a App) numbersLines(w, h int) []string {
	st := &a.styles
	v := a.view()
	lo, hi := balance(v)
	held, total := 0, 0
	for _, t := range v.Topics {
		total += int(t.Partitions)
	}
	for _, m := range v.Members {
		held += len(m.Owned) // a partition has one consumer: no double count
	}
	out := []string{
		fit(st.Label.Render("now ")+st.Value.Render(fmt.Sprintf("%d–%d", lo, hi))+st.Label.Render(" per live member · ")+
			st.Value.Render(fmt.Sprintf("%d/%d", held, total))+st.Label.Render(" partitions consumed"), w),
		st.PaneTitle.Render(fmt.Sprintf(" %-3s %-4s %-15s %5s %9s %9s", "#", "gen", "when", "moved", "worst gap", "Σ gap")),
	}
	rs := a.info.rebalances
	if len(rs) == 0 {
		return append(out, st.Faint.Render("no rebalance completed in this timeline"))
	}
	cur := a.info.lastRebalance(a.step)
	first := max(0, min(cur-(h-3)/2, len(rs)-(h-2)))
	for i := first; i < len(rs) && len(out) < h; i++ {
		r := rs[i]
		var worst, sum int64
		for _, ms := range r.UnownedMs {
			worst = max(worst, ms)
			sum += ms
		}
		line := fmt.Sprintf("%-3s %-4d %-15s %5d %9s %9s", strconv.Itoa(i+1), r.Generation,
			formatSpan(r.StartMs, r.EndMs), r.Moved, formatDur(worst), formatDur(sum))
		switch {
		case r.StartStep <= a.step && a.step <= r.EndStep:
			line = st.Selected.Render("▸" + line)
		case i > cur:
			line = st.Faint.Render(" " + line)
		default:
			line = " " + line
		}
		out = append(out, fit(line, w))
	}
	return out
}

// formatSpan is "12.0–12.3 s".
func formatSpan(from, to int64) string {
	return fmt.Sprintf("%.1f–%.1f s", float64(from)/1000, float64(to)/1000)
}

// formatDur is a duration in ms or s, whichever reads better.
func formatDur(ms int64) string {
	if ms < 1000 {
		return strconv.FormatInt(ms, 10) + " ms"
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}
