package model

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// ChangeLines writes `kviz simulate --format jsonl --changes`: the first
// line a step in full (AppendStepJSON), each later line a JSON Merge Patch
// (RFC 7396) that turns the line before it into its own step. A key a line
// leaves out did not change; null removes one (a member that stopped
// consuming, an error gone); a member's partitions merge topic by topic.
// The step's own facts (step, time_ms, kind, member, text, group_state,
// generation, leader; assignment_epoch under the consumer protocol) are on
// every line. Applying the lines in order (ChangeReader) gives every step
// exactly as the full lines write it.
//
// A line costs what changed since the line before, not the group: a step
// that touches one member of ten thousand writes that member. Lines are
// asked for in step order (steps may be skipped, as --all's absence skips
// routine heartbeats); one ChangeLines writes one stream.
type ChangeLines struct {
	s       *Sim
	started bool
	views   *stateCursor[*MemberView]
	targets *stateCursor[targetEntry]
	away    []awayMember

	byID  map[string][]int32 // view positions by client id, ascending
	byMID map[string][]int32 // view positions by member id, ascending
	tName []string           // the name each target position is listed under ("" when not in the map)
	tBy   map[string][]int32 // target positions listed under each name

	// What the last line stood for.
	owned   map[string][]kafka.TP
	epochs  map[string]memberEpoch
	target  map[string][]kafka.TP
	lag     []byte
	readers []byte
	err     bool
	// consumer: the last line carried the consumer protocol's keys. A
	// migrating group changes family mid-run (KIP-848's online
	// conversion): the keys go (null) and come back whole.
	consumer bool
	shares   []byte // the last line's share_partitions (share groups)

	// Touched since the last line: names to look at again, target
	// positions whose name or target may have changed.
	dOwned, dEpoch, dTarget map[string]bool
	dTarget2                map[int32]bool
}

// ChangeLines starts a stream of change lines over the simulation.
func (s *Sim) ChangeLines() *ChangeLines {
	return &ChangeLines{s: s, views: newCursor(s.vlog), targets: newCursor(s.tlog),
		byID: map[string][]int32{}, byMID: map[string][]int32{}, tBy: map[string][]int32{},
		owned: map[string][]kafka.TP{}, epochs: map[string]memberEpoch{}, target: map[string][]kafka.TP{},
		dOwned: map[string]bool{}, dEpoch: map[string]bool{}, dTarget: map[string]bool{}, dTarget2: map[int32]bool{}}
}

// Append appends the line for step i (after the steps asked for before).
func (c *ChangeLines) Append(b []byte, i int) []byte {
	i = c.s.clamp(i)
	if !c.started {
		c.started = true
		c.catchUp(i)
		c.owned, c.epochs, c.target = c.ownedPatch(nil), c.epochPatch(nil, nil), c.targetPatch(nil)
		c.lag, c.readers = c.flowJSON(i)
		c.err = c.s.steps[i].errName != ""
		c.consumer = c.s.StepLine(i).consumer
		c.shares = c.s.sharesJSON(i)
		return c.s.AppendStepJSON(b, i)
	}
	c.catchUp(i)
	st := c.s.StepLine(i)
	b = appendStepHead(b, st)
	switch {
	case st.Error != "":
		b = appendJSONField(b, "error", st.Error)
	case c.err:
		b = append(b, `,"error":null`...)
	}
	c.err = st.Error != ""
	var owned []byte
	c.ownedPatch(&owned)
	if owned != nil {
		b = append(append(append(b, `,"owned":{`...), owned...), '}')
	}
	lag, readers := c.flowJSON(i)
	b = appendPatchField(b, "lag", c.lag, lag)
	b = appendPatchField(b, "readers", c.readers, readers)
	c.lag, c.readers = lag, readers
	switch {
	case st.consumer && !c.consumer:
		b = c.appendConsumerWhole(b, st)
	case st.consumer:
		b = c.appendConsumerPatch(b, st)
	case c.consumer:
		b = append(b, `,"assignment_epoch":null,"member_epochs":null,"member_states":null,"target":null`...)
	}
	c.consumer = st.consumer
	shares := c.s.sharesJSON(i) // a share group's share_partitions (share_json.go)
	b = appendPatchField(b, "share_partitions", c.shares, shares)
	c.shares = shares
	return append(b, '}')
}

