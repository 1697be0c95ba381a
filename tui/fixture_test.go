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
		for _, n := range parts {
			row := make([]cellState, n)
			for p := range n {
				if p%members == i {
					row[p] = cellOwned
					m.Count++
				}
			}
			m.Cells = append(m.Cells, row)
		}
		g.Members = append(g.Members, m)
	}
	return g
}
