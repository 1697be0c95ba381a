package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the whole screen. The alt screen keeps the user's terminal
// intact: on quit Bubble Tea restores it exactly as it was.
func (a App) View() tea.View {
	content, title := a.render()
	v := tea.NewView(content)
	v.AltScreen = true
	v.WindowTitle = title
	return v
}

// render is View's content and window title. A panic while drawing (a bug
// met on some odd scenario) is shown as a message instead of killing the
// session; Bubble Tea's own recovery would restore the terminal too, but
// end the workshop.
func (a App) render() (out, title string) {
	defer func() {
		if r := recover(); r != nil {
			out, title = fmt.Sprintf("kviz could not draw this step: %v\n\npress ← to step back, q to quit", r), "kviz"
		}
	}()
	title = "kviz — " + a.view().GroupID
	if a.width < minWidth || a.height < minHeight {
		return a.tooSmall(), title
	}
	header := a.quizHeader(a.headerLines())
	if a.height >= 30 { // room for the map of the whole run
		if line := a.timelineLine(a.width); line != "" {
			header = append(header, line)
		}
	}
	narration := a.narrationLines()
	if box := a.quizLines(); box != nil {
		narration = box // the question, or its verdict, in place of the narration
	}
	footer := a.footerLines()
	bodyH := a.height - len(header) - len(narration) - len(footer)
	var body string
	switch {
	case a.mode == modePicker:
		body = a.pickerBody(bodyH)
	case a.help.ShowAll:
		body = a.helpBody(bodyH)
	case a.mode == modeCompare:
		body = a.compareBody(bodyH)
	case a.mode == modeWhatIf:
		body = a.whatIfBody(bodyH)
	case a.focus == paneFlow && a.hasFlow():
		body = a.flowBody(bodyH)
	default:
		body = a.labBody(bodyH)
	}
	parts := append(header, body)
	parts = append(parts, narration...)
	parts = append(parts, footer...)
	return strings.Join(parts, "\n"), title
}

// tooSmall asks for room instead of drawing a broken layout; the lab comes
// back on the next resize.
func (a App) tooSmall() string {
	msg := a.styles.Small.Render("make the terminal larger") + "\n" +
		a.styles.Faint.Render(fmt.Sprintf("the lab needs %d×%d, this one is %d×%d", minWidth, minHeight, a.width, a.height))
	return lipgloss.Place(max(a.width, 1), max(a.height, 1), lipgloss.Center, lipgloss.Center, msg)
}

// labBody is the grid over the protocol and numbers panes.
func (a App) labBody(h int) string {
	w := a.width
	g := a.grid()
	// The grid takes what it needs (double-height rows when there is room,
	// see renderGrid); the panes below keep at least a third of the body.
	lowerMin := max(8, h/3)
	gridH := min(2*len(g.Members)+4+2, h-lowerMin)
	gridH = max(gridH, min(h-8, 7))
	lines := a.gridLines(g, w-4, gridH-2)
	gridH = min(gridH, len(lines)+2) // no blank rows: give them to the panes below
	grid := box(&a.styles, a.gridTitle(g), lines, w, gridH, a.focus == paneGrid)
	restH := h - gridH
	return grid + "\n" + a.lowerPanes(w, restH)
}

// grid is the grid data for the current step. The last one is kept: a
// frame drawn again with nothing moved (a spinner turning, a status line)
// does not rebuild it.
func (a App) grid() *gridData {
	key := gridKey{info: a.info, step: a.step, selected: a.selected, live: a.liveMarks}
	if m := a.memo; m.grid != nil && m.gridKey == key {
		return m.grid
	}
	g := buildGrid(a.view(), a.info, a.step, a.selected, freshMembers(a.sim, a.info, a.step))
	if a.liveMarks != nil && a.step == 0 {
		a.liveMarks.apply(g)
	}
	a.memo.gridKey, a.memo.grid = key, g
	a.memo.gridText = nil
	return g
}