// appendConsumerPatch writes the consumer protocol's keys as patches of
// the last line's.
func (c *ChangeLines) appendConsumerPatch(b []byte, st Step) []byte {
	b = append(b, `,"assignment_epoch":`...)
	b = strconv.AppendInt(b, int64(st.AssignmentEpoch), 10)
	var epochs, states, target []byte
	c.epochPatch(&epochs, &states)
	if epochs != nil {
		b = append(append(append(b, `,"member_epochs":{`...), epochs...), '}')
	}
	if states != nil {
		b = append(append(append(b, `,"member_states":{`...), states...), '}')
	}
	c.targetPatch(&target)
	if target != nil {
		b = append(append(append(b, `,"target":{`...), target...), '}')
	}
	return b
}

// appendConsumerWhole writes the consumer protocol's keys in full, for
// the first line of a stretch in which the group is a consumer group.
func (c *ChangeLines) appendConsumerWhole(b []byte, st Step) []byte {
	b = append(b, `,"assignment_epoch":`...)
	b = strconv.AppendInt(b, int64(st.AssignmentEpoch), 10)
	epochs, target := c.epochPatch(nil, nil), c.targetPatch(nil)
	var es, ss, ts []byte
	for _, name := range sortedKeys(epochs) {
		e := epochs[name]
		es = appendPatchKey(es, name, strconv.AppendInt(nil, int64(e.epoch), 10))
		ss = appendPatchKey(ss, name, appendJSONString(nil, string(e.state)))
	}
	for _, name := range sortedKeys(target) {
		ts = appendPatchKey(ts, name, appendTPSet(nil, target[name]))
	}
	b = append(append(append(b, `,"member_epochs":{`...), es...), '}')
	b = append(append(append(b, `,"member_states":{`...), ss...), '}')
	return append(append(append(b, `,"target":{`...), ts...), '}')
}

// catchUp moves the cursors to step i, noting what each change touches.
func (c *ChangeLines) catchUp(i int) {
	c.views.advance(i, func(pos int, was, is *MemberView) {
		p := int32(pos)
		if was == nil {
			c.byID[is.ID] = insertPos(c.byID[is.ID], p)
			c.byMID[is.MemberID] = insertPos(c.byMID[is.MemberID], p)
		} else {
			if was.ID != is.ID {
				c.byID[was.ID] = removePos(c.byID[was.ID], p)
				c.byID[is.ID] = insertPos(c.byID[is.ID], p)
			}
			if was.MemberID != is.MemberID {
				c.byMID[was.MemberID] = removePos(c.byMID[was.MemberID], p)
				c.byMID[is.MemberID] = insertPos(c.byMID[is.MemberID], p)
			}
			c.touch(was)
		}
		c.touch(is)
	})
	c.targets.advance(i, func(pos int, _, _ targetEntry) {
		p := int32(pos)
		c.dTarget2[p] = true
		if pos < len(c.tName) {
			c.dTarget[c.tName[p]] = true
		}
	})
	if away := c.s.steps[i].g.away; !sameAway(away, c.away) {
		for _, a := range c.away {
			c.dEpoch[a.id] = true
		}
		for _, a := range away {
			c.dEpoch[a.id] = true
		}
		c.away = away
	}
}

// touch notes that a member's view changed: its entries, and the name its
// member id's target is listed under, are to be looked at again.
func (c *ChangeLines) touch(v *MemberView) {
	c.dOwned[v.ID], c.dEpoch[v.ID] = true, true
	if p, ok := c.s.tids.pos[v.MemberID]; ok {
		c.dTarget2[p] = true
	}
}

// ownedPatch brings the owners up to date and writes, into out (when not
// nil), the patch from the last line's: "c1":{"t0":[0,1],"t1":null},"c2":null.
// Without out it returns the whole map (the first line's).
func (c *ChangeLines) ownedPatch(out *[]byte) map[string][]kafka.TP {
	for _, name := range sortedKeys(c.dOwned) {
		tps, ok := c.ownedOf(name)
		putSet(c.owned, name, tps, ok, out)
	}
	clear(c.dOwned)
	return c.owned
}

