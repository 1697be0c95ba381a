package model

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kvizlab/kviz/model/kafka"
)

// history records every step: what it was, the group-wide state after it
// (shared while unchanged), and the member views and KIP-848 targets it
// changed, in logs with checkpoints (member_views.go). Stepping back
// rebuilds a step's members from the nearest checkpoint; a step that
// touches one member costs that member, not the group.
type history struct {
	w      *world
	steps  []stepRec
	g      *groupSnap      // the group-wide state after the last step
	ver    int32           // bumps with every step that changes the state
	dirty  []*client       // members changed since the last step
	views  []*MemberView   // the members after the last step, in start order
	pos    map[*client]int // a client's place in views
	vlog   viewLog
	vdelta []change[*MemberView] // scratch: the step being recorded's changes

	// The consumer protocol's targets: the coordinator's map last seen
	// (held, so its identity stays its own), the same as a list by
	// position, and its log.
	target map[string][]kafka.TP
	tstate []targetEntry
	tids   targetNames
	tidsMu sync.Mutex // held while tids change (noteTargets): a forecast's scan reads them
	tlog   targetLog
	tdelta []change[targetEntry]

	topics  []TopicView
	brokers []BrokerView
	topicsD bool

	// lastChangeAt is the time of the last step that was not routine.
	lastChangeAt int64
}

type stepRec struct {
	at      int64
	kind    kafka.StepKind
	member  string
	errName string
	text    string
	// lazy, when set, writes text on demand: a routine heartbeat's sentence
	// at 10,000 members is most of a run's bytes and most go unread.
	lazy    func() string
	routine bool
	g       *groupSnap // the group-wide state after the step (shared while unchanged)
	ver     int32      // the state's version: equal versions, the same state
}

// say is the step's sentence.
func (r *stepRec) say() string {
	if r.lazy != nil {
		return r.lazy()
	}
	return r.text
}

// groupSnap is the group-wide part of a step's state. Never modified once
// recorded.
type groupSnap struct {
	state       kafka.GroupState
	generation  int32
	assignEpoch int32
	leader      string // client id
	topics      []TopicView
	brokers     []BrokerView
	// target is the coordinator's target map (consumer protocol) as
	// fillSnap reads it; the history logs targets apart (tlog) and
	// records snapshots without it.
	target map[string][]kafka.TP
	away   []awayMember         // consumer protocol: members no client view shows (shared, never changed)
	shares []SharePartitionView // share group: its share-partitions (shared, never changed)
}

func newHistory(w *world) *history {
	return &history{w: w, g: &groupSnap{}, pos: map[*client]int{}, tids: newTargetNames(), topicsD: true}
}

func (h *history) len() int { return len(h.steps) }

// markDirty notes that a member's view must be rebuilt at the next step.
func (h *history) markDirty(c *client) {
	if !c.dirty {
		c.dirty = true
		h.dirty = append(h.dirty, c)
	}
}

// changed marks step i, recorded as routine, as a change after all (a
// heartbeat whose handling turned out to change the group).
func (h *history) changed(i int) {
	h.steps[i].routine = false
	h.lastChangeAt = max(h.lastChangeAt, h.steps[i].at)
}

func (h *history) topicsChanged() { h.topicsD = true }

// brokersChanged drops the cached broker list.
func (h *history) brokersChanged() { h.brokers = nil }

func (h *history) record(kind kafka.StepKind, member, errName string, routine bool, text string) {
	h.recordLazy(kind, member, errName, routine, text, nil)
}

// recordLazy is record with the sentence written by lazy when it is read
// (lazy reads only values that never change once recorded).
func (h *history) recordLazy(kind kafka.StepKind, member, errName string, routine bool, text string, lazy func() string) {
	if !routine {
		h.lastChangeAt = h.w.clock.now
	}
	if h.capture() {
		h.ver++
	}
	h.vlog.note(h.vdelta, h.views)
	h.tlog.note(h.tdelta, h.tstate)
	if len(h.steps) == cap(h.steps) {
		// Doubled, not append's quarter past a few hundred: a run of
		// 400,000 steps copied its records five times over.
		h.steps = slices.Grow(h.steps, max(len(h.steps), 1024))
	}
	h.steps = append(h.steps, stepRec{at: h.w.clock.now, kind: kind, member: member,
		errName: errName, text: text, lazy: lazy, routine: routine, g: h.g, ver: h.ver})
}

// capture brings the state up to date: the views of the members changed
// since the last step (into h.vdelta, by position), the targets and the
// group-wide state. It reports whether the state is another one now: a
// member marked changed or a new one, a new target map, or a different
// group-wide state (the very test a snapshot per step made).
func (h *history) capture() bool {
	h.vdelta, h.tdelta = h.vdelta[:0], h.tdelta[:0]
	changed := len(h.dirty) > 0 || len(h.views) != len(h.w.clients)
	for _, c := range h.dirty {
		c.dirty = false
		if i, ok := h.pos[c]; ok && c.viewStale {
			v := c.view()
			c.viewStale = false
			h.views[i] = v
			h.vdelta = append(h.vdelta, change[*MemberView]{int32(i), v})
		}
	}
	h.dirty = h.dirty[:0]
	slices.SortFunc(h.vdelta, func(a, b change[*MemberView]) int { return int(a.pos) - int(b.pos) })
	for i := len(h.views); i < len(h.w.clients); i++ {
		c := h.w.clients[i]
		v := c.view()
		c.viewStale = false
		h.pos[c] = i
		h.views = append(h.views, v)
		h.vdelta = append(h.vdelta, change[*MemberView]{int32(i), v})
	}
	g := h.groupSnap()
	if t := g.target; !sameTargets(t, h.target) {
		h.noteTargets(t)
		changed = true
	}
	g.target = nil
	if !sameGroupSnap(g, *h.g) {
		h.g, changed = &g, true
	}
	return changed
}

