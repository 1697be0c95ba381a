package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// gridColumn is one drawn column: a run of partitions [Lo, Hi) of a topic.
// Without condensing, Hi = Lo+1.
type gridColumn struct {
	Topic  int
	Lo, Hi int
}

// gridLayout is how the grid fits a given width: cell width, partitions per
// column (1 unless condensed), and the columns themselves.
type gridLayout struct {
	LabelW, NameW int
	TagW, CountW  int
	CellW         int // cells per column on screen
	PerCol        int // partitions per column (>1 = condensed)
	Cols          []gridColumn
	GridW         int // width of the column area including topic separators
	RunsW         int // width left for the "orders 0-3, 7" text
}

const (
	maxNameW  = 14
	tagW      = 10
	countW    = 4
	minRunsW  = 12
	maxCellW  = 7
	topicGap  = 1
	glyphSep  = "│"
	selMarker = "▸"
)

// layoutGrid decides cell width and condensing so the grid never wraps: it
// uses the widest cells that fit, then one column per partition, then
// columns that each stand for several partitions of one topic.
func layoutGrid(g *gridData, width int) gridLayout {
	l := gridLayout{TagW: tagW, CountW: countW}
	l.NameW = 4
	for _, m := range g.Members {
		l.NameW = max(l.NameW, min(textWidth(m.ID), maxNameW))
	}
	l.LabelW = 2 + 1 + 1 + l.NameW + 1 // "▸ A name "
	avail := width - l.LabelW - l.TagW - l.CountW
	if avail < 8 { // very narrow: give up the tag column first
		avail += l.TagW
		l.TagW = 0
	}
	avail = max(avail, 1)
	gaps := max(len(g.Topics)-1, 0) * topicGap
	total := g.totalPartitions()
	l.PerCol = 1
	l.CellW = 0
	// Wide cells are worth less than the runs text ("orders 0-3"): keep
	// room for it when cells can stay at least 3 wide.
	for _, cw := range []int{maxCellW, 5, 3, 2, 1} {
		room := avail
		if cw >= 3 {
			room -= minRunsW + 12
		}
		if total*cw+gaps <= room || (cw == 3 && total*cw+gaps <= avail) {
			l.CellW = cw
			break
		}
	}
	if l.CellW == 0 { // condense: the smallest run length that fits
		l.CellW = 1
		for k := 2; ; k++ {
			if columnsFor(g, k)+gaps <= avail || k >= total {
				l.PerCol = k
				break
			}
		}
	}
	for ti, t := range g.Topics {
		for lo := 0; lo < t.Partitions; lo += l.PerCol {
			l.Cols = append(l.Cols, gridColumn{Topic: ti, Lo: lo, Hi: min(lo+l.PerCol, t.Partitions)})
		}
	}
	l.GridW = len(l.Cols)*l.CellW + gaps
	if rest := width - l.LabelW - l.GridW - l.TagW - l.CountW - 2; rest >= minRunsW {
		l.RunsW = rest
	}
	return l
}

func columnsFor(g *gridData, k int) int {
	n := 0
	for _, t := range g.Topics {
		n += (t.Partitions + k - 1) / k
	}
	return n
}

// renderGrid draws the members × partitions grid in at most width × height
// cells. It is a pure function of its input, so goldens pin it exactly.
func renderGrid(g *gridData, st *Styles, width, height int) string {
	if width < 10 || height < 4 {
		return ""
	}
	l := layoutGrid(g, width)
	b := &st.brushes
	rows := height - 3 // topic header, partition numbers, status row
	legend := rows > len(g.Members)
	if legend {
		rows--
	}
	// With room to spare and wide cells, each member gets two lines: on a
	// projector the blocks read from the back of the room.
	tall := l.CellW >= 3 && l.PerCol == 1 && rows >= 2*len(g.Members)
	first, last := visibleRows(len(g.Members), max(rows, 1), g.Selected)

	var out []string
	above := ""
	if first > 0 {
		above = "↑ " + strconv.Itoa(first) + " more"
	}
	out = append(out, fit(b.faint.paint(pad(above, l.LabelW))+topicHeader(g, &l, st), width))
	out = append(out, fit(strings.Repeat(" ", l.LabelW)+numberHeader(g, &l, st)+b.faint.paint(pad(" held", l.CountW+l.TagW+1)), width))
	for i := first; i < last; i++ {
		out = append(out, fit(memberRow(g, i, &l, st), width))
		if tall {
			out = append(out, fit(memberUnderline(g, i, &l, st), width))
		}
	}
	below := "status"
	if last < len(g.Members) {
		below = "↓ " + strconv.Itoa(len(g.Members)-last) + " more"
	}
	out = append(out, fit(b.faint.paint(pad("  "+below, l.LabelW))+statusRow(g, &l, st), width))
	if legend {
		out = append(out, fit(gridLegend(&l, st), width))
	}
	return strings.Join(out, "\n")
}

