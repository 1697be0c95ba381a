package model

import "sync"

// Which partitions nobody consumes after a step, for the grid's status row
// (issue 21). Partitions answers that by walking every member's
// partitions: 500,000 of them at every step of a Kafka-scale group, a
// tenth of a second or more per key. A Sim keeps one answer instead,
// moved from step to step by the member views the history logged as
// changed in between (forward and back), so a step key costs what the
// step changed; a far jump that changed more than the group holds starts
// again from that step's members.

// Unconsumed is, per topic of v.Topics and indexed by partition, whether
// no member consumes the partition after the step (Partitions' State is
// not PartitionConsumed). The slices are shared with other views: treat
// them as read-only.
func (v *GroupView) Unconsumed() [][]bool {
	if v.sim != nil {
		return v.sim.unconsumed(v.step, v.Topics)
	}
	return unconsumedOf(v.Topics, v.Members)
}

// unconsumedOf is the answer from scratch.
func unconsumedOf(topics []TopicView, members []MemberView) [][]bool {
	t := newConsumedTable(topics)
	for i := range members {
		t.add(&members[i], 1)
	}
	return t.answer()
}

// unconsumed is Unconsumed for step i of the simulation, whose topics are
// topics.
func (s *Sim) unconsumed(i int, topics []TopicView) [][]bool {
	var out [][]bool
	s.consumedAt(i, topics, func(t *consumedTable) { out = t.answer() })
	return out
}

// consumedCount is how many partitions of topics have a consumer after
// step i (GroupView.Consumed's held).
func (s *Sim) consumedCount(i int, topics []TopicView) int {
	var n int
	s.consumedAt(i, topics, func(t *consumedTable) { n = t.held })
	return n
}

// consumedAt hands read the table at step i, under the index's lock.
func (s *Sim) consumedAt(i int, topics []TopicView, read func(*consumedTable)) {
	s.consumedOnce.Do(func() { s.consumed = &consumedIndex{log: s.vlog} })
	s.consumed.at(s.clamp(i), topics, read)
}

// consumedIndex is one simulation's consumedTables, each at some step: a
// few, so that keys jumping between the same far steps (g and G, [ and ])
// move a table that is already near instead of counting 500,000
// partitions again.
type consumedIndex struct {
	mu    sync.Mutex
	log   *viewLog
	slots []*consumedSlot // most recently used last
}

// consumedSlots is how many tables an index keeps (2.5 MB each at 500,000
// partitions).
const consumedSlots = 4

type consumedSlot struct {
	cur   *stateCursor[*MemberView] // the members at the table's step
	table *consumedTable
}

// at moves the nearest table to step i (of topics) and reads it.
func (x *consumedIndex) at(i int, topics []TopicView, read func(*consumedTable)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	best, far := -1, 0
	for k, sl := range x.slots {
		if !sameTopics(topics, sl.table.topics) {
			continue
		}
		n := sl.cur.log.end(i) - sl.cur.log.end(sl.cur.step)
		if n < 0 {
			n = -n
		}
		if best < 0 || n < far {
			best, far = k, n
		}
	}
	// The changes between, against a rebuild: each change costs about
	// two members (the view it replaces and its own), a rebuild every
	// member once.
	if best >= 0 && 2*far <= len(x.slots[best].cur.state) {
		sl := x.slots[best]
		x.slots = append(append(x.slots[:best:best], x.slots[best+1:]...), sl)
		sl.move(i)
		read(sl.table)
		return
	}
	sl := &consumedSlot{cur: newCursor(x.log)}
	if len(x.slots) == consumedSlots {
		x.slots = x.slots[1:] // the least recently used goes
	}
	x.slots = append(x.slots, sl)
	sl.table = newConsumedTable(topics)
	for _, m := range sl.cur.seek(i) {
		sl.table.add(m, 1)
	}
	read(sl.table)
}

// move steps the slot's table to step i, applying the changes between.
func (sl *consumedSlot) move(i int) {
	if i == sl.cur.step {
		return
	}
	swap := func(_ int, was, is *MemberView) {
		if was != nil {
			sl.table.add(was, -1)
		}
		if is != nil {
			sl.table.add(is, 1)
		}
	}
	if i > sl.cur.step {
		sl.cur.advance(i, swap)
	} else {
		sl.cur.retreat(i, swap)
	}
}

// consumedTable counts, per partition, the members consuming it, and keeps
// the answer (count zero) per topic. An answer handed out is never written
// again: a topic whose answer changes after that gets a copy.
type consumedTable struct {
	topics []TopicView
	index  map[string]int32
	count  [][]int32
	unc    [][]bool
	shared []bool // per topic: its unc slice went to a caller
	held   int    // partitions with a consumer
}

func newConsumedTable(topics []TopicView) *consumedTable {
	t := &consumedTable{topics: topics, index: make(map[string]int32, len(topics)),
		count: make([][]int32, len(topics)), unc: make([][]bool, len(topics)), shared: make([]bool, len(topics))}
	for i, tv := range topics {
		t.index[tv.Name] = int32(i)
		t.count[i] = make([]int32, tv.Partitions)
		u := make([]bool, tv.Partitions)
		for p := range u {
			u[p] = true
		}
		t.unc[i] = u
	}
	return t
}

// add counts (d = 1) or stops counting (d = -1) what a member consumes.
// Partitions of topics the table does not have are left out both ways, as
// Partitions leaves them out.
func (t *consumedTable) add(m *MemberView, d int32) {
	last, ti, known := "", int32(0), false
	for k, tp := range consumedBy(m) {
		if k == 0 || tp.Topic != last {
			last = tp.Topic
			ti, known = t.index[tp.Topic]
		}
		if !known || tp.Partition < 0 || int(tp.Partition) >= len(t.count[ti]) {
			continue
		}
		c := &t.count[ti][tp.Partition]
		before := *c
		*c += d
		if (before == 0) != (*c == 0) {
			t.set(ti, tp.Partition, *c == 0)
			t.held += int(d)
		}
	}
}

// set writes one partition's answer, copying a topic's lent slice first.
func (t *consumedTable) set(ti, p int32, unconsumed bool) {
	if t.shared[ti] {
		t.unc[ti] = append([]bool(nil), t.unc[ti]...)
		t.shared[ti] = false
	}
	t.unc[ti][p] = unconsumed
}

// answer hands out the per-topic answer: from now on, a change copies.
func (t *consumedTable) answer() [][]bool {
	out := make([][]bool, len(t.unc))
	copy(out, t.unc)
	for i := range t.shared {
		t.shared[i] = true
	}
	return out
}
