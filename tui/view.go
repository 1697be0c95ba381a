package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kvizlab/kviz/model"
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
	gridH := min(2*len(g.Members)+4+2+shareExtra(g), h-lowerMin)
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
	key := gridKey{info: a.info, step: a.step, live: a.liveMarks}
	m := a.memo
	if m.grid == nil || m.gridKey != key {
		g := buildGrid(a.view(), a.info, a.step, a.selected, freshMembers(a.sim, a.info, a.step))
		addShareLines(g, a.sim, a.step) // a share group's records, who holds which (gridshare.go)
		if a.liveMarks != nil && a.step == 0 {
			a.liveMarks.apply(g)
		}
		m.gridKey, m.grid, m.selGrid, m.selFor = key, g, nil, ""
		m.gridText = nil
	}
	// Moving the selection draws the same grid with another row marked: a
	// copy that shares the rows (and the rows filled so far).
	if sel := a.selected + "\x00" + a.findTopic; m.selGrid == nil || m.selFor != sel {
		g := *m.grid
		g.Selected = g.indexOf(a.selected)
		g.Focus = slices.IndexFunc(g.Topics, func(t gridTopic) bool { return t.Name == a.findTopic })
		m.selGrid, m.selFor = &g, sel
	}
	return m.selGrid
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
	info *simInfo
	step int
	live *liveMarks // the live lab's marks: each read brings new ones
}

// gridTextKey is what the drawn grid depends on.
type gridTextKey struct {
	grid          *gridData
	w, h          int
	dark, noColor bool
}

func (a App) gridTitle(g *gridData) string {
	v := a.view()
	return "Assignment · " + liveMembers(v) + " · " + plural(g.totalPartitions(), "partition") + " · " + v.Strategy
}

// liveMembers counts the members that are live (not crashed, left or
// fenced: MemberView.Live), and the rest when there are any: "3 members",
// "2 live members of 3".
func liveMembers(v *model.GroupView) string {
	live := 0
	for i := range v.Members {
		if v.Members[i].Live() {
			live++
		}
	}
	if live == len(v.Members) {
		return plural(live, "member")
	}
	return plural(live, "live member") + " of " + strconv.Itoa(len(v.Members))
}

// lowerPanes shows protocol and numbers side by side when there is room,
// else the focused one (tab switches).
func (a App) lowerPanes(w, h int) string {
	if w >= 120 {
		pw := w - min(70, w*2/5) // numbers need ~64 columns; protocol takes the rest
		left := box(&a.styles, "Protocol", a.protocolPane().Render(pw-4, h-2), pw, h, a.focus == paneProtocol)
		right := box(&a.styles, "Numbers", a.numbersPane().Render(w-pw-4, h-2), w-pw, h, a.focus == paneNumbers)
		return besides(left, right)
	}
	if a.focus == paneNumbers {
		return box(&a.styles, "Numbers · tab: protocol", a.numbersPane().Render(w-4, h-2), w, h, true)
	}
	return box(&a.styles, "Protocol · tab: numbers", a.protocolPane().Render(w-4, h-2), w, h, a.focus == paneProtocol)
}
