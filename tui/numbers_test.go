package tui

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The numbers pane lists one row per rebalance, each with its own
// generation, and the model's outages below: c2 dead until its session
// expires, c3 restarting without a rebalance.
func TestNumbersPaneShowsOutages(t *testing.T) {
	a := demoApp(t, 120, 60)
	a, _ = drive(t, a, keys("G", "tab", "tab")...)
	got := screen(a)
	src, ok := a.sim.(modelSim)
	require.True(t, ok, "the demo app runs on the real model")
	list := src.Outages()
	require.NotEmpty(t, list)
	for _, o := range list {
		assert.Contains(t, got, formatSpan(o.StartMs, o.EndMs), "outage %+v is listed", o)
	}
	gens := map[int32]bool{}
	for _, r := range a.info.rebalances {
		assert.False(t, gens[r.Generation], "generation %d appears twice", r.Generation)
		gens[r.Generation] = true
		assert.Contains(t, got, fmt.Sprintf(" %-4d %-15s", r.Generation, formatSpan(r.StartMs, r.EndMs)))
	}
}
