package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// Rounds are the JoinGroup/SyncGroup rounds: each begins with its join
// phase. A cooperative dance has two, and the second begins where the
// follow-up join phase does (after c1 revoked t0-1), not at the revocation.
func TestCooperativeRoundsStartAtTheirJoinPhase(t *testing.T) {
	sim := simDemo(t, "example-09-cooperative-join")
	rbs := sim.Rebalances()
	require.Len(t, rbs, 1)
	rounds := rbs[0].Rounds
	require.Len(t, rounds, 2)
	for k, r := range rounds {
		st := sim.Step(r.StartStep)
		assert.Equal(t, kafka.PreparingRebalance, st.GroupState, "round %d begins with a join phase: %s", k+1, st.Text)
		assert.Equal(t, int32(k+2), r.Generation)
	}
	revoked := -1
	for i := rounds[0].EndStep; i < rounds[1].StartStep; i++ {
		if sim.Step(i).Kind == kafka.KindPartitionsRevoked {
			revoked = i
		}
	}
	assert.Greater(t, revoked, rounds[0].EndStep, "the revocation that asks for round 2 comes between the rounds")
}

// A leader that dies between its JoinGroup answer and its SyncGroup leaves
// the generation it was given unfinished: when its session expires the
// coordinator begins another join phase, another round of the same
// rebalance.
func TestALeaderDyingDuringTheSyncStartsAnotherRound(t *testing.T) {
	sim := simDemo(t, "example-09-eager-join")
	leaderAnswer := -1
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.Kind == kafka.KindJoinGroupResponse && st.Member == st.Leader && st.TimeMs > 0 {
			leaderAnswer = i
			break
		}
	}
	require.GreaterOrEqual(t, leaderAnswer, 0)
	leader, at := sim.Step(leaderAnswer).Member, sim.Step(leaderAnswer).TimeMs+1
	crashed, err := sim.Insert(scenario.Event{AtMs: at, Kind: "crash", Member: leader})
	require.NoError(t, err)
	var rb *struct{ rounds, start int }
	for _, r := range crashed.Rebalances() {
		if r.StartMs <= at && at <= r.EndMs {
			rb = &struct{ rounds, start int }{len(r.Rounds), r.StartStep}
			require.GreaterOrEqual(t, len(r.Rounds), 2, "the join after the leader's session expired is a round of its own")
			second := crashed.Step(r.Rounds[1].StartStep)
			assert.Equal(t, kafka.PreparingRebalance, second.GroupState, second.Text)
			assert.Greater(t, second.TimeMs, at, "the second round begins after the crash")
			assert.Equal(t, r.Rounds[0].Generation, crashed.Step(r.Rounds[1].StartStep-1).Generation,
				"the first round ended at the generation the leader never synced")
		}
	}
	require.NotNil(t, rb, "the crash is inside a rebalance")
}
