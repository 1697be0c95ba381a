package tui

import (
	"fmt"
	"strconv"

	"github.com/kvizlab/kviz/model"
)

// numbersPane is the numbers pane's data: the model's numbers at the step
// on screen (model.Ledger.At, what `kviz rebalances --at-step` prints) and
// the texts the lab keeps for them.
type numbersPane struct {
	n        model.Numbers
	consumer bool // KIP-848: the generation column is the group epoch
	texts    *numbersTexts
	st       *Styles
	counting bool // the rebalances are still being counted (ledgerlater.go)
}

// numbersPane is the pane at the current step; while a quiz question is
// open, without what would answer it (model.Numbers.Hiding).
func (a App) numbersPane() numbersPane {
	if a.counting() {
		return numbersPane{counting: true, st: &a.styles}
	}
	n := a.Numbers()
	a.info.texts().outages(n.Outages) // the texts are the whole run's, kept once
	if h, ok := a.quizHides(); ok {
		n = n.Hiding(h)
	}
	return numbersPane{n: n, consumer: a.view().Protocol == "consumer", texts: a.info.texts(), st: &a.styles}
}

// Numbers is what the numbers pane shows at the current step: the model's
// numbers, the ones `kviz rebalances --at-step` prints.
func (a App) Numbers() model.Numbers {
	key := numbersKey{info: a.info, step: a.step}
	if m := a.memo; m.numbers == nil || m.numbersKey != key {
		n := a.ledger().At(a.step)
		m.numbersKey, m.numbers = key, &n
	}
	return *a.memo.numbers
}

// numbersKey is what the numbers depend on: the simulation and the step.
type numbersKey struct {
	info *simInfo
	step int
}

// Render is the pane in w × h cells: balance now, one row per rebalance
// (balance after it, moves, how long partitions went without a consumer:
// the stop-the-world cost), then the rounds and that cost partition by
// partition for the rebalance in focus, then the outages. A narrow pane
// drops whole columns, least needed first, instead of cutting them.
func (p numbersPane) Render(w, h int) []string {
	st, n := p.st, p.n
	if p.counting {
		return []string{st.Faint.Render(fit("counting the rebalances…", w))}
	}
	span, share := fmt.Sprintf("%d–%d", n.Balance.Min, n.Balance.Max), fmt.Sprintf("%d/%d", n.Consumed, n.Partitions)
	out := []string{firstFit(w,
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" partitions per live member · ")+st.Value.Render(share)+st.Label.Render(" consumed"),
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" per live member · ")+st.Value.Render(share)+st.Label.Render(" consumed"),
		st.Label.Render("now ")+st.Value.Render(span)+st.Label.Render(" per member · ")+st.Value.Render(share))}
	rs := n.Rebalances
	if len(rs) == 0 {
		return append(out, st.Faint.Render("no rebalance completed in this timeline"))
	}
	focus := n.Focus
	// The table comes first; the per-partition gaps get what is left, and
	// only if at least one of them fits under their heading.
	avail := max(h-len(out)-1, 1)
	rows := min(len(rs), avail)
	first := max(0, min(focus-rows/2, len(rs)-rows))
	table := p.table(first, first+rows)
	// The first cell marks the focused row; the last stays blank, so a
	// header word never ends on the edge like a cut one.
	table.fitTo(w - 2)
	out = append(out, st.PaneTitle.Render(" "+table.header()))
	for i := first; i < first+rows; i++ {
		out = append(out, p.row(table.row(i-first), i, w))
	}
	room := avail - rows
	// The rounds of the rebalance in focus: a cooperative dance is two
	// generations, the thing seed example 9 teaches.
	if focus >= 0 && len(rs[focus].Rounds) > 1 && room >= 2 {
		shown := rs[focus].Rounds[:min(len(rs[focus].Rounds), room)]
		for k, rd := range shown {
			line := "    " + rd.Text(k)
			if rd.StartStep > n.Step {
				line = st.Faint.Render(line)
			}
			out = append(out, fit(line, w))
		}
		room -= len(shown)
	}
	if focus >= 0 && rs[focus].UnderWay {
		// the gaps are the outcome a quiz question asks about (and the
		// texts keep the whole row's)
	} else if gaps := p.texts.gaps(rs, focus); room >= 2 && len(gaps) > 0 {
		out = append(out, st.Label.Render(fmt.Sprintf("no consumer during #%d:", focus+1)))
		shown := gaps[:min(len(gaps), room-1)]
		for _, g := range shown {
			out = append(out, st.Faint.Render(fit(g, w)))
		}
		room -= 1 + len(shown)
	}
	if outs := p.outageLines(w); room >= 2 && len(outs) > 0 {
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

// table is the table of rebalances first..last-1, every cell formatted, so
// the columns can be sized to their content and dropped by priority.
func (p numbersPane) table(first, last int) *columns {
	rs := p.n.Rebalances[first:last]
	t := &columns{}
	num, gen, when, spread, moved, worst, sum := make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs)),
		make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs)), make([]string, len(rs))
	for i, r := range rs {
		num[i], gen[i], when[i] = strconv.Itoa(r.Number), strconv.Itoa(int(r.Generation)), model.FormatSpan(r.StartMs, r.EndMs)
		spread[i], moved[i] = fmt.Sprintf("%d–%d", r.Balance.Min, r.Balance.Max), strconv.Itoa(r.Moved)
		worst[i], sum[i] = model.FormatDur(r.WorstGapMs), model.FormatDur(r.TotalGapMs)
		if r.UnderWay { // a quiz question is about its outcome
			when[i] = fmt.Sprintf("%.1f s–…", float64(r.StartMs)/1000)
			spread[i], moved[i], worst[i], sum[i] = "?", "?", "?", "?"
		}
	}
	// Priority: what a rebalance cost (moves, the longest gap) outlasts
	// when it happened and the generation it made.
	t.add("#", num, false, 0)
	genHead := "gen"
	if p.consumer {
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

// row is one line of the table; the rebalance in focus is marked, later
// ones are faint.
func (p numbersPane) row(cells string, i, w int) string {
	st := p.st
	var line string
	switch {
	case i == p.n.Focus:
		line = st.Selected.Render("▸" + cells)
	case p.n.Rebalances[i].StartStep > p.n.Step:
		line = st.Faint.Render(" " + cells)
	default:
		line = " " + cells
	}
	return fit(line, w)
}

// outageLines lists the model's outages: stretches with no rebalance under
// way when some subscribed partition had no consumer, such as a crashed
// member until its session expires or a static member restarting (which
// starts no rebalance at all). Outages after the step are faint.
func (p numbersPane) outageLines(w int) []string {
	var out []string
	for k, o := range p.n.Outages {
		line := fit(p.texts.outageLine(o, k), w)
		if p.n.Outages[k].StartStep > p.n.Step {
			line = p.st.Faint.Render(line)
		}
		out = append(out, line)
	}
	return out
}