// visibleRows picks the window of member rows that keeps the selection on
// screen, preferring to show the top.
func visibleRows(n, rows, selected int) (first, last int) {
	if n <= rows {
		return 0, n
	}
	first = 0
	if selected >= rows {
		first = selected - rows + 1
	}
	return first, first + rows
}

func topicHeader(g *gridData, l *gridLayout, st *Styles) string {
	var sb strings.Builder
	ci := 0
	for ti, t := range g.Topics {
		if ti > 0 {
			sb.WriteString(strings.Repeat(" ", topicGap))
		}
		n := 0
		for ci < len(l.Cols) && l.Cols[ci].Topic == ti {
			n++
			ci++
		}
		span := n * l.CellW
		name := t.Name
		if l.PerCol > 1 {
			name += " ×" + strconv.Itoa(t.Partitions)
		}
		sb.WriteString(st.brushes.selected.paint(pad(ansi.Truncate(name, span, "…"), span)))
	}
	return sb.String()
}

// numberHeader labels columns with partition numbers at a regular step that
// leaves room between labels.
func numberHeader(g *gridData, l *gridLayout, st *Styles) string {
	maxP := 0
	for _, t := range g.Topics {
		maxP = max(maxP, t.Partitions-1)
	}
	need := len(strconv.Itoa(maxP)) + 1
	step := l.PerCol
	for _, m := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000} {
		step = l.PerCol * m
		if m*l.CellW >= need {
			break
		}
	}
	var sb strings.Builder
	ci := 0
	for ti := range g.Topics {
		if ti > 0 {
			sb.WriteString(strings.Repeat(" ", topicGap))
		}
		n := 0
		for ci+n < len(l.Cols) && l.Cols[ci+n].Topic == ti {
			n++
		}
		span := n * l.CellW
		line := []byte(strings.Repeat(" ", span))
		for k := 0; k < n; k++ {
			c := l.Cols[ci+k]
			if c.Lo%step != 0 {
				continue
			}
			label := strconv.Itoa(c.Lo)
			at := k*l.CellW + l.CellW/2
			if l.CellW == 2 {
				at = k * l.CellW
			}
			// A label that would run past its topic is left out rather
			// than cut ("44" for 440 reads as a lie).
			if at+len(label) <= span {
				copy(line[at:], label)
			}
		}
		ci += n
		sb.WriteString(st.brushes.faint.paint(string(line)))
	}
	return sb.String()
}

// memberRow is one member: label, its cell in every column, count, tag and
// its partitions as text runs.
func memberRow(g *gridData, i int, l *gridLayout, st *Styles) string {
	m := &g.Members[i]
	b := &st.brushes
	var sb strings.Builder
	sb.Grow(l.LabelW + 8*l.GridW + 128) // cells with their escapes: no regrowth
	// The name wears the member's colour (faint once it is gone), so a row
	// reads like its cells; the selection adds the marker and underline.
	marker := "  "
	name := pad(ansi.Truncate(m.ID, l.NameW, "…"), l.NameW)
	switch {
	case i == g.Selected:
		marker = selMarker + " "
		name = b.selected.paint(name)
	case m.Gone:
		name = b.faint.paint(name)
	default:
		name = b.fg[m.Color%len(b.fg)].paint(name)
	}
	sb.WriteString(b.selected.paint(marker))
	sb.WriteString(b.fg[m.Color%len(b.fg)].paint(m.Letter))
	sb.WriteString(" " + name + " ")
	// Neighbouring cells with the same look are painted as one run: far
	// fewer escape sequences for the terminal and for us.
	p := painter{sb: &sb}
	ci := 0
	for ti := range g.Topics {
		if ti > 0 {
			p.add(b.faint, glyphSep)
		}
		for ci < len(l.Cols) && l.Cols[ci].Topic == ti {
			p.add(cellText(m, l.Cols[ci], l, st))
			ci++
		}
	}
	p.flush()
	sb.WriteString(pad(strconv.Itoa(m.Count), l.CountW, true))
	if l.TagW > 0 {
		tag := pad(" "+m.Tag, l.TagW)
		switch {
		case m.TagBad:
			tag = b.bad.paint(tag)
		case m.Tag == "idle":
			tag = b.warn.paint(tag)
		default:
			tag = b.faint.paint(tag)
		}
		sb.WriteString(tag)
	}
	if l.RunsW > 0 {
		sb.WriteString("  " + b.faint.paint(ansi.Truncate(runsText(g, m), l.RunsW, "…")))
	}
	return sb.String()
}

