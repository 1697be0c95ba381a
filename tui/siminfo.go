package tui

import (
	"slices"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// simInfo is what the lab keeps once per simulation and reuses on every
// frame: who gets which letter, the model's rebalances and the partitions
// each one took from a member. Letters follow first appearance over the
// whole run, so a member keeps its letter and colour while stepping back
// and forth.
type simInfo struct {
	letters map[string]int    // member id -> roster index
	racks   map[string]string // member id -> client.rack (nil: none has one)
	// ledger is the run's rebalances and outages with their figures (the
	// numbers pane, compare's moment); rebalances is its list.
	ledger     *model.Ledger
	rebalances []model.Rebalance
	moved      []map[string][]int32 // per rebalance, by topic: the partitions its moves took from a member

	// shown are the steps worth a keystroke (not Routine), in order, and
	// changes the steps whose group state differs from the step before:
	// stepping and the protocol pane search them instead of walking a
	// quiet stretch's thousands of heartbeats on every key.
	shown, changes []int
	// messages are the steps the protocol pane lists: the shown ones and
	// the quiet stretches (routine, but they say where the time went).
	messages []int

	numbers *numbersTexts // the numbers pane's texts, made on first use
	idW     int           // idWidth, once measured
	// byPos is letter's answer by a member's place in the view (letterAt).
	byPos []posLetter
}

// posLetter is a member's label and colour as letter gave them, while
// the roster had n members.
type posLetter struct {
	id, label string
	color, n  int
}

func newSimInfo(sim simulation) *simInfo {
	info := newSimInfoQuick(sim)
	info.setLedger(model.NewLedger(sim))
	return info
}

// newSimInfoQuick is the simulation's info without its rebalances: a
// Kafka-scale group's first frame does not wait for them (countLater).
func newSimInfoQuick(sim simulation) *simInfo {
	info := &simInfo{letters: map[string]int{}}
	add := func(id string) {
		if _, ok := info.letters[id]; !ok && id != "" {
			info.letters[id] = len(info.letters)
		}
	}
	// Members come from the scenario or from join events: reading those is
	// enough, and far cheaper than building every step's view.
	sc := sim.Scenario()
	for _, m := range sc.Members {
		add(m.ID)
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" {
			add(ev.Member)
		}
	}
	var prev kafka.GroupState
	for i := range sim.Len() {
		st := sim.StepHead(i) // a routine heartbeat's sentence is not read here
		if !st.Routine {
			info.shown = append(info.shown, i)
		}
		if !st.Routine || st.Kind == kafka.KindQuietStretch {
			info.messages = append(info.messages, i)
		}
		if i > 0 && st.GroupState != prev {
			info.changes = append(info.changes, i)
		}
		prev = st.GroupState
	}
	info.racks = sc.MemberRacks()
	return info
}

// setLedger installs the run's rebalances and the partitions each moved.
func (info *simInfo) setLedger(l *model.Ledger) {
	info.ledger = l
	info.rebalances = info.ledger.Rebalances()
	for _, r := range info.rebalances {
		// By topic, as each grid marks them: a range-server rebalance of
		// 10,000 members moves nearly all of 500,000 partitions, and a set
		// of them iterated on every frame was 15 ms of a key (issue 21).
		moved := map[string][]int32{}
		for _, m := range r.Moves {
			if m.Taken() {
				moved[m.Topic] = append(moved[m.Topic], m.Partition)
			}
		}
		info.moved = append(info.moved, moved)
	}
}

// idWidth is the widest member id the run names (at most 12 cells): the
// header keeps the leader's place that wide.
func (info *simInfo) idWidth() int {
	if info.idW == 0 {
		for id := range info.letters {
			info.idW = max(info.idW, min(textWidth(id), 12))
		}
		info.idW = max(info.idW, 1)
	}
	return info.idW
}

// nextShown is the next step after i in direction dir that is not
// routine, or -1 when there is none.
func (info *simInfo) nextShown(i, dir int) int { return nextIn(info.shown, i, dir) }

// prevMessage is the protocol pane's step before i, or -1.
func (info *simInfo) prevMessage(i int) int { return nextIn(info.messages, i, -1) }

// nextIn is the next index after i in direction dir of the sorted steps,
// or -1 when there is none.
func nextIn(steps []int, i, dir int) int {
	k, _ := slices.BinarySearch(steps, i) // the first step >= i
	if dir > 0 {
		if k < len(steps) && steps[k] == i {
			k++
		}
		if k < len(steps) {
			return steps[k]
		}
		return -1
	}
	if k > 0 {
		return steps[k-1]
	}
	return -1
}

// lastChange is the latest step at or before i whose group state differs
// from the step before it, or -1.
func (info *simInfo) lastChange(i int) int {
	k, found := slices.BinarySearch(info.changes, i)
	if found {
		return i
	}
	if k > 0 {
		return info.changes[k-1]
	}
	return -1
}

// letter returns the member's roster letter and colour index. An id the
// scenario never named (not expected) gets the next letter on first sight.
func (info *simInfo) letter(id string) (string, int) {
	i, ok := info.letters[id]
	if !ok {
		i = len(info.letters)
		info.letters[id] = i
	}
	return rosterLabel(i, len(info.letters)), i
}

// letterAt is letter(id) for the member at position pos of the views (a
// place keeps its member): the grid of a group of 10,000 asks for every
// member at every step, and a slice is read faster than a map is hashed.
func (info *simInfo) letterAt(pos int, id string) (string, int) {
	if pos < len(info.byPos) {
		if c := info.byPos[pos]; c.id == id && c.n == len(info.letters) && c.label != "" {
			return c.label, c.color
		}
	}
	label, color := info.letter(id)
	for len(info.byPos) <= pos {
		info.byPos = append(info.byPos, posLetter{})
	}
	info.byPos[pos] = posLetter{id, label, color, len(info.letters)}
	return label, color
}

// lastRebalance is the index of the latest rebalance finished by step i, or -1.
func (info *simInfo) lastRebalance(step int) int {
	if info.ledger == nil { // still being counted: none drawn yet
		return -1
	}
	return info.ledger.Last(step)
}

// currentRebalance is the index of the rebalance under way at step (start
// and end included), or -1.
func (info *simInfo) currentRebalance(step int) int {
	if info.ledger == nil {
		return -1
	}
	return info.ledger.Current(step)
}

// roundStarts are the steps ] and [ stop at: the start of every round of
// every rebalance (a cooperative dance has two).
func (info *simInfo) roundStarts() []int {
	var out []int
	for _, r := range info.rebalances {
		out = append(out, r.StartStep)
		for _, rd := range r.Rounds {
			if rd.StartStep > out[len(out)-1] {
				out = append(out, rd.StartStep)
			}
		}
	}
	return out
}

// freshMembers are the members whose onPartitionsAssigned ran during the
// rebalance under way: their NewlyAssigned partitions are news. Outside a
// rebalance nothing is new (the view keeps NewlyAssigned until the next
// callback, which would otherwise mark old partitions forever).
func freshMembers(sim simulation, info *simInfo, step int) map[string]bool {
	r := info.currentRebalance(step)
	if r < 0 {
		return nil
	}
	return sim.AssignedIn(info.rebalances[r].StartStep, step)
}
