package model

import (
	"fmt"
	"math"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// restartQuestion: "Does this restart cause a rebalance?", asked when the
// restarted process starts. Yes when a rebalance starts before the member
// is consuming again (or has given up); no when the member gets back in
// without one (a static member within its session: Kafka swaps its member
// id) or is turned away. A restart during a rebalance, or one whose answer
// another timeline event could blur, is not asked about.
func (q *quizzer) restartQuestion(ev scenario.Event) (Question, bool) {
	s := q.s
	ask := -1
	for i, st := range s.steps {
		if st.at >= ev.AtMs && st.kind == kafka.KindMemberStarted && st.member == ev.Member {
			ask = i
			break
		}
	}
	if ask < 0 || q.rebalanceAt(ask) >= 0 {
		return Question{}, false
	}
	until := int64(math.MaxInt64) // the next event on the timeline
	for _, other := range s.sc.Timeline {
		if other.AtMs > ev.AtMs {
			until = min(until, other.AtMs)
		}
	}
	starts := map[int]bool{}
	for _, r := range q.rebs {
		starts[r.StartStep] = true
	}
	reveal, yes, back := -1, false, -1
	for i := ask + 1; i < len(s.steps) && s.steps[i].at < until; i++ {
		st := s.steps[i]
		if starts[i] {
			reveal, yes = i, true
			break
		}
		v := q.member(i, ev.Member)
		if v == nil {
			continue
		}
		if st.member == ev.Member && st.kind == kafka.KindMemberReplaced {
			reveal = i
			break
		}
		if !consuming(v.Status) { // turned away: the process stopped
			reveal = i
			break
		}
		if back < 0 && v.InGroup {
			back = q.lastBy(i, ev.Member) // the request the coordinator took it back in on
		}
		if st.member == ev.Member && st.kind == kafka.KindPartitionsAssigned {
			reveal = i
			if back >= 0 {
				reveal = back
			}
			break
		}
	}
	if reveal < 0 {
		return Question{}, false
	}
	if !yes && s.steps[ask].g.generation != s.steps[reveal].g.generation {
		// The group moved on meanwhile (a join still under way when the
		// group was starting): "no rebalance" would not be the whole truth.
		return Question{}, false
	}
	if s.steps[reveal].errName == "UNRELEASED_INSTANCE_ID" {
		return q.unreleasedQuestion(ev, ask, reveal), true
	}
	choices := []string{"Yes: the group rebalances", "No: no rebalance"}
	answer, verdict := 1, "No."
	if yes {
		answer, verdict = 0, "Yes."
	}
	return Question{Step: ask, RevealStep: reveal, Kind: QuizRestart, Member: ev.Member,
		Text:    fmt.Sprintf("%s restarts. Does this restart cause a rebalance?", ev.Member),
		Choices: choices, Answer: answer,
		Explain: verdict + " " + s.steps[reveal].say(),
	}, true
}

// rebalanceAt is the index of the rebalance under way at step i, or -1.
func (q *quizzer) rebalanceAt(i int) int {
	for k, r := range q.rebs {
		if r.StartStep <= i && i <= r.EndStep {
			return k
		}
	}
	return -1
}

// lastBy is the last step at or before i that the member took.
func (q *quizzer) lastBy(i int, id string) int {
	for j := i; j > 0; j-- {
		if q.s.steps[j].member == id {
			return j
		}
	}
	return i
}

// unreleasedQuestion asks a static restart the coordinator refuses with
// UNRELEASED_INSTANCE_ID (its group.instance.id still belongs to a member
// that has not left: a KIP-848 static member whose process died without
// closing) as that: what happens to the restarted consumer.
func (q *quizzer) unreleasedQuestion(ev scenario.Event, ask, reveal int) Question {
	var c choiceSet
	c.add("refused", "It is refused (UNRELEASED_INSTANCE_ID) and the consumer fails", "")
	c.add("swap", "It takes over its old member's slot and partitions, no rebalance", "what a static member that closed (epoch -2) gets")
	c.add("rebalance", "The group rebalances to give it partitions", "what a new dynamic member causes")
	choices, answer := c.shuffled(q.rng(reveal))
	return Question{Step: ask, RevealStep: reveal, Kind: QuizRestart, Member: ev.Member,
		Text:    fmt.Sprintf("%s restarts with the group.instance.id its crashed process used, before that member's session has expired. What happens?", ev.Member),
		Choices: choices, Answer: answer,
		Explain: "It is refused. " + q.s.steps[reveal].say() + c.origins(),
	}
}
