package tui

import (
	"fmt"
	"sort"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// The numbers pane reads, for every rebalance row on screen, the balance
// after it and its gaps partition by partition: on a 2,000-partition group
// that is milliseconds of map walks and sorting per frame, for numbers that
// never change while the simulation stays. simInfo keeps them once read.

// rebalanceNumbers are one rebalance's figures as the numbers pane shows them.
type rebalanceNumbers struct {
	balance      model.Balance // partitions per live member after it
	worst, total int64         // model.Rebalance.WorstGapMs, TotalGapMs
	gaps         *[]string     // gapLines, not yet fitted to a width; read when first shown
}

// rebalanceNumbers are rebalance k's figures, read on first use.
func (info *simInfo) rebalanceNumbers(sim simulation, k int) *rebalanceNumbers {
	if info.numbers == nil {
		info.numbers = make([]*rebalanceNumbers, len(info.rebalances))
	}
	if n := info.numbers[k]; n != nil {
		return n
	}
	r := info.rebalances[k]
	n := &rebalanceNumbers{
		balance: sim.View(min(r.EndStep, sim.Len()-1)).Balance(),
		worst:   r.WorstGapMs(), total: r.TotalGapMs(),
	}
	info.numbers[k] = n
	return n
}

// rebalanceGaps are rebalance k's gapLines, read on first use.
func (info *simInfo) rebalanceGaps(sim simulation, k int) []string {
	n := info.rebalanceNumbers(sim, k)
	if n.gaps == nil {
		gaps := gapLines(info.rebalances[k].UnownedMs)
		n.gaps = &gaps
	}
	return *n.gaps
}

// prepare reads every figure the numbers pane may show, and the last
// step's view (the timeline line's end): a recompute calls it in the
// background, so that the first frame of its result only draws.
func (info *simInfo) prepare(sim simulation) {
	for k := range info.rebalances {
		info.rebalanceGaps(sim, k)
	}
	info.outageTexts(sim)
	sim.View(sim.Len() - 1)
}

// outageLines are the model's outages as the numbers pane lists them, not
// yet fitted to a width; read on first use.
func (info *simInfo) outageTexts(sim simulation) []outageText {
	if info.outages != nil {
		return *info.outages
	}
	var out []outageText
	if src, ok := sim.(interface{ Outages() []model.Outage }); ok {
		for _, o := range src.Outages() {
			tps := make([]kafka.TP, 0, len(o.UnownedMs))
			for tp := range o.UnownedMs {
				tps = append(tps, tp)
			}
			out = append(out, outageText{startStep: o.StartStep,
				text: fmt.Sprintf("  %-15s %9s  %s", formatSpan(o.StartMs, o.EndMs), formatDur(o.WorstGapMs()), kafka.PartitionRuns(tps))})
		}
	}
	info.outages = &out
	return out
}

// outageText is one outage's line and where it starts.
type outageText struct {
	startStep int
	text      string
}

// gapLines groups partitions by how long they had no consumer, longest
// first: "42.0 s  orders:4" / "4 ms  orders:0–3,5".
func gapLines(unowned map[kafka.TP]int64) []string {
	byGap := map[int64][]kafka.TP{}
	for tp, ms := range unowned {
		if ms > 0 {
			byGap[ms] = append(byGap[ms], tp)
		}
	}
	gaps := make([]int64, 0, len(byGap))
	for ms := range byGap {
		gaps = append(gaps, ms)
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] > gaps[j] })
	var out []string
	for _, ms := range gaps {
		out = append(out, fmt.Sprintf("  %9s  %s", formatDur(ms), kafka.PartitionRuns(byGap[ms])))
	}
	return out
}
