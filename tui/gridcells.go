package tui

import (
	"strings"
	"unicode/utf8"
)

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

// cellText draws one member's cell for one column. A full-size cell shows
// the state glyph before the member's letter; a condensed one shows how
// much of the run the member holds.
func cellText(m *gridMember, c gridColumn, l *gridLayout, st *Styles) (brush, string) {
	b := &st.brushes
	col := m.Color % len(b.fg)
	if l.PerCol > 1 {
		return condensedCell(m.cellsIn(c.Topic, c.Lo, c.Hi), c.Hi-c.Lo, b, col)
	}
	switch m.cell(c.Topic, c.Lo) {
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

// cellGlyph centres a label in a w-wide cell with its state glyph just
// before it. A cell too narrow for both keeps the label, and one too
// narrow for the label (or a single cell) keeps the glyph, or a blank that
// the cell's colour fills (the row names the member).
func cellGlyph(w int, glyph, label string) string {
	n := utf8.RuneCountInString(label) // one cell a rune: "·" is one cell in two bytes
	switch {
	case (n > w || w == 1) && glyph != "": // one cell: the state tells more than the row's own label
		return glyph + strings.Repeat(" ", w-1)
	case n > w:
		return strings.Repeat(" ", w)
	case n == w:
		return label
	}
	at := w / 2
	if w == 2 {
		at = 1
	}
	at = min(at, w-n)
	cell := []byte(strings.Repeat(" ", w))
	if glyph != "" && at > 0 {
		cell[at-1] = glyph[0]
	}
	return string(cell[:at]) + label + string(cell[at+n:])
}

// condensedCell shows a run of n partitions, of which the member has
// something to do with cells, as one character: a state glyph if any of
// them is moving, else a shade for the share held.
func condensedCell(cells []heldCell, n int, b *brushes, col int) (brush, string) {
	held, moving := 0, cellEmpty
	for _, c := range cells {
		if c.State != cellEmpty {
			held++
		}
		if c.State > moving {
			moving = c.State // priority: pending > revoking > new > owned
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
	case held == n:
		return b.fg[col], "█"
	case held*3 <= n:
		return b.fg[col], "░"
	case held*3 <= 2*n:
		return b.fg[col], "▒"
	default:
		return b.fg[col], "▓"
	}
}

func anyTrue(flags []bool, c gridColumn) bool {
	for p := c.Lo; p < c.Hi && p < len(flags); p++ {
		if flags[p] {
			return true
		}
	}
	return false
}