// painter merges consecutive pieces that share a brush into one painted run.
type painter struct {
	sb  *strings.Builder
	cur brush
	buf []byte
}

func (p *painter) add(b brush, s string) {
	if b != p.cur {
		p.flush()
		p.cur = b
	}
	p.buf = append(p.buf, s...)
}

func (p *painter) flush() {
	if len(p.buf) > 0 {
		p.sb.WriteString(p.cur.paint(string(p.buf)))
	}
	p.buf = p.buf[:0]
}

// memberUnderline is the second line of a tall row: the same blocks without
// letters, so held runs look solid.
func memberUnderline(g *gridData, i int, l *gridLayout, st *Styles) string {
	m := &g.Members[i]
	b := &st.brushes
	col := m.Color % len(b.fg)
	var sb strings.Builder
	sb.WriteString(strings.Repeat(" ", l.LabelW))
	ci := 0
	blank := strings.Repeat(" ", l.CellW)
	for ti := range g.Topics {
		if ti > 0 {
			sb.WriteString(b.faint.paint(glyphSep))
		}
		for ci < len(l.Cols) && l.Cols[ci].Topic == ti {
			switch m.Cells[ti][l.Cols[ci].Lo] {
			case cellOwned:
				sb.WriteString(b.cell[col].paint(blank))
			case cellNew:
				sb.WriteString(b.new[col].paint(blank))
			default:
				sb.WriteString(blank)
			}
			ci++
		}
	}
	return sb.String()
}

// cellText draws one member's cell for one column. A full-size cell shows
// the state glyph before the member's letter; a condensed one shows how
// much of the run the member holds.
func cellText(m *gridMember, c gridColumn, l *gridLayout, st *Styles) (brush, string) {
	b := &st.brushes
	col := m.Color % len(b.fg)
	states := m.Cells[c.Topic][c.Lo:c.Hi]
	if l.PerCol > 1 {
		return condensedCell(states, b, col)
	}
	switch states[0] {
	case cellEmpty:
		return b.empty, cellGlyph(l.CellW, "", "·")
	case cellOwned:
		return b.cell[col], cellGlyph(l.CellW, "", m.Letter)
	case cellNew:
		return b.new[col], cellGlyph(l.CellW, "+", m.Letter)
	case cellRevoking:
		return b.out[col], cellGlyph(l.CellW, "-", m.Letter)
	default: // cellPending
		return b.fg[col], cellGlyph(l.CellW, "~", m.Letter)
	}
}

// cellGlyph centres a letter in a w-wide cell with its state glyph just
// before it; a 1-wide cell keeps only the glyph (the row names the member).
func cellGlyph(w int, glyph, letter string) string {
	if w == 1 {
		if glyph != "" {
			return glyph
		}
		return letter
	}
	at := w / 2
	if w == 2 {
		at = 1
	}
	cell := []byte(strings.Repeat(" ", w))
	if glyph != "" {
		cell[at-1] = glyph[0]
	}
	return string(cell[:at]) + letter + string(cell[at+1:])
}

// condensedCell shows a run of partitions as one character: a state glyph
// if any of them is moving, else a shade for the share held.
func condensedCell(states []cellState, b *brushes, col int) (brush, string) {
	held, moving := 0, cellEmpty
	for _, s := range states {
		if s != cellEmpty {
			held++
		}
		if s > moving {
			moving = s // priority: pending > revoking > new > owned
		}
	}
	switch moving {
	case cellPending:
		return b.fg[col], "~"
	case cellRevoking:
		return b.out[col], "-"
	case cellNew:
		return b.new[col], "+"
	}
	switch {
	case held == 0:
		return b.empty, "·"
	case held == len(states):
		return b.fg[col], "█"
	case held*3 <= len(states):
		return b.fg[col], "░"
	case held*3 <= 2*len(states):
		return b.fg[col], "▒"
	default:
		return b.fg[col], "▓"
	}
}