// noteTargets logs what a new target map changed: the members whose
// target is another slice, those new to it (placed in id order) and those
// it no longer has. When the group made the map from the one before by
// changing a few entries (targetChanges), only those are compared: a join
// into 7,000 members changes a handful.
func (h *history) noteTargets(t map[string][]kafka.TP) {
	h.tidsMu.Lock() // a forecast's scan may read tids meanwhile
	defer h.tidsMu.Unlock()
	old := h.target
	h.target = t
	var added []string
	note := func(id string, tps []kafka.TP) {
		p, ok := h.tids.pos[id]
		if !ok {
			added = append(added, id)
			return
		}
		if was, in := old[id]; !in || !sameTarget(was, tps) {
			h.tstate[p] = targetEntry{h.tids.encode(tps), true}
			h.tdelta = append(h.tdelta, change[targetEntry]{p, h.tstate[p]})
		}
	}
	if ids, ok := h.targetChanges(t, old); ok {
		// Made from old by changing these entries: the others are old's,
		// and none is gone.
		if checkTargetDeltas.Load() {
			checkTargetDelta(ids, t, old)
		}
		for _, id := range ids {
			note(id, t[id])
		}
	} else {
		for id, tps := range t {
			note(id, tps)
		}
		for id := range old {
			if _, ok := t[id]; !ok {
				p := h.tids.pos[id]
				h.tstate[p] = targetEntry{}
				h.tdelta = append(h.tdelta, change[targetEntry]{p, targetEntry{}})
			}
		}
	}
	slices.SortFunc(h.tdelta, func(a, b change[targetEntry]) int { return int(a.pos) - int(b.pos) })
	slices.Sort(added)
	for _, id := range added {
		p := int32(len(h.tids.ids))
		h.tids.ids = append(h.tids.ids, id)
		h.tids.pos[id] = p
		h.tstate = append(h.tstate, targetEntry{h.tids.encode(t[id]), true})
		h.tdelta = append(h.tdelta, change[targetEntry]{p, h.tstate[p]})
	}
}

// targetChanges is the ids whose entries in t may differ from old's (or
// are new), each once, when the consumer group made t from old that way
// (consumerGroup.targetDelta); ok is false when the whole maps must be
// compared.
func (h *history) targetChanges(t, old map[string][]kafka.TP) (ids []string, ok bool) {
	g := h.w.consumerGroup
	if g == nil || g.targetDelta == nil || t == nil || old == nil ||
		mapID(g.target) != mapID(t) || mapID(g.targetFrom) != mapID(old) {
		return nil, false
	}
	ids = slices.Clone(g.targetDelta)
	slices.Sort(ids)
	return slices.Compact(ids), true
}

// checkTargetDeltas, in tests, holds every delta to the whole maps
// (checkTargetDelta).
var checkTargetDeltas atomic.Bool

// checkTargetDelta panics when an entry outside ids differs between t
// and old, or one of old's is gone.
func checkTargetDelta(ids []string, t, old map[string][]kafka.TP) {
	for id, tps := range t {
		if was, in := old[id]; (!in || !sameTarget(was, tps)) && !slices.Contains(ids, id) {
			panic(fmt.Sprintf("target delta %v misses %s", ids, id))
		}
	}
	for id := range old {
		if _, in := t[id]; !in {
			panic(fmt.Sprintf("target delta %v: %s is gone", ids, id))
		}
	}
}

func sameGroupSnap(a, b groupSnap) bool {
	return a.state == b.state && a.generation == b.generation && a.assignEpoch == b.assignEpoch &&
		a.leader == b.leader && sameTopics(a.topics, b.topics) && sameBrokers(a.brokers, b.brokers) &&
		sameAway(a.away, b.away) && sameShares(a.shares, b.shares)
}

func sameShares(a, b []SharePartitionView) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func sameAway(a, b []awayMember) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func sameTopics(a, b []TopicView) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func sameBrokers(a, b []BrokerView) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Target maps are replaced, never changed, once published, so identity is
// equality.
func sameTargets(a, b map[string][]kafka.TP) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return len(a) == len(b) && mapID(a) == mapID(b)
}

func (h *history) groupSnap() groupSnap {
	w := h.w
	if h.topicsD {
		h.topics = make([]TopicView, 0, len(w.topics))
		for _, t := range w.sortedTopicNames() {
			h.topics = append(h.topics, TopicView{Name: t, Partitions: w.topics[t]})
		}
		h.topicsD = false
	}
	if h.brokers == nil {
		h.brokers = w.cluster.view()
	}
	g := groupSnap{topics: h.topics, brokers: h.brokers}
	if w.share != nil {
		w.share.fillSnap(&g)
	} else if w.consumer {
		w.consumerGroup.fillSnap(&g)
	} else {
		w.classic.fillSnap(&g)
	}
	return g
}

// lastChange describes the last step that was not a routine heartbeat.
func (h *history) lastChange() string {
	for i := len(h.steps) - 1; i >= 0; i-- {
		if r := h.steps[i]; !r.routine {
			return fmt.Sprintf("step %d at %d ms, %s: %s", i, r.at, r.kind, r.say())
		}
	}
	return "none"
}
