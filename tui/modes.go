package tui

import (
	"fmt"
	"strings"
)

// compareBody is compare mode: the same moment under each strategy, each
// with its preferred protocol, side by side. Narrow terminals drop the
// whole-run columns.
func (a App) compareBody(h int) string {
	st := &a.styles
	t := a.compare
	if t == nil {
		return box(st, "Compare", []string{"press c to compare"}, a.width, h, true)
	}
	wide := a.width >= 118
	row := func(mark, name, proto string, cells ...string) string {
		line := fmt.Sprintf("%s %-18s %-11s", mark, name, proto)
		widths := []int{5, 7, 10, 10, 9, 9, 10}
		for i, c := range cells {
			if i == 5 {
				line += " │"
			}
			if i >= 4 && !wide {
				break
			}
			line += fmt.Sprintf(" %*s", widths[i], c)
		}
		return line
	}
	lines := []string{
		st.Faint.Render(fmt.Sprintf("the first rebalance ending at or after %s, under each assignor", formatMs(t.AtMs))),
		"",
		st.PaneTitle.Render(row(" ", "strategy", "protocol", "moved", "min–max", "worst gap", "Σ gap", "took", "run moves", "run Σ gap")),
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
			line = row(mark, r.Strategy, r.Protocol) + " no rebalance after this point"
		default:
			line = row(mark, r.Strategy, r.Protocol, fmt.Sprint(r.Moved), fmt.Sprintf("%d–%d", r.Min, r.Max),
				formatDur(r.UnownedMaxMs), formatDur(r.UnownedSumMs), formatDur(r.DurationMs),
				fmt.Sprint(r.RunMoved), formatDur(r.RunUnownedMs))
		}
		if r.Current {
			line = st.Selected.Render(line)
		}
		lines = append(lines, line)
	}
	lines = append(lines, "",
		st.Faint.Render("moved: partitions whose owner changed · min–max: partitions per live member after it"),
		st.Faint.Render("gap: time a partition had no consumer (worst one, and summed over partitions)"))
	if wide {
		lines = append(lines, st.Faint.Render("took: start to end of the rebalance · run: totals over the whole timeline"))
	}
	lines = append(lines, st.Faint.Render("c or esc closes"))
	return box(st, "Compare strategies", wrapAll(lines, a.width-4), a.width, h, true)
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
	lines = append(lines, st.Faint.Render(fmt.Sprintf("a fork of the timeline under %s: nothing is committed yet", p.Strategy)))
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
		lines = append(lines, head+st.Faint.Render(fmt.Sprintf(": rebalance %s, %d moved, gap %s",
			formatSpan(o.StartMs, o.EndMs), len(o.Moves), formatDur(o.UnownedMs))))
		lines = append(lines, "   "+a.movesText(o.Moves))
	}
	lines = append(lines, "", st.Faint.Render("d commits the leave · x commits the crash · w or esc closes"))
	title := fmt.Sprintf("What if %s leaves or crashes now (%s)?", p.Member, formatMs(p.AtMs))
	return grid + "\n" + box(st, title, wrapAll(lines, a.width-4), a.width, h-gridH, true)
}

// movesText lists moves as "t0-2 B c2→A c1", members with their letters.
func (a App) movesText(ms []move) string {
	if len(ms) == 0 {
		return a.styles.Faint.Render("no partition changes owner")
	}
	name := func(id string) string {
		if id == "" {
			return a.styles.Unowned.Render("nobody")
		}
		letter, color := a.info.letter(id)
		return a.styles.MemberFg(color).Render(letter + " " + id)
	}
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.TP.String()+" "+name(m.From)+"→"+name(m.To))
	}
	return strings.Join(parts, "   ")
}

// wrapAll word-wraps each line to w.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, w)...)
	}
	return out
}
