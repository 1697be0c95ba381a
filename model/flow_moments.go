package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Data-path moments (issue 19): in a scenario whose records come only from
// the timeline's produce entries (no producers:), records move in a few
// discrete bursts, and each burst is a step of the trace with its own
// narration: records landing (RecordsProduced), another group's consumer
// starting (ReaderStarted), a consumer that has read and committed what
// was there (RecordsConsumed). The group never depends on the data path,
// and these steps change nothing in it: Simulate runs the group once with
// a step at each produce entry and reader start, replays the data path
// over that trace to find when each burst ends, and runs the group again
// with the moments as steps (dataMoment). The data path depends only on
// who owns what when, which is the same in both runs. With producers: the
// data flows all the time and the panes show it; no moment is a step.

// dataMoment is a data-path step: when, what, and its narration.
type dataMoment struct {
	at     int64
	kind   kafka.StepKind
	member string
	text   string
}

// momentHorizonMs is how long the data path is followed past the group's
// last step for the bursts still going on; a consumer too slow to finish
// within it gets no step.
const momentHorizonMs = 60_000

// wantsMoments reports whether the scenario's data path is told as steps.
func wantsMoments(sc *scenario.Scenario) bool {
	return sc.Flow != nil && len(sc.Flow.Producers) == 0 && (len(sc.Flow.Produces) > 0 || len(sc.Flow.Readers) > 0)
}

// placeholderMoments are the first run's steps at every produce entry and
// reader start, so its trace (and the data path replayed over it) reaches
// them.
func placeholderMoments(sc *scenario.Scenario) []dataMoment {
	var out []dataMoment
	for _, pe := range sc.Flow.Produces {
		out = append(out, dataMoment{at: pe.AtMs, kind: kafka.KindRecordsProduced, text: "records are produced"})
	}
	for _, r := range sc.Flow.Readers {
		out = append(out, dataMoment{at: r.AtMs, kind: kafka.KindReaderStarted, text: r.Group + " starts"})
	}
	return out
}

// scheduleMoments puts the moments on the clock before anything else, so
// each is the first step of its millisecond: the data path's state it
// tells is the one before the group's steps of that millisecond.
func (w *world) scheduleMoments() {
	for _, m := range w.moments {
		w.clock.at(m.at, func() { w.record(m.kind, m.member, "", false, m.text) })
	}
}

// consumerRef is one consumer the moments watch: a member of the group
// or a reader group's one consumer.
type consumerRef struct {
	group, member string
}

// partMark is a partition as a consumer last told it.
type partMark struct {
	consumed, committed, position int64
	fresh                         bool // got since the last moment: position is where it started
}

// momentFinder replays the data path millisecond by millisecond wherever
// something is going on, and notes a moment where a burst ends.
type momentFinder struct {
	f     *flow
	marks map[consumerRef]map[strategies.TopicPartition]partMark
	ends  map[string][]int64 // log ends at the last RecordsProduced
	told  map[string]bool    // reader groups whose start is told
	out   []dataMoment
}

// findMoments replays the data path over a trace (the first run's) and
// returns the moments to show as steps.
func findMoments(sc *scenario.Scenario, steps []stepRec, views *viewLog) ([]dataMoment, error) {
	f, err := newFlow(sc)
	if err != nil {
		return nil, err
	}
	f.followed = newCursor(views)
	mf := &momentFinder{f: f, marks: map[consumerRef]map[strategies.TopicPartition]partMark{}, told: map[string]bool{}, ends: initialEnds(f)}
	for i, r := range steps {
		if err := mf.walk(r.at, false); err != nil {
			return nil, err
		}
		if _, err := f.follow(i); err != nil {
			return nil, err
		}
		mf.markNew()
	}
	if len(steps) > 0 {
		if err := mf.walk(steps[len(steps)-1].at+momentHorizonMs, true); err != nil {
			return nil, err
		}
	}
	return mf.out, nil
}

func initialEnds(f *flow) map[string][]int64 {
	ends := map[string][]int64{}
	for _, t := range f.topics {
		ends[t] = make([]int64, f.sim.PartitionCount(t))
	}
	return ends
}

// walk runs the data path to t: the events due, then a millisecond at a
// time while anyone is busy, jumping where nobody is. With stopIdle it
// stops once everyone is idle and no event is left.
func (mf *momentFinder) walk(t int64, stopIdle bool) error {
	f := mf.f
	for {
		now := f.sim.NowMs()
		if f.next < len(f.events) && f.events[f.next].at <= now {
			ev := f.events[f.next]
			f.next++
			if err := ev.apply(f); err != nil {
				return err
			}
			mf.markNew()
			mf.noteStarts(now)
			continue
		}
		if now >= t {
			return nil
		}
		busy := mf.busy()
		if !busy && stopIdle && f.next == len(f.events) {
			return nil
		}
		// Busy: up to the next millisecond that can change anything (a
		// slow consumer's next record), where a burst may end.
		next := now + 1 + min(f.sim.QuietMs(), t-now-1)
		if !busy {
			next = t
			if f.next < len(f.events) {
				next = min(next, f.events[f.next].at)
			}
		}
		if err := f.sim.Advance(next - now); err != nil {
			return err
		}
		mf.noteEnds()
	}
}

