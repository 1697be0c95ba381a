package tui

import (
	"fmt"
	"math"
	"strings"
)

// compareBody is compare mode: the same moment under each strategy, each
// with its preferred protocol, side by side. Narrow terminals drop the
// whole-run columns.
func (a App) compareBody(h int) string {
	st := &a.styles
	t := a.compare
	switch {
	case t == nil:
		return box(st, "Compare strategies", []string{st.Faint.Render("simulating the scenario under each assignor…")}, a.width, h, true)
	case t.Err != "":
		return box(st, "Compare strategies", []string{st.Bad.Render("the simulation failed: " + t.Err)}, a.width, h, true)
	}
	// Columns by priority; a narrow terminal drops the tail instead of
	// wrapping a table row.
	// Columns in order of importance; a narrow terminal drops whole
	// columns from the right instead of wrapping or cutting a row.
	inner := a.width - 4
	widths := []int{5, 10, 10, 7, 9, 9, 10}
	used, ncols := 1+1+18+1+11, 0
	for i, cw := range widths {
		need := used + 1 + cw
		if i == 5 {
			need += 2 // the " │" before the whole-run columns
		}
		if need > inner {
			break
		}
		used, ncols = need, i+1
	}
	if ncols == 6 {
		ncols = 5 // the whole-run columns go together
	}
	wide := ncols == 7
	row := func(mark, name, proto string, cells ...string) string {
		line := fmt.Sprintf("%s %-18s %-11s", mark, name, proto)
		for i, c := range cells[:min(len(cells), ncols)] {
			if i == 5 {
				line += " │"
			}
			line += fmt.Sprintf(" %*s", widths[i], c)
		}
		return fit(line, inner)
	}
	lines := []string{
		fit(st.Faint.Render(fmt.Sprintf("%s at %s, until %s, under each assignor and its preferred protocol",
			t.Window.Event, formatMs(t.Window.FromMs), windowEnd(t.Window))), inner),
		"",
		st.PaneTitle.Render(row(" ", "strategy", "protocol", "moved", "worst gap", "Σ gap", "min–max", "took", "run moves", "run Σ gap")),
	}
	for _, r := range t.Rows {
		mark := " "
		if r.Current {
			mark = "▸"
		}
		var line string
		switch {
		case r.Err != "":
			line = row(mark, r.Strategy, r.Protocol) + " cannot simulate: " + r.Err
		case !r.Found:
			line = row(mark, r.Strategy, r.Protocol) + " no rebalance in this window"
		default:
			line = row(mark, r.Strategy, r.Protocol, fmt.Sprint(r.Moved), formatDur(r.UnownedMaxMs),
				formatDur(r.UnownedSumMs), fmt.Sprintf("%d–%d", r.Min, r.Max), formatDur(r.DurationMs),
				fmt.Sprint(r.RunMoved), formatDur(r.RunUnownedMs))
		}
		if r.Current {
			line = st.Selected.Render(line)
		}
		lines = append(lines, line)
	}
	notes := "moved: partitions handed from one member to another · gap: time a partition had no consumer " +
		"(the worst one, and summed over partitions) · min–max: partitions per live member afterwards"
	if wide {
		notes += " · took: first rebalance start to last rebalance end · run: the model's totals over the whole timeline"
	}
	lines = append(lines, "")
	for _, l := range wrap(notes+" · c or esc closes", inner) {
		lines = append(lines, st.Faint.Render(l))
	}
	return box(st, "Compare strategies", lines, a.width, h, true)
}

// windowEnd names where a compare window stops.
func windowEnd(w compareWindow) string {
	if w.ToMs == math.MaxInt64 {
		return "the end"
	}
	return "the next event at " + formatMs(w.ToMs)
}

// whatIfBody shows the grid (smaller) over the preview of the selected
// member leaving or crashing now.
func (a App) whatIfBody(h int) string {
	st := &a.styles
	p := a.whatIf
	g := a.grid()
	gridH := max(min(len(g.Members)+4+2, h/2), 6)
	grid := box(st, a.gridTitle(g), strings.Split(renderGrid(g, st, a.width-4, gridH-2), "\n"), a.width, gridH, false)
	var lines []string
	if p.Outcomes == nil {
		lines = append(lines, st.Faint.Render("forking the timeline: "+p.Member+" leaves / crashes…"))
	}
	for _, o := range p.Outcomes {
		verb := map[string]string{"leave": "leaves (LeaveGroup)", "crash": "crashes (no LeaveGroup)"}[o.Kind]
		keyName := map[string]string{"leave": "d", "crash": "x"}[o.Kind]
		head := st.Value.Render(fmt.Sprintf("[%s] %s %s", keyName, p.Member, verb))
		switch {
		case o.Err != "":
			lines = append(lines, head+"  "+st.Bad.Render(o.Err))
			continue
		case !o.Found:
			lines = append(lines, head+"  "+st.Faint.Render("no rebalance follows in this timeline"))
			continue
		}
		by := ""
		if o.UntilMs != math.MaxInt64 {
			by = " by " + formatMs(o.UntilMs) + " (next event)"
		}
		lines = append(lines, head+st.Faint.Render(fmt.Sprintf(": rebalance %s, worst gap %s; %d changes%s",
			formatSpan(o.StartMs, o.EndMs), formatDur(o.UnownedMs), len(o.Moves), by)))
		for _, l := range a.movesLines(o.Moves, a.width-4-3) {
			lines = append(lines, "   "+l)
		}
	}
	// The status line says which key commits what; the box keeps to the
	// outcomes, which matter most on a small screen.
	title := fmt.Sprintf("What if %s leaves or crashes now (%s)? A preview under %s", p.Member, formatMs(p.AtMs), p.Strategy)
	return grid + "\n" + box(st, title, wrapAll(lines, a.width-4), a.width, h-gridH, true)
}

// movesLines lists moves as "t0-2 B c2→A c1", members with their letters,
// packed into lines of w cells; a move is never split across lines.
func (a App) movesLines(ms []move, w int) []string {
	if len(ms) == 0 {
		return []string{a.styles.Faint.Render("no partition changes owner")}
	}
	name := func(id string) string {
		if id == "" {
			return a.styles.Unowned.Render("nobody")
		}
		letter, color := a.info.letter(id)
		return a.styles.MemberFg(color).Render(letter + " " + id)
	}
	const sep = "   "
	var out []string
	line := ""
	for _, m := range ms {
		item := m.TP.String() + " " + name(m.From) + "→" + name(m.To)
		if line != "" && textWidth(line)+len(sep)+textWidth(item) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += sep
		}
		line += item
	}
	return append(out, line)
}

// wrapAll word-wraps each line to w.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, w)...)
	}
	return out
}
