package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The searched indexes answer what walking the steps answers, on every
// step of a real run with quiet stretches.
func TestSimInfoIndexesMatchAWalk(t *testing.T) {
	a := demoApp(t, 120, 40)
	sim, info := a.sim, a.info
	walk := func(i, dir int) int {
		for j := i + dir; j >= 0 && j < sim.Len(); j += dir {
			if !sim.StepLine(j).Routine {
				return j
			}
		}
		return -1
	}
	lastChange := func(i int) int {
		for ; i > 0; i-- {
			if sim.StepLine(i).GroupState != sim.StepLine(i-1).GroupState {
				return i
			}
		}
		return -1
	}
	routine := 0
	for i := range sim.Len() {
		if sim.StepLine(i).Routine {
			routine++
		}
		assert.Equal(t, walk(i, +1), info.nextShown(i, +1), "next shown after %d", i)
		assert.Equal(t, walk(i, -1), info.nextShown(i, -1), "shown before %d", i)
		assert.Equal(t, lastChange(i), info.lastChange(i), "last change at or before %d", i)
	}
	assert.Greater(t, routine, 10, "the demo has quiet stretches to skip")
}
