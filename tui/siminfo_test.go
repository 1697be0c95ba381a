package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model/kafka"
)

// The searched indexes answer what walking the steps answers, on every
// step of a real run with quiet stretches.
func TestSimInfoIndexesMatchAWalk(t *testing.T) {
	t.Run("lab", func(t *testing.T) { checkSimInfoIndexes(t, demoApp(t, 120, 40)) })
	t.Run("quiet stretches", func(t *testing.T) {
		if testing.Short() {
			t.Skip("simulates a 200-member group")
		}
		checkSimInfoIndexes(t, bigGroupApp(t, "range-long", 120, 40))
	})
}

func checkSimInfoIndexes(t *testing.T, a App) {
	sim, info := a.sim, a.info
	walk := func(i, dir int) int {
		for j := i + dir; j >= 0 && j < sim.Len(); j += dir {
			if !sim.StepLine(j).Routine {
				return j
			}
		}
		return -1
	}
	prevMessage := func(i int) int {
		for j := i - 1; j >= 0; j-- {
			if s := sim.StepLine(j); !s.Routine || s.Kind == kafka.KindQuietStretch {
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
	routine, quiet := 0, 0
	for i := range sim.Len() {
		if s := sim.StepLine(i); s.Routine {
			routine++
			if s.Kind == kafka.KindQuietStretch {
				quiet++
			}
		}
		if s := sim.StepLine(min(i+1, sim.Len()-1)); i%max(sim.Len()/400, 1) != 0 && s.Kind != kafka.KindQuietStretch {
			continue // a long run: every 400th step, and those around a quiet stretch
		}
		assert.Equal(t, walk(i, +1), info.nextShown(i, +1), "next shown after %d", i)
		assert.Equal(t, walk(i, -1), info.nextShown(i, -1), "shown before %d", i)
		assert.Equal(t, lastChange(i), info.lastChange(i), "last change at or before %d", i)
		assert.Equal(t, prevMessage(i), info.prevMessage(i), "message before %d", i)
	}
	assert.Greater(t, routine, 10, "the run has routine steps to skip")
	if sim.Len() > 10000 {
		assert.Positive(t, quiet, "the long run has a jumped quiet stretch")
	}
}
