package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/kafka"
)

// Every state a shipped demo's group passes through is in its protocol's
// state machine (the lab draws GroupStates and lights the current one).
func TestDemoStatesAreInTheStateMachine(t *testing.T) {
	for _, name := range demo.Names() {
		sim := simDemo(t, name)
		p := sim.View(0).Protocol
		for i := 0; i < sim.Len(); i++ {
			st := sim.Step(i).GroupState
			// A migration changes the group's kind: the lab draws the machine the state is in.
			require.True(t, slices.Contains(kafka.GroupStates(st.Machine(p)), st) || st == kafka.Dead || st == kafka.KDead,
				"%s step %d: %s is not a %s state", name, i, st, p)
		}
	}
}