// consumers lists every consumer of the data path: the group's members,
// then the reader groups.
func (mf *momentFinder) consumers() []consumerRef {
	var out []consumerRef
	for _, g := range mf.f.sim.Groups() {
		for _, m := range g.Members() {
			out = append(out, consumerRef{g.Name(), m})
		}
	}
	return out
}

func (mf *momentFinder) busy() bool {
	for _, p := range mf.f.sim.Producers() {
		for q := range mf.f.sim.PartitionCount(p.Topic()) {
			if p.Queued(q) > 0 {
				return true
			}
		}
	}
	for _, c := range mf.consumers() {
		if !mf.f.sim.Group(c.group).Idle(c.member) {
			return true
		}
	}
	return false
}

// partState is a partition as group sees it now.
func (mf *momentFinder) part(group string, tp strategies.TopicPartition) produce.PartitionView {
	v, _ := mf.f.sim.Group(group).Partition(tp.Topic, int(tp.Partition))
	return v
}

// markNew notes the partitions consumers got since they were last told
// (a rebalance, a reader's start), where they start; and forgets those
// they gave up. A commit made in handing a partition over (the revoke's)
// is the group's step to tell, so it is taken as told.
func (mf *momentFinder) markNew() {
	for _, c := range mf.consumers() {
		owned := mf.f.sim.Group(c.group).Owned(c.member)
		marks := mf.marks[c]
		if marks == nil {
			marks = map[strategies.TopicPartition]partMark{}
			mf.marks[c] = marks
		}
		for tp := range marks {
			if !slices.Contains(owned, tp) {
				delete(marks, tp)
			}
		}
		for _, tp := range owned {
			if _, ok := marks[tp]; !ok {
				v := mf.part(c.group, tp)
				marks[tp] = partMark{consumed: v.Consumed, committed: v.Committed, position: v.Position, fresh: true}
			}
		}
	}
}

// noteStarts tells a reader group's start (its event was just applied).
func (mf *momentFinder) noteStarts(now int64) {
	for _, r := range mf.f.sc.Flow.Readers {
		if mf.told[r.Group] || !slices.Contains(mf.f.sim.Group(r.Group).Members(), r.Group) {
			continue
		}
		mf.told[r.Group] = true
		c := consumerRef{r.Group, r.Group}
		var where []string
		for _, tp := range mf.f.sim.Group(r.Group).Owned(r.Group) {
			mk := mf.marks[c][tp]
			where = append(where, startClause(tp, mk, r.Consumer.OffsetReset, mf.part(r.Group, tp).LogEnd))
		}
		mf.out = append(mf.out, dataMoment{at: now, kind: kafka.KindReaderStarted, text: fmt.Sprintf(
			"Group %s starts one consumer on %s and, as the group's only member, gets every partition: %s.",
			r.Group, strings.Join(r.Topics, ", "), strings.Join(where, "; "))})
	}
}

// startClause is where a consumer starts on a partition it just got.
func startClause(tp strategies.TopicPartition, mk partMark, reset produce.OffsetReset, logEnd int64) string {
	if reset == "" {
		reset = produce.ResetLatest
	}
	switch {
	case mk.committed >= 0:
		return fmt.Sprintf("on %s it resumes at its group's committed offset %d", tp, mk.committed)
	case mk.position < 0:
		return fmt.Sprintf("%s has no committed offset and auto.offset.reset is none: poll() throws NoOffsetForPartitionException", tp)
	case reset == produce.ResetEarliest:
		return fmt.Sprintf("%s has no committed offset, so auto.offset.reset earliest starts it at the log's first offset, %d", tp, mk.position)
	default:
		return fmt.Sprintf("%s has no committed offset, so auto.offset.reset latest starts it at the log end, %d (of %d records)", tp, mk.position, logEnd)
	}
}

// noteEnds notes the bursts that ended this millisecond: records that all
// landed, consumers with nothing left to read or commit.
func (mf *momentFinder) noteEnds() {
	f := mf.f
	now := f.sim.NowMs()
	queued := false
	for _, p := range f.sim.Producers() {
		for q := range f.sim.PartitionCount(p.Topic()) {
			queued = queued || p.Queued(q) > 0
		}
	}
	if !queued {
		if text := mf.landed(); text != "" {
			mf.out = append(mf.out, dataMoment{at: now, kind: kafka.KindRecordsProduced, text: text})
		}
	}
	for _, c := range mf.consumers() {
		if !f.sim.Group(c.group).Idle(c.member) {
			continue
		}
		if text := mf.consumed(c); text != "" {
			m := dataMoment{at: now, kind: kafka.KindRecordsConsumed, text: text}
			if c.group == f.sc.GroupID {
				m.member = c.member
			}
			mf.out = append(mf.out, m)
		}
	}
}

