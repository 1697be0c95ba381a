package model

import (
	"sort"

	"github.com/kvizlab/kviz/model/scenario"
)

// forecastStop ends a forecast's fork as soon as its outcome is known, so
// a what-if costs the rebalance it asks about, not the rest of the
// timeline (at Kafka's scale a later crash's session timeout is 10,000
// members heartbeating for 45 s).
//
// OutcomeOfEvent reads the rebalances and outages that began before the
// next scripted event, the first rebalance to end at or after the event's
// step, and a rebalance an outage of the event leads into. The stop reads
// the fork's steps as they are recorded (a recorded step never changes)
// with the scan OutcomeOfEvent reads, and ends the run once its last step
// is at or past the next event and none of those can still open, close or
// grow. The scan is then the fork's own: nothing is read twice.
type forecastStop struct {
	atMs, next int64
	given      bool // a given start: step 0 is the state before anything
	h          *history
	scan       *ownershipScan
	fed        int // steps read into scan
	e          int // the event's step once the run is past next; -1 before
}

func newForecastStop(w *world, atMs int64) *forecastStop {
	s := newOwnershipScan(scenario.IsConsumer(w.sc))
	s.mixed = w.sc.Mixed()
	s.begin(&w.hist.vlog, &w.hist.tlog, &w.hist.tids)
	return &forecastStop{atMs: atMs, next: nextEventAfter(w.sc, atMs), given: w.sc.GivenStart(), h: w.hist, scan: s, e: -1}
}

// done reads the steps recorded since the last call and reports whether
// the outcome is known.
func (f *forecastStop) done() bool {
	steps := f.h.steps
	if len(steps) == f.fed {
		return false
	}
	f.scan.feed(steps, f.fed)
	f.fed = len(steps)
	if steps[len(steps)-1].at < f.next {
		return false // a step at or after the next event can still start what it reads
	}
	if f.e < 0 {
		// Fixed from here: a step at or after atMs exists (OutcomeOfEvent's e).
		f.e = sort.Search(len(steps), func(i int) bool { return steps[i].at >= f.atMs })
		if f.e == 0 && f.given && len(steps) > 1 {
			f.e = 1
		}
	}
	s, e := f.scan, f.e
	if o := s.out; o != nil && (o.StartMs < f.next || o.StartStep <= e) {
		return false // an outage it reads is still open
	}
	if c := s.cur; c != nil && (c.StartMs < f.next || c.StartStep <= e) {
		return false // a rebalance it reads is still under way
	}
	if n := len(s.done); n > 0 && s.done[n-1].EndStep >= e {
		return true // the first rebalance to end after the event has ended
	}
	// None has ended since the event: one under way (or one that takes
	// in the open outage) counts only if an outage of the event led into it.
	ledTo := -1
	for _, o := range s.outs {
		if o.EndStep >= e && o.StartMs < f.next {
			ledTo = o.EndStep
		}
	}
	if c := s.cur; c != nil && c.StartStep == ledTo {
		return false
	}
	if o := s.out; o != nil && o.StartStep == ledTo {
		return false
	}
	return true
}

// finish reads the last steps and closes the scan: the fork's scan.
func (f *forecastStop) finish() *ownershipScan {
	f.scan.feed(f.h.steps, f.fed)
	f.fed = len(f.h.steps)
	f.scan.end()
	return f.scan
}
