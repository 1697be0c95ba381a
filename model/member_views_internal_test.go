package model

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A log of random steps (members changed, members added, steps changing
// nothing) gives back, at every step and in any order of seeking, the very
// list of views a plain copy per step holds; advancing reports each change
// with the view it replaced.
func TestViewLogRebuildsEveryStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log, want := randomViewLog(t)
		n := len(want)
		c := newCursor(&log)
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, n-1), 1, 50).Draw(t, "seeks") {
			if got := c.seek(i); !slices.Equal(got, want[i]) {
				t.Fatalf("after step %d: %d views, want %d (or different ones)", i, len(got), len(want[i]))
			}
		}
		walk := newCursor(&log)
		for i := range n {
			seen := slices.Clone(walk.state)
			walk.advance(i, func(pos int, was, is *MemberView) {
				var old *MemberView
				if pos < len(seen) {
					old = seen[pos]
				}
				if was != old || is != want[i][pos] {
					t.Fatalf("step %d, member %d: reported %p -> %p, want %p -> %p", i, pos, was, is, old, want[i][pos])
				}
			})
			if !slices.Equal(walk.state, want[i]) {
				t.Fatalf("advancing to step %d: different views", i)
			}
		}
	})
}

// Stepping back, to any step from any later one, gives the very list a
// plain copy per step holds, and reports each position that differs once,
// in ascending order, with the view it held and the one it holds again.
func TestViewLogRetreatsToEveryStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		log, want := randomViewLog(t)
		n := len(want)
		c := newCursor(&log)
		for range rapid.IntRange(1, 20).Draw(t, "walks") {
			from := rapid.IntRange(0, n-1).Draw(t, "from")
			to := rapid.IntRange(-1, from).Draw(t, "to")
			c.seek(from)
			seen := slices.Clone(c.state)
			var after []*MemberView
			if to >= 0 {
				after = want[to]
			}
			last, told := -1, map[int]bool{}
			c.retreat(to, func(pos int, was, is *MemberView) {
				told[pos] = true
				var back *MemberView
				if pos < len(after) {
					back = after[pos]
				}
				if pos <= last || was != seen[pos] || is != back {
					t.Fatalf("back from step %d to %d, member %d (after %d): reported %p -> %p, want %p -> %p", from, to, pos, last, was, is, seen[pos], back)
				}
				last = pos
			})
			if c.step != to || !slices.Equal(c.state, after) {
				t.Fatalf("back from step %d to %d: at %d with %d views, want %d (or different ones)", from, to, c.step, len(c.state), len(after))
			}
			for pos := range seen {
				if (pos >= len(after) || seen[pos] != after[pos]) && !told[pos] {
					t.Fatalf("back from step %d to %d: member %d differs, not reported", from, to, pos)
				}
			}
		}
	})
}

// randomViewLog is a log of random steps (members changed, members added,
// steps changing nothing) and the list after each step, kept whole.
func randomViewLog(t *rapid.T) (viewLog, [][]*MemberView) {
	var log viewLog
	var want [][]*MemberView // the list after each step
	var cur []*MemberView
	n := rapid.IntRange(1, 400).Draw(t, "steps")
	for i := 0; i < n; i++ {
		var delta []change[*MemberView]
		if len(cur) > 0 {
			for _, pos := range rapid.SliceOfNDistinct(rapid.IntRange(0, len(cur)-1), 0, min(len(cur), 5), rapid.ID[int]).Draw(t, "changed") {
				delta = append(delta, change[*MemberView]{int32(pos), &MemberView{ID: cur[pos].ID}})
			}
		}
		slices.SortFunc(delta, func(a, b change[*MemberView]) int { return int(a.pos) - int(b.pos) })
		for range rapid.IntRange(0, 3).Draw(t, "added") {
			delta = append(delta, change[*MemberView]{int32(len(cur)), &MemberView{ID: string(rune('a' + len(cur)%26))}})
			cur = append(cur, nil)
		}
		for _, ch := range delta {
			cur[ch.pos] = ch.v
		}
		log.note(delta, cur)
		want = append(want, slices.Clone(cur))
	}
	return log, want
}

// Checkpoints cost no more than the changes: a group of many members
// changing one at a time keeps a checkpoint per members' worth of changes.
func TestViewLogCheckpointsFollowChanges(t *testing.T) {
	var log viewLog
	const members, steps = 1000, 20000
	views := make([]*MemberView, members)
	var delta []change[*MemberView]
	for i := range members {
		views[i] = &MemberView{}
		delta = append(delta, change[*MemberView]{int32(i), views[i]})
	}
	log.note(delta, views)
	for i := 1; i < steps; i++ {
		v := &MemberView{}
		views[i%members] = v
		log.note([]change[*MemberView]{{int32(i % members), v}}, views)
	}
	if got, max := len(log.checks), 1+steps/members; got > max {
		t.Errorf("%d checkpoints for %d changes of %d members, want at most %d", got, len(log.changes), members, max)
	}
	if len(log.checks) < 2 {
		t.Errorf("%d checkpoints: a rebuild would apply every change from the start", len(log.checks))
	}
}