// landed tells the records that landed since the last time, or "".
func (mf *momentFinder) landed() string {
	var parts []string
	total := int64(0)
	for _, t := range mf.f.topics {
		ends := mf.ends[t]
		for p := range mf.f.sim.PartitionCount(t) {
			end, _ := mf.f.sim.LogEnd(t, p)
			if p >= len(ends) {
				ends = append(ends, 0)
			}
			if end != ends[p] {
				parts = append(parts, fmt.Sprintf("%s on %s-%d, whose log now ends at offset %d", plural(end-ends[p], "record"), t, p, end))
				total += end - ends[p]
				ends[p] = end
			}
		}
		mf.ends[t] = ends
	}
	if total == 0 {
		return ""
	}
	where := ": " + strings.Join(parts, "; ")
	if len(parts) == 1 {
		where = strings.TrimPrefix(parts[0], plural(total, "record")+" ")
		where = " " + strings.Replace(where, ", whose log", ": its log", 1)
	}
	return fmt.Sprintf("%s land%s. Every group reads the same log; its own committed offsets say where it goes on.",
		plural(total, "record"), where)
}

// consumed tells what a consumer read and committed since it was last
// told, or "" when nothing changed.
func (mf *momentFinder) consumed(c consumerRef) string {
	g := mf.f.sim.Group(c.group)
	marks := mf.marks[c]
	cfg, reset := mf.consumerConfig(c)
	who := c.member + " (group " + c.group + ")"
	if c.group != mf.f.sc.GroupID {
		who = c.group
	}
	var clauses []string
	var committed []string
	unread := false
	for _, tp := range g.Owned(c.member) {
		mk, ok := marks[tp]
		if !ok {
			continue
		}
		v := mf.part(c.group, tp)
		if v.Consumed == mk.consumed && v.Committed == mk.committed {
			continue
		}
		read := v.Consumed - mk.consumed
		from := v.Position - read
		var cl string
		switch {
		case read > 0 && mk.fresh && mk.committed >= 0:
			cl = fmt.Sprintf("resumes %s at its group's committed offset %d and reads %s (offsets %d–%d)", tp, mk.committed, plural(read, "record"), from, v.Position-1)
		case read > 0 && mk.fresh:
			cl = fmt.Sprintf("starts %s at %d (no committed offset: auto.offset.reset %s) and reads %s (offsets %d–%d)", tp, mk.position, reset, plural(read, "record"), from, v.Position-1)
		case read > 0:
			cl = fmt.Sprintf("reads %s of %s (offsets %d–%d)", plural(read, "record"), tp, from, v.Position-1)
		case mk.fresh && mk.committed < 0:
			cl = fmt.Sprintf("reads nothing of %s: with no committed offset, auto.offset.reset %s put it at %d, the log end", tp, reset, v.Position)
			unread = true
		default:
			cl = fmt.Sprintf("reads nothing new of %s (at %d)", tp, v.Position)
		}
		clauses = append(clauses, cl)
		if v.Committed != mk.committed {
			committed = append(committed, fmt.Sprintf("%s at %d", tp, v.Committed))
		}
		marks[tp] = partMark{consumed: v.Consumed, committed: v.Committed, position: v.Position}
	}
	if len(clauses) == 0 {
		return ""
	}
	text := who + " " + strings.Join(clauses, "; ")
	if len(committed) == 0 {
		return text + "."
	}
	how := map[produce.CommitMode]string{
		produce.CommitSync:  "Its commitSync() after the poll commits",
		produce.CommitAsync: "Its commitAsync() after the poll commits",
		produce.CommitAuto:  fmt.Sprintf("Its auto-commit inside poll() (auto.commit.interval.ms %d) commits", cfg.AutoCommitIntervalMs),
	}[cfg.Commit]
	text += ". " + how + " its position: " + strings.Join(committed, ", ") + "."
	if unread {
		text += " A commit with no arguments takes every assigned partition's position (SubscriptionState.allConsumed), a reset one too, though the poll returned no record."
	}
	return text
}

// consumerConfig is how a watched consumer reads and commits, defaults
// filled as produce.Group.Join fills them.
func (mf *momentFinder) consumerConfig(c consumerRef) (produce.ConsumerConfig, produce.OffsetReset) {
	cfg := mf.f.sc.Flow.ConsumerFor(c.member)
	if c.group != mf.f.sc.GroupID {
		for _, r := range mf.f.sc.Flow.Readers {
			if r.Group == c.group {
				cfg = r.Consumer
			}
		}
	}
	if cfg.Commit == "" {
		cfg.Commit = produce.CommitAuto
	}
	if cfg.AutoCommitIntervalMs == 0 {
		cfg.AutoCommitIntervalMs = 5000
	}
	if cfg.OffsetReset == "" {
		cfg.OffsetReset = produce.ResetLatest
	}
	return cfg, cfg.OffsetReset
}

// plural is "1 record", "4 records".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
