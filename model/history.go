package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
)

// history records every step with a snapshot of the state after it. Snapshots
// share what did not change: a step that touches one member copies only the
// slice of member pointers and that member's view, so stepping backwards is
// an index lookup and 100,000 steps of a workshop group stay small.
type history struct {
	w     *world
	steps []stepRec
	cur   *snapshot
	dirty []*client // members changed since the last step
	owned []bool    // snapshot's scratch: chunks of member views it copied

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
	routine bool
	snap    *snapshot
}

// snapshot is the state after a step. Never modified once recorded.
type snapshot struct {
	g       groupSnap
	members memberViews // in start order
}

// groupSnap is the group-wide part of a snapshot.
type groupSnap struct {
	state       kafka.GroupState
	generation  int32
	assignEpoch int32
	leader      string // client id
	topics      []TopicView
	brokers     []BrokerView
	target      map[string][]kafka.TP // consumer protocol: member id -> target (shared, never changed)
	away        []awayMember          // consumer protocol: members no client view shows (shared, never changed)
}

func newHistory(w *world) *history {
	h := &history{w: w, cur: &snapshot{}, topicsD: true}
	return h
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
	if !routine {
		h.lastChangeAt = h.w.clock.now
	}
	h.steps = append(h.steps, stepRec{at: h.w.clock.now, kind: kind, member: member,
		errName: errName, text: text, routine: routine, snap: h.snapshot()})
}

// snapshot returns the current state, reusing the previous snapshot when
// nothing changed.
func (h *history) snapshot() *snapshot {
	g := h.groupSnap()
	prev := h.cur.members
	members := prev
	if len(h.dirty) > 0 || prev.len() != len(h.w.clients) {
		b := newMemberViewsBuilder(prev, len(h.w.clients), &h.owned)
		for _, c := range h.dirty {
			c.dirty = false
		}
		h.dirty = h.dirty[:0]
		for i, c := range h.w.clients {
			if i >= prev.len() || c.viewStale {
				b.set(i, c.view())
				c.viewStale = false
			}
		}
		members = b.l
	}
	if sameGroupSnap(g, h.cur.g) && members.sameList(h.cur.members) {
		return h.cur
	}
	h.cur = &snapshot{g: g, members: members}
	return h.cur
}

func sameGroupSnap(a, b groupSnap) bool {
	return a.state == b.state && a.generation == b.generation && a.assignEpoch == b.assignEpoch &&
		a.leader == b.leader && sameTopics(a.topics, b.topics) && sameBrokers(a.brokers, b.brokers) &&
		sameTargets(a.target, b.target) && sameAway(a.away, b.away)
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
	if w.consumer {
		w.modern.fillSnap(&g)
	} else {
		w.classic.fillSnap(&g)
	}
	return g
}

// lastChange describes the last step that was not a routine heartbeat.
func (h *history) lastChange() string {
	for i := len(h.steps) - 1; i >= 0; i-- {
		if r := h.steps[i]; !r.routine {
			return fmt.Sprintf("step %d at %d ms, %s: %s", i, r.at, r.kind, r.text)
		}
	}
	return "none"
}
