package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// quizBuild is one candidate question about a rebalance; interesting says
// it teaches something (a two-round dance, a partition another assignor
// places elsewhere), else it is only a fallback.
type quizBuild struct {
	q           Question
	ok          bool
	interesting bool
}

// rebalanceQuestion picks one question for rebalance k: a dance of several
// rounds is asked its rounds; otherwise the kinds take turns from one rebalance to the next, an interesting candidate before a
// dull one. A question is asked once the rebalance is on screen: one that
// would have to be asked before its trigger (a member revoking as it
// leaves, which starts the rebalance) is not asked.
func (q *quizzer) rebalanceQuestion(k int) (Question, bool) {
	// A rebalance a crash led to asks who takes over the crashed member's
	// partition (asked at the crash, before the rebalance starts).
	if b := q.takeoverQuestion(k); b.ok {
		return b.q, true
	}
	// An uneven assignment asks how many partitions the busiest member
	// ends with.
	if b := q.countQuestion(k); b.ok && b.q.Step >= q.rebs[k].StartStep {
		return b.q, true
	}
	// A rebalance of several rounds (a cooperative dance) asks how many:
	// that is what it teaches.
	if n, _ := q.rounds(q.rebs[k]); n > 1 {
		if b := q.roundsQuestion(k); b.ok && b.q.Step >= q.rebs[k].StartStep {
			return b.q, true
		}
	}
	builders := []func(int) quizBuild{q.ownerQuestion, q.revokeQuestion, q.roundsQuestion}
	var fallback *quizBuild
	for j := range builders {
		b := builders[(k+j)%len(builders)](k)
		if !b.ok || b.q.Step < q.rebs[k].StartStep {
			continue
		}
		if b.interesting {
			return b.q, true
		}
		if fallback == nil {
			fallback = &b
		}
	}
	if fallback == nil {
		return Question{}, false
	}
	return fallback.q, true
}

// assignments are the steps in the rebalance where an assignor ran (the
// leader's, or the coordinator's under KIP-848): one per round.
func (q *quizzer) assignments(r Rebalance) []int {
	var out []int
	for i := r.StartStep; i <= r.EndStep && i < len(q.s.steps); i++ {
		if q.s.steps[i].kind == kafka.KindAssignmentComputed {
			out = append(out, i)
		}
	}
	return out
}

// ownerQuestion: "Who gets orders-4?", revealed by the round whose
// assignment first gives the partition to its final owner.
func (q *quizzer) ownerQuestion(k int) quizBuild {
	r := q.rebs[k]
	acs := q.assignments(r)
	if len(acs) == 0 {
		return quizBuild{}
	}
	after := q.s.ownersAt(r.EndStep)
	before := q.previousOwners(r)
	type altView struct {
		strategy string
		owners   map[kafka.TP]string
	}
	var alts []altView
	for _, alt := range q.alts.all() {
		if ar, ok := alt.matching(k, len(q.rebs)); ok {
			alts = append(alts, altView{alt.strategy, alt.sim.ownersAt(ar.EndStep)})
		}
	}
	score := func(tp kafka.TP) int {
		o, n := after[tp], 0
		for _, a := range alts {
			if w := a.owners[tp]; w != "" && w != o {
				n = 2
			}
		}
		switch b := before[tp]; {
		case b != "" && b != o:
			n += 2
		case b == "":
			n++
		}
		return n
	}
	tps := kafka.SortTPs(slices.Collect(maps.Keys(after)))
	rng := q.rng(r.StartStep)
	rng.Shuffle(len(tps), func(i, j int) { tps[i], tps[j] = tps[j], tps[i] })
	slices.SortStableFunc(tps, func(a, b kafka.TP) int { return score(b) - score(a) })
	end := q.s.View(r.EndStep)
	members := liveIDs(end)
	// A fair choice is a member that could get the partition: still in the
	// group when the rebalance ends (not left, crashed or fenced) and
	// subscribed to its topic.
	fair := func(id string, tp kafka.TP) bool {
		for _, m := range end.Members {
			if m.ID == id && m.Live() && slices.Contains(m.Topics, tp.Topic) {
				return true
			}
		}
		return false
	}
	for _, tp := range tps {
		owner := after[tp]
		reveal, ok := q.ownerReveal(acs, r, tp, owner)
		if !ok {
			continue
		}
		var c choiceSet
		c.add(owner, owner, "")
		for _, a := range alts {
			if w := a.owners[tp]; w != "" && fair(w, tp) {
				c.add(w, w, fmt.Sprintf("%s would give it to %s", a.strategy, w))
			}
		}
		if b := before[tp]; b != "" && b != owner && fair(b, tp) {
			c.add(b, b, fmt.Sprintf("%s held it before", b))
		}
		rest := slices.Clone(members)
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for _, m := range rest {
			if fair(m, tp) {
				c.add(m, m, "")
			}
		}
		if len(c.texts) < 2 {
			continue
		}
		choices, answer := c.shuffled(rng)
		return quizBuild{ok: true, interesting: score(tp) >= 2, q: Question{
			Step: q.shown(reveal), RevealStep: reveal, Kind: QuizOwner, Partition: tp.String(),
			Text:    fmt.Sprintf("Who gets %s?", tp),
			Choices: choices, Answer: answer,
			Explain: fmt.Sprintf("%s gets %s. %s%s", owner, tp, q.s.steps[reveal].say(), c.origins()),
		}}
	}
	return quizBuild{}
}

