package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// The help follows what has the keys, as soft-serve's UI composes
// ShortHelp and FullHelp per state: the lab's own keys, or those of the
// mode or prompt in front of it. App is the help.KeyMap the footer and
// the ? screen render; each mode's keys are in its own file (compare.go,
// whatif.go, picker.go, prompt.go).

// layer is what takes the keys first: the lab, or a mode or prompt over it.
type layer int

const (
	layerLab     layer = iota
	layerCompare       // compare.go
	layerWhatIf        // whatif.go
	layerPicker        // picker.go
	layerPrompt        // prompt.go
)

// front is the screen in front: a prompt, then the mode.
func (a App) front() layer {
	switch {
	case a.prompt != nil:
		return layerPrompt
	case a.mode == modePicker:
		return layerPicker
	case a.mode == modeCompare:
		return layerCompare
	case a.mode == modeWhatIf:
		return layerWhatIf
	}
	return layerLab
}

// ShortHelp is the footer's keys, the most needed first; the last two
// (help and quit, or back and quit) always stay. Compare mode and the
// what-if preview keep the lab's footer, since every lab key still works
// there; their own keys are on their screens and first on the ? screen.
// The picker and a prompt take typed keys, so they show theirs.
func (a App) ShortHelp() []key.Binding {
	switch a.front() {
	case layerPicker:
		return pickerHelp(&a.keys)
	case layerPrompt:
		return promptHelp(&a.keys)
	}
	return a.keys.ShortHelp()
}

// FullHelp is the ? screen's columns: the screen's own keys first, then
// the lab's that still apply (its time and experiment keys beside compare
// or a preview), never one key with two meanings.
func (a App) FullHelp() [][]key.Binding {
	full := a.keys.FullHelp()
	var own []key.Binding
	switch a.front() {
	case layerPicker:
		return [][]key.Binding{pickerHelp(&a.keys)}
	case layerPrompt:
		return [][]key.Binding{promptHelp(&a.keys)}
	case layerCompare:
		own = compareHelp(&a.keys)
	case layerWhatIf:
		own = whatIfHelp(&a.keys)
	default:
		return full
	}
	return [][]key.Binding{own, without(full[0], own), without(full[2], own)}
}

// without is bs less the bindings sharing a key with any of own.
func without(bs, own []key.Binding) []key.Binding {
	taken := map[string]bool{}
	for _, b := range own {
		for _, k := range b.Keys() {
			taken[k] = true
		}
	}
	var out []key.Binding
	for _, b := range bs {
		if !slices.ContainsFunc(b.Keys(), func(k string) bool { return taken[k] }) {
			out = append(out, b)
		}
	}
	return out
}

// shown is b with the help a screen gives it ("row up" for ↑ in compare).
func shown(b key.Binding, keys, desc string) key.Binding {
	b.SetHelp(keys, desc)
	return b
}

// footerLines is the short help. When it does not fit, keys are dropped
// from the end of the list, but the last two always stay.
func (a App) footerLines() []string {
	key := footerKey{a.width, a.styles.IsDark, a.styles.NoColor, a.front()}
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
	front           layer
}

func (a App) footerLine() string {
	hm := a.help
	hm.SetWidth(0) // measure untruncated: help would cut with "…" instead
	short := a.ShortHelp()
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
	lines := strings.Split(hm.View(a), "\n")
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
		if len(lines)+2+len(legend) > h-2 {
			legend = strings.Split(renderLegendTwoRows(&a.styles), "\n")
		}
	}
	lines = append(lines, "", a.styles.PaneTitle.Render("Reading the grid"))
	lines = append(lines, legend...)
	// The numbers pane's columns, where the screen has the lines.
	if numbers := wrap(numbersHelp, a.width-5); len(lines)+2+len(numbers) <= h-2 {
		lines = append(lines, "", a.styles.PaneTitle.Render("Reading the numbers"))
		for _, l := range numbers {
			lines = append(lines, a.styles.Faint.Render(l))
		}
	}
	return box(&a.styles, "Keys · ? or esc closes", lines, a.width, h, true)
}

// numbersHelp explains the numbers pane's columns (numbersPane.table).
const numbersHelp = "# the rebalance, in order · gen the generation it made (epoch: the group epoch under KIP-848) · " +
	"when it ran · min–max partitions per live member once it settled · moved partitions that changed owner · " +
	"worst gap the longest a partition went without a consumer · Σ gap those gaps added up over its partitions · " +
	"/ finds a member by id or a partition (orders-3) · W writes the scenario with the events added here"

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

// renderLegendTwoRows is renderLegendCompact in two rows, for a terminal
// whose keys leave only those (80×24 with every lab key).
func renderLegendTwoRows(st *Styles) string {
	b := &st.brushes
	rows := strings.Split(renderLegendCompact(st), "\n")[:1]
	rows = append(rows, b.warn.paint("━━")+b.bad.paint("┃")+b.selected.paint("●")+" timeline: rebalances, events · "+
		b.fg[0].paint("█▓▒░")+" condensed columns: share held")
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
