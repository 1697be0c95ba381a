package model

import "container/heap"

// event is something scheduled on the virtual clock: a message arriving, a
// timer firing, a timeline entry. Events at the same time run in the order
// they were scheduled, so a scenario always gives the same trace.
type event struct {
	at        int64
	seq       uint64
	run       func()
	routine   bool // a heartbeat or its timer: the group would do it forever
	retry     bool // a FindCoordinator retry at the longest backoff, routine too
	cancelled bool
	index     int
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *eventQueue) Push(x any) {
	e := x.(*event)
	e.index = len(*q)
	*q = append(*q, e)
}
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	e.index = -1
	return e
}

// clock is the virtual clock and its queue.
type clock struct {
	now        int64
	seq        uint64
	q          eventQueue
	nonRoutine int // scheduled, not cancelled, not routine
}

// after schedules run at now+delay and returns the event so it can be cancelled.
func (c *clock) after(delay int64, routine bool, run func()) *event {
	if delay < 0 {
		delay = 0
	}
	c.seq++
	e := &event{at: c.now + delay, seq: c.seq, run: run, routine: routine}
	heap.Push(&c.q, e)
	if !routine {
		c.nonRoutine++
	}
	return e
}

// cancel stops a scheduled event; cancelling nil or a fired event is a no-op.
func (c *clock) cancel(e *event) {
	if e == nil || e.cancelled || e.index < 0 {
		return
	}
	e.cancelled = true
	heap.Remove(&c.q, e.index)
	if !e.routine {
		c.nonRoutine--
	}
}

// again schedules e to run (once more) at now+delay, exactly as cancel(e)
// followed by after(delay, e.routine, e.run) would, without allocating:
// a timer that is re-armed on every message (the KIP-848 heartbeat) keeps
// one event for its whole life.
func (c *clock) again(e *event, delay int64) {
	if delay < 0 {
		delay = 0
	}
	c.seq++
	e.at, e.seq = c.now+delay, c.seq
	if e.index >= 0 && !e.cancelled {
		heap.Fix(&c.q, e.index)
		return
	}
	e.cancelled = false
	heap.Push(&c.q, e)
	if !e.routine {
		c.nonRoutine++
	}
}

// next pops the earliest event and advances the clock to it.
func (c *clock) next() *event {
	if len(c.q) == 0 {
		return nil
	}
	e := heap.Pop(&c.q).(*event)
	if !e.routine {
		c.nonRoutine--
	}
	c.now = e.at
	return e
}

// shift moves every routine event delta ms later and the clock with it, as
// if the heartbeat cycles that fill a quiet stretch had run (quiet.go).
// Shifted events get fresh sequence numbers, in their old order: had the
// cycles run, each would have been scheduled after every event still queued
// that is not routine, so at a tie those run first, as they would have.
func (c *clock) shift(delta int64) { c.shiftRoutine(delta, nil) }

// nextNonRoutine is the time of the earliest queued event that is not
// routine, or -1.
func (c *clock) nextNonRoutine() int64 {
	t := int64(-1)
	for _, e := range c.q {
		if !e.routine && (t < 0 || e.at < t) {
			t = e.at
		}
	}
	return t
}
