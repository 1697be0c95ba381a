package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// A share group's questions (KIP-932): who gets the records of p0 once
// the group is settled, when records a member holds locked come back, and
// how many deliveries a record gets before it is archived. Each is read
// from the trace: the answer is what the run did, the wrong choices the
// other rules people carry over (one consumer per partition, a crash
// releasing at once, a release redelivering for ever).
const (
	// QuizShareHolders: which members get records of a shared partition.
	QuizShareHolders QuizKind = "share-holders"
	// QuizShareLock: when a member's locked records are AVAILABLE again.
	QuizShareLock QuizKind = "share-lock"
	// QuizShareArchive: how many deliveries before a record is archived.
	QuizShareArchive QuizKind = "share-archive"
)

func (q *quizzer) shareQuestions() []Question {
	if !scenario.IsShare(q.s.sc) {
		return nil
	}
	var out []Question
	for _, b := range []func() (Question, bool){q.shareHoldersQuestion, q.shareLockQuestion, q.shareArchiveQuestion} {
		if qu, ok := b(); ok {
			out = append(out, qu)
		}
	}
	return out
}

// firstPartition is p0 of the group's first topic.
func (q *quizzer) firstPartition() (kafka.TP, bool) {
	v := q.s.View(len(q.s.steps) - 1)
	if len(v.Topics) == 0 {
		return kafka.TP{}, false
	}
	return kafka.TP{Topic: v.Topics[0].Name, Partition: 0}, true
}

// shareHoldersQuestion: asked before the first target that gives p0 to
// anyone, revealed when the group is settled with it.
func (q *quizzer) shareHoldersQuestion() (Question, bool) {
	tp, ok := q.firstPartition()
	if !ok {
		return Question{}, false
	}
	computed := -1
	for i, st := range q.s.steps {
		if st.kind == kafka.KindAssignmentComputed && len(targetHolders(q.s.Step(i), tp)) > 0 {
			computed = i
			break
		}
	}
	if computed < 0 {
		return Question{}, false
	}
	reveal := -1
	for j := computed; j < len(q.s.steps); j++ {
		if len(shareHolders(q.s.View(j))[tp]) > 0 && q.s.shareSettled(j) {
			reveal = j
			break
		}
	}
	ask := q.shown(computed)
	if reveal < 0 || ask < 0 {
		return Question{}, false
	}
	got := shareHolders(q.s.View(reveal))[tp]
	live := liveIDs(q.s.View(reveal))
	list := func(ids []string) string { return strings.Join(ids, ", ") }
	var c choiceSet
	c.add(list(got), list(got), "")
	version := q.s.sc.KafkaVersion.OrLatest()
	if !version.AtLeast(4, 1, 0) {
		c.add(list(got[:1]), "only "+got[0], "one consumer per partition is the rule of consumer groups, not share groups")
	} else {
		c.add(list(live), list(live), "every member gets every partition: simple in Kafka 4.0, not "+version.String())
		c.add(list(got[:1]), "only "+got[0], "one consumer per partition is the rule of consumer groups, not share groups")
	}
	for _, other := range live {
		c.add(other, "only "+other, "")
	}
	for _, other := range live {
		if len(c.texts) >= maxChoices {
			break
		}
		if !slices.Contains(got, other) {
			alt := slices.Sorted(slices.Values(append(slices.Clone(got[:len(got)-1]), other)))
			c.add(list(alt), list(alt), "")
		}
	}
	if len(c.texts) < 2 {
		return Question{}, false
	}
	choices, answer := c.shuffled(q.rng(reveal))
	return Question{Step: ask, RevealStep: reveal, Kind: QuizShareHolders, Partition: tp.String(),
		Text:    fmt.Sprintf("Share group %s (simple, Kafka %s): which members get records of %s once it is assigned?", q.s.sc.GroupID, version, tp),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s get records of %s: a share group lets several members consume one partition, each fetch locking its own records. %s %s%s",
			list(got), tp, q.s.steps[computed].say(), q.s.steps[reveal].say(), c.origins()),
	}, true
}

