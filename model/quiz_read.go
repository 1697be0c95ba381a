package model

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
)

// readQuestion: "B-latest starts with no committed offset
// (auto.offset.reset latest). How many records does it read?", about a
// reader group (one resetting to latest first: Kafka's default and the
// surprise), asked at the last step before it starts and revealed once
// what it reads has settled. The wrong choices are the other counts in
// the story: the whole log (earliest), what the main group left unread
// past its committed offset, none.
func (q *quizzer) readQuestion() (Question, bool) {
	last := q.s.flow(len(q.s.steps) - 1)
	readers := q.s.sc.Flow.Readers
	order := make([]int, 0, len(readers))
	for i, r := range readers {
		if r.Consumer.OffsetReset != produce.ResetEarliest {
			order = append(order, i)
		}
	}
	for i, r := range readers {
		if r.Consumer.OffsetReset == produce.ResetEarliest {
			order = append(order, i)
		}
	}
	for _, i := range order {
		spec := readers[i]
		final := last.Readers[i].Read
		start := -1
		for j, st := range q.s.steps {
			if st.at >= spec.AtMs {
				start = j
				break
			}
		}
		if start < 0 {
			continue
		}
		ask := q.shown(start)
		reveal := q.readReveal(start, i, final)
		if ask < 0 || reveal < 0 {
			continue
		}
		r := q.s.flow(reveal).Readers[i]
		unread, latest := int64(0), int64(0)
		for _, t := range q.s.flow(reveal).Topics {
			for _, p := range t.Partitions {
				if p.Committed >= 0 {
					unread += p.LogEnd - p.Committed
				}
			}
		}
		count := func(n int64) string {
			if n == 1 {
				return "1 record"
			}
			return strconv.FormatInt(n, 10) + " records"
		}
		var c choiceSet
		c.add(strconv.FormatInt(r.Read, 10), count(r.Read), "")
		c.add(strconv.FormatInt(r.LogEnd, 10), count(r.LogEnd), "the whole log, from offset 0 (earliest)")
		c.add(strconv.FormatInt(unread, 10), count(unread), fmt.Sprintf("what %s has not committed yet; another group's offsets are not %s's", q.s.sc.GroupID, r.Group))
		c.add("0", count(0), "only records produced after it starts (latest)")
		for _, pe := range q.s.sc.Flow.Produces {
			if pe.AtMs < spec.AtMs {
				latest = int64(pe.Count)
			}
		}
		if latest > 0 {
			c.add(strconv.FormatInt(latest, 10), count(latest), "the last records produced before it starts")
		}
		reset := string(r.Reset)
		var why string
		switch {
		case r.Read == 0 && r.Reset == produce.ResetLatest:
			why = fmt.Sprintf("with no committed offset, auto.offset.reset latest starts it at the log end (%d): it reads only records produced after it starts", r.LogEnd)
			if r.Committed == r.LogEnd && r.LogEnd > 0 {
				why += fmt.Sprintf("; its commit still stores that position (%d), so it goes on from there after a restart", r.Committed)
			}
		case r.Reset == produce.ResetEarliest:
			why = "with no committed offset, auto.offset.reset earliest starts it at the log's first offset: it reads everything the log holds"
		default:
			why = fmt.Sprintf("it starts from auto.offset.reset %s and reads what lands after that", reset)
		}
		choices, answer := c.shuffled(q.rng(reveal))
		return Question{Step: ask, RevealStep: reveal, Kind: QuizRead, Member: r.Group,
			Text:    fmt.Sprintf("Group %s starts reading with no committed offset (auto.offset.reset %s); the log holds %d records. How many does it read?", r.Group, reset, q.s.flow(ask).Readers[i].LogEnd),
			Choices: choices, Answer: answer,
			Explain: fmt.Sprintf("%s reads %s: %s.%s", r.Group, count(r.Read), why, c.origins()),
		}, true
	}
	return Question{}, false
}

// readReveal is the step that shows what reader i read: with the data
// path's moments as steps (flow_moments.go), the RecordsConsumed step
// after which it has read all it reads and committed every partition;
// otherwise the first step after which it has read all it reads.
func (q *quizzer) readReveal(start, i int, final int64) int {
	moments := wantsMoments(q.s.sc)
	for j := max(start, 0); j < len(q.s.steps); j++ {
		st := q.s.steps[j]
		if st.routine || moments && st.kind != kafka.KindRecordsConsumed {
			continue
		}
		fv := q.s.flow(j)
		if fv == nil || fv.Err != "" || !fv.Readers[i].Started || fv.Readers[i].Read != final {
			continue
		}
		if moments && slices.ContainsFunc(fv.Readers[i].Partitions, func(p FlowReaderPartition) bool { return p.Committed < 0 && p.Position >= 0 }) {
			continue
		}
		return j
	}
	return -1
}
