package tui

import (
	"slices"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// buildGrid turns the view after a step into the grid's plain data. What
// each cell and each partition shows is the model's answer
// (MemberView.EachPartition, GroupView.Unconsumed); the grid only adds
// what is news in this step and what the last rebalance moved.
//
// A member's row (its cells, count, tag) is filled when it is first drawn
// (gridData.row): a Kafka-scale group of 10,000 members × 500,000
// partitions has 5·10⁹ cells, of which a screen shows a few dozen rows.
func buildGrid(v *model.GroupView, info *simInfo, step int, selected string, fresh map[string]bool) *gridData {
	g := &gridData{Selected: -1, Focus: -1}
	index := make(map[string]int, len(v.Topics))
	unowned := v.Unconsumed() // kept step to step by the model: a step costs what it changed
	total := 0
	for _, t := range v.Topics {
		total += int(t.Partitions)
	}
	moved := make([]bool, total) // one block: a topic each was 1,000 allocations a frame
	g.Topics = make([]gridTopic, len(v.Topics))
	for i, t := range v.Topics {
		n := int(t.Partitions)
		g.Topics[i] = gridTopic{Name: t.Name, Partitions: n, Unowned: unowned[i], Moved: moved[:n:n]}
		moved = moved[n:]
		index[t.Name] = i
	}
	g.Members = make([]gridMember, len(v.Members))
	for row, mi := range rowOrder(v) {
		m := &v.Members[mi]
		letter, color := info.letterAt(mi, m.ID)
		g.Members[row] = gridMember{ID: m.ID, Letter: letter, Color: color, view: mi}
		if m.ID == selected {
			g.Selected = row
		}
	}
	g.src = &gridSource{view: v, index: index, fresh: fresh, racks: info.racks}
	addShareRecords(g, v, index) // a share group's records (gridshare.go)
	if r := info.lastRebalance(step); r >= 0 {
		for i := range g.Topics {
			t := &g.Topics[i]
			for _, p := range info.moved[r][t.Name] {
				if p >= 0 && int(p) < len(t.Moved) {
					t.Moved[p] = true
				}
			}
		}
	}
	return g
}

// changedFirstFrom is the group size from which the grid lists the
// members this step changed first (model.GroupView.ChangedFirst): among
// thousands of rows, the ones a step is about would be off screen.
const changedFirstFrom = 1000

// rowOrder is the members' order in the grid and for ↑/↓, as indices into
// v.Members: start order, or changed first in a group of thousands.
func rowOrder(v *model.GroupView) []int {
	if len(v.Members) >= changedFirstFrom {
		return v.ChangedFirst()
	}
	order := make([]int, len(v.Members))
	for i := range order {
		order[i] = i
	}
	return order
}

// gridSource is what a grid built from a view fills its rows from.
type gridSource struct {
	view  *model.GroupView
	index map[string]int
	fresh map[string]bool
	racks map[string]string
}

// row is member i's row, filled on first use.
func (g *gridData) row(i int) *gridMember {
	gm := &g.Members[i]
	if !gm.filled && g.src != nil {
		g.src.fill(gm, &g.src.view.Members[gm.view], g.Topics)
	}
	return gm
}

// fill sets a member's cells, count, tag and rack from the view.
func (s *gridSource) fill(gm *gridMember, m *model.MemberView, topics []gridTopic) {
	tag := m.Tag()
	gm.Tag, gm.TagBad = string(tag), tag.Problem()
	gm.Gone = !m.Live()
	gm.Rack = s.racks[m.ID]
	gm.filled = true
	m.EachPartition(func(tp kafka.TP, st kafka.PartitionState) {
		ti, ok := s.index[tp.Topic]
		if !ok || tp.Partition < 0 || int(tp.Partition) >= topics[ti].Partitions {
			return // a view never names unknown partitions; stay safe if one does
		}
		gm.Cells = append(gm.Cells, heldCell{Topic: int32(ti), Partition: tp.Partition, State: cellOf[st]})
		if st != kafka.PartitionWaiting {
			gm.Count++
		}
	})
	if !slices.IsSortedFunc(gm.Cells, compareCells) {
		slices.SortFunc(gm.Cells, compareCells)
	}
	if s.fresh[m.ID] {
		markNew(gm, m, s.index)
	}
}

// markNew draws as new the partitions the member consumes that its last
// onPartitionsAssigned gave it. The view keeps NewlyAssigned until the next
// callback: they are news only while the rebalance that gave them is under
// way (buildGrid's fresh).
func markNew(gm *gridMember, m *model.MemberView, index map[string]int) {
	for _, tp := range m.NewlyAssigned {
		if ti, ok := index[tp.Topic]; ok {
			gm.renew(ti, int(tp.Partition))
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
