package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// A commit with an older generation is rejected with ILLEGAL_GENERATION,
// and the Java consumer then (ConsumerCoordinator's
// OffsetCommitResponseHandler, 4.x) raises CommitFailedException, resets
// its generation keeping its member id (resetStateOnResponseError with
// shouldResetMemberId false) and rejoins (requestRejoin): whatever
// generation the commit carried, unless it is already rejoining.
func TestIllegalGenerationCommitRejoins(t *testing.T) {
	sim := simDemo(t, "example-13-states")
	at := firstAt(sim, 70000)
	var resp = -1
	for i := at; i < sim.Len(); i++ {
		if st := sim.StepLine(i); st.Kind == kafka.KindOffsetCommitResponse && st.Member == "c1" {
			resp = i
			break
		}
	}
	require.GreaterOrEqual(t, resp, 0, "the stale commit is answered")
	st := sim.StepLine(resp)
	assert.Equal(t, "ILLEGAL_GENERATION", st.Error)
	assert.Contains(t, st.Text, "CommitFailedException")
	assert.Contains(t, st.Text, "keeping its member id")
	gen := st.Generation

	lost, rejoined := false, false
	var memberID string
	for _, m := range sim.View(resp - 1).Members {
		if m.ID == "c1" {
			memberID = m.MemberID
		}
	}
	for i := resp + 1; i < sim.Len(); i++ {
		s := sim.StepLine(i)
		if s.Member != "c1" {
			continue
		}
		lost = lost || s.Kind == kafka.KindPartitionsLost
		if s.Kind == kafka.KindJoinGroupRequest {
			rejoined = true
			assert.True(t, lost, "onPartitionsLost before the JoinGroup: the generation was reset")
			break
		}
	}
	assert.True(t, rejoined, "c1 rejoins after ILLEGAL_GENERATION")
	end := sim.StepLine(sim.Len() - 1)
	assert.Equal(t, gen+1, end.Generation, "the rejoin makes a new generation")
	for _, m := range sim.View(sim.Len() - 1).Members {
		if m.ID == "c1" {
			assert.Equal(t, memberID, m.MemberID, "ILLEGAL_GENERATION keeps the member id")
		}
	}
}

// A member already rejoining (PREPARING_REBALANCE) whose commit carried
// an older generation than its own only gets RebalanceInProgressException:
// OffsetCommitResponseHandler resets nothing when the generation changed
// since the commit was sent and a rebalance is under way.
func TestIllegalGenerationWhileRejoining(t *testing.T) {
	sim := simYAML(t, "rip.yaml", `seed: 13
topics: {t0: 6}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 29000, stall: {id: c2, ms: 10000}}
  - {at_ms: 30000, join: {id: c3}}
  - {at_ms: 32100, commit: {id: c1, generation: 0}}
`)
	resp := steps(sim, kafka.KindOffsetCommitResponse, "c1")
	require.Len(t, resp, 1)
	assert.Equal(t, "ILLEGAL_GENERATION", resp[0].Error)
	assert.Contains(t, resp[0].Text, "RebalanceInProgressException")
	assert.Empty(t, steps(sim, kafka.KindPartitionsLost, "c1"), "nothing is reset")
	assert.Equal(t, int32(2), last(sim).Generation, "the rebalance under way completes, no other")
}
