package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/sharepart"
)

// A share group's records under the grid: per share-partition, which
// member holds which records under what lock, what is ready for the next
// fetch and what is done (shareLines); where no line fits, how many
// records are locked (ACQUIRED by some member) and how many are ready
// (AVAILABLE in flight, or in the log past the share-partition's end) per
// column (shareRow). The narration says why each record moved.

// shareCell is one share-partition's counts, and its records as runs.
type shareCell struct {
	Locked, Ready int64
	Known         bool                // the share-partition exists (initialised)
	Records       *model.ShareRecords // who holds which (nil: not given)
}

func (g *gridData) hasShare() bool {
	for _, t := range g.Topics {
		if t.Share != nil {
			return true
		}
	}
	return false
}

// addShareRecords fills each topic's Share from the view's share-partitions.
func addShareRecords(g *gridData, v *model.GroupView, index map[string]int) {
	if v.SharePartitions == nil {
		return
	}
	for i := range g.Topics {
		g.Topics[i].Share = make([]shareCell, g.Topics[i].Partitions)
	}
	for _, sp := range v.SharePartitions {
		ti, ok := index[sp.TP.Topic]
		if !ok || int(sp.TP.Partition) >= len(g.Topics[ti].Share) {
			continue
		}
		c := shareCell{Known: true}
		for _, r := range sp.Records {
			switch r.State {
			case sharepart.Acquired:
				c.Locked++
			case sharepart.Available:
				c.Ready++
			}
		}
		c.Ready += sp.LogEnd - (sp.Start + int64(len(sp.Records))) // never fetched yet
		g.Topics[ti].Share[sp.TP.Partition] = c
	}
}

// shareRow is the locked (or ready) count of each column; a condensed
// column says only whether any of its partitions has some.
func shareRow(g *gridData, l *gridLayout, st *Styles, locked bool) string {
	b := &st.brushes
	return columnRow(g, l, func(t *gridTopic, c gridColumn) string {
		if t.Share == nil {
			return strings.Repeat(" ", l.CellW)
		}
		known, n := false, int64(0)
		for p := c.Lo; p < c.Hi && p < len(t.Share); p++ {
			known = known || t.Share[p].Known
			if locked {
				n += t.Share[p].Locked
			} else {
				n += t.Share[p].Ready
			}
		}
		switch {
		case !known:
			return b.faint.paint(cellGlyph(l.CellW, "", "·"))
		case n == 0:
			return b.faint.paint(cellGlyph(l.CellW, "", "0"))
		case l.PerCol > 1:
			return b.warn.paint(cellGlyph(l.CellW, "", "•"))
		}
		return b.warn.paint(cellGlyph(l.CellW, "", shortCount(n, max(l.CellW-1, 1))))
	})
}

// The share-partitions' records line by line under the grid, as the model
// words them (model.ShareRecords.Words, the text `kviz simulate` prints):
// "t0-0  start 3  c1 ▮▮▮ 3–5 (lock 28.0 s)  c2 ▮▮ 6–7  ready 8–9", each
// holder's words in its colour. Long words first; where they need more
// lines than the grid can spare, the short ones ("c1 3–5"); where even
// those do not fit, the first share-partitions and how many more there
// are. A line breaks between words, never inside one.

// addShareLines puts the step's share-partitions as runs, the model's
// answer, into their cells; nothing for a simulation that has none.
func addShareLines(g *gridData, sim simulation, step int) {
	s, ok := sim.(interface {
		ShareRecords(int) []model.ShareRecords
	})
	if !ok {
		return
	}
	srs := s.ShareRecords(step)
	if len(srs) == 0 {
		return // not a share group, or no share-partition yet
	}
	index := make(map[string]int, len(g.Topics))
	for i, t := range g.Topics {
		index[t.Name] = i
	}
	for _, sr := range srs {
		ti, ok := index[sr.TP.Topic]
		if !ok || int(sr.TP.Partition) >= len(g.Topics[ti].Share) {
			continue
		}
		g.Topics[ti].Share[sr.TP.Partition].Records = &sr
	}
}

// shares is the share-partitions whose records the grid was given, in
// topic and partition order.
func (g *gridData) shares() []*model.ShareRecords {
	var out []*model.ShareRecords
	for _, t := range g.Topics {
		for _, c := range t.Share {
			if c.Records != nil {
				out = append(out, c.Records)
			}
		}
	}
	return out
}

