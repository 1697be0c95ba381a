package model_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// Every shipped demo's questions are well formed and each right answer is
// what the trace shows, read from the steps themselves.
func TestQuizAnswersAreWhatTheTraceShows(t *testing.T) {
	kinds := map[model.QuizKind]int{}
	for _, name := range demo.Names() {
		t.Run(name, func(t *testing.T) {
			for k, n := range checkQuiz(t, simDemo(t, name)) {
				kinds[k] += n
			}
		})
	}
	for _, k := range []model.QuizKind{model.QuizOwner, model.QuizRevoke, model.QuizRounds, model.QuizRestart} {
		assert.Positive(t, kinds[k], "no shipped demo asks a %s question", k)
	}
}

// quizT is what the checks need of *testing.T and *rapid.T.
type quizT interface {
	require.TestingT
	Helper()
}

// checkQuiz checks one simulation's questions: well formed, in order,
// never overlapping, each right answer what the trace shows.
func checkQuiz(t quizT, sim *model.Sim) map[model.QuizKind]int {
	t.Helper()
	kinds := map[model.QuizKind]int{}
	prevReveal := -1
	for n, q := range sim.Quiz() {
		kinds[q.Kind]++
		where := fmt.Sprintf("question %d (%s, step %d)", n+1, q.Kind, q.Step)
		assert.Greater(t, q.Step, prevReveal, "%s is asked before the previous one is revealed", where)
		prevReveal = q.RevealStep
		assert.Less(t, q.Step, q.RevealStep, where)
		require.GreaterOrEqual(t, len(q.Choices), 2, where)
		require.LessOrEqual(t, len(q.Choices), 4, where)
		require.True(t, q.Answer >= 0 && q.Answer < len(q.Choices), where)
		assert.Len(t, uniq(q.Choices), len(q.Choices), "%s repeats a choice: %v", where, q.Choices)
		assert.NotEmpty(t, q.Text, where)
		switch q.Kind {
		case model.QuizKeyPartition, model.QuizBatch, model.QuizReplicas, model.QuizRead:
			// The data path's: explained from the flow, not a group step.
		default:
			assert.Contains(t, q.Explain, sim.StepLine(q.RevealStep).Text, "%s: the explanation is the reveal step's narration", where)
		}
		assert.False(t, sim.StepLine(q.Step).Routine, "%s is asked at a step the lab skips", where)
		checkAnswer(t, sim, q, where)
	}
	return kinds
}

// Random groups under every protocol: the same checks.
func TestRandomQuizzes(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		sim, src := drawSim(t, available)
		t.Logf("%s", src)
		checkQuiz(t, sim)
	})
}

