package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kvizlab/kviz/model/kafka"
)

// renderGrid draws the members × partitions grid in at most width × height
// cells. It is a pure function of its input, so goldens pin it exactly.
func renderGrid(g *gridData, st *Styles, width, height int) string {
	if width < 10 || height < 4 {
		return ""
	}
	l := layoutGrid(g, width)
	b := &st.brushes
	rows := height - 3 // topic header, partition numbers, status row
	lag := g.hasLag() && rows > 1
	if lag {
		rows--
	}
	share := shareBlock(g, &l, st, width, rows) // a share group's records (gridshare.go)
	rows -= len(share)
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
		above = scrollMark("↑", first, l.LabelW)
	}
	out = append(out, fit(b.faint.paint(pad(above, l.LabelW))+topicHeader(g, &l, st), width))
	out = append(out, fit(strings.Repeat(" ", l.LabelW)+numberHeader(g, &l, st)+b.faint.paint(pad(" held", l.CountW+l.TagW+1)), width))
	for i := first; i < last; i++ {
		out = append(out, fit(memberRow(g, i, &l, st), width))
		if tall {
			out = append(out, fit(memberUnderline(g, i, &l, st), width))
		}
	}
	below := "  status"
	if last < len(g.Members) {
		below = scrollMark("↓", len(g.Members)-last, l.LabelW)
	}
	out = append(out, fit(b.faint.paint(pad(below, l.LabelW))+statusRow(g, &l, st), width))
	if lag {
		out = append(out, fit(b.faint.paint(pad("  lag", l.LabelW))+lagRow(g, &l, st), width))
	}
	for _, line := range share {
		out = append(out, fit(line, width))
	}
	if legend {
		out = append(out, fit(gridLegend(&l, st), width))
	}
	return strings.Join(out, "\n")
}

// scrollMark says how many member rows are off screen ("  ↑ 13 more"),
// short enough to leave the label column's last cell blank: it shares its
// line with the topic names or the status row and must never run into them.
func scrollMark(arrow string, n, labelW int) string {
	num := strconv.Itoa(n)
	for _, s := range []string{"  " + arrow + " " + num + " more", arrow + " " + num + " more", arrow + num + " more", arrow + " " + num, arrow + num} {
		if textWidth(s) < labelW {
			return s
		}
	}
	return arrow
}

func topicHeader(g *gridData, l *gridLayout, st *Styles) string {
	var sb strings.Builder
	ci := 0
	for ti := l.From; ti < l.Topics; ti++ {
		t := &g.Topics[ti]
		if ti > l.From {
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
	if l.OnePerTopic { // a letter a topic says nothing: name the window
		name := g.Topics[l.From].Name + " … " + g.Topics[l.Topics-1].Name + ", a column each"
		if l.From > 0 {
			name = "+" + strconv.Itoa(l.From) + " " + name
		}
		if more := len(g.Topics) - l.Topics; more > 0 {
			name += " +" + strconv.Itoa(more)
		}
		return st.brushes.selected.paint(pad(ansi.Truncate(name, l.GridW+l.CountW+l.TagW, "…"), l.GridW))
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
	if l.OnePerTopic { // every column starts at partition 0
		return strings.Repeat(" ", l.GridW)
	}
	ci := 0
	for ti := l.From; ti < l.Topics; ti++ {
		if ti > l.From {
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
	m := g.row(i)
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
	sb.WriteString(b.fg[m.Color%len(b.fg)].paint(pad(m.Letter, l.LetterW)))
	sb.WriteString(" " + name + " ")
	// Neighbouring cells with the same look are painted as one run: far
	// fewer escape sequences for the terminal and for us.
	p := painter{sb: &sb}
	ci := 0
	for ti := l.From; ti < l.Topics; ti++ {
		if ti > l.From {
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
		runs := runsText(g, m)
		if m.Rack != "" {
			runs = "@" + m.Rack + " " + runs // the rack first: the runs may be cut
		}
		sb.WriteString("  " + b.faint.paint(ansi.Truncate(runs, l.RunsW, "…")))
	}
	return sb.String()
}

// memberUnderline is the second line of a tall row: the same blocks without
// letters, so held runs look solid.
func memberUnderline(g *gridData, i int, l *gridLayout, st *Styles) string {
	m := g.row(i)
	b := &st.brushes
	col := m.Color % len(b.fg)
	var sb strings.Builder
	sb.WriteString(strings.Repeat(" ", l.LabelW))
	ci := 0
	blank := strings.Repeat(" ", l.CellW)
	for ti := l.From; ti < l.Topics; ti++ {
		if ti > l.From {
			sb.WriteString(b.faint.paint(glyphSep))
		}
		for ci < len(l.Cols) && l.Cols[ci].Topic == ti {
			switch m.cell(ti, l.Cols[ci].Lo) {
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

func statusRow(g *gridData, l *gridLayout, st *Styles) string {
	b := &st.brushes
	return columnRow(g, l, func(t *gridTopic, c gridColumn) string {
		unowned, moved := anyTrue(t.Unowned, c), anyTrue(t.Moved, c)
		switch {
		case unowned && moved && l.CellW > 1:
			return b.unowned.paint(cellGlyph(l.CellW, "*", "!"))
		case unowned:
			return b.unowned.paint(cellGlyph(l.CellW, "", "!"))
		case moved:
			return b.moved.paint(cellGlyph(l.CellW, "", "*"))
		}
		return strings.Repeat(" ", l.CellW)
	})
}

// columnRow is a row under the grid: cell(t, c) for every column of every
// topic, the topics topicGap apart, as the member rows lay them out.
func columnRow(g *gridData, l *gridLayout, cell func(t *gridTopic, c gridColumn) string) string {
	var sb strings.Builder
	ci := 0
	for ti := l.From; ti < l.Topics; ti++ {
		if ti > l.From {
			sb.WriteString(strings.Repeat(" ", topicGap))
		}
		for ; ci < len(l.Cols) && l.Cols[ci].Topic == ti; ci++ {
			sb.WriteString(cell(&g.Topics[ti], l.Cols[ci]))
		}
	}
	return sb.String()
}

// gridLegend explains every glyph, so a projected slide reads without a
// colour key.
func gridLegend(l *gridLayout, st *Styles) string {
	b := &st.brushes
	if l.PerCol > 1 {
		per := strconv.Itoa(l.PerCol) + " partitions"
		if l.OnePerTopic {
			per = "a topic"
		}
		return b.faint.paint("  one column = "+per+"  ") +
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
// partition runs: "orders:0–3,7".
func runsText(g *gridData, m *gridMember) string {
	held := make([]kafka.TP, 0, len(m.Cells))
	for _, c := range m.Cells {
		if c.State != cellEmpty && c.State != cellPending {
			held = append(held, kafka.TP{Topic: g.Topics[c.Topic].Name, Partition: c.Partition})
		}
	}
	return kafka.PartitionRuns(held)
}
