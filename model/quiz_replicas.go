package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// replicasQuestion: "Which brokers hold t0-5's replicas?", about the first
// partition whose replicas are not consecutive brokers from its leader (a
// shift Kafka's rack-unaware placement adds), on a topic with two or more
// replicas. Asked at the first step and revealed at the next: the
// placement is made when the topic is created. The wrong choices are real
// placements nearby: consecutive brokers from the same first replica, and
// the partitions on either side.
func (q *quizzer) replicasQuestion() (Question, bool) {
	fv := q.s.flow(0)
	brokers := len(fv.Brokers)
	reveal := q.flowStep(1, func(*FlowView) bool { return true })
	if brokers < 3 || reveal < 0 || q.s.steps[0].routine {
		return Question{}, false
	}
	for _, t := range fv.Topics {
		for i, p := range t.Partitions {
			rs := p.Replicas
			if len(rs) < 2 || len(rs) >= brokers { // a replica on every broker: no placement to guess
				continue
			}
			consecutive := make([]int, len(rs))
			for j := range rs {
				consecutive[j] = (rs[0] + j) % brokers
			}
			if slices.Equal(rs, consecutive) {
				continue
			}
			tp := fmt.Sprintf("%s-%d", t.Name, p.Partition)
			var c choiceSet
			c.add(brokerList(rs), brokerList(rs), "")
			c.add(brokerList(consecutive), brokerList(consecutive), "consecutive brokers from the first replica, as with no shift")
			if i > 0 {
				prev := t.Partitions[i-1].Replicas
				c.add(brokerList(prev), brokerList(prev), fmt.Sprintf("%s-%d's replicas", t.Name, i-1))
			}
			if i+1 < len(t.Partitions) {
				next := t.Partitions[i+1].Replicas
				c.add(brokerList(next), brokerList(next), fmt.Sprintf("%s-%d's replicas", t.Name, i+1))
			}
			choices, answer := c.shuffled(q.rng(int(p.Partition)))
			return Question{Step: 0, RevealStep: reveal, Kind: QuizReplicas, Partition: tp, Hides: QuizHides{ReplicasOf: []string{t.Name}},
				Text:    fmt.Sprintf("%s has %d replicas over %d brokers. Which brokers hold %s's?", t.Name, len(rs), brokers, tp),
				Choices: choices, Answer: answer,
				Explain: fmt.Sprintf("%s's replicas are on %s: the first replica (the preferred leader, broker %d) goes round the brokers one partition at a time from the start index, and the others follow it at a distance that grows by one every %d partitions (the shift).%s",
					tp, brokerList(rs), rs[0], brokers, c.origins()),
			}, true
		}
	}
	return Question{}, false
}

// brokerList names a replica list as a choice: "brokers 0, 2, 3".
func brokerList(rs []int) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.Itoa(r)
	}
	return "brokers " + strings.Join(parts, ", ")
}