// checkAnswer reads the trace to confirm the right choice.
func checkAnswer(t quizT, sim *model.Sim, q model.Question, where string) {
	t.Helper()
	right := q.Choices[q.Answer]
	switch q.Kind {
	case model.QuizOwner:
		r, ok := rebalanceOf(sim, q.RevealStep)
		require.True(t, ok, "%s: revealed outside a rebalance", where)
		topic, p := splitTP(t, q.Partition)
		assert.Contains(t, sim.Step(r.EndStep).Owned[right][topic], p,
			"%s: %s does not hold %s when the rebalance ends (%v)", where, right, q.Partition, sim.Step(r.EndStep).Owned)
		for i, c := range q.Choices {
			if i != q.Answer {
				assert.NotContains(t, sim.Step(r.EndStep).Owned[c][topic], p, "%s: wrong choice %s holds it too", where, c)
			}
		}
	case model.QuizRevoke:
		st := sim.StepLine(q.RevealStep)
		assert.Equal(t, kafka.KindPartitionsRevoked, st.Kind, where)
		assert.Equal(t, q.Member, st.Member, where)
		// The callback's own list, as the step prints it.
		_, list, ok := strings.Cut(st.Text, "onPartitionsRevoked([")
		require.True(t, ok, where)
		list, _, _ = strings.Cut(list, "])")
		if names := strings.Split(list, ", "); len(names) <= 6 {
			assert.Equal(t, list, right, where)
		} else {
			var tps []kafka.TP
			for _, n := range names {
				topic, p := splitTP(t, n)
				tps = append(tps, kafka.TP{Topic: topic, Partition: p})
			}
			assert.Equal(t, kafka.PartitionRuns(tps), right, where)
		}
	case model.QuizRounds:
		r, ok := rebalanceOf(sim, q.RevealStep)
		require.True(t, ok, "%s: revealed outside a rebalance", where)
		assignments := 0
		for i := r.StartStep; i <= r.EndStep; i++ {
			st := sim.StepLine(i)
			if sim.Scenario().Protocol == string(kafka.ProtocolConsumer) && i > q.RevealStep &&
				st.Kind == kafka.KindGroupStateChanged && st.Generation > sim.StepLine(q.RevealStep).Generation {
				break // KIP-848: a later group epoch is a later change, not a round of this one
			}
			if st.Kind == kafka.KindAssignmentComputed {
				assignments++
			}
		}
		n, err := strconv.Atoi(strings.Fields(right)[0])
		require.NoError(t, err, where)
		assert.Equal(t, assignments, n, "%s: the rebalance ran the assignor %d times", where, assignments)
	case model.QuizRestart:
		started := false
		for _, r := range sim.Rebalances() {
			started = started || (r.StartStep > q.Step && r.StartStep <= q.RevealStep)
		}
		assert.Equal(t, started, strings.HasPrefix(right, "Yes"), "%s: %q, but a rebalance started: %v", where, right, started)
		if !started {
			assert.Equal(t, sim.StepLine(q.Step).Generation, sim.StepLine(q.RevealStep).Generation, where)
		}
	case model.QuizCount:
		r, ok := rebalanceOf(sim, q.RevealStep)
		require.True(t, ok, "%s: revealed outside a rebalance", where)
		n := 0
		for _, ps := range sim.Step(r.EndStep).Owned[q.Member] {
			n += len(ps)
		}
		assert.Equal(t, strconv.Itoa(n), strings.Fields(right)[0], "%s: %s holds %d at the end", where, q.Member, n)
	case model.QuizTakeover:
		r, ok := rebalanceOf(sim, q.RevealStep)
		require.True(t, ok, "%s: revealed outside a rebalance", where)
		topic, p := splitTP(t, q.Partition)
		assert.Contains(t, sim.Step(r.EndStep).Owned[right][topic], p, where)
		assert.Contains(t, sim.Step(q.Step - 1).Owned[q.Member][topic], p, "%s: %s held it before its crash", where, q.Member)
		assert.NotContains(t, q.Choices, q.Member, "%s: the crashed member is offered", where)
	case model.QuizShareHolders, model.QuizShareLock, model.QuizShareArchive:
		checkShareAnswer(t, sim, q, where) // quiz_share_test.go
	default:
		checkDataAnswer(t, sim, q, where)
	}
}

func TestQuizIsDeterministic(t *testing.T) {
	a := simDemo(t, "lab").Quiz()
	b := simDemo(t, "lab").Quiz()
	assert.Equal(t, a, b)
	require.NotEmpty(t, a)
}

// The lab demo's story as questions: who gets a partition when the group
// forms, what the first member revokes when c4 joins (eager: everything),
// and that c3's static restart causes no rebalance.
func TestQuizOnTheLabDemo(t *testing.T) {
	sim := simDemo(t, "lab")
	qs := sim.Quiz()
	var restart *model.Question
	for i := range qs {
		if qs[i].Kind == model.QuizRestart && qs[i].Member == "c3" {
			restart = &qs[i]
		}
	}
	require.NotNil(t, restart, "the lab demo's c3 restart: %+v", qs)
	assert.Equal(t, "No: no rebalance", restart.Choices[restart.Answer])
	assert.Equal(t, kafka.KindMemberReplaced, sim.StepLine(restart.RevealStep).Kind)
	assert.Equal(t, kafka.KindMemberStarted, sim.StepLine(restart.Step).Kind)

	var revoke *model.Question
	for i := range qs {
		if qs[i].Kind == model.QuizRevoke {
			revoke = &qs[i]
			break
		}
	}
	require.NotNil(t, revoke)
	// Eager: everything it holds, read from the step before the callback.
	held := sim.Step(revoke.RevealStep - 1).Owned[revoke.Member]["orders"]
	var names []string
	for _, p := range held {
		names = append(names, "orders-"+strconv.Itoa(int(p)))
	}
	assert.Equal(t, strings.Join(names, ", "), revoke.Choices[revoke.Answer])
	assert.Contains(t, revoke.Choices, "nothing", "cooperative thinking (it keeps them all) is a plausible wrong answer")
}