// shareBlock is the rows under the grid for a share group in width × at
// most rows lines: the records line by line when some fit, else the
// locked and ready counts (two rows, when there is room), else none.
func shareBlock(g *gridData, l *gridLayout, st *Styles, width, rows int) []string {
	if !g.hasShare() {
		return nil
	}
	if lines := shareLines(g, st, width, rows); len(lines) > 0 {
		return lines
	}
	if rows <= 2 {
		return nil
	}
	b := &st.brushes
	return []string{
		fit(b.faint.paint(pad("  locked", l.LabelW))+shareRow(g, l, st, true), width),
		fit(b.faint.paint(pad("  ready", l.LabelW))+shareRow(g, l, st, false), width),
	}
}

// shareExtra is the lines the grid asks for beyond its members' for a
// share group's records: a line a share-partition, the first two in the
// room the member rows leave (where the locked and ready rows were).
func shareExtra(g *gridData) int {
	return max(len(g.shares())-2, 0)
}

// shareRoom is how many of rows the records may take: the rest stays the
// members' (three of them at least, or all when fewer).
func shareRoom(g *gridData, rows int) int {
	return rows - min(len(g.Members), 3)
}

// shareLines lays the records out in at most shareRoom lines (nil: none
// fits).
func shareLines(g *gridData, st *Styles, width, rows int) []string {
	room, shares := shareRoom(g, rows), g.shares()
	if len(shares) == 0 || room < 1 {
		return nil
	}
	nameW := 0
	for _, sr := range shares {
		nameW = max(nameW, textWidth(sr.Name()))
	}
	colors := map[string]int{}
	for i := range g.Members {
		colors[g.Members[i].ID] = g.Members[i].Color
	}
	lay := func(short bool, parts int) []string {
		var out []string
		for _, sr := range shares[:parts] {
			out = append(out, shareWrap(sr, short, nameW, width, colors, st)...)
		}
		return out
	}
	for _, short := range []bool{false, true} {
		if lines := lay(short, len(shares)); len(lines) <= room {
			return lines
		}
	}
	// Not all fit: the first ones, short, and a line saying how many more.
	for parts := len(shares) - 1; parts >= 0; parts-- {
		lines := lay(true, parts)
		if len(lines)+1 > room {
			continue
		}
		more := "  +" + plural(len(shares)-parts, "more share-partition")
		if parts == 0 {
			more = "  " + plural(len(shares), "share-partition") + ": no room for their records"
		}
		if textWidth(more) >= width {
			more = "  +" + strconv.Itoa(len(shares)-parts)
		}
		return append(lines, st.brushes.faint.paint(more))
	}
	return nil
}

// shareWrap is one share-partition's lines: its name, then its words two
// spaces apart, a word that does not fit going to the next line under the
// first word. Lines keep their last cell blank, as the grid's rows do.
func shareWrap(sr *model.ShareRecords, short bool, nameW, width int, colors map[string]int, st *Styles) []string {
	b := &st.brushes
	indent := 2 + nameW + 2
	avail := width - 1 - indent // the text's room on each line
	var out []string
	var sb strings.Builder
	sb.WriteString("  " + b.selected.paint(pad(sr.Name(), nameW)) + "  ")
	used := 0
	for _, w := range sr.Words() {
		text := w.Long
		if short || textWidth(text) > avail {
			text = w.Short
		}
		if textWidth(text) > avail {
			text = ansi.Truncate(text, max(avail, 1), "…") // a member id longer than the screen
		}
		n := textWidth(text)
		if used > 0 && used+2+n > avail {
			out = append(out, sb.String())
			sb.Reset()
			sb.WriteString(strings.Repeat(" ", indent))
			used = 0
		}
		if used > 0 {
			sb.WriteString("  ")
			used += 2
		}
		brush := b.faint
		if w.Member != "" {
			if c, ok := colors[w.Member]; ok {
				brush = b.fg[c%len(b.fg)]
			} else {
				brush = b.warn
			}
		}
		sb.WriteString(brush.paint(text))
		used += n
	}
	return append(out, sb.String())
}
