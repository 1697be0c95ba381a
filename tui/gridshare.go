package tui

import (
	"strings"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/sharepart"
)

// A share group's records under the grid: per partition, how many records
// are locked (ACQUIRED by some member) and how many are ready for the next
// fetch (AVAILABLE in flight, or in the log past the share-partition's
// end). The narration says which member holds which and why each moved.

// shareCell is one share-partition's counts.
type shareCell struct {
	Locked, Ready int64
	Known         bool // the share-partition exists (initialised)
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
