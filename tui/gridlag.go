package tui

import (
	"strconv"
	"strings"
)

// hasLag: some topic carries lag (the live lab), so the grid draws a lag row.
func (g *gridData) hasLag() bool {
	for _, t := range g.Topics {
		if t.Lag != nil {
			return true
		}
	}
	return false
}

// lagRow is each column's lag under the status row: the partition's lag
// as the cluster reported it, shortened to the cell (1.2k, 34M); a
// condensed column, standing for several partitions, says only whether
// any of them lags. "?" is a partition without a commit.
func lagRow(g *gridData, l *gridLayout, st *Styles) string {
	b := &st.brushes
	return columnRow(g, l, func(t *gridTopic, c gridColumn) string {
		if t.Lag == nil {
			return strings.Repeat(" ", l.CellW)
		}
		known, lags := false, false
		for p := c.Lo; p < c.Hi && p < len(t.Lag); p++ {
			known = known || t.Lag[p].Known
			lags = lags || t.Lag[p].N > 0
		}
		switch {
		case !known:
			return b.faint.paint(cellGlyph(l.CellW, "", "?"))
		case l.PerCol > 1 && lags:
			return b.warn.paint(cellGlyph(l.CellW, "", "•"))
		case l.PerCol > 1 || !lags:
			return b.faint.paint(cellGlyph(l.CellW, "", "0"))
		}
		return b.warn.paint(cellGlyph(l.CellW, "", shortCount(t.Lag[c.Lo].N, max(l.CellW-1, 1))))
	})
}

// shortCount writes n in at most w characters, rounded down: 950, 1.2k,
// 34k, 5M, 2G. Too narrow for even that, it is "…" (more than fits).
func shortCount(n int64, w int) string {
	if s := strconv.FormatInt(n, 10); len(s) <= w {
		return s
	}
	for _, u := range []struct {
		div  int64
		unit string
	}{{1_000, "k"}, {1_000_000, "M"}, {1_000_000_000, "G"}, {1_000_000_000_000, "T"}} {
		q := n / u.div
		if q < 1 {
			break
		}
		if q < 10 {
			if s := strconv.FormatInt(q, 10) + "." + strconv.FormatInt(n*10/u.div%10, 10) + u.unit; len(s) <= w {
				return s
			}
		}
		if s := strconv.FormatInt(q, 10) + u.unit; len(s) <= w {
			return s
		}
	}
	return "…"
}
