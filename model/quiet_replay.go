package model

import (
	"cmp"
	"container/heap"
	"slices"
	"sync/atomic"

	"github.com/kvizlab/kviz/model/kafka"
)

// Replayed cycles. A quiet stretch too short to jump (fewer than
// minQuietCycles cycles before the next event), or one that ends at a
// routine timer that does not repeat (a crashed member's session timer:
// its 45 s are nine heartbeat cycles of every other member), keeps its
// heartbeats in the trace. Each such cycle is the one before it, one
// heartbeat interval later: the same events in the same order, on the
// same state. So once a cycle has repeated itself exactly, the run copies
// its steps forward, cycle after cycle, with their times moved on, and
// shifts the clock's repeating events with them, stopping short of
// whatever comes next — the trace the heartbeats would have written,
// step for step, without running them (issue 21: 10,000 members
// waiting out a crash were most of a given start's cost). A test runs
// random scenarios with and without it and compares every step.

// replayCycles is off in tests that check a replayed run against the
// heartbeats themselves; replays counts the copies made, for them.
var (
	replayCycles atomic.Bool
	replays      atomic.Int64
)

func init() { replayCycles.Store(true) }

// replaySig is the run at one point of a cycle (replay compares two, one
// cycle apart).
type replaySig struct {
	at, lastChange int64
	ver            int32
	steps          int // the steps recorded by then
	nonRoutine     int
	next           int64            // the earliest event that is not routine, -1 none
	routine        map[*event]int64 // every routine event queued, and its time
}

// replay copies whole cycles forward when the run is where it was one
// cycle (p) ago, but for the time, with only routine steps since. It
// reports whether it did.
func (w *world) replay(p int64) bool {
	if !replayCycles.Load() || w.share != nil || w.consumer && w.consumerGroup.derive() == kafka.KAssigning {
		w.lastReplay = nil
		return false
	}
	now := w.clock.now
	sig := &replaySig{at: now, lastChange: w.hist.lastChangeAt, ver: w.hist.ver, steps: w.hist.len(),
		nonRoutine: w.clock.nonRoutine, next: w.clock.nextNonRoutine(), routine: make(map[*event]int64, len(w.clock.q))}
	for _, e := range w.clock.q {
		if e.routine {
			sig.routine[e] = e.at
		}
	}
	prev := w.lastReplay
	w.lastReplay = sig
	if prev == nil || prev.at != now-p || prev.ver != sig.ver || prev.lastChange != sig.lastChange ||
		prev.nonRoutine != sig.nonRoutine || prev.next != sig.next || prev.steps == sig.steps {
		return false
	}
	deadline, ok := w.cycleDeadline(prev, sig)
	if !ok {
		return false
	}
	cycle := w.hist.steps[prev.steps:sig.steps]
	for _, r := range cycle {
		if !r.routine || r.ver != sig.ver {
			return false
		}
	}
	k := (deadline - now - 1) / p // every copied step before it
	k = min(k, int64((maxSteps-w.hist.len())/len(cycle)))
	if k < 1 {
		return false
	}
	w.hist.repeat(prev.steps, sig.steps, int(k), p)
	replays.Add(1)
	w.clock.shiftRoutine(k*p, func(e *event) bool { at, in := prev.routine[e]; return in && at == e.at })
	w.lastReplay, w.lastSig = nil, nil
	w.nextQuietTry = w.clock.now + p
	return true
}

// cycleDeadline is the earliest moment the cycle stops repeating: the
// next event that is not routine, a routine timer that stayed where it was
// for the whole cycle (it does not repeat: it fires), or the point where
// a group that never settles is given up on. ok is false when the routine
// events are not the cycle before's, one cycle later, or nothing ends the
// cycling.
func (w *world) cycleDeadline(prev, sig *replaySig) (deadline int64, ok bool) {
	deadline = sig.next
	var was, is []int64 // the repeating events, as offsets from their point
	for e, at := range sig.routine {
		if pat, in := prev.routine[e]; in && pat == at {
			if deadline < 0 || at < deadline {
				deadline = at
			}
			continue
		}
		is = append(is, at-sig.at)
	}
	for e, at := range prev.routine {
		if now, in := sig.routine[e]; in && now == at {
			continue
		}
		was = append(was, at-prev.at)
	}
	slices.Sort(was)
	slices.Sort(is)
	if !slices.Equal(was, is) {
		return 0, false
	}
	if w.clock.nonRoutine == 0 {
		// the play loop's settle limit (world.play): a group that never
		// settles fails on its own millisecond
		limit := max(w.lastEventMs(), w.hist.lastChangeAt) + settleLimitMs
		if deadline < 0 || limit < deadline {
			deadline = limit
		}
	}
	return deadline, deadline >= 0
}

// lastEventMs is the time of the timeline's last event (0 with none).
func (w *world) lastEventMs() int64 {
	if n := len(w.sc.Timeline); n > 0 {
		return w.sc.Timeline[n-1].AtMs
	}
	return 0
}

// repeat appends k copies of steps [from, to), each a cycle of p ms later
// than the one before, with nothing changed: the state logs note each as
// a step without changes.
func (h *history) repeat(from, to, k int, p int64) {
	n := to - from
	h.steps = slices.Grow(h.steps, k*n)
	for j := 1; j <= k; j++ {
		for i := from; i < to; i++ {
			r := h.steps[i]
			r.at += int64(j) * p
			h.steps = append(h.steps, r)
			h.vlog.note(nil, h.views)
			h.tlog.note(nil, h.tstate)
		}
	}
}

// shiftRoutine is shift for every routine event but those stay keeps on
// their millisecond.
func (c *clock) shiftRoutine(delta int64, stay func(*event) bool) {
	moved := make([]*event, 0, len(c.q))
	for _, e := range c.q {
		if e.routine && (stay == nil || !stay(e)) {
			moved = append(moved, e)
		}
	}
	slices.SortFunc(moved, func(a, b *event) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range moved {
		c.seq++
		e.at, e.seq = e.at+delta, c.seq
	}
	heap.Init(&c.q)
	c.now += delta
}
