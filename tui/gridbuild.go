package tui

import (
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// buildGrid turns the view after a step into the grid's plain data. What
// each cell and each partition shows is the model's answer
// (MemberView.EachPartition, GroupView.Partitions); the grid only adds
// what is news in this step and what the last rebalance moved.
func buildGrid(v *model.GroupView, info *simInfo, step int, selected string, fresh map[string]bool) *gridData {
	g := &gridData{Selected: -1}
	index := map[string]int{}
	total := 0
	for i, t := range v.Topics {
		n := int(t.Partitions)
		g.Topics = append(g.Topics, gridTopic{Name: t.Name, Partitions: n, Unowned: make([]bool, n), Moved: make([]bool, n)})
		index[t.Name] = i
		total += n
	}
	for ti, ps := range v.Partitions() {
		for p, pv := range ps {
			g.Topics[ti].Unowned[p] = pv.State != kafka.PartitionConsumed
		}
	}
	// Every member's cells in one allocation: on a 200 × 2,000 group,
	// two thousand small ones cost more than drawing them.
	cells := make([]cellState, len(v.Members)*total)
	rows := make([][]cellState, len(v.Members)*len(g.Topics))
	g.Members = make([]gridMember, 0, len(v.Members))
	for mi := range v.Members {
		m := &v.Members[mi]
		letter, color := info.letter(m.ID)
		gm := gridMember{ID: m.ID, Letter: letter, Color: color, Rack: info.racks[m.ID]}
		tag := m.Tag()
		gm.Tag, gm.TagBad = string(tag), tag.Problem()
		gm.Gone = !m.Live()
		gm.Cells, rows = rows[:len(g.Topics):len(g.Topics)], rows[len(g.Topics):]
		for i, t := range g.Topics {
			gm.Cells[i], cells = cells[:t.Partitions:t.Partitions], cells[t.Partitions:]
		}
		m.EachPartition(func(tp kafka.TP, s kafka.PartitionState) {
			ti, ok := index[tp.Topic]
			if !ok || tp.Partition < 0 || int(tp.Partition) >= len(gm.Cells[ti]) {
				return // a view never names unknown partitions; stay safe if one does
			}
			gm.Cells[ti][tp.Partition] = cellOf[s]
			if s != kafka.PartitionWaiting {
				gm.Count++
			}
		})
		if fresh[m.ID] {
			markNew(&gm, m, index)
		}
		if m.ID == selected {
			g.Selected = mi
		}
		g.Members = append(g.Members, gm)
	}
	addShareRecords(g, v, index) // a share group's records (gridshare.go)
	if r := info.lastRebalance(step); r >= 0 {
		for tp := range info.moved[r] {
			if ti, ok := index[tp.Topic]; ok && int(tp.Partition) < len(g.Topics[ti].Moved) {
				g.Topics[ti].Moved[tp.Partition] = true
			}
		}
	}
	return g
}

// markNew draws as new the partitions the member consumes that its last
// onPartitionsAssigned gave it. The view keeps NewlyAssigned until the next
// callback: they are news only while the rebalance that gave them is under
// way (buildGrid's fresh).
func markNew(gm *gridMember, m *model.MemberView, index map[string]int) {
	for _, tp := range m.NewlyAssigned {
		if ti, ok := index[tp.Topic]; ok && tp.Partition >= 0 && int(tp.Partition) < len(gm.Cells[ti]) && gm.Cells[ti][tp.Partition] == cellOwned {
			gm.Cells[ti][tp.Partition] = cellNew
		}
	}
}

// cellOf is how the grid draws what a member does with a partition.
var cellOf = [...]cellState{
	kafka.PartitionNobody:   cellEmpty,
	kafka.PartitionConsumed: cellOwned,
	kafka.PartitionRevoking: cellRevoking,
	kafka.PartitionWaiting:  cellPending,
}