// putSet stores a name's partitions in a line's map (ok: it has an entry)
// and writes the patch from what the map held into out, when not nil.
func putSet(m map[string][]kafka.TP, name string, tps []kafka.TP, ok bool, out *[]byte) {
	was, had := m[name]
	if ok {
		m[name] = tps
	} else {
		delete(m, name)
	}
	if out != nil {
		*out = appendSetPatch(*out, name, was, had, tps, ok)
	}
}

// ownedOf is a name's entry in owned: what the last consuming member of
// that name in start order holds (ownedSets).
func (c *ChangeLines) ownedOf(name string) ([]kafka.TP, bool) {
	ps := c.byID[name]
	for k := len(ps) - 1; k >= 0; k-- {
		if v := c.views.state[ps[k]]; consuming(v.Status) {
			return v.Owned, true
		}
	}
	return nil, false
}

// epochPatch does for member_epochs and member_states what ownedPatch does
// for owned.
func (c *ChangeLines) epochPatch(epochs, states *[]byte) map[string]memberEpoch {
	for _, name := range sortedKeys(c.dEpoch) {
		e, ok := c.epochOf(name)
		was, had := c.epochs[name]
		if ok {
			c.epochs[name] = e
		} else {
			delete(c.epochs, name)
		}
		if epochs == nil {
			continue
		}
		switch {
		case !ok && had:
			*epochs = appendPatchKey(*epochs, name, []byte("null"))
			*states = appendPatchKey(*states, name, []byte("null"))
		case ok:
			if !had || was.epoch != e.epoch {
				*epochs = appendPatchKey(*epochs, name, strconv.AppendInt(nil, int64(e.epoch), 10))
			}
			if !had || was.state != e.state {
				*states = appendPatchKey(*states, name, appendJSONString(nil, string(e.state)))
			}
		}
	}
	clear(c.dEpoch)
	return c.epochs
}

// epochOf is a name's member epoch and state (consumerSets): the last
// member the coordinator holds away under that id, else the last in-group
// member of that name in start order.
func (c *ChangeLines) epochOf(name string) (memberEpoch, bool) {
	for k := len(c.away) - 1; k >= 0; k-- {
		if a := c.away[k]; a.id == name {
			return memberEpoch{a.id, a.epoch, a.state}, true
		}
	}
	ps := c.byID[name]
	for k := len(ps) - 1; k >= 0; k-- {
		if v := c.views.state[ps[k]]; v.InGroup {
			return memberEpoch{v.ID, v.MemberEpoch, v.MemberState}, true
		}
	}
	return memberEpoch{}, false
}

// targetPatch does for target what ownedPatch does for owned. A target is
// listed under the client id of the last in-group member holding its
// member id, else under the member id; of two under one name, the one
// whose member id sorts last (consumerSets).
func (c *ChangeLines) targetPatch(out *[]byte) map[string][]kafka.TP {
	entries := c.targets.state
	for p := range c.dTarget2 {
		name := ""
		if int(p) < len(entries) && entries[p].in {
			name = c.nameOf(c.s.tids.ids[p])
		}
		for len(c.tName) <= int(p) {
			c.tName = append(c.tName, "")
		}
		if old := c.tName[p]; old != name {
			if old != "" {
				c.tBy[old] = removePos(c.tBy[old], p)
			}
			if name != "" {
				c.tBy[name] = insertPos(c.tBy[name], p)
			}
			c.tName[p] = name
			c.dTarget[old], c.dTarget[name] = true, true
		}
	}
	clear(c.dTarget2)
	delete(c.dTarget, "")
	for _, name := range sortedKeys(c.dTarget) {
		best := int32(-1)
		for _, p := range c.tBy[name] {
			if best < 0 || c.s.tids.ids[p] > c.s.tids.ids[best] {
				best = p
			}
		}
		var tps []kafka.TP
		if best >= 0 {
			tps = c.s.tids.decode(entries[best])
		}
		putSet(c.target, name, tps, best >= 0, out)
	}
	clear(c.dTarget)
	return c.target
}

// nameOf is the name a member id's target is listed under.
func (c *ChangeLines) nameOf(id string) string {
	ps := c.byMID[id]
	for k := len(ps) - 1; k >= 0; k-- {
		if v := c.views.state[ps[k]]; v.InGroup {
			return v.ID
		}
	}
	return id
}

