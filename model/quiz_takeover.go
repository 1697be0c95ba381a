package model

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// takeoverQuestion: "a crashes. Who takes over t0-0?", about a partition
// a crashed member held when rebalance k (the one its crash leads to) ends
// with another member consuming it. Asked at the crash, revealed by the
// assignment that gives the partition to its new owner. Only members in
// the group at the end and subscribed to the topic are offered: never the
// crashed one.
func (q *quizzer) takeoverQuestion(k int) quizBuild {
	r := q.rebs[k]
	acs := q.assignments(r)
	if len(acs) == 0 {
		return quizBuild{}
	}
	prevEnd := -1
	if k > 0 {
		prevEnd = q.rebs[k-1].EndStep
	}
	// The crash that leads here: the last one between the previous
	// rebalance and this one.
	crashed, ask := "", -1
	for _, ev := range q.s.sc.Timeline {
		if ev.Kind != "crash" || ev.AtMs > r.StartMs {
			continue
		}
		for i := prevEnd + 1; i < r.StartStep; i++ {
			if q.s.steps[i].at >= ev.AtMs && !q.s.steps[i].routine {
				crashed, ask = ev.Member, i
				break
			}
		}
	}
	if ask < 0 {
		return quizBuild{}
	}
	before := q.s.ownersAt(ask - 1) // what it held when it crashed
	after := q.s.ownersAt(r.EndStep)
	end := q.s.View(r.EndStep)
	fair := func(id string, tp kafka.TP) bool {
		for _, m := range end.Members {
			if m.ID == id && id != crashed && m.Live() && slices.Contains(m.Topics, tp.Topic) {
				return true
			}
		}
		return false
	}
	for _, tp := range kafka.SortTPs(slices.Collect(maps.Keys(before))) {
		owner := after[tp]
		if before[tp] != crashed || owner == "" || owner == crashed {
			continue
		}
		reveal, ok := q.ownerReveal(acs, r, tp, owner)
		if !ok || reveal <= ask {
			continue
		}
		var c choiceSet
		c.add(owner, owner, "")
		for _, alt := range q.alts.all() {
			if ar, ok := alt.matching(k, len(q.rebs)); ok {
				if w := alt.sim.ownersAt(ar.EndStep)[tp]; w != "" && fair(w, tp) {
					c.add(w, w, fmt.Sprintf("%s would give it to %s", alt.strategy, w))
				}
			}
		}
		for _, m := range liveIDs(end) {
			if fair(m, tp) {
				c.add(m, m, "")
			}
		}
		if len(c.texts) < 2 {
			continue
		}
		choices, answer := c.shuffled(q.rng(ask))
		return quizBuild{ok: true, interesting: true, q: Question{
			Step: ask, RevealStep: reveal, Kind: QuizTakeover, Member: crashed, Partition: tp.String(),
			Text:    fmt.Sprintf("%s crashed holding %s. Who takes it over?", crashed, tp),
			Choices: choices, Answer: answer,
			Explain: fmt.Sprintf("%s takes over %s once %s's session has expired and the group rebalances without it. %s%s",
				owner, tp, crashed, q.s.steps[reveal].say(), c.origins()),
		}}
	}
	return quizBuild{}
}
