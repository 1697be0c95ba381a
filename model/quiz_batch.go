package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/produce"
)

// batchQuestion: "When does the sender take slow's batch?", about the
// producer with the longest linger.ms (a linger worth watching: 100 ms or
// more), revealed at the first step after its first batch went. The
// choices are the sender's reasons (RecordAccumulator.ready and drain):
// full, linger.ms run out, drained with its broker.
func (q *quizzer) batchQuestion() (Question, bool) {
	last := q.s.flow(len(q.s.steps) - 1)
	if last == nil {
		return Question{}, false
	}
	var pick *ProducerView
	for i := range last.Producers {
		p := &last.Producers[i]
		if p.LingerMs >= 100 && p.BatchesSent > 0 && (pick == nil || p.LingerMs > pick.LingerMs) {
			pick = p
		}
	}
	if pick == nil {
		return Question{}, false
	}
	reveal := q.flowStep(1, func(fv *FlowView) bool {
		p, ok := producerIn(fv, pick.Name)
		return ok && p.LastSent != nil
	})
	ask := q.shown(reveal)
	if reveal < 0 || ask < 0 {
		return Question{}, false
	}
	p, _ := producerIn(q.s.flow(reveal), pick.Name)
	sent := *p.LastSent
	texts := map[produce.SendReason]string{
		produce.SentFull:       fmt.Sprintf("when it is full (batch.size %d bytes)", p.BatchSize),
		produce.SentLinger:     fmt.Sprintf("when linger.ms (%d ms) has run out", p.LingerMs),
		produce.SentWithBroker: "with another partition's batch to the same broker",
	}
	var c choiceSet
	c.add(string(sent.Why), texts[sent.Why], "")
	for _, why := range []produce.SendReason{produce.SentFull, produce.SentLinger, produce.SentWithBroker} {
		c.add(string(why), texts[why], "")
	}
	c.add("each", "at once: every record is a batch of its own", "at once is what linger.ms 0 does")
	var because string
	switch sent.Why {
	case produce.SentFull:
		because = fmt.Sprintf("its %d records filled %d of batch.size %d bytes before linger.ms (%d ms) ran out", sent.Records, sent.Bytes, p.BatchSize, p.LingerMs)
	case produce.SentLinger:
		because = fmt.Sprintf("linger.ms (%d ms) ran out with %d records (%d of batch.size %d bytes) in it", p.LingerMs, sent.Records, sent.Bytes, p.BatchSize)
	default:
		because = fmt.Sprintf("its broker was ready for another partition's batch, and drain takes the first batch of every partition it leads (%d records, %d bytes)", sent.Records, sent.Bytes)
	}
	choices, answer := c.shuffled(q.rng(reveal))
	return Question{Step: ask, RevealStep: reveal, Kind: QuizBatch, Member: p.Name, Partition: fmt.Sprintf("%s-%d", p.Topic, sent.Partition),
		Text:    fmt.Sprintf("%s writes to %s with linger.ms %d and batch.size %d. When does the sender take its batches?", p.Name, p.Topic, p.LingerMs, p.BatchSize),
		Choices: choices, Answer: answer,
		Explain: fmt.Sprintf("%s: the sender took its batch to %s-%d at %.3f s: %s.%s", p.Name, p.Topic, sent.Partition, float64(sent.AtMs)/1000, because, c.origins()),
	}, true
}
