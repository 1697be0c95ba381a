package tui

import (
	"github.com/kvizlab/kviz/model/kafka"
)

// liveMarks is what the live lab adds to the grid of the group as read:
// the owners the last read that moved partitions changed (their cells
// drawn as new, the partition marked moved) and each partition's lag. Both come
// from the live snapshot; the grid only draws them.
type liveMarks struct {
	changes []kafka.Move                 // since the previous read, by scenario id
	lag     func(kafka.TP) (int64, bool) // the snapshot's LagOf
}

// apply marks g, the grid of the import's opening step.
func (lm *liveMarks) apply(g *gridData) {
	index := map[string]int{}
	for ti := range g.Topics {
		index[g.Topics[ti].Name] = ti
	}
	rows := map[string]int{}
	for i := range g.Members {
		rows[g.Members[i].ID] = i
	}
	for _, mv := range lm.changes {
		ti, ok := index[mv.Topic]
		if !ok || int(mv.Partition) >= g.Topics[ti].Partitions {
			continue
		}
		// A change is marked while it still holds: the partition is the
		// new owner's (or, given up, nobody's) as the grid shows it.
		if i, ok := rows[mv.To]; ok && g.row(i).Cells[ti][mv.Partition] == cellOwned {
			g.Members[i].Cells[ti][mv.Partition] = cellNew
			g.Topics[ti].Moved[mv.Partition] = true
		} else if mv.To == "" && g.Topics[ti].Unowned[mv.Partition] {
			g.Topics[ti].Moved[mv.Partition] = true
		}
	}
	if lm.lag == nil {
		return
	}
	for ti := range g.Topics {
		t := &g.Topics[ti]
		t.Lag = make([]lagCell, t.Partitions)
		for p := range t.Lag {
			n, ok := lm.lag(kafka.TP{Topic: t.Name, Partition: int32(p)})
			t.Lag[p] = lagCell{N: n, Known: ok}
		}
	}
}