// previousOwners is who consumed what just before the rebalance and, for
// a partition nobody consumed then, who did before the outage that led
// into it (a crashed member until its session expired).
func (q *quizzer) previousOwners(r Rebalance) kafka.Owners {
	before := q.s.ownersAt(r.StartStep - 1)
	for _, o := range q.s.Outages() {
		if o.EndStep != r.StartStep {
			continue
		}
		for tp, id := range q.s.ownersAt(o.StartStep - 1) {
			if _, held := before[tp]; !held {
				before[tp] = id
			}
		}
	}
	return before
}

// ownerReveal is the first assignment after which the final owner holds
// the partition or waits for it (withheld for a cooperative round, not yet
// released under KIP-848) before the next assignment runs.
func (q *quizzer) ownerReveal(acs []int, r Rebalance, tp kafka.TP, owner string) (int, bool) {
	for n, a := range acs {
		end := r.EndStep
		if n+1 < len(acs) {
			end = acs[n+1] - 1
		}
		for i := a; i <= end; i++ {
			if v := q.member(i, owner); v != nil && (slices.Contains(heldBy(v), tp) || slices.Contains(v.WaitsFor(), tp)) {
				return a, true
			}
		}
	}
	return 0, false
}

// revokeQuestion: "Which partitions does c1 revoke?", about the first
// member in the rebalance whose revoke callback gives something up. It is
// asked before the assignment that decides it (cooperative, KIP-848) or,
// under the eager protocol, before the callback itself, which runs before
// any assignment.
func (q *quizzer) revokeQuestion(k int) quizBuild {
	r := q.rebs[k]
	reveal, id := -1, ""
	var revoked []kafka.TP
	for i := r.StartStep; i <= r.EndStep && i < len(q.s.steps); i++ {
		st := q.s.steps[i]
		if st.kind != kafka.KindPartitionsRevoked {
			continue
		}
		if v := q.member(i, st.member); v != nil && len(v.Revokes()) > 0 {
			reveal, id, revoked = i, st.member, v.Revokes()
			break
		}
	}
	if reveal < 0 {
		return quizBuild{}
	}
	// The assignment that decided it, if one ran first (cooperative,
	// KIP-848); under the eager protocol the callback runs before any.
	ask := reveal
	for _, a := range q.assignments(r) {
		if a < reveal {
			ask = a
		}
	}
	ask = q.shown(ask)
	held := q.ownedBy(reveal, id) // still held while the callback runs
	moving := kafka.MinusTPs(held, q.ownedBy(r.EndStep, id))
	var c choiceSet
	c.add(kafka.FormatTPs(revoked), quizSet(revoked), "")
	c.add(kafka.FormatTPs(held), quizSet(held), "the classic eager protocol revokes everything a member holds")
	if len(moving) == 0 {
		c.add(kafka.FormatTPs(moving), quizSet(moving), "it holds all of them again once the rebalance is over")
	} else {
		c.add(kafka.FormatTPs(moving), quizSet(moving), "only these end up with another member")
	}
	for _, alt := range q.alts.all() {
		if ar, ok := alt.matching(k, len(q.rebs)); ok {
			// Only a set of what it holds here is a plausible answer.
			if set, found := alt.firstRevoke(ar, id); found && len(set) > 0 && len(kafka.MinusTPs(set, held)) == 0 {
				c.add(kafka.FormatTPs(set), quizSet(set), fmt.Sprintf("%s would make it revoke %s", alt.strategy, quizSet(set)))
			}
		}
	}
	// Off by one: one partition more, one fewer.
	if extra := kafka.MinusTPs(held, revoked); len(extra) > 0 {
		more := kafka.UnionTPs(revoked, extra[:1])
		c.add(kafka.FormatTPs(kafka.SortTPs(more)), quizSet(more), "")
	}
	if len(revoked) > 1 {
		fewer := revoked[:len(revoked)-1]
		c.add(kafka.FormatTPs(fewer), quizSet(fewer), "")
	}
	c.add(kafka.FormatTPs(nil), quizSet(nil), "")
	if len(c.texts) < 2 {
		return quizBuild{}
	}
	choices, answer := c.shuffled(q.rng(reveal))
	return quizBuild{ok: true, interesting: true, q: Question{
		Step: ask, RevealStep: reveal, Kind: QuizRevoke, Member: id,
		Text:    fmt.Sprintf("Which partitions does %s revoke?", id),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s revokes %s. %s%s", id, quizSet(revoked), q.s.steps[reveal].say(), c.origins()),
	}}
}

