package tui

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/kvizlab/kviz/model"
)

// numbersLines is the numbers pane: balance now, one row per rebalance
// (balance after it, moves, how long partitions went without a consumer:
// the stop-the-world cost), then that cost partition by partition for the
// rebalance at the cursor.
func (a App) numbersLines(w, h int) []string {
	st := &a.styles
	v := a.view()
	b := v.Balance()
	held, total := v.Consumed()
	out := []string{
		fit(st.Label.Render("now ")+st.Value.Render(fmt.Sprintf("%d–%d", b.Min, b.Max))+st.Label.Render(" partitions per live member · ")+
			st.Value.Render(fmt.Sprintf("%d/%d", held, total))+st.Label.Render(" consumed"), w),
		st.PaneTitle.Render(fmt.Sprintf(" %-3s %-4s %-15s %7s %5s %9s %9s", "#", "gen", "when", "min–max", "moved", "worst gap", "Σ gap")),
	}
	rs := a.info.rebalances
	if len(rs) == 0 {
		return append(out, st.Faint.Render("no rebalance completed in this timeline"))
	}
	focus := a.info.currentRebalance(a.step)
	if focus < 0 {
		focus = a.info.lastRebalance(a.step)
	}
	gaps := []string(nil)
	if focus >= 0 {
		gaps = gapLines(rs[focus].UnownedMs, w)
	}
	// The table comes first; the per-partition gaps get what is left, and
	// only if at least one of them fits under their heading.
	avail := max(h-len(out), 1)
	rows := min(len(rs), avail)
	first := max(0, min(focus-rows/2, len(rs)-rows))
	for i := first; i < first+rows; i++ {
		out = append(out, a.rebalanceRow(i, focus, w))
	}
	room := avail - rows
	// The rounds of the rebalance at the cursor: a cooperative dance is
	// two generations, the thing seed example 9 teaches.
	if focus >= 0 && len(rs[focus].Rounds) > 1 && room >= 2 {
		shown := rs[focus].Rounds[:min(len(rs[focus].Rounds), room)]
		for k, rd := range shown {
			line := fmt.Sprintf("    round %d: generation %d, %s", k+1, rd.Generation, formatSpan(rd.StartMs, rd.EndMs))
			if rd.StartStep > a.step {
				line = st.Faint.Render(line)
			}
			out = append(out, fit(line, w))
		}
		room -= len(shown)
	}
	if room >= 2 && len(gaps) > 0 {
		out = append(out, st.Label.Render(fmt.Sprintf("no consumer during #%d:", focus+1)))
		shown := gaps[:min(len(gaps), room-1)]
		for _, g := range shown {
			out = append(out, st.Faint.Render(g))
		}
		room -= 1 + len(shown)
	}
	if outs := a.outageLines(w); room >= 2 && len(outs) > 0 {
		out = append(out, st.Label.Render("no consumer outside a rebalance (a member down, no join phase yet):"))
		out = append(out, outs[:min(len(outs), room-1)]...)
	}
	return out
}

// outageLines lists the model's outages: stretches with no rebalance under
// way when some subscribed partition had no consumer, such as a crashed
// member until its session expires or a static member restarting (which
// starts no rebalance at all). Outages after the cursor are faint.
func (a App) outageLines(w int) []string {
	src, ok := a.sim.(interface{ Outages() []model.Outage })
	if !ok {
		return nil
	}
	st := &a.styles
	var out []string
	for _, o := range src.Outages() {
		tps := make([]model.TP, 0, len(o.UnownedMs))
		for tp := range o.UnownedMs {
			tps = append(tps, tp)
		}
		line := fit(fmt.Sprintf("  %-15s %9s  %s", formatSpan(o.StartMs, o.EndMs), formatDur(o.WorstGapMs()), model.PartitionRuns(tps)), w)
		if o.StartStep > a.step {
			line = st.Faint.Render(line)
		}
		out = append(out, line)
	}
	return out
}

// rebalanceRow is one line of the table; the rebalance under way (or the
// last one) is marked, later ones are faint.
func (a App) rebalanceRow(i, focus, w int) string {
	st := &a.styles
	r := a.info.rebalances[i]
	b := a.sim.View(min(r.EndStep, a.sim.Len()-1)).Balance()
	line := fmt.Sprintf("%-3s %-4d %-15s %7s %5d %9s %9s", strconv.Itoa(i+1), r.Generation,
		formatSpan(r.StartMs, r.EndMs), fmt.Sprintf("%d–%d", b.Min, b.Max), r.Moved, formatDur(r.WorstGapMs()), formatDur(r.TotalGapMs()))
	switch {
	case i == focus:
		line = st.Selected.Render("▸" + line)
	case r.StartStep > a.step:
		line = st.Faint.Render(" " + line)
	default:
		line = " " + line
	}
	return fit(line, w)
}

// gapLines groups partitions by how long they had no consumer, longest
// first: "42.0 s  orders:4" / "4 ms  orders:0–3,5".
func gapLines(unowned map[model.TP]int64, w int) []string {
	byGap := map[int64][]model.TP{}
	for tp, ms := range unowned {
		if ms > 0 {
			byGap[ms] = append(byGap[ms], tp)
		}
	}
	gaps := make([]int64, 0, len(byGap))
	for ms := range byGap {
		gaps = append(gaps, ms)
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] > gaps[j] })
	var out []string
	for _, ms := range gaps {
		out = append(out, fit(fmt.Sprintf("  %9s  %s", formatDur(ms), model.PartitionRuns(byGap[ms])), w))
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
