package model

// The data path's questions (producers, replicas, readers) read the flow
// views: flowStep finds the first step the lab stops at whose view passes
// a test.

// flowStep is the first step at or after from that the lab stops at and
// whose flow view satisfies ok, or -1.
func (q *quizzer) flowStep(from int, ok func(*FlowView) bool) int {
	for i := max(from, 0); i < len(q.s.steps); i++ {
		if q.s.steps[i].routine {
			continue
		}
		if fv := q.s.flow(i); fv != nil && fv.Err == "" && ok(fv) {
			return i
		}
	}
	return -1
}

// dataQuestions are the data path's questions, at most one of each kind.
func (q *quizzer) dataQuestions() []Question {
	if q.s.flow(0) == nil {
		return nil
	}
	var out []Question
	for _, b := range []func() (Question, bool){q.keyQuestion, q.batchQuestion, q.replicasQuestion, q.readQuestion} {
		if qu, ok := b(); ok {
			out = append(out, qu)
		}
	}
	return out
}

// producerView is the named producer in a view.
func producerIn(fv *FlowView, name string) (ProducerView, bool) {
	for _, p := range fv.Producers {
		if p.Name == name {
			return p, true
		}
	}
	return ProducerView{}, false
}
