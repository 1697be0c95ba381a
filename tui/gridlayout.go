package tui

import "sort"

// gridColumn is one drawn column: a run of partitions [Lo, Hi) of a topic.
// Without condensing, Hi = Lo+1.
type gridColumn struct {
	Topic  int
	Lo, Hi int
}

// gridLayout is how the grid fits a given width: cell width, partitions per
// column (1 unless condensed), and the columns themselves.
type gridLayout struct {
	LabelW, NameW int
	LetterW       int // member labels: 1 cell up to 62 members, then 2
	TagW, CountW  int
	CellW         int // cells per column on screen
	PerCol        int // partitions per column (>1 = condensed)
	Cols          []gridColumn
	// From and Topics are the topics with columns, [From, Topics): all of
	// them unless even one column a topic would not fit (a thousand
	// topics on 120 columns); then the window starts at the topic in
	// focus (gridData.focusTopic) and OnePerTopic is set.
	From, Topics int
	OnePerTopic  bool
	GridW        int // width of the column area including topic separators
	RunsW        int // width left for the "orders 0-3, 7" text
}

const (
	maxNameW  = 14
	tagW      = 10
	countW    = 4
	minRunsW  = 12
	maxCellW  = 7
	topicGap  = 1
	glyphSep  = "│"
	selMarker = "▸"
)

// layoutGrid decides cell width and condensing so the grid never wraps: it
// uses the widest cells that fit, then one column per partition, then
// columns that each stand for several partitions of one topic.
func layoutGrid(g *gridData, width int) gridLayout {
	l := gridLayout{TagW: tagW, CountW: countW}
	l.NameW, l.LetterW = 4, 1
	for _, m := range g.Members {
		l.NameW = max(l.NameW, min(textWidth(m.ID), maxNameW))
		l.LetterW = max(l.LetterW, textWidth(m.Letter))
	}
	l.LabelW = 2 + l.LetterW + 1 + l.NameW + 1 // "▸ A name "
	avail := width - l.LabelW - l.TagW - l.CountW
	if avail < 8 { // very narrow: give up the tag column first
		avail += l.TagW
		l.TagW = 0
	}
	avail = max(avail, 1)
	gaps := max(len(g.Topics)-1, 0) * topicGap
	total := g.totalPartitions()
	l.PerCol = 1
	l.CellW = 0
	// Wide cells are worth less than the runs text ("orders 0-3"): keep
	// room for it when cells can stay at least 3 wide.
	for _, cw := range []int{maxCellW, 5, 3, 2, 1} {
		room := avail
		if cw >= 3 {
			room -= minRunsW + 12
		}
		if total*cw+gaps <= room || (cw == 3 && total*cw+gaps <= avail) {
			l.CellW = cw
			break
		}
	}
	if l.CellW == 0 { // condense: the smallest run length that fits
		l.CellW = 1
		// columnsFor falls as k grows: search for the first k that fits.
		l.PerCol = 2 + sort.Search(max(total-1, 0), func(i int) bool {
			k := i + 2
			return columnsFor(g, k)+gaps <= avail || k >= total
		})
	}
	l.Topics = len(g.Topics)
	if l.PerCol >= total && len(g.Topics)*l.CellW+gaps > avail {
		l.OnePerTopic = true
		// The window starts at the topic in focus, or early enough to be full.
		fit := max((avail+topicGap)/(l.CellW+topicGap), 1)
		l.From = max(min(g.focusTopic(), len(g.Topics)-fit), 0)
	}
	gaps = 0
	for ti := l.From; ti < len(g.Topics); ti++ {
		t := g.Topics[ti]
		n := (t.Partitions + l.PerCol - 1) / l.PerCol
		gap := 0
		if ti > l.From {
			gap = topicGap
		}
		// Topics that would not fit even at one column each are left for
		// the topic header to count ("+N topics").
		if l.OnePerTopic && ti > l.From && len(l.Cols)*l.CellW+gaps+gap+n*l.CellW > avail {
			l.Topics = ti
			break
		}
		gaps += gap
		for lo := 0; lo < t.Partitions; lo += l.PerCol {
			l.Cols = append(l.Cols, gridColumn{Topic: ti, Lo: lo, Hi: min(lo+l.PerCol, t.Partitions)})
		}
	}
	l.GridW = len(l.Cols)*l.CellW + gaps
	if rest := width - l.LabelW - l.GridW - l.TagW - l.CountW - 2; rest >= minRunsW {
		l.RunsW = rest
	}
	return l
}

func columnsFor(g *gridData, k int) int {
	n := 0
	for _, t := range g.Topics {
		n += (t.Partitions + k - 1) / k
	}
	return n
}

// visibleRows picks the window of member rows that keeps the selection on
// screen, preferring to show the top.
func visibleRows(n, rows, selected int) (first, last int) {
	if n <= rows {
		return 0, n
	}
	first = 0
	if selected >= rows {
		first = selected - rows + 1
	}
	return first, first + rows
}
