package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/strategies"
)

// keyQuestion: "keyed writes key "key1" to t0 (6 partitions). Which
// partition do its records go to?", about the first producer that sends a
// single key with the default partitioner; revealed at the first step
// showing one of its records. The wrong choices are the hashes people
// reach for: Java's String.hashCode, murmur2 without toPositive's mask,
// and the first partition.
func (q *quizzer) keyQuestion() (Question, bool) {
	for _, cfg := range q.s.sc.Flow.Producers {
		if cfg.Keys.Kind != produce.KeysFixed || len(cfg.Keys.Fixed) != 1 || cfg.Partitioner != "" || cfg.IgnoreKeys {
			continue
		}
		key := cfg.Keys.Fixed[0]
		reveal := q.flowStep(1, func(fv *FlowView) bool {
			p, ok := producerIn(fv, cfg.Name)
			return ok && p.Records > 0 && p.LastPartition >= 0
		})
		ask := q.shown(reveal)
		if reveal < 0 || ask < 0 {
			continue
		}
		fv := q.s.flow(reveal)
		p, _ := producerIn(fv, cfg.Name)
		n := int(q.s.sc.Topics[cfg.Topic])
		if n < 2 {
			continue
		}
		name := func(x int) string { return fmt.Sprintf("%s-%d", cfg.Topic, x) }
		var c choiceSet
		c.add(strconv.Itoa(p.LastPartition), name(p.LastPartition), "")
		h := int(strategies.JavaHashCode(key))
		c.add(strconv.Itoa(abs(h)%n), name(abs(h)%n), "abs(String.hashCode) % n is the coordinator's hash, not the producer's")
		m := int(strategies.Murmur2([]byte(key)))
		c.add(strconv.Itoa(abs(m)%n), name(abs(m)%n), "murmur2 without toPositive's mask")
		c.add("0", name(0), "")
		c.add(strconv.Itoa((p.LastPartition+1)%n), name((p.LastPartition+1)%n), "")
		choices, answer := c.shuffled(q.rng(reveal))
		return Question{Step: ask, RevealStep: reveal, Kind: QuizKeyPartition, Member: cfg.Name, Partition: name(p.LastPartition),
			Text:    fmt.Sprintf("%s writes key %q to %s (%d partitions). Which partition do its records go to?", cfg.Name, key, cfg.Topic, n),
			Choices: choices, Answer: answer,
			Explain: fmt.Sprintf("%s: every record with key %q goes to %s. %s%s", cfg.Name, key, name(p.LastPartition),
				strings.Join(p.Route, "; "), c.origins()),
		}, true
	}
	return Question{}, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