// targetHolders is the members a step's target gives tp.
func targetHolders(st Step, tp kafka.TP) []string {
	var out []string
	for id, ts := range st.Target {
		if slices.Contains(ts[tp.Topic], tp.Partition) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// recordOf is offset off of tp's share-partition after step i.
func (q *quizzer) recordOf(i int, tp kafka.TP, off int64) (sharepart.Record, bool) {
	for _, p := range q.s.SharePartitions(i) {
		if p.TP != tp {
			continue
		}
		for _, r := range p.Records {
			if r.Offset == off {
				return r, true
			}
		}
	}
	return sharepart.Record{}, false
}

// shareLockQuestion: the first acquisition lock that times out; asked at
// the fetch that took the records, revealed at the timeout.
func (q *quizzer) shareLockQuestion() (Question, bool) {
	for l, st := range q.s.steps {
		if st.kind != kafka.KindAcquisitionLockTimeout || l == 0 {
			continue
		}
		for _, p := range q.s.SharePartitions(l - 1) {
			for _, r := range p.Records {
				if r.State != sharepart.Acquired || r.DeadlineMs > st.at {
					continue
				}
				if now, ok := q.recordOf(l, p.TP, r.Offset); !ok || now.State == sharepart.Acquired {
					continue
				}
				return q.lockQuestion(l, p.TP, r)
			}
		}
	}
	return Question{}, false
}

func (q *quizzer) lockQuestion(l int, tp kafka.TP, r sharepart.Record) (Question, bool) {
	acquired := -1
	for i := l - 1; i >= 0; i-- {
		if got, ok := q.recordOf(i, tp, r.Offset); !ok || got.State != sharepart.Acquired || got.DeadlineMs != r.DeadlineMs {
			break
		}
		acquired = i
	}
	ask := q.shown(max(acquired, 0))
	if acquired < 0 || ask < 0 {
		return Question{}, false
	}
	lockMs := shareConfig(q.s.sc).LockMs
	var c choiceSet
	c.add("lock", "at "+FormatMs(r.DeadlineMs)+", when its acquisition lock times out", "")
	why := ""
	for _, ev := range q.s.sc.Timeline {
		if ev.Member == r.Member && (ev.Kind == "crash" || ev.Kind == "leave") && ev.AtMs > q.s.steps[acquired].at && ev.AtMs < r.DeadlineMs {
			c.add("event", "at "+FormatMs(ev.AtMs)+", when "+r.Member+" "+map[string]string{"crash": "crashes", "leave": "leaves"}[ev.Kind],
				"a crashed member closes no share session: nothing releases its locks early")
			why = fmt.Sprintf(" %s %s at %s without acknowledging them.", r.Member, map[string]string{"crash": "crashed", "leave": "left"}[ev.Kind], FormatMs(ev.AtMs))
		}
	}
	for j := l; j < len(q.s.steps); j++ {
		if q.s.steps[j].kind == kafka.KindSessionExpired && q.s.steps[j].member == r.Member {
			c.add("session", "at "+FormatMs(q.s.steps[j].at)+", when "+r.Member+"'s session expires", "the session timeout removes the member; the records' own lock frees them first")
			break
		}
	}
	c.add("never", "never: they wait for "+r.Member+" to acknowledge them", "an acquisition lock always times out")
	choices, answer := c.shuffled(q.rng(l))
	return Question{Step: ask, RevealStep: l, Kind: QuizShareLock, Member: r.Member, Partition: tp.String(),
		Text:    fmt.Sprintf("%s fetches records of %s and acquires them. If it never acknowledges them, when can another member get them?", r.Member, tp),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("At %s: acquired records are locked for group.share.record.lock.duration.ms (%d ms) from the fetch, then AVAILABLE again with their delivery counted.%s %s%s",
			FormatMs(r.DeadlineMs), lockMs, why, q.s.steps[l].say(), c.origins()),
	}, true
}

// shareArchiveQuestion: the first record archived by the delivery count
// limit; asked before its first delivery, revealed when it is archived.
func (q *quizzer) shareArchiveQuestion() (Question, bool) {
	limit := shareConfig(q.s.sc).DeliveryLimit
	for x := 1; x < len(q.s.steps); x++ {
		for _, p := range q.s.SharePartitions(x - 1) {
			for _, r := range p.Records {
				if r.State != sharepart.Acquired || r.Deliveries < limit {
					continue
				}
				// archived at x: marked ARCHIVED, or out of the in-flight
				// window once the start offset moved past it
				now, ok := q.recordOf(x, p.TP, r.Offset)
				if ok && now.State != sharepart.Archived || !ok && !q.startPast(x, p.TP, r.Offset) {
					continue
				}
				return q.archiveQuestion(x, p.TP, r, limit)
			}
		}
	}
	return Question{}, false
}

// startPast: tp's share-partition start offset is past off after step i.
func (q *quizzer) startPast(i int, tp kafka.TP, off int64) bool {
	for _, p := range q.s.SharePartitions(i) {
		if p.TP == tp {
			return p.Start > off
		}
	}
	return false
}

func (q *quizzer) archiveQuestion(x int, tp kafka.TP, r sharepart.Record, limit int32) (Question, bool) {
	first := -1
	for i := 0; i < x; i++ {
		if got, ok := q.recordOf(i, tp, r.Offset); ok && got.Deliveries > 0 {
			first = i
			break
		}
	}
	ask := q.shown(max(first, 0))
	if first < 0 || ask < 0 {
		return Question{}, false
	}
	n := func(k int32) string {
		if k == 1 {
			return "1 delivery"
		}
		return strconv.Itoa(int(k)) + " deliveries"
	}
	var c choiceSet
	c.add(strconv.Itoa(int(r.Deliveries)), n(r.Deliveries), "")
	c.add(strconv.Itoa(int(r.Deliveries+1)), n(r.Deliveries+1), "the limit counts deliveries, the first one included, not redeliveries")
	c.add("1", n(1), "a RELEASE makes a record AVAILABLE again; a REJECT would archive it at once")
	c.add("never", "never: a released record always comes back", fmt.Sprintf("group.share.delivery.count.limit (%d) stops it", limit))
	choices, answer := c.shuffled(q.rng(x))
	return Question{Step: ask, RevealStep: x, Kind: QuizShareArchive, Partition: tp.String(),
		Text:    fmt.Sprintf("%s offset %d fails every time it is processed and is released each time. How many deliveries does it get before the share-partition archives it?", tp, r.Offset),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s: every acquisition counts one delivery, and a record released at the delivery count limit (group.share.delivery.count.limit %d) is ARCHIVED, never delivered again. %s%s",
			n(r.Deliveries), limit, q.s.steps[x].say(), c.origins()),
	}, true
}
