package tui

import (
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
	longest := 0
	unowned := v.Unconsumed() // kept step to step by the model: a step costs what it changed
	for i, t := range v.Topics {
		n := int(t.Partitions)
		g.Topics = append(g.Topics, gridTopic{Name: t.Name, Partitions: n, Unowned: unowned[i], Moved: make([]bool, n)})
		index[t.Name] = i
		longest = max(longest, n)
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
	g.src = &gridSource{view: v, index: index, fresh: fresh, racks: info.racks, zero: make([]cellState, longest)}
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
	// zero is a row of empty cells every member shares for the topics it
	// has nothing of (never written: only held cells are marked new).
	zero []cellState
}

// row is member i's row, filled on first use.
func (g *gridData) row(i int) *gridMember {
	gm := &g.Members[i]
	if gm.Cells == nil && g.src != nil {
		g.src.fill(gm, &g.src.view.Members[gm.view], g.Topics)
	}
	return gm
}

// fill sets a member's cells, count, tag and rack from the view: the
// topics it has something of get their own cells, the rest share zero.
func (s *gridSource) fill(gm *gridMember, m *model.MemberView, topics []gridTopic) {
	tag := m.Tag()
	gm.Tag, gm.TagBad = string(tag), tag.Problem()
	gm.Gone = !m.Live()
	gm.Rack = s.racks[m.ID]
	gm.Cells = make([][]cellState, len(topics))
	for i, t := range topics {
		gm.Cells[i] = s.zero[:t.Partitions:t.Partitions]
	}
	// Two passes, so the topics the member has something of share one
	// block of cells: under range at 10,000 members × 1,000 topics the
	// first members hold a partition of every topic, and a block per
	// topic was a thousand allocations a row, most of a step key's 40 ms
	// (issue 21).
	type held struct {
		ti int
		p  int32
		st kafka.PartitionState
	}
	var cells []held
	seen := make([]bool, len(topics))
	need := 0
	gm.touched = []int{}
	m.EachPartition(func(tp kafka.TP, st kafka.PartitionState) {
		ti, ok := s.index[tp.Topic]
		if !ok || tp.Partition < 0 || int(tp.Partition) >= topics[ti].Partitions {
			return // a view never names unknown partitions; stay safe if one does
		}
		if !seen[ti] {
			seen[ti] = true
			gm.touched = append(gm.touched, ti)
			need += topics[ti].Partitions
		}
		cells = append(cells, held{ti, tp.Partition, st})
	})
	block := make([]cellState, need)
	for _, ti := range gm.touched {
		n := topics[ti].Partitions
		gm.Cells[ti], block = block[:n:n], block[n:]
	}
	for _, c := range cells {
		gm.Cells[c.ti][c.p] = cellOf[c.st]
		if c.st != kafka.PartitionWaiting {
			gm.Count++
		}
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
