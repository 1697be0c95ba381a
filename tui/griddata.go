package tui

import "slices"

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
	Cells  [][]cellState
	view   int // index into the view's Members (rows may be in another order)
	// touched are the topics the member has cells in, when its row was
	// filled from a view (nil: look at every topic).
	touched []int
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
	m := g.row(g.Selected)
	first := len(g.Topics)
	if m.touched != nil {
		for _, ti := range m.touched {
			first = min(first, ti)
		}
	} else {
		for ti, cs := range m.Cells {
			if slices.ContainsFunc(cs, func(c cellState) bool { return c != cellEmpty }) {
				first = min(first, ti)
				break
			}
		}
	}
	if first == len(g.Topics) {
		return 0
	}
	return first
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
