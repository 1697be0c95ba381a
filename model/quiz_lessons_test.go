package model_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/produce"
)

// Each worked example's quiz asks its lesson (issue 19 item 8).
func TestEachExampleAsksItsLesson(t *testing.T) {
	for name, kind := range map[string]model.QuizKind{
		"example-02-range-five-topics": model.QuizCount,
		"example-11-failover":          model.QuizTakeover,
		"example-16-partitioners":      model.QuizKeyPartition,
		"example-17-batching":          model.QuizBatch,
		"example-18-replicas":          model.QuizReplicas,
		"example-19-offsets":           model.QuizRead,
	} {
		t.Run(name, func(t *testing.T) {
			var kinds []model.QuizKind
			for _, q := range simDemo(t, name).Quiz() {
				kinds = append(kinds, q.Kind)
			}
			assert.Contains(t, kinds, kind)
		})
	}
}

// Example 19's B-latest reads nothing: a new group resetting to latest
// starts at the log end, and the question says so.
func TestReadQuestionOnExample19(t *testing.T) {
	for _, q := range simDemo(t, "example-19-offsets").Quiz() {
		if q.Kind == model.QuizRead {
			assert.Equal(t, "B-latest", q.Member)
			assert.Equal(t, "0 records", q.Choices[q.Answer])
			assert.Contains(t, q.Choices, "6 records", "earliest's whole log is the plausible wrong answer")
			return
		}
	}
	t.Fatal("no read question")
}

// checkDataAnswer checks the data path's questions against the flow.
func checkDataAnswer(t quizT, sim *model.Sim, q model.Question, where string) {
	t.Helper()
	right := q.Choices[q.Answer]
	switch q.Kind {
	case model.QuizKeyPartition:
		fv := sim.View(q.RevealStep).Flow()
		require.NotNil(t, fv, where)
		found := false
		for _, p := range fv.Producers {
			if p.Name == q.Member {
				found = true
				assert.Equal(t, fmt.Sprintf("%s-%d", p.Topic, p.LastPartition), right, where)
			}
		}
		assert.True(t, found, "%s: no producer %s", where, q.Member)
	case model.QuizBatch:
		fv := sim.View(q.RevealStep).Flow()
		require.NotNil(t, fv, where)
		for _, p := range fv.Producers {
			if p.Name == q.Member {
				require.NotNil(t, p.LastSent, where)
				word := map[produce.SendReason]string{produce.SentFull: "full", produce.SentLinger: "linger.ms", produce.SentWithBroker: "another partition"}[p.LastSent.Why]
				assert.Contains(t, right, word, where)
			}
		}
	case model.QuizReplicas:
		fv := sim.View(q.Step).Flow()
		require.NotNil(t, fv, where)
		topic, part := splitTP(t, q.Partition)
		p, ok := fv.Partition(topic, part)
		require.True(t, ok, where)
		var names []string
		for _, r := range p.Replicas {
			names = append(names, strconv.Itoa(r))
		}
		assert.Equal(t, "brokers "+strings.Join(names, ", "), right, where)
	case model.QuizRead:
		fv := sim.View(q.RevealStep).Flow()
		require.NotNil(t, fv, where)
		for _, r := range fv.Readers {
			if r.Group == q.Member {
				assert.Equal(t, strconv.FormatInt(r.Read, 10), strings.Fields(right)[0], where)
			}
		}
	default:
		t.Errorf("%s: unknown kind", where)
	}
}

// Under KIP-848 one change makes one target epoch: a rounds question never
// counts a second member's separate join as a round (issue 19 item 10).
func TestKIP848RoundsAreOneChangesEpochs(t *testing.T) {
	for _, name := range []string{"kip848-join", "kip848-static-crash", "kip848-batching"} {
		for _, q := range simDemo(t, name).Quiz() {
			if q.Kind == model.QuizRounds {
				assert.Equal(t, "1 round", q.Choices[q.Answer], "%s: %s", name, q.Explain)
			}
		}
	}
}

// A static restart the coordinator refuses is asked as that (issue 19
// item 10): the refusal is the answer, read from the reveal step's error.
func TestUnreleasedInstanceIDIsAskedAsThat(t *testing.T) {
	sim := simDemo(t, "kip848-static-crash")
	for _, q := range sim.Quiz() {
		if q.Kind == model.QuizRestart {
			assert.Equal(t, "UNRELEASED_INSTANCE_ID", sim.StepLine(q.RevealStep).Error)
			assert.Contains(t, q.Choices[q.Answer], "UNRELEASED_INSTANCE_ID")
			assert.NotContains(t, q.Text, "rebalance?")
			return
		}
	}
	t.Fatal("no restart question")
}