// A wrong owner is what another assignor really does: the lab demo's first
// question offers the member roundrobin gives the partition to.
func TestQuizWrongOwnerIsAnotherAssignorsAnswer(t *testing.T) {
	sim := simDemo(t, "lab")
	q := sim.Quiz()[0]
	require.Equal(t, model.QuizOwner, q.Kind)
	data, _ := demo.Get("lab")
	rr := simYAML(t, "lab-roundrobin.yaml", strings.Replace(string(data), "strategy: range", "strategy: roundrobin", 1))
	r := rr.Rebalances()[0]
	topic, p := splitTP(t, q.Partition)
	var rrOwner string
	for m, ts := range rr.Step(r.EndStep).Owned {
		if slices.Contains(ts[topic], p) {
			rrOwner = m
		}
	}
	require.NotEmpty(t, rrOwner)
	assert.Contains(t, q.Choices, rrOwner)
	assert.Contains(t, q.Explain, "roundrobin would give it to "+rrOwner)
}

// A cooperative join takes two rounds, and the question about it says so.
func TestQuizCooperativeDanceTakesTwoRounds(t *testing.T) {
	sim := simDemo(t, "example-09-cooperative-join")
	found := false
	for _, q := range sim.Quiz() {
		if q.Kind == model.QuizRounds && q.Choices[q.Answer] == "2 rounds" {
			found = true
			assert.Contains(t, q.Choices, "1 round", "eager's single round is the plausible wrong answer")
		}
	}
	assert.True(t, found, "no two-round question on the cooperative join")
}

func BenchmarkQuizLab(b *testing.B) {
	sim := simDemo(b, "lab")
	for b.Loop() {
		sim.Quiz()
	}
}

func rebalanceOf(sim *model.Sim, step int) (model.Rebalance, bool) {
	for _, r := range sim.Rebalances() {
		if r.StartStep <= step && step <= r.EndStep {
			return r, true
		}
	}
	return model.Rebalance{}, false
}

func splitTP(t quizT, s string) (string, int32) {
	t.Helper()
	i := strings.LastIndexByte(s, '-')
	require.Positive(t, i, "partition %q", s)
	p, err := strconv.Atoi(s[i+1:])
	require.NoError(t, err)
	return s[:i], int32(p)
}

func uniq(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// BenchmarkQuizBigGroup: the quiz of a 200-member group on 2,000
// partitions that a member joins later; it re-simulates the scenario under
// the other assignors for the wrong choices.
func BenchmarkQuizBigGroup(b *testing.B) {
	yaml := bigGroupYAML(200, 2000, "range") + "timeline:\n  - {at_ms: 30000, join: {id: late}}\n"
	sim, err := model.Simulate(benchScenario(b, yaml))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if len(sim.Quiz()) == 0 {
			b.Fatal("no questions")
		}
	}
}

// No owner question offers a member that could not get the partition: one
// that left, crashed or was fenced by the end of the rebalance, or that
// does not subscribe to the partition's topic (example 6's C0 and t1).
func TestOwnerChoicesAreFair(t *testing.T) {
	for _, name := range demo.Names() {
		sim := simDemo(t, name)
		for _, q := range sim.Quiz() {
			if q.Kind != model.QuizOwner && q.Kind != model.QuizTakeover {
				continue
			}
			topic := q.Partition[:strings.LastIndex(q.Partition, "-")]
			var end *model.GroupView
			for _, r := range sim.Rebalances() {
				if r.StartStep <= q.RevealStep && q.RevealStep <= r.EndStep {
					end = sim.View(r.EndStep)
				}
			}
			if end == nil {
				t.Fatalf("%s: question at step %d is in no rebalance", name, q.Step)
			}
			for _, c := range q.Choices {
				ok := false
				for _, m := range end.Members {
					ok = ok || m.ID == c && m.Live() && slices.Contains(m.Topics, topic)
				}
				if !ok {
					t.Errorf("%s: %q offers %s, who cannot get it", name, q.Text, c)
				}
			}
		}
	}
}
