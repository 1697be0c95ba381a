package tui

import (
	"slices"
	"strings"
)

// columns is a text table whose columns are as wide as their widest cell
// and go away whole, lowest priority first, when the table is too wide: a
// pane shows "moved" and "worst gap" entire rather than "moved wors".
type columns struct {
	cols []column
}

type column struct {
	head  string
	cells []string
	right bool // numbers align right
	prio  int  // 0 is never dropped; the highest goes first
	width int
	shown bool
}

func (t *columns) add(head string, cells []string, right bool, prio int) {
	w := textWidth(head)
	for _, c := range cells {
		w = max(w, textWidth(c))
	}
	t.cols = append(t.cols, column{head: head, cells: cells, right: right, prio: prio, width: w, shown: true})
}

// fitTo hides columns, highest priority number first, until a row is at
// most w cells.
func (t *columns) fitTo(w int) {
	order := make([]int, len(t.cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return t.cols[y].prio - t.cols[x].prio })
	for _, i := range order {
		if t.width() <= w || t.cols[i].prio == 0 {
			break
		}
		t.cols[i].shown = false
	}
}

// width is a row's width: shown columns and one space between them.
func (t *columns) width() int {
	n := -1
	for _, c := range t.cols {
		if c.shown {
			n += c.width + 1
		}
	}
	return max(n, 0)
}

func (t *columns) header() string {
	return t.line(func(c column) string { return c.head })
}

func (t *columns) row(i int) string {
	return t.line(func(c column) string { return c.cells[i] })
}

func (t *columns) line(cell func(column) string) string {
	var parts []string
	for _, c := range t.cols {
		if c.shown {
			parts = append(parts, pad(cell(c), c.width, c.right))
		}
	}
	return strings.Join(parts, " ")
}
