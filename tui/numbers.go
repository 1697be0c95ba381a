package tui

import (
	"fmt"
	"strconv"
)

// numbersLines is the numbers pane: balance now, one row per rebalance
// (balance after it, moves, how long partitions went without a consumer:
// the stop-the-world cost), then that cost partition by partition for the
// rebalance at the cursor. A narrow pane drops whole columns, least needed
// first, instead of cutting them.
func (a App) numbersLines(w, h int) []string {
	st := &a.styles
	v := a.view()
	b := v.Balance()
	held, total := v.Consumed()
	span, share := fmt.Sprintf("%d–%d", b.Min, b.Max), fmt.Sprintf("%d/%d", held, total)
	out := []string{firstFit(w,
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" partitions per live member · ")+st.Value.Render(share)+st.Label.Render(" consumed"),
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" per live member · ")+st.Value.Render(share)+st.Label.Render(" consumed"),
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" per member · ")+st.Value.Render(share))}
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
		gaps = a.info.rebalanceGaps(a.sim, focus)
	}
	// The table comes first; the per-partition gaps get what is left, and
	// only if at least one of them fits under their heading.
	avail := max(h-len(out)-1, 1)
	rows := min(len(rs), avail)
	first := max(0, min(focus-rows/2, len(rs)-rows))
	table := a.rebalanceTable(first, first+rows)
	// The first cell marks the focused row; the last stays blank, so a
	// header word never ends on the edge like a cut one.
	table.fitTo(w - 2)
	out = append(out, st.PaneTitle.Render(" "+table.header()))
	for i := first; i < first+rows; i++ {
		out = append(out, a.rebalanceRow(table.row(i-first), i, focus, w))
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
			out = append(out, st.Faint.Render(fit(g, w)))
		}
		room -= 1 + len(shown)
	}
	if outs := a.outageLines(w); room >= 2 && len(outs) > 0 {
		out = append(out, firstFit(w,
			st.Label.Render("no consumer outside a rebalance (a member down, no join phase yet):"),
			st.Label.Render("no consumer outside a rebalance:")))
		out = append(out, outs[:min(len(outs), room-1)]...)
	}
	return out
}

// firstFit is the first of the variants, richest first, that fits w cells
// (the last one cut to w when none does).
func firstFit(w int, variants ...string) string {
	for _, v := range variants {
		if textWidth(v) <= w {
			return v
		}
	}
	return fit(variants[len(variants)-1], w)
}

// rebalanceTable is the table of rebalances first..last-1, every cell
// formatted, so the columns can be sized to their content and dropped by
// priority. (Only the rows on screen: each reads the view after its
// rebalance.)
func (a App) rebalanceTable(first, last int) *columns {
	rs := a.info.rebalances[first:last]
	t := &columns{}
	num, gen, when, spread, moved, worst, sum := make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs)),
		make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs))
	for i, r := range rs {
		n := a.info.rebalanceNumbers(a.sim, first+i)
		num[i], gen[i], when[i] = strconv.Itoa(first+i+1), strconv.Itoa(int(r.Generation)), formatSpan(r.StartMs, r.EndMs)
		spread[i], moved[i] = fmt.Sprintf("%d–%d", n.balance.Min, n.balance.Max), strconv.Itoa(r.Moved)
		worst[i], sum[i] = formatDur(n.worst), formatDur(n.total)
	}
	// Priority: what a rebalance cost (moves, the longest gap) outlasts
	// when it happened and the generation it made.
	t.add("#", num, false, 0)
	genHead := "gen"
	if a.view().Protocol == "consumer" {
		genHead = "epoch" // KIP-848: the group epoch
	}
	t.add(genHead, gen, false, 5)
	t.add("when", when, false, 4)
	t.add("min–max", spread, true, 3)
	t.add("moved", moved, true, 1)
	t.add("worst gap", worst, true, 2)
	t.add("Σ gap", sum, true, 6)
	return t
}

// rebalanceRow is one line of the table; the rebalance under way (or the
// last one) is marked, later ones are faint.
func (a App) rebalanceRow(cells string, i, focus, w int) string {
	st := &a.styles
	r := a.info.rebalances[i]
	var line string
	switch {
	case i == focus:
		line = st.Selected.Render("▸" + cells)
	case r.StartStep > a.step:
		line = st.Faint.Render(" " + cells)
	default:
		line = " " + cells
	}
	return fit(line, w)
}

// outageLines lists the model's outages: stretches with no rebalance under
// way when some subscribed partition had no consumer, such as a crashed
// member until its session expires or a static member restarting (which
// starts no rebalance at all). Outages after the cursor are faint.
func (a App) outageLines(w int) []string {
	st := &a.styles
	var out []string
	for _, o := range a.info.outageTexts(a.sim) {
		line := fit(o.text, w)
		if o.startStep > a.step {
			line = st.Faint.Render(line)
		}
		out = append(out, line)
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
