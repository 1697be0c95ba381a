package tui

import (
	"fmt"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// liveMarks is what the live lab adds to the grid of the group as read:
// the owners the last read that moved partitions changed (their cells
// drawn as new, the partition marked moved) and each partition's lag. Both come
// from the live snapshot; the grid only draws them.
type liveMarks struct {
	changes []kafka.Move                 // since the previous read, by scenario id
	lag     func(kafka.TP) (int64, bool) // the snapshot's LagOf
	// coordinator is the one the read named (nil: unknown): the brokers
	// pane shows it while the lab follows the cluster (issue 20 item 8).
	coordinator *LiveCoordinator
}

// readCoordinator is the coordinator the live read named while the lab
// follows the cluster; nil otherwise (the model's is shown).
func (a App) readCoordinator() *LiveCoordinator {
	if a.liveMarks == nil {
		return nil
	}
	return a.liveMarks.coordinator
}

// brokers is the brokers pane of the step: the model's coordinator, or,
// while the live lab follows the cluster, the one the read named.
func (a App) brokers(f *model.FlowView) brokerPane {
	bp := brokerPane{f: f, coordinator: a.view().CoordinatorBroker, st: &a.styles}
	if h, ok := a.quizHides(); ok {
		bp.hidden = h.ReplicasOf
	}
	if c := a.readCoordinator(); c != nil {
		bp.coordinator, bp.read = c.Index, fmt.Sprintf("broker %d", c.ID)
		if c.Index < 0 {
			bp.read += ", not among the brokers shown"
		}
	}
	return bp
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
		if !ok || mv.Partition < 0 || int(mv.Partition) >= g.Topics[ti].Partitions {
			continue
		}
		// A change is marked while it still holds: the partition is the
		// new owner's (or, given up, nobody's) as the grid shows it.
		if i, ok := rows[mv.To]; ok && g.row(i).renew(ti, int(mv.Partition)) {
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
