package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// lab: {pane: P} opens the lab with that pane in focus; example 14 opens
// with the broker map on screen at 120×40.
func TestScenarioNamesItsPane(t *testing.T) {
	data, ok := demo.Get("example-14-coordinator")
	require.True(t, ok)
	sc, err := scenario.Parse("example-14-coordinator.yaml", data)
	require.NoError(t, err)
	require.Equal(t, scenario.PaneBrokers, sc.Pane)
	a, err := New(sc)
	require.NoError(t, err)
	assert.Equal(t, paneFlow, a.focus)
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 120, Height: 40})
	assert.Contains(t, screen(a), "Brokers · replicas, leader first")

	sc.Pane = scenario.PaneNumbers
	a, err = New(sc)
	require.NoError(t, err)
	assert.Equal(t, paneNumbers, a.focus, "a named pane wins over the producer pane")
}
