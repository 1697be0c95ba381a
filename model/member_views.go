package model

import (
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// The per-member part of the history (the members' views; under KIP-848
// the coordinator's targets) is a log of changes, not a snapshot per step
// (issue 21): each step appends what it changed, by position, and every
// so often the log keeps a checkpoint, the whole list after a step. The
// state after step i is the last checkpoint at or before i with the
// changes after it applied. A checkpoint is taken once the changes since
// the last one are as many as the list is long, so checkpoints cost no
// more memory than the changes themselves and a rebuild applies at most
// about two entries per member: memory is O(steps + changes + members), a
// step that changes one member costs that member, and a group of 10,000
// members on 500,000 partitions keeps its history in megabytes.
//
// Entries are immutable once logged; slices inside them are shared with
// the client or the coordinator, which never change a published slice in
// place.

// change is one entry's new value: after its step, position pos holds v.
type change[T any] struct {
	pos int32
	v   T
}

// stateCheck is the whole list after step `step`, whose changes end the
// log's at end.
type stateCheck[T any] struct {
	step  int
	end   int
	state []T
}

// minCheckpointChanges keeps a small group (the demos: a handful of
// members over 100,000 steps) from taking a checkpoint every few steps.
const minCheckpointChanges = 256

// stateLog is one list's changes, step by step, with checkpoints.
type stateLog[T any] struct {
	changes []change[T]
	ends    []int // step i's changes end here (they start where step i-1's end)
	checks  []stateCheck[T]
}

// note records the next step: its changes (by position, new positions
// last and in order) that leave the list as state.
func (l *stateLog[T]) note(delta []change[T], state []T) {
	l.changes = append(l.changes, delta...)
	end := len(l.changes)
	step := len(l.ends)
	l.ends = append(l.ends, end)
	since := end
	if n := len(l.checks); n > 0 {
		since -= l.checks[n-1].end
	}
	if len(delta) > 0 && since >= max(len(state), minCheckpointChanges) {
		l.checks = append(l.checks, stateCheck[T]{step: step, end: end, state: slices.Clone(state)})
	}
}

// end is where step i's changes end (0 before step 0).
func (l *stateLog[T]) end(i int) int {
	if i < 0 {
		return 0
	}
	return l.ends[i]
}

// checkAt is the last checkpoint at or before step i, or nil.
func (l *stateLog[T]) checkAt(i int) *stateCheck[T] {
	k, found := slices.BinarySearchFunc(l.checks, i, func(c stateCheck[T], i int) int { return c.step - i })
	if found {
		return &l.checks[k]
	}
	if k == 0 {
		return nil
	}
	return &l.checks[k-1]
}

// stateCursor walks a list through the steps: forward it applies only the
// changes between; elsewhere it starts again from the nearest checkpoint.
// Its list is its own (one goroutine at a time); copy it to keep it past
// the next move.
type stateCursor[T any] struct {
	log   *stateLog[T]
	step  int // the step state is after; -1 before the first
	state []T
}

func newCursor[T any](log *stateLog[T]) *stateCursor[T] {
	return &stateCursor[T]{log: log, step: -1}
}

// seek moves to the state after step i, the cheapest way.
func (c *stateCursor[T]) seek(i int) []T {
	if i == c.step {
		return c.state
	}
	l := c.log
	ck := l.checkAt(i)
	forward := -1 // changes to apply going on from here; -1 going back
	if i > c.step {
		forward = l.end(i) - l.end(c.step)
	}
	switch {
	case ck != nil && (forward < 0 || ck.step > c.step && len(ck.state)+l.end(i)-ck.end < forward):
		c.state = append(c.state[:0], ck.state...)
		c.step = ck.step
	case forward < 0:
		c.state, c.step = c.state[:0], -1
	}
	c.advance(i, nil)
	return c.state
}

// advance moves forward to the state after step i (nothing if the cursor
// is there or past it), applying each change in order and telling fn, if
// given, of each: position pos held was (the zero value for a new one)
// and now holds is.
func (c *stateCursor[T]) advance(i int, fn func(pos int, was, is T)) {
	if i <= c.step {
		return
	}
	for _, ch := range c.log.changes[c.log.end(c.step):c.log.end(i)] {
		var was T
		if int(ch.pos) < len(c.state) {
			was = c.state[ch.pos]
			c.state[ch.pos] = ch.v
		} else {
			c.state = append(c.state, ch.v) // a new position: they only grow
		}
		if fn != nil {
			fn(int(ch.pos), was, ch.v)
		}
	}
	c.step = i
}

// changedSince: some change lies between the cursor's step and step i.
func (c *stateCursor[T]) changedSince(i int) bool { return c.log.end(i) != c.log.end(c.step) }

// viewLog is the members' views, by start order.
type viewLog = stateLog[*MemberView]

// targetLog is the consumer protocol's target assignment, by the position
// a member id got when it first had a target (targetNames).
type targetLog = stateLog[targetEntry]

// targetEntry is one member id's target, as runs of consecutive partitions
// of a topic (a computed target is mostly a few such runs: a thousand
// joins under Kafka 4.1's target per join log a hundred million
// partitions otherwise); in says the coordinator's map has the member (a
// target may be empty).
type targetEntry struct {
	runs []tpRun
	in   bool
}

// tpRun is partitions first..first+n-1 of topic number topic, in order.
type tpRun struct {
	topic, first, n int32
}

// targetNames names the target log's positions and its runs' topics.
type targetNames struct {
	ids      []string
	pos      map[string]int32
	topics   []string
	topicPos map[string]int32
}

func newTargetNames() targetNames {
	return targetNames{pos: map[string]int32{}, topicPos: map[string]int32{}}
}

// encode is tps as runs, in tps's order: decode gives tps back exactly.
func (t *targetNames) encode(tps []kafka.TP) []tpRun {
	// Counted first, so the log keeps runs, not a grown slice's spare
	// room (up to as much again, for every target of every join).
	n := 0
	for i := range tps {
		if i == 0 || tps[i].Topic != tps[i-1].Topic || tps[i].Partition != tps[i-1].Partition+1 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	runs := make([]tpRun, 0, n)
	topic, at := "", int32(-1)
	for i := 0; i < len(tps); {
		j := i + 1
		for j < len(tps) && tps[j].Topic == tps[i].Topic && tps[j].Partition == tps[j-1].Partition+1 {
			j++
		}
		if tps[i].Topic != topic || at < 0 {
			topic = tps[i].Topic
			p, ok := t.topicPos[topic]
			if !ok {
				p = int32(len(t.topics))
				t.topics = append(t.topics, topic)
				t.topicPos[topic] = p
			}
			at = p
		}
		runs = append(runs, tpRun{at, tps[i].Partition, int32(j - i)})
		i = j
	}
	return runs
}

// decode is the target an entry stands for (nil when empty).
func (t *targetNames) decode(e targetEntry) []kafka.TP {
	n := 0
	for _, r := range e.runs {
		n += int(r.n)
	}
	if n == 0 {
		return nil
	}
	out := make([]kafka.TP, 0, n)
	for _, r := range e.runs {
		for p := r.first; p < r.first+r.n; p++ {
			out = append(out, kafka.TP{Topic: t.topics[r.topic], Partition: p})
		}
	}
	return out
}

// targetMap is the map a target list stands for.
func (t *targetNames) targetMap(entries []targetEntry) map[string][]kafka.TP {
	m := make(map[string][]kafka.TP, len(entries))
	for p, e := range entries {
		if e.in {
			m[t.ids[p]] = t.decode(e)
		}
	}
	return m
}

// sameTarget: b is a's very slice (or both nil, or both empty and not nil):
// an unchanged target keeps its slice.
func sameTarget(a, b []kafka.TP) bool {
	return (a == nil) == (b == nil) && len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// retreat moves back to the state after step i (nothing if the cursor is
// there or before it), telling fn, if given, of each position that differs,
// once, in ascending order: it held was and now holds is (the zero value
// for a position step i did not have yet, which the list then drops).
//
// A position's value after step i is its last change at or before step i:
// looked for backwards from there to the checkpoint at or before i, which
// holds it otherwise. A checkpoint follows at most about a list's length of
// changes, so stepping back costs O(members) at worst, not a rebuild.
func (c *stateCursor[T]) retreat(i int, fn func(pos int, was, is T)) {
	if i >= c.step {
		return
	}
	i = max(i, -1)
	l := c.log
	from, to := l.end(i), l.end(c.step)
	if from == to {
		c.step = i
		return
	}
	want := make(map[int32]bool, to-from)
	for _, ch := range l.changes[from:to] {
		want[ch.pos] = true
	}
	got := make(map[int32]T, len(want))
	low := 0
	ck := l.checkAt(i)
	if ck != nil {
		low = ck.end
	}
	for k := from - 1; k >= low && len(got) < len(want); k-- {
		ch := l.changes[k]
		if _, done := got[ch.pos]; !done && want[ch.pos] {
			got[ch.pos] = ch.v
		}
	}
	keep := len(c.state) // positions at or past keep are new since step i
	for p := range want {
		if _, ok := got[p]; ok {
			continue
		}
		if ck != nil && int(p) < len(ck.state) {
			got[p] = ck.state[p]
		} else {
			keep = min(keep, int(p))
		}
	}
	ps := make([]int32, 0, len(want))
	for p := range want {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	for _, p := range ps {
		was := c.state[p]
		is, ok := got[p]
		if !ok {
			var zero T
			is = zero
		}
		if fn != nil {
			fn(int(p), was, is)
		}
		c.state[p] = is
	}
	clear(c.state[keep:])
	c.state = c.state[:keep]
	c.step = i
}