// gridLines is the grid drawn in w × h (renderGrid), kept while the grid
// and the size stay.
func (a App) gridLines(g *gridData, w, h int) []string {
	key := gridTextKey{grid: g, w: w, h: h, dark: a.styles.IsDark, noColor: a.styles.NoColor}
	if m := a.memo; m.gridText != nil && m.gridTextKey == key {
		return m.gridText
	}
	lines := strings.Split(renderGrid(g, &a.styles, w, h), "\n")
	a.memo.gridTextKey, a.memo.gridText = key, lines
	return lines
}

// gridKey is what the grid's data depends on: the simulation (its info is
// made once per simulation), the step and the selected member.
type gridKey struct {
	info     *simInfo
	step     int
	selected string
	live     *liveMarks // the live lab's marks: each read brings new ones
}

// gridTextKey is what the drawn grid depends on.
type gridTextKey struct {
	grid          *gridData
	w, h          int
	dark, noColor bool
}

func (a App) gridTitle(g *gridData) string {
	v := a.view()
	return fmt.Sprintf("Assignment · %d members · %d partitions · %s", len(v.Members), g.totalPartitions(), v.Strategy)
}

// lowerPanes shows protocol and numbers side by side when there is room,
// else the focused one (tab switches).
func (a App) lowerPanes(w, h int) string {
	if w >= 120 {
		pw := w - min(70, w*2/5) // numbers need ~64 columns; protocol takes the rest
		left := box(&a.styles, "Protocol", a.protocolLines(pw-4, h-2), pw, h, a.focus == paneProtocol)
		right := box(&a.styles, "Numbers", a.numbersPane().Render(w-pw-4, h-2), w-pw, h, a.focus == paneNumbers)
		return besides(left, right)
	}
	if a.focus == paneNumbers {
		return box(&a.styles, "Numbers · tab: protocol", a.numbersPane().Render(w-4, h-2), w, h, true)
	}
	return box(&a.styles, "Protocol · tab: numbers", a.protocolLines(w-4, h-2), w, h, a.focus == paneProtocol)
}

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

// memo caches what is costly to draw and rarely changes; the App's copies
// share it (Bubble Tea runs Update and View on one goroutine).
type memo struct {
	footer map[footerKey]string

	gridKey     gridKey
	grid        *gridData
	gridTextKey gridTextKey
	gridText    []string

	messages map[messageKey]string // the protocol pane's lines (protocol.go)
}

func newMemo() *memo {
	return &memo{footer: map[footerKey]string{}, messages: map[messageKey]string{}}
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

// wrap splits text into lines of at most w cells, breaking at spaces only:
// ansi.Wordwrap also breaks after hyphens, which turns "t0-1779" into
// "t0-" and "1779". Spacing inside a line is kept (indents, columns of
// moves); the spaces where a line breaks go. A word wider than a line is
// split hard.
func wrap(text string, w int) []string {
	if w < 1 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line, lineW := "", 0
		for i, tok := range spacedWords(para) {
			word := strings.TrimLeft(tok, " ")
			gap := len(tok) - len(word)
			ww := textWidth(word)
			if i == 0 || lineW+gap+ww <= w {
				line, lineW = line+tok, lineW+gap+ww
				if lineW <= w {
					continue
				}
				// a first word wider than the line: split below
				line, lineW, word, ww = "", 0, tok, textWidth(tok)
			} else {
				out = append(out, line)
			}
			for ww > w { // a word that no line can hold
				out = append(out, ansi.Truncate(word, w, ""))
				word = ansi.TruncateLeft(word, w, "")
				ww = textWidth(word)
			}
			line, lineW = word, ww
		}
		out = append(out, line)
	}
	return out
}

// spacedWords splits s into words, each with the spaces before it.
func spacedWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] != ' ' {
			out = append(out, s[start:i])
			start = i
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// wrapN is wrap to at most n lines; when text is left over, the last line
// ends in "…".
func wrapN(text string, w, n int) []string {
	lines := wrap(text, w)
	if len(lines) <= n {
		return lines
	}
	lines = lines[:n]
	lines[n-1] = cut(lines[n-1], w) // more follows: the mark, even where the line would fit
	return lines
}
