package model

import (
	"sort"
	"sync/atomic"

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

	// The scan reads the run in batches on its own goroutine, behind the
	// run (a 2-core machine scans a 10,000-member rebalance while the
	// next one runs): the run hands it a batch every forecastBatch steps
	// and takes the verdict on each once the run is forecastLag steps
	// past it, waiting for it if need be. Where the run stops is so the
	// same in every run.
	batches  chan scanBatch
	verdicts chan bool
	exited   chan struct{}
	sent     int   // steps handed to the scan
	pending  []int // the ends of the batches whose verdict is still to be taken

	// beside: the run is not stopped, only scanned as it goes (a lab's run,
	// whose every rebalance the ledger reads): no verdicts, and the run
	// never waits for the scan, which catches up at the end. dropped: the
	// run was given up, the rest is not read.
	beside  bool
	dropped atomic.Bool

	// the scan goroutine's own
	scan *ownershipScan
	fed  int // steps read into scan
	e    int // the event's step once the run is past next; -1 before
}

// forecastBatch is how many steps the scan is handed at a time (at
// least), and forecastLag how many steps it may be behind; at most
// forecastQueue batches wait.
const (
	forecastBatch = 256
	forecastLag   = 8192
	forecastQueue = 64
)

// scanBatch is the run's steps and logs as they stood: every entry below
// their lengths is final, so the scan reads them while the run appends.
type scanBatch struct {
	steps []stepRec
	vlog  viewLog
	tlog  targetLog
}

// newScanBeside scans a whole run beside it, on the scan's goroutine, as a
// forecast's fork is scanned: on two cores the ledger of a 10,000-member
// run is read while the run goes on instead of after it (issue 21).
func newScanBeside(w *world) *forecastStop {
	f := newForecastStop(w, -1)
	f.beside = true
	return f
}

func newForecastStop(w *world, atMs int64) *forecastStop {
	s := newOwnershipScan(scenario.IsConsumer(w.sc))
	s.mixed = w.sc.Mixed()
	s.begin(&w.hist.vlog, &w.hist.tlog, &w.hist.tids)
	s.tidsMu = &w.hist.tidsMu
	f := &forecastStop{atMs: atMs, next: nextEventAfter(w.sc, atMs), given: w.sc.GivenStart(), h: w.hist, scan: s, e: -1,
		batches: make(chan scanBatch, forecastQueue), verdicts: make(chan bool, forecastQueue), exited: make(chan struct{})}
	go f.read()
	return f
}

// until is the run's question (world.until): it hands the scan the steps
// since the last batch once there are forecastBatch of them, after taking
// the verdicts on the batches forecastLag steps behind (and the oldest,
// while forecastQueue wait), and reports true once a verdict says the
// outcome is known.
func (f *forecastStop) until() bool {
	n := len(f.h.steps)
	if n-f.sent < forecastBatch {
		return false
	}
	if f.beside {
		select { // handed when the scan has room, else later
		case f.batches <- f.batch(n):
			f.sent = n
		default:
		}
		return false
	}
	for len(f.pending) > 0 && (n-f.pending[0] >= forecastLag || len(f.pending) == forecastQueue) {
		f.pending = f.pending[1:]
		if <-f.verdicts {
			return true
		}
	}
	f.hand(n)
	return false
}

// hand gives the scan the first n steps.
func (f *forecastStop) hand(n int) {
	f.batches <- f.batch(n)
	f.sent = n
	if !f.beside {
		f.pending = append(f.pending, n)
	}
}

// batch is the first n steps and the logs as they stand.
func (f *forecastStop) batch(n int) scanBatch {
	return scanBatch{steps: f.h.steps[:n:n], vlog: f.h.vlog, tlog: f.h.tlog}
}

// read is the scan's goroutine: each batch read, then its verdict.
func (f *forecastStop) read() {
	defer close(f.exited)
	for b := range f.batches {
		if f.dropped.Load() {
			continue
		}
		f.scan.views.log, f.scan.targets.log = &b.vlog, &b.tlog
		if f.beside {
			f.scan.feed(b.steps, f.fed)
			f.fed = len(b.steps)
			continue
		}
		f.verdicts <- f.done(b.steps)
	}
}

// done reads the steps since the last batch and reports whether the
// outcome is known.
func (f *forecastStop) done(steps []stepRec) bool {
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

// drop gives up the scan of a run given up: the scan goroutine skips
// what it was still to read and ends, and nobody waits for it.
func (f *forecastStop) drop() {
	f.dropped.Store(true)
	close(f.batches)
}

// finish hands the scan the last steps, waits for it and closes it: the
// fork's scan.
func (f *forecastStop) finish() *ownershipScan {
	if len(f.h.steps) > f.sent {
		f.hand(len(f.h.steps))
	}
	close(f.batches)
	for range f.pending {
		<-f.verdicts
	}
	f.pending = nil
	<-f.exited
	f.scan.tidsMu = nil // the run is over
	f.scan.views.log, f.scan.targets.log = &f.h.vlog, &f.h.tlog
	f.scan.end()
	return f.scan
}