// flowJSON is step i's lag and readers as the full line writes them (nil
// when the line has none).
func (c *ChangeLines) flowJSON(i int) (lag, readers []byte) {
	if fv := c.s.flow(i); fv != nil {
		if m := lagMap(fv); len(m) > 0 {
			lag, _ = json.Marshal(m)
		}
		if m := readersMap(fv); len(m) > 0 {
			readers, _ = json.Marshal(m)
		}
	}
	return lag, readers
}

// appendSetPatch writes one member's patch of partitions, nothing when
// they read the same: null when it has none now, its set when it had none
// before, else the topics that changed (null for one it no longer holds).
func appendSetPatch(b []byte, name string, was []kafka.TP, had bool, is []kafka.TP, has bool) []byte {
	switch {
	case !has && !had:
		return b
	case !has:
		return appendPatchKey(b, name, []byte("null"))
	case !had:
		return appendPatchKey(b, name, appendTPSet(nil, is))
	case slices.Equal(was, is):
		return b
	}
	// By topic, in one pass each: a member of a thousand topics is not a
	// scan of its list per topic.
	wasBy, isBy := kafka.TPMap(was), kafka.TPMap(is)
	var topics []byte
	for _, t := range mergeSorted(slices.Collect(maps.Keys(wasBy)), slices.Collect(maps.Keys(isBy))) {
		ps, now := isBy[t]
		if !now {
			topics = appendPatchKey(topics, t, []byte("null"))
			continue
		}
		if old, before := wasBy[t]; !before || !slices.Equal(old, ps) {
			topics = appendJSONString(appendComma(topics), t)
			topics = append(topics, ":["...)
			for k, p := range ps {
				if k > 0 {
					topics = append(topics, ',')
				}
				topics = strconv.AppendInt(topics, int64(p), 10)
			}
			topics = append(topics, ']')
		}
	}
	if topics == nil {
		return b
	}
	return appendPatchKey(b, name, append(append([]byte{'{'}, topics...), '}'))
}

func appendComma(b []byte) []byte {
	if len(b) > 0 {
		b = append(b, ',')
	}
	return b
}

// appendPatchKey appends "key":value to a list of members.
func appendPatchKey(b []byte, key string, value []byte) []byte {
	b = appendJSONString(appendComma(b), key)
	return append(append(b, ':'), value...)
}

// appendPatchField writes a line's lag or readers: the merge patch from
// the last line's object to this one's, null when it has none now,
// nothing when the same.
func appendPatchField(b []byte, name string, was, is []byte) []byte {
	if string(was) == string(is) {
		return b
	}
	var patch []byte
	if is == nil {
		patch = []byte("null")
	} else {
		var w any
		if was != nil {
			w = decodeJSON(was)
		}
		patch, _ = json.Marshal(mergeDiff(w, decodeJSON(is)))
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return append(b, patch...)
}

// mergeDiff is the merge patch that turns was into is (JSON values as
// encoding/json decodes them).
func mergeDiff(was, is any) any {
	w, wok := was.(map[string]any)
	n, nok := is.(map[string]any)
	if !wok || !nok {
		return is
	}
	patch := map[string]any{}
	for k, v := range n {
		if old, ok := w[k]; !ok || !jsonEqual(old, v) {
			patch[k] = mergeDiff(old, v)
		}
	}
	for k := range w {
		if _, ok := n[k]; !ok {
			patch[k] = nil
		}
	}
	return patch
}

// decodeJSON is a JSON value with its numbers as written (json.Number).
func decodeJSON(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// mergeSorted is the union of two sorted lists, sorted.
func mergeSorted(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, strings.Compare)
	return keys
}

// insertPos adds p to an ascending list.
func insertPos(ps []int32, p int32) []int32 {
	k, found := slices.BinarySearch(ps, p)
	if found {
		return ps
	}
	return slices.Insert(ps, k, p)
}

// removePos takes p out of an ascending list.
func removePos(ps []int32, p int32) []int32 {
	if k, found := slices.BinarySearch(ps, p); found {
		return slices.Delete(ps, k, k+1)
	}
	return ps
}