// firstRevoke is what the member's first revoke callback in the
// rebalance gives up, in this run.
func (alt quizAlt) firstRevoke(r Rebalance, id string) ([]kafka.TP, bool) {
	for i := r.StartStep; i <= r.EndStep && i < len(alt.sim.steps); i++ {
		st := alt.sim.steps[i]
		if st.kind == kafka.KindPartitionsRevoked && st.member == id {
			for _, v := range alt.sim.members(i) {
				if v.ID == id {
					return v.Revokes(), true
				}
			}
		}
	}
	return nil, false
}

// roundsQuestion: "How many rounds will this rebalance take?", revealed by
// the first round's assignment (a cooperative one says what it withholds
// for the next round).
func (q *quizzer) roundsQuestion(k int) quizBuild {
	r := q.rebs[k]
	acs := q.assignments(r)
	if len(acs) == 0 {
		return quizBuild{}
	}
	n, gens := q.rounds(r)
	if n != len(acs) && !scenario.IsConsumer(q.s.sc) {
		// A join phase without an assignment (the leader crashed, a
		// failover threw it away): what counts as a round is arguable.
		return quizBuild{}
	}
	var c choiceSet
	c.add(strconv.Itoa(n), quizRounds(n), "")
	interesting := n >= 2
	for _, alt := range q.alts.all() {
		if ar, ok := alt.matching(k, len(q.rebs)); ok {
			m, _ := q.rounds(ar)
			interesting = interesting || m != n
			c.add(strconv.Itoa(m), quizRounds(m), fmt.Sprintf("%s under the %s protocol takes %s", alt.strategy, alt.sim.sc.Protocol, quizRounds(m)))
		}
	}
	for _, m := range []int{n + 1, n - 1, n + 2} {
		if m >= 1 && len(c.texts) < 3 {
			c.add(strconv.Itoa(m), quizRounds(m), "")
		}
	}
	// Counts read best in order; the right one's place then depends on n
	// alone, so there is nothing to shuffle.
	order := make([]int, len(c.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		x, _ := strconv.Atoi(c.keys[a])
		y, _ := strconv.Atoi(c.keys[b])
		return x - y
	})
	choices := make([]string, len(order))
	answer := 0
	for to, from := range order {
		choices[to] = c.texts[from]
		if from == 0 {
			answer = to
		}
	}
	epoch := "generation"
	if scenario.IsConsumer(q.s.sc) {
		epoch = "group epoch"
	}
	if len(gens) != 1 {
		epoch += "s"
	}
	others := ""
	if all := len(r.Rounds); all > n {
		// KIP-848: the later epochs are later changes (another join), each
		// a rebalance of its own.
		others = fmt.Sprintf(" One change makes one target epoch: the group's next %s (%s) come from later changes, each a rebalance of its own.",
			map[bool]string{true: "epoch", false: "epochs"}[all-n == 1], joinInts(roundGens(r)[n:]))
	}
	return quizBuild{ok: true, interesting: interesting, q: Question{
		Step: q.shown(acs[0]), RevealStep: acs[0], Kind: QuizRounds,
		Text:    "How many rounds will this rebalance take?",
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s (%s %s). %s%s%s", quizRounds(n), epoch, joinInts(gens), q.s.steps[acs[0]].say(), others, c.origins()),
	}}
}

// rounds is the rebalance's rounds and their numbers: its generations
// (JoinGroup/SyncGroup rounds) under the classic protocol; under KIP-848
// the target epochs of the change that started it, which is one: a later
// epoch in the same stretch is another change (a second join), not a
// round of this one.
func (q *quizzer) rounds(r Rebalance) (int, []int32) {
	gens := roundGens(r)
	if scenario.IsConsumer(q.s.sc) && len(gens) > 1 {
		return 1, gens[:1]
	}
	return len(gens), gens
}

func roundGens(r Rebalance) []int32 {
	gens := make([]int32, len(r.Rounds))
	for i, rd := range r.Rounds {
		gens[i] = rd.Generation
	}
	return gens
}

// quizSet names a set of partitions as a choice: a short list as Kafka
// logs it, a longer one as runs (PartitionRuns: "t0:0–7"), so that sets
// one partition apart still read apart.
func quizSet(tps []kafka.TP) string {
	if len(tps) == 0 {
		return "nothing"
	}
	if len(tps) <= 6 {
		s := kafka.FormatTPs(tps)
		return s[1 : len(s)-1]
	}
	return kafka.PartitionRuns(tps)
}

func quizRounds(n int) string {
	if n == 1 {
		return "1 round"
	}
	return strconv.Itoa(n) + " rounds"
}

func joinInts(xs []int32) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(int(x))
	}
	switch len(parts) {
	case 0:
		return "unchanged"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
