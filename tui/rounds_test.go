package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func namedDemoApp(t *testing.T, name string, w, h int) App {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok, name)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	var m tea.Model = NewFromSim(sim)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m.(App)
}

// ] stops at the start of both JoinGroup rounds of example 9's cooperative
// dance (the second is where c3 finally gets t0-1), then says there is no
// later one; [ walks back through both; a status a key left behind goes
// with the next key that worked.
func TestRoundKeysStopAtEveryRound(t *testing.T) {
	a := namedDemoApp(t, "example-09-cooperative-join", 120, 40)
	var stops []int
	for range 3 {
		before := a.Step()
		a = realDrive(a, press("]"))
		if a.Step() != before {
			stops = append(stops, a.Step())
			assert.NotContains(t, a.status, "no later rebalance")
		}
	}
	require.Len(t, stops, 2, "two rounds")
	for _, s := range stops {
		assert.Equal(t, kafka.PreparingRebalance, a.sim.StepLine(s).GroupState, "a round begins with its join phase")
	}
	assert.Contains(t, a.status, "no later rebalance")
	a = realDrive(a, press("G"), press("["))
	assert.Equal(t, stops[1], a.Step())
	assert.NotContains(t, a.status, "no later rebalance", "the old status went with a key that worked")
	a = realDrive(a, press("["))
	assert.Equal(t, stops[0], a.Step())
}
