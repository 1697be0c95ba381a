package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// footerLines is the short help. When it does not fit, keys are dropped
// from the end of the list, but "? full help" and "q quit" always stay.
func (a App) footerLines() []string {
	key := footerKey{a.width, a.styles.IsDark, a.styles.NoColor}
	if line, ok := a.memo.footer[key]; ok {
		return []string{line}
	}
	line := a.footerLine()
	a.memo.footer[key] = line
	return []string{line}
}

// footerKey is what the footer depends on.
type footerKey struct {
	width           int
	isDark, noColor bool
}

func (a App) footerLine() string {
	hm := a.help
	hm.SetWidth(0) // measure untruncated: help would cut with "…" instead
	short := a.keys.ShortHelp()
	keep := short[:len(short)-2]
	tail := short[len(short)-2:]
	for n := len(keep); n >= 0; n-- {
		line := " " + hm.ShortHelpView(append(append([]key.Binding(nil), keep[:n]...), tail...))
		if textWidth(line) <= a.width {
			return line
		}
	}
	return fit(" "+hm.ShortHelpView(tail), a.width)
}

func (a App) helpBody(h int) string {
	hm := a.help
	hm.ShowAll = true
	lines := strings.Split(hm.View(a.keys), "\n")
	legend := strings.Split(renderLegendHelp(&a.styles), "\n")
	// What enter does in each place, where the screen has a line to spare.
	enter := wrap("enter opens the demo under the cursor (o), accepts a prompt's answer (a, t), "+
		"switches the lab to a compare row (c), closes the what-if preview (w)", a.width-5)
	if len(lines)+len(enter)+2+len(legend) <= h-2 {
		for _, l := range enter {
			lines = append(lines, a.styles.Faint.Render(l))
		}
	}
	if len(lines)+2+len(legend) > h-2 {
		// A short terminal: the marks on one line, as under the grid, so
		// every row of the legend still shows.
		legend = strings.Split(renderLegendCompact(&a.styles), "\n")
	}
	lines = append(lines, "", a.styles.PaneTitle.Render("Reading the grid"))
	lines = append(lines, legend...)
	return box(&a.styles, "Keys · ? or esc closes", lines, a.width, h, true)
}

// renderLegendHelp explains every mark, for the help screen.
func renderLegendHelp(st *Styles) string {
	b := &st.brushes
	rows := []string{
		b.cell[0].paint(" A ") + "  partition held by member A (each member: its own letter and colour)",
		b.new[0].paint("+A ") + "  just assigned to A in this step",
		b.out[0].paint("-A ") + "  A is revoking it (onPartitionsRevoked running or pending)",
		b.fg[0].paint("~A ") + "  assigned to A, waiting: withheld for a cooperative round, or not yet released (KIP-848)",
		b.moved.paint(" * ") + "  changed owner in the last rebalance      " + b.unowned.paint("!") + "  no consumer right now",
		b.warn.paint("━━") + b.bad.paint("┃") + b.selected.paint("●") + " timeline (tall terminals): rebalances, scenario events, now",
		b.fg[0].paint("█▓▒░") + " condensed columns: share of the run held",
	}
	return strings.Join(rows, "\n")
}

// renderLegendCompact is renderLegendHelp in three rows, for a short
// terminal: every mark with a word, then the timeline and the condensed
// columns.
func renderLegendCompact(st *Styles) string {
	b := &st.brushes
	rows := []string{
		b.cell[0].paint(" A ") + " held  " + b.new[0].paint("+A ") + " new  " + b.out[0].paint("-A ") + " revoking  " +
			b.fg[0].paint("~A ") + " waiting  " + b.moved.paint(" * ") + " moved  " + b.unowned.paint("!") + " no consumer",
		b.warn.paint("━━") + b.bad.paint("┃") + b.selected.paint("●") + " timeline: rebalances, scenario events, now",
		b.fg[0].paint("█▓▒░") + " condensed columns: share of the run held",
	}
	return strings.Join(rows, "\n")
}
