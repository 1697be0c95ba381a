package model

import (
	"fmt"
	"slices"
	"strconv"
)

// countQuestion: "How many partitions does C0 end with?", asked of a
// rebalance whose assignment is uneven (one member two or more partitions
// ahead of another: range's lesson over several topics), about the member
// holding the most. Revealed by the last assignment of the rebalance.
func (q *quizzer) countQuestion(k int) quizBuild {
	r := q.rebs[k]
	acs := q.assignments(r)
	if len(acs) == 0 {
		return quizBuild{}
	}
	after := q.s.ownersAt(r.EndStep)
	counts := map[string]int{}
	for _, id := range after {
		counts[id]++
	}
	if len(counts) < 2 {
		return quizBuild{}
	}
	ids := make([]string, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	top, low := ids[0], ids[0]
	for _, id := range ids {
		if counts[id] > counts[top] {
			top = id
		}
		if counts[id] < counts[low] {
			low = id
		}
	}
	n := counts[top]
	if n-counts[low] < 2 {
		return quizBuild{} // an even spread: the count teaches nothing
	}
	// Members with different subscriptions make any spread: only the
	// assignor's unevenness over one subscription is asked.
	end := q.s.View(r.EndStep)
	var subs []string
	for _, m := range end.Members {
		if !m.Live() {
			continue
		}
		t := slices.Sorted(slices.Values(m.Topics))
		if subs == nil {
			subs = t
		} else if !slices.Equal(subs, t) {
			return quizBuild{}
		}
	}
	total := len(after)
	var c choiceSet
	c.add(strconv.Itoa(n), quizPartitions(n), "")
	for _, alt := range q.alts.all() {
		if ar, ok := alt.matching(k, len(q.rebs)); ok {
			m := 0
			for _, id := range alt.sim.ownersAt(ar.EndStep) {
				if id == top {
					m++
				}
			}
			if m > 0 {
				c.add(strconv.Itoa(m), quizPartitions(m), fmt.Sprintf("%s would give it %s", alt.strategy, quizPartitions(m)))
			}
		}
	}
	share := total / len(counts)
	c.add(strconv.Itoa(share), quizPartitions(share), fmt.Sprintf("%d partitions shared evenly by %d members", total, len(counts)))
	c.add(strconv.Itoa(share+1), quizPartitions(share+1), "")
	c.add(strconv.Itoa(n+1), quizPartitions(n+1), "")
	reveal := acs[len(acs)-1]
	choices, answer := c.shuffled(q.rng(reveal))
	return quizBuild{ok: true, interesting: true, q: Question{
		Step: q.shown(acs[0]), RevealStep: reveal, Kind: QuizCount, Member: top,
		Text:    fmt.Sprintf("How many partitions does %s end with?", top),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s ends with %s of %d (%s %s). %s%s", top, quizPartitions(n), total,
			low, quizPartitions(counts[low])+" the fewest", q.s.steps[reveal].say(), c.origins()),
	}}
}

func quizPartitions(n int) string {
	if n == 1 {
		return "1 partition"
	}
	return strconv.Itoa(n) + " partitions"
}
