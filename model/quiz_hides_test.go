package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
)

// Example 9's question "how many rounds" is asked in round 1: the numbers
// as it sees them hold one round under way, at generation 2, and neither
// the rebalance's end nor its figures; after the reveal they are whole.
func TestAQuestionHidesTheRoundsItAsksAbout(t *testing.T) {
	sim := simDemo(t, "example-09-cooperative-join")
	var q model.Question
	for _, qu := range sim.Quiz() {
		if qu.Kind == model.QuizRounds {
			q = qu
		}
	}
	require.Equal(t, model.QuizRounds, q.Kind)
	assert.Equal(t, q.Step, q.Hides.Through)
	ledger := model.NewLedger(sim)
	whole := ledger.At(q.Step)
	require.Len(t, whole.Rebalances[whole.Focus].Rounds, 2)
	seen := whole.Hiding(q.Hides)
	require.Len(t, seen.Rebalances, whole.Focus+1, "no later rebalance")
	row := seen.Rebalances[seen.Focus]
	assert.True(t, row.UnderWay)
	require.Len(t, row.Rounds, 1, "round 2 has not started")
	assert.Equal(t, int32(2), row.Generation, "the generation it ends at would say 2 rounds")
	assert.Nil(t, row.Gaps)
	assert.False(t, whole.Rebalances[whole.Focus].UnderWay, "Hiding changed the shared rows")
	assert.Len(t, whole.Rebalances[whole.Focus].Rounds, 2, "Hiding changed the shared rows")
	if row.Rounds[0].EndStep > q.Step {
		assert.Contains(t, row.Rounds[0].Text(0), "–…")
	}
	for _, o := range seen.Outages {
		assert.LessOrEqual(t, o.EndStep, q.Step)
	}
}

// Example 18's placement question hides the topic's replicas.
func TestAReplicasQuestionHidesThePlacement(t *testing.T) {
	sim := simDemo(t, "example-18-replicas")
	for _, q := range sim.Quiz() {
		if q.Kind == model.QuizReplicas {
			assert.Equal(t, []string{"t0"}, q.Hides.ReplicasOf)
			return
		}
	}
	t.Fatal("example 18 asks no replicas question")
}