func statusRow(g *gridData, l *gridLayout, st *Styles) string {
	b := &st.brushes
	var sb strings.Builder
	ci := 0
	for ti, t := range g.Topics {
		if ti > 0 {
			sb.WriteString(strings.Repeat(" ", topicGap))
		}
		for ci < len(l.Cols) && l.Cols[ci].Topic == ti {
			c := l.Cols[ci]
			unowned, moved := anyTrue(t.Unowned, c), anyTrue(t.Moved, c)
			switch {
			case unowned && moved && l.CellW > 1:
				sb.WriteString(b.unowned.paint(cellGlyph(l.CellW, "*", "!")))
			case unowned:
				sb.WriteString(b.unowned.paint(cellGlyph(l.CellW, "", "!")))
			case moved:
				sb.WriteString(b.moved.paint(cellGlyph(l.CellW, "", "*")))
			default:
				sb.WriteString(strings.Repeat(" ", l.CellW))
			}
			ci++
		}
	}
	return sb.String()
}

func anyTrue(flags []bool, c gridColumn) bool {
	for p := c.Lo; p < c.Hi && p < len(flags); p++ {
		if flags[p] {
			return true
		}
	}
	return false
}

// gridLegend explains every glyph, so a projected slide reads without a
// colour key.
func gridLegend(l *gridLayout, st *Styles) string {
	b := &st.brushes
	if l.PerCol > 1 {
		return b.faint.paint("  one column = "+strconv.Itoa(l.PerCol)+" partitions  ") +
			b.fg[0].paint("█▓▒░") + b.faint.paint(" share held  ") +
			b.new[0].paint("+") + b.faint.paint(" new  ") + b.out[0].paint("-") + b.faint.paint(" revoking  ") +
			b.fg[0].paint("~") + b.faint.paint(" waiting  ") + b.moved.paint("*") + b.faint.paint(" moved  ") +
			b.unowned.paint("!") + b.faint.paint(" no owner")
	}
	return "  " + b.cell[0].paint(" A ") + b.faint.paint(" held  ") + b.new[0].paint("+A ") + b.faint.paint(" new  ") +
		b.out[0].paint("-A ") + b.faint.paint(" revoking  ") + b.fg[0].paint("~A ") + b.faint.paint(" waiting  ") +
		b.moved.paint("*") + b.faint.paint(" moved  ") + b.unowned.paint("!") + b.faint.paint(" no owner")
}

// runsText lists the partitions a member holds (not those it waits for) as
// compressed runs: "orders 0-3,7".
func runsText(g *gridData, m *gridMember) string {
	var parts []string
	for ti, t := range g.Topics {
		var runs []string
		row := m.Cells[ti]
		held := func(s cellState) bool { return s != cellEmpty && s != cellPending }
		for p := 0; p < len(row); {
			if !held(row[p]) {
				p++
				continue
			}
			q := p
			for q+1 < len(row) && held(row[q+1]) {
				q++
			}
			if q == p {
				runs = append(runs, strconv.Itoa(p))
			} else {
				runs = append(runs, strconv.Itoa(p)+"-"+strconv.Itoa(q))
			}
			p = q + 1
		}
		if len(runs) > 0 {
			parts = append(parts, t.Name+" "+strings.Join(runs, ","))
		}
	}
	return strings.Join(parts, "  ")
}

// pad fills s with spaces to w cells (on the left if right is given).
func pad(s string, w int, right ...bool) string {
	n := textWidth(s)
	if n >= w {
		return s
	}
	if len(right) > 0 && right[0] {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}

// fitPad makes a line exactly w cells: cut if longer, padded if shorter,
// measuring it once (a box does this for every line of every frame).
func fitPad(s string, w int) string {
	n := textWidth(s)
	switch {
	case n > w:
		return ansi.Truncate(s, w, "")
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// fit cuts a line to w cells so nothing ever wraps.
func fit(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "")
}
