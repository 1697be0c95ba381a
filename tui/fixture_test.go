package tui

import "fmt"

// fixtureGrid builds a grid of members × one topic per entry of parts, with
// member i holding partitions round-robin, so tests need no model.
func fixtureGrid(members int, parts ...int) *gridData {
	g := &gridData{Selected: 0}
	for ti, n := range parts {
		g.Topics = append(g.Topics, gridTopic{Name: fmt.Sprintf("topic%d", ti), Partitions: n, Unowned: make([]bool, n), Moved: make([]bool, n)})
	}
	for i := range members {
		m := gridMember{ID: fmt.Sprintf("consumer-%d", i), Letter: string(rune('A' + i%26)), Color: i}
		for ti, n := range parts {
			for p := range n {
				if p%members == i {
					m.setCell(ti, p, cellOwned)
					m.Count++
				}
			}
		}
		g.Members = append(g.Members, m)
	}
	return g
}

// denseRow is member m's cells in topic ti, one a partition.
func denseRow(g *gridData, m *gridMember, ti int) []cellState {
	row := make([]cellState, g.Topics[ti].Partitions)
	for p := range row {
		row[p] = m.cell(ti, p)
	}
	return row
}
