package tui

import (
	"cmp"
	"slices"
)

// cellState is what one member has to do with one partition right now.
type cellState uint8

const (
	cellEmpty    cellState = iota // not this member's
	cellOwned                     // held and consumed
	cellNew                       // held, received in this step
	cellRevoking                  // still held, being given up
	cellPending                   // assigned, waiting for the old owner to let go
)

// gridTopic is one topic's block of columns.
type gridTopic struct {
	Name       string
	Partitions int
	Unowned    []bool // per partition: nobody holds it now
	Moved      []bool // per partition: its owner changed in the last rebalance
	// Lag is each partition's lag (the live lab: committed offset to log
	// end, as the cluster reported it); nil draws no lag row.
	Lag []lagCell
	// Share is each partition's records (a share group); nil draws no
	// records rows (gridshare.go).
	Share []shareCell
}

// lagCell is one partition's lag; Known is false without a commit.
type lagCell struct {
	N     int64
	Known bool
}

// gridMember is one row of the grid.
type gridMember struct {
	ID     string
	Letter string
	Color  int
	Tag    string // "lead", "idle", "down", ... ("" for none)
	TagBad bool   // the tag is a problem (down, fenced) rather than a note
	Gone   bool   // crashed, left or fenced: drawn faint
	Count  int    // partitions held
	Rack   string // client.rack ("" = none)
	// Cells are the partitions the member has something to do with, by
	// topic then partition; every other cell is empty. Sparse on purpose:
	// under range at 10,000 members × 1,000 topics of 500 partitions the
	// first members hold one partition of every topic, and a dense row
	// was 500 KB of fresh memory for each row drawn (issue 21).
	Cells  []heldCell
	filled bool // the row was filled from the view (gridData.row)
	view   int  // index into the view's Members (rows may be in another order)
}

// heldCell is one partition a member has something to do with.
type heldCell struct {
	Topic     int32 // index into gridData.Topics
	Partition int32
	State     cellState
}

func compareCells(a, b heldCell) int {
	return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}

// find is where partition p of topic ti is, or would be, in m.Cells.
func (m *gridMember) find(ti, p int) (int, bool) {
	return slices.BinarySearchFunc(m.Cells, heldCell{Topic: int32(ti), Partition: int32(p)}, compareCells)
}

// cell is what the member does with partition p of topic ti.
func (m *gridMember) cell(ti, p int) cellState {
	if i, ok := m.find(ti, p); ok {
		return m.Cells[i].State
	}
	return cellEmpty
}

// cellsIn are the member's cells among partitions lo to hi-1 of topic ti.
func (m *gridMember) cellsIn(ti, lo, hi int) []heldCell {
	i, _ := m.find(ti, lo)
	j := i
	for j < len(m.Cells) && int(m.Cells[j].Topic) == ti && int(m.Cells[j].Partition) < hi {
		j++
	}
	return m.Cells[i:j]
}

// setCell says what the member does with partition p of topic ti.
func (m *gridMember) setCell(ti, p int, st cellState) {
	i, ok := m.find(ti, p)
	if ok {
		m.Cells[i].State = st
		return
	}
	m.Cells = slices.Insert(m.Cells, i, heldCell{Topic: int32(ti), Partition: int32(p), State: st})
}

// renew draws an owned cell as new, and says whether it was owned.
func (m *gridMember) renew(ti, p int) bool {
	i, ok := m.find(ti, p)
	if !ok || m.Cells[i].State != cellOwned {
		return false
	}
	m.Cells[i].State = cellNew
	return true
}

// gridData is everything the grid draws. It is built from a model view by
// the adapter, so the renderer is a pure function of plain data.
type gridData struct {
	Topics   []gridTopic
	Members  []gridMember
	Selected int // index into Members; -1 for none
	// src fills a member's row when it is first drawn (nil: every row was
	// given filled, as tests build them).
	src *gridSource
	// Focus is the topic a search jumped to (-1: none), which a grid too
	// wide for its topics shows first.
	Focus int
}

// focusTopic is the topic a grid too wide for its topics starts at: the
// one a search found, else the selected member's first.
func (g *gridData) focusTopic() int {
	if g.Focus >= 0 {
		return g.Focus
	}
	if g.Selected < 0 {
		return 0
	}
	for _, c := range g.row(g.Selected).Cells { // in topic order
		if c.State != cellEmpty {
			return int(c.Topic)
		}
	}
	return 0
}

// indexOf is the row of member id, or -1.
func (g *gridData) indexOf(id string) int {
	for i := range g.Members {
		if g.Members[i].ID == id {
			return i
		}
	}
	return -1
}

// totalPartitions counts every column of the grid.
func (g *gridData) totalPartitions() int {
	n := 0
	for _, t := range g.Topics {
		n += t.Partitions
	}
	return n
}
