package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// quizOf is the run's questions of one kind.
func quizOf(t *testing.T, sim *model.Sim, kind model.QuizKind) []model.Question {
	t.Helper()
	var out []model.Question
	for _, q := range sim.Quiz() {
		if q.Kind == kind {
			out = append(out, q)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(q.Choices)))) != len(q.Choices) || len(q.Choices) < 2 {
			t.Errorf("%s: choices %q are not distinct or too few", q.Kind, q.Choices)
		}
		if q.Answer < 0 || q.Answer >= len(q.Choices) || q.Step >= q.RevealStep {
			t.Errorf("%s: answer %d of %d, step %d reveal %d", q.Kind, q.Answer, len(q.Choices), q.Step, q.RevealStep)
		}
	}
	return out
}

// Who gets records of p0: the members the settled group holds it by, read
// from the trace, among other members' sets and one consumer per partition.
func TestShareQuizHolders(t *testing.T) {
	sim := simYAML(t, "s.yaml", shareYAML("4.2", ""))
	qs := quizOf(t, sim, model.QuizShareHolders)
	if len(qs) != 1 {
		t.Fatalf("%d holder questions, want 1", len(qs))
	}
	q := qs[0]
	var holders []string
	for _, m := range sim.View(q.RevealStep).Members {
		if slices.Contains(m.Owned, kafka.TP{Topic: "t0", Partition: 0}) {
			holders = append(holders, m.ID)
		}
	}
	slices.Sort(holders)
	if got := q.Choices[q.Answer]; got != strings.Join(holders, ", ") {
		t.Errorf("answer %q, the run's holders of t0-0 are %v", got, holders)
	}
	if len(holders) < 2 || !slices.Contains(q.Choices, "only "+holders[0]) {
		t.Errorf("holders %v, choices %q: want a shared partition and the one-consumer choice", holders, q.Choices)
	}
}

// A crashed member's locked records come back at the lock deadline
// (record_lock_duration_ms after the fetch), not at the crash or at its
// session's expiry.
func TestShareQuizLockReturns(t *testing.T) {
	for _, lock := range []string{"15000", "30000"} {
		sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share, kafka_version: "4.2", record_lock_duration_ms: `+lock+`}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 3}}
  - {at_ms: 11000, fetch: {id: c1}}
  - {at_ms: 12000, crash: c1}
`)
		qs := quizOf(t, sim, model.QuizShareLock)
		if len(qs) != 1 {
			t.Fatalf("lock %s: %d lock questions, want 1", lock, len(qs))
		}
		q := qs[0]
		st := sim.StepLine(q.RevealStep)
		if st.Kind != kafka.KindAcquisitionLockTimeout {
			t.Fatalf("lock %s: reveal step is %s", lock, st.Kind)
		}
		if ans := q.Choices[q.Answer]; !strings.Contains(ans, model.FormatMs(st.TimeMs)) || !strings.Contains(q.Explain, lock+" ms") {
			t.Errorf("lock %s: answer %q at a timeout at %d ms; explain %q", lock, ans, st.TimeMs, q.Explain)
		}
		if !slices.ContainsFunc(q.Choices, func(c string) bool { return strings.Contains(c, "c1 crashes") }) {
			t.Errorf("lock %s: choices %q lack the crash", lock, q.Choices)
		}
	}
}

// A record released every time is archived after the delivery count
// limit's deliveries, whatever the limit.
func TestShareQuizArchiveAfterLimit(t *testing.T) {
	for _, limit := range []int{3, 5} {
		y := `topics: {t0: 1}
group: {type: share, kafka_version: "4.2", delivery_count_limit: ` + itoa(limit) + `}
members: [{id: c1}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 2}}
`
		for k := range limit {
			at := 20000 + 2000*k
			y += "  - {at_ms: " + itoa(at) + ", fetch: {id: c1, max_records: 1}}\n"
			y += "  - {at_ms: " + itoa(at+500) + ", acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: release}}\n"
		}
		sim := simYAML(t, "s.yaml", y)
		qs := quizOf(t, sim, model.QuizShareArchive)
		if len(qs) != 1 {
			t.Fatalf("limit %d: %d archive questions, want 1", limit, len(qs))
		}
		if got, want := qs[0].Choices[qs[0].Answer], itoa(limit)+" deliveries"; got != want {
			t.Errorf("limit %d: answer %q, want %q (choices %q)", limit, got, want, qs[0].Choices)
		}
	}
}

// checkShareAnswer reads the trace to confirm a share question's right
// choice (TestQuizAnswersAreWhatTheTraceShows, TestRandomQuizzes).
func checkShareAnswer(t quizT, sim *model.Sim, q model.Question, where string) {
	t.Helper()
	right := q.Choices[q.Answer]
	st := sim.StepLine(q.RevealStep)
	switch q.Kind {
	case model.QuizShareHolders:
		topic, p := splitTP(t, q.Partition)
		var holders []string
		for _, m := range sim.View(q.RevealStep).Members {
			if slices.Contains(m.Owned, kafka.TP{Topic: topic, Partition: p}) {
				holders = append(holders, m.ID)
			}
		}
		slices.Sort(holders)
		assert.Equal(t, strings.Join(holders, ", "), right, "%s: the holders of %s at the reveal", where, q.Partition)
	case model.QuizShareLock:
		assert.Equal(t, kafka.KindAcquisitionLockTimeout, st.Kind, where)
		assert.Contains(t, right, model.FormatMs(st.TimeMs), "%s: the lock times out at %d ms", where, st.TimeMs)
	case model.QuizShareArchive:
		assert.Contains(t, st.Text, "ARCHIVED", where)
		assert.Contains(t, st.Text, "delivered "+strings.Fields(right)[0]+" times", where)
	}
}
