package tui

import (
	"github.com/kvizlab/kviz/model"
)

// numbersTexts are the numbers pane's lines that never change while the
// simulation stays: each rebalance's gaps and the outages, formatted once
// (on a 2,000-partition group, writing the partition runs of every gap is
// milliseconds a frame). simInfo keeps them; the figures are the model's
// (model.Ledger).
type numbersTexts struct {
	gapLines map[int][]string // per rebalance index
	outLines *[]string
}

// texts are the simulation's numbers texts, made on first use.
func (info *simInfo) texts() *numbersTexts {
	if info.numbers == nil {
		info.numbers = &numbersTexts{gapLines: map[int][]string{}}
	}
	return info.numbers
}

// gaps are rebalance k's partitions without a consumer, grouped by how
// long, longest first: "42.0 s  orders:4" / "4 ms  orders:0–3,5".
func (t *numbersTexts) gaps(rs []model.RebalanceRow, k int) []string {
	if k < 0 {
		return nil
	}
	if lines, ok := t.gapLines[k]; ok {
		return lines
	}
	var lines []string
	for _, g := range rs[k].Gaps {
		lines = append(lines, "  "+g.Text())
	}
	t.gapLines[k] = lines
	return lines
}

// outages are the outages' lines, not yet fitted to a width.
func (t *numbersTexts) outages(os []model.OutageRow) []string {
	if t.outLines == nil {
		lines := make([]string, len(os))
		for k, o := range os {
			lines[k] = "  " + o.Text()
		}
		t.outLines = &lines
	}
	return *t.outLines
}

// outageLine is outage k's line; o is the model's row (the numbers a quiz
// question sees hold the first outages only, Numbers.Hiding).
func (t *numbersTexts) outageLine(o model.OutageRow, k int) string {
	if t.outLines == nil || k >= len(*t.outLines) {
		return "  " + o.Text()
	}
	return (*t.outLines)[k]
}

// prepare reads every figure and text the numbers pane may show, and the
// last step's view (the timeline line's end): a recompute calls it in the
// background, so that the first frame of its result only draws.
func (info *simInfo) prepare(sim simulation) {
	rows := info.ledger.Rows()
	for k := range rows {
		info.texts().gaps(rows, k)
	}
	info.texts().outages(info.ledger.OutageRows())
	sim.View(sim.Len() - 1)
}
