package model

import (
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// A share group's outcomes (what-if, compare): several members hold one
// partition and nobody revokes, so the rebalance scan's one-owner picture
// does not fit. Here a moment runs from the step before the event to the
// first step where the group is settled again — every live member in the
// group at the assignment epoch, holding its target, the target current —
// or to the end of the run. Before and After list every holder of each
// partition; Moves pair, per partition, the members that stopped holding
// it with those that started (a member gone with no one new: To is "";
// a new one with no one gone: From is "").

// shareHolders is every member consuming each partition at a view, each
// partition's ids sorted.
func shareHolders(v *GroupView) map[kafka.TP][]string {
	out := map[kafka.TP][]string{}
	for i := range v.Members {
		for _, tp := range consumedBy(&v.Members[i]) {
			out[tp] = append(out[tp], v.Members[i].ID)
		}
	}
	for tp, ids := range out {
		slices.Sort(ids)
		out[tp] = slices.Compact(ids)
	}
	return out
}

// shareAssignment is the holders as Holdings listing every member of ids.
func shareAssignment(h map[kafka.TP][]string, ids []string) kafka.Holdings {
	byMember := map[string][]kafka.TP{}
	for _, id := range ids {
		byMember[id] = nil
	}
	for tp, hs := range h {
		for _, id := range hs {
			byMember[id] = append(byMember[id], tp)
		}
	}
	out := kafka.Assignment{}
	for id, tps := range byMember {
		out[id] = kafka.TPMap(kafka.SortTPs(tps))
	}
	return kafka.HoldingsOf(out)
}

// shareDiff is, per partition in partition order, the holders gone paired
// with the holders new (each side in id order).
func shareDiff(before, after map[kafka.TP][]string) []kafka.Move {
	tps := map[kafka.TP]bool{}
	for tp := range before {
		tps[tp] = true
	}
	for tp := range after {
		tps[tp] = true
	}
	var out []kafka.Move
	for tp := range tps {
		gone := without(before[tp], after[tp])
		added := without(after[tp], before[tp])
		for i := range max(len(gone), len(added)) {
			m := kafka.Move{Topic: tp.Topic, Partition: tp.Partition}
			if i < len(gone) {
				m.From = gone[i]
			}
			if i < len(added) {
				m.To = added[i]
			}
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b kafka.Move) int {
		if c := kafka.CompareTPs(kafka.TP{Topic: a.Topic, Partition: a.Partition}, kafka.TP{Topic: b.Topic, Partition: b.Partition}); c != 0 {
			return c
		}
		if c := strings.Compare(a.From, b.From); c != 0 {
			return c
		}
		return strings.Compare(a.To, b.To)
	})
	return out
}

// without is the ids of a (sorted) not in b.
func without(a, b []string) []string {
	var out []string
	for _, id := range a {
		if !slices.Contains(b, id) {
			out = append(out, id)
		}
	}
	return out
}

// sameTPs: the same partitions, whatever the order.
func sameTPs(a, b []strategies.TopicPartition) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := kafka.SortTPs(slices.Clone(a)), kafka.SortTPs(slices.Clone(b))
	return slices.Equal(x, y)
}

// shareOutcomeOfEvent is OutcomeOfEvent for a share group.
func (s *Sim) shareOutcomeOfEvent(atMs int64) Outcome {
	e := s.stepAtOrAfter(atMs)
	if e == 0 && s.sc.GivenStart() && len(s.steps) > 1 {
		e = 1
	}
	o := Outcome{AtMs: atMs, StartMs: atMs}
	s.shareFill(&o, e)
	return o
}

// shareOutcomeOfRebalance is OutcomeOfRebalance for a share group: the
// first group-epoch bump at or after atMs, until the group is settled.
func (s *Sim) shareOutcomeOfRebalance(atMs int64) (Outcome, bool) {
	for i := max(s.stepAtOrAfter(atMs), 1); i < len(s.steps); i++ {
		if s.steps[i].g.generation > s.steps[i-1].g.generation {
			o := Outcome{AtMs: s.steps[i].at, StartMs: s.steps[i].at}
			s.shareFill(&o, i)
			return o, true
		}
	}
	return Outcome{}, false
}

// shareFill walks from step e (the moment) to the group settled again,
// reading holders, rounds (one per group epoch) and gaps (time a partition
// held before had no holder). The walk applies only what each step changed
// (shareWalk), so a what-if on a thousand members costs its changes.
func (s *Sim) shareFill(o *Outcome, e int) {
	if len(s.steps) == 0 {
		return
	}
	e = min(e, len(s.steps)-1)
	before := max(e-1, 0)
	w := s.newShareWalk()
	w.seek(before)
	bh := w.holdersNow()
	startGen := s.steps[before].g.generation
	gaps := map[kafka.TP]int64{}
	since := map[kafka.TP]int64{}
	var at int64
	w.onHolders = func(tp kafka.TP, held bool) {
		if _, was := bh[tp]; !was {
			return
		}
		from, open := since[tp]
		switch {
		case !held && !open:
			since[tp] = at
		case held && open:
			gaps[tp] += at - from
			delete(since, tp)
		}
	}
	end := len(s.steps) - 1
	o.Settled = false
	for j := e; j < len(s.steps); j++ {
		r := &s.steps[j]
		at = r.at
		w.advance(j)
		if g := r.g.generation; g > startGen {
			if n := len(o.Rounds); n == 0 || o.Rounds[n-1].Generation != g {
				o.Rounds = append(o.Rounds, Round{StartStep: j, EndStep: j, StartMs: r.at, EndMs: r.at, Generation: g})
			}
		}
		if n := len(o.Rounds); n > 0 {
			o.Rounds[n-1].EndStep, o.Rounds[n-1].EndMs = j, r.at
		}
		if j > e && w.settled(r.g) { // the event's own step is before the group reacts
			end, o.Settled = j, true
			break
		}
	}
	av := s.View(end)
	for tp, from := range since {
		gaps[tp] += av.TimeMs - from
	}
	ah := w.holdersNow()
	o.Rebalanced = len(o.Rounds) > 0
	o.Moves = shareDiff(bh, ah)
	o.Moved = kafka.Taken(o.Moves)
	o.Before = shareAssignment(bh, liveIDs(s.View(before)))
	o.After = shareAssignment(ah, liveIDs(av))
	o.Balance = balanceOf(av)
	o.SettledMs, o.SettledStep = av.TimeMs, end
	o.addGaps(PartitionMsOf(gaps))
}
