package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
)

func TestDomainWords(t *testing.T) {
	require.Equal(t, "Assigning", model.KAssigning.Title(), "ConsumerGroupState.toString")
	require.Equal(t, "PreparingRebalance", model.PreparingRebalance.Title())
	require.Equal(t, "JoinGroup", model.KindJoinGroupRequest.API())
	require.Equal(t, "ConsumerGroupHeartbeat", model.KindConsumerGroupHeartbeatResponse.API())
	require.True(t, model.KindJoinGroupRequest.IsRequest())
	require.False(t, model.KindJoinGroupResponse.IsRequest())
	require.Equal(t, "", model.KindMemberStarted.API())
	require.True(t, model.KindPartitionsLost.IsCallback())
	require.False(t, model.KindMemberCrashed.IsCallback())
	require.Equal(t, "onPartitionsRevoked", model.KindPartitionsRevoked.ListenerMethod())
}

// Every state a shipped demo's group passes through is in its protocol's
// state machine (the lab draws GroupStates and lights the current one).
func TestDemoStatesAreInTheStateMachine(t *testing.T) {
	for _, name := range demo.Names() {
		sim := simDemo(t, name)
		p := sim.View(0).Protocol
		for i := 0; i < sim.Len(); i++ {
			st := sim.Step(i).GroupState
			require.True(t, slices.Contains(model.GroupStates(p), st) || st == model.Dead || st == model.KDead,
				"%s step %d: %s is not a %s state", name, i, st, p)
		}
	}
}
