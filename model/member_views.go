package model

import "slices"

// The members' part of the history is a log of changes, not a snapshot
// per step (issue 21): each step appends the views of the members it
// changed, in start order, and every so often the log keeps a checkpoint,
// the whole list of views after a step. The state after step i is the
// last checkpoint at or before i with the changes after it applied. A
// checkpoint is taken once the changes since the last one are as many as
// there are members, so checkpoints cost no more memory than the changes
// themselves and a rebuild applies at most about two members' worth of
// views per member: memory is O(steps + changes + members), a step that
// changes one member costs that member's view, and a group of 10,000
// members on 500,000 partitions keeps its history in megabytes.
//
// Views are immutable once logged; slices inside them are shared with
// the client, which never changes a published slice in place.

// viewChange is one member's new view: after its step, the member at pos
// (start order) shows v.
type viewChange struct {
	pos int32
	v   *MemberView
}

// checkpoint is the member list after step `step`, which ends the log's
// changes at end.
type checkpoint struct {
	step  int
	end   int
	views []*MemberView
}

// minCheckpointChanges keeps a small group (the demos: a handful of
// members over 100,000 steps) from taking a checkpoint every few steps.
const minCheckpointChanges = 256

type viewLog struct {
	changes []viewChange
	checks  []checkpoint // by step; before the first, no members
}

// note adds a step's changes (sorted by position) that leave the member
// list as views, the step's index being step. It returns where the step's
// changes end, for its stepRec.
func (l *viewLog) note(step int, changes []viewChange, views []*MemberView) int {
	l.changes = append(l.changes, changes...)
	end := len(l.changes)
	since := end
	if n := len(l.checks); n > 0 {
		since -= l.checks[n-1].end
	}
	if since >= max(len(views), minCheckpointChanges) {
		l.checks = append(l.checks, checkpoint{step: step, end: end, views: slices.Clone(views)})
	}
	return end
}

// checkAt is the last checkpoint at or before step i, or nil.
func (l *viewLog) checkAt(i int) *checkpoint {
	k, found := slices.BinarySearchFunc(l.checks, i, func(c checkpoint, i int) int { return c.step - i })
	if found {
		return &l.checks[k]
	}
	if k == 0 {
		return nil
	}
	return &l.checks[k-1]
}

// viewCursor walks the member list through the steps: forward a step at a
// time it applies only that step's changes; elsewhere it starts again from
// the nearest checkpoint. Its views are its own (one goroutine at a time);
// copy them to keep them past the next move.
type viewCursor struct {
	log   *viewLog
	steps []stepRec
	step  int // the step views is after; -1 before the first
	views []*MemberView
}

func newViewCursor(log *viewLog, steps []stepRec) *viewCursor {
	return &viewCursor{log: log, steps: steps, step: -1}
}

// end is where step i's changes end in the log (0 before step 0).
func (c *viewCursor) end(i int) int {
	if i < 0 {
		return 0
	}
	return c.steps[i].end
}

// seek moves to the state after step i, the cheapest way.
func (c *viewCursor) seek(i int) []*MemberView {
	if i == c.step {
		return c.views
	}
	ck := c.log.checkAt(i)
	forward := -1 // changes to apply going on from here; -1 when going back
	if i > c.step {
		forward = c.end(i) - c.end(c.step)
	}
	if ck != nil && (forward < 0 || ck.step > c.step && len(ck.views)+c.end(i)-ck.end < forward) {
		c.views = append(c.views[:0], ck.views...)
		c.step = ck.step
	} else if forward < 0 {
		c.views, c.step = c.views[:0], -1
	}
	c.advance(i, nil)
	return c.views
}

// advance moves forward to the state after step i (at or after the
// cursor's), applying each change in order and telling fn, if given, of
// each: the member at pos showed was (nil for a new member) and now shows
// is.
func (c *viewCursor) advance(i int, fn func(pos int, was, is *MemberView)) {
	if i <= c.step {
		return
	}
	for _, ch := range c.log.changes[c.end(c.step):c.end(i)] {
		var was *MemberView
		if int(ch.pos) < len(c.views) {
			was = c.views[ch.pos]
			c.views[ch.pos] = ch.v
		} else {
			c.views = append(c.views, ch.v) // a new member: positions only grow
		}
		if fn != nil {
			fn(int(ch.pos), was, ch.v)
		}
	}
	c.step = i
}

// changedAt: step i changed some member's view.
func (c *viewCursor) changedAt(i int) bool { return c.end(i) > c.end(i-1) }
