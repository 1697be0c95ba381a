package tui

import (
	"fmt"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// comparePane is compare mode's data: the model's rows for one moment
// (compareTable, nil while they are computed) over the group's topics.
type comparePane struct {
	t      *compareTable
	topics []model.TopicView
	names  roster
	st     *Styles
}

func (a App) comparePane() comparePane {
	return comparePane{t: a.compare, topics: a.view().Topics, names: a.roster(), st: &a.styles}
}

// compareBody is compare mode, boxed in the body's place.
func (a App) compareBody(h int) string {
	return box(&a.styles, "Compare strategies", a.comparePane().Render(a.width-4, h-2), a.width, h, true)
}

// Render is compare mode in w × h cells: the same moment under each
// strategy, each under its preferred protocol, side by side — who consumes
// each partition afterwards (moved cells marked *), then the numbers; the
// selected row's moves and rounds below. Everything shown is a
// model.CompareRow.
func (p comparePane) Render(w, _ int) []string {
	st, t := p.st, p.t
	switch {
	case t == nil:
		return []string{st.Faint.Render("simulating the scenario under each assignor…")}
	case t.Err != "":
		return []string{st.Bad.Render("the simulation failed: " + t.Err)}
	}
	topics := p.topics
	lay := newCompareLayout(w, topics)
	var lines []string
	under := "under each assignor and its preferred protocol"
	if releases(t.Rows) {
		under = "under the share group's assignor as each Kafka release wrote it (a number: that many members share the partition)"
	}
	for _, l := range wrap(fmt.Sprintf("the first rebalance at or after %s, %s", model.FormatMs(t.AtMs), under), w) {
		lines = append(lines, st.Faint.Render(l))
	}
	lines = append(lines, "",
		st.PaneTitle.Render(lay.header(topics)),
		st.PaneTitle.Render(lay.subheader(topics)))
	for i, r := range t.Rows {
		line := lay.row(p, r, topics)
		if i == t.Cursor {
			line = st.Selected.Render("▸" + line)
		} else {
			line = " " + line
		}
		lines = append(lines, fit(line, w))
	}
	lines = append(lines, "")
	if t.Cursor < len(t.Rows) {
		lines = append(lines, p.detail(t.Rows[t.Cursor], w)...)
	}
	notes := "* moved: taken from another member · gap: time a partition had no consumer (the worst one; Σ over partitions) · " +
		"min–max: partitions per live member afterwards · ↑/↓ select · enter switches the lab to it · c or esc closes"
	lines = append(lines, "")
	for _, l := range wrap(notes, w) {
		lines = append(lines, st.Faint.Render(l))
	}
	return lines
}

// compareColumns are the numbers after the cells, in order of importance:
// a narrow terminal drops them from the right, never cuts one.
var compareColumns = []struct {
	name  string
	width int
}{{"moved", 5}, {"rounds", 6}, {"worst gap", 9}, {"Σ gap", 8}, {"min–max", 7}, {"settled", 9}}

// compareLayout is how many partition cells and number columns fit.
type compareLayout struct {
	cells int // partition cells shown (2 columns each)
	total int // partitions in all
	cols  int // number columns shown
}

const compareNameW = 1 + 19 + 12 // mark space, strategy, protocol

func newCompareLayout(w int, topics []model.TopicView) compareLayout {
	l := compareLayout{}
	for _, t := range topics {
		l.total += int(t.Partitions)
	}
	avail := w - 1 - compareNameW
	used := func(cols int) int {
		n := 0
		for _, c := range compareColumns[:cols] {
			n += 1 + c.width
		}
		return n
	}
	// Every partition's cell comes first: drop number columns (keeping
	// moved and rounds) until they all fit.
	for cols := len(compareColumns); cols >= 2; cols-- {
		l.cols, l.cells = cols, l.total
		if l.cellsWidth(topics) <= avail-used(cols)-1 {
			return l
		}
	}
	// They cannot all fit (a big topic): keep the columns that leave a
	// useful strip of cells, and show as many cells as fit.
	l.cols = 0
	for cols := 1; cols <= len(compareColumns) && avail-used(cols)-1 >= 14; cols++ {
		l.cols = cols
	}
	room := avail - used(l.cols) - 1
	for l.cells = l.total; l.cells > 1 && l.cellsWidth(topics) > room; l.cells-- {
	}
	return l
}

// eachCell calls f for every shown partition, in topic order, with whether
// it starts a new topic.
func (l compareLayout) eachCell(topics []model.TopicView, f func(topic string, p int32, first bool)) {
	n := 0
	for _, t := range topics {
		for p := int32(0); p < t.Partitions; p++ {
			if n == l.cells {
				return
			}
			f(t.Name, p, p == 0)
			n++
		}
	}
}

func (l compareLayout) cellsWidth(topics []model.TopicView) int {
	w := 0
	l.eachCell(topics, func(_ string, _ int32, first bool) {
		if first && w > 0 {
			w++
		}
		w += 2
	})
	if l.cells < l.total {
		w += 1 + len(fmt.Sprintf("…+%d", l.total-l.cells))
	}
	return w
}

func (l compareLayout) numbers(cells ...string) string {
	out := ""
	for i, c := range compareColumns[:l.cols] {
		out += " " + pad(cells[i], c.width, true)
	}
	return out
}

// header names the topics above their first cell.
func (l compareLayout) header(topics []model.TopicView) string {
	line := pad(fmt.Sprintf(" %-19s%-12s", "strategy", "protocol"), compareNameW)
	cw := l.cellsWidth(topics)
	// Place each topic name at its first cell.
	names := ""
	x := 0
	l.eachCell(topics, func(topic string, _ int32, first bool) {
		if first {
			if x > 0 {
				x++
			}
			names = pad(names, x) + topic
		}
		x += 2
	})
	line += " " + pad(fit(names, cw), cw)
	var heads []string
	for _, c := range compareColumns {
		heads = append(heads, c.name)
	}
	return line + l.numbers(heads...)
}

// subheader numbers the partitions (the last digit: a grid, not a label).
func (l compareLayout) subheader(topics []model.TopicView) string {
	line := pad("", compareNameW) + " "
	l.eachCell(topics, func(_ string, p int32, first bool) {
		if first && textWidth(line) > compareNameW+1 {
			line += " "
		}
		line += fmt.Sprintf("%d ", p%10)
	})
	return line
}

// row is one strategy: its owners after, its numbers.
func (l compareLayout) row(cp comparePane, r model.CompareRow, topics []model.TopicView) string {
	st := cp.st
	line := fmt.Sprintf("%-19s%-12s", rowName(r), r.Protocol)
	switch {
	case r.Err != nil:
		return line + " " + st.Bad.Render("cannot run: "+r.Err.Error())
	case !r.Found:
		return line + " " + st.Faint.Render("no rebalance starts then")
	}
	o := r.Outcome
	owner := o.After.Owners()
	var holders map[kafka.TP][]string // a share group's: several members may hold a partition
	if r.Variant.Label != "" {
		holders = o.After.Holders()
	}
	taken := map[kafka.TP]bool{}
	for _, m := range o.Moves {
		if m.Taken() && m.To != "" {
			taken[kafka.TP{Topic: m.Topic, Partition: m.Partition}] = true
		}
	}
	cells := ""
	l.eachCell(topics, func(topic string, p int32, first bool) {
		if first && cells != "" {
			cells += " "
		}
		tp := kafka.TP{Topic: topic, Partition: p}
		id, ok := owner[tp]
		if !ok {
			cells += st.Unowned.Render("·") + " "
			return
		}
		letter, color := cp.names.info.letter(id)
		mark := " "
		if taken[tp] {
			mark = st.Moved.Render("*")
		}
		if n := len(holders[tp]); n > 1 {
			cells += st.Accent.Render(shareCount(n)) + mark
			return
		}
		cells += st.MemberFg(color).Render(letter) + mark
	})
	if l.cells < l.total {
		cells += " " + st.Faint.Render(fmt.Sprintf("…+%d", l.total-l.cells))
	}
	line += " " + pad(cells, l.cellsWidth(topics))
	return line + l.numbers(fmt.Sprint(o.Moved), fmt.Sprint(len(o.Rounds)), model.FormatDur(o.WorstGapMs),
		model.FormatDur(o.TotalGapMs), fmt.Sprintf("%d–%d", o.Balance.Min, o.Balance.Max), model.FormatMs(o.SettledMs))
}

// detail is the selected row's moves and rounds.
func (p comparePane) detail(r model.CompareRow, w int) []string {
	if r.Err != nil || !r.Found {
		return nil
	}
	var out []string
	for _, l := range wrap(rowName(r)+": "+r.Outcome.RoundsText(), w) {
		out = append(out, p.st.Faint.Render(l))
	}
	for _, l := range p.names.moves(r.Outcome.Moves, w-2) {
		out = append(out, "  "+l)
	}
	return out
}

// rowName is a row's strategy, and for a share group's row its release:
// "simple 4.1".
func rowName(r model.CompareRow) string {
	if r.Variant.Label != "" {
		return r.Strategy + " " + r.Variant.Label
	}
	return r.Strategy
}

// releases reports whether the rows are releases of one assignor (a share
// group's compare).
func releases(rows []model.CompareRow) bool {
	return len(rows) > 0 && rows[0].Variant.Label != ""
}

// shareCount is a cell's count of members sharing its partition: one
// cell, "+" past nine.
func shareCount(n int) string {
	if n > 9 {
		return "+"
	}
	return fmt.Sprint(n)
}
