package tui

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/kvizlab/kviz/model"
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
		assert.Contains(t, got, model.FormatSpan(o.StartMs, o.EndMs), "outage %+v is listed", o)
	}
	gens := map[int32]bool{}
	for _, r := range a.info.rebalances {
		assert.False(t, gens[r.Generation], "generation %d appears twice", r.Generation)
		gens[r.Generation] = true
		assert.Regexp(t, regexp.MustCompile(fmt.Sprintf(` %d +%s `, r.Generation, regexp.QuoteMeta(model.FormatSpan(r.StartMs, r.EndMs)))), got)
	}
}

// A narrow numbers pane drops whole columns, least needed first: at 120
// columns the pane is 44 wide and keeps "moved" and "worst gap" entire.
func TestNumbersPaneDropsColumnsWhole(t *testing.T) {
	a := demoApp(t, 120, 40)
	a, _ = drive(t, a, keys("G")...)
	lines := a.numbersPane().Render(44, 20)
	head := ansi.Strip(lines[1])
	assert.Contains(t, head, "moved")
	assert.Contains(t, head, "worst gap")
	assert.NotContains(t, head, "Σ gap", "the sum goes first")
	wide := ansi.Strip(a.numbersPane().Render(100, 20)[1])
	for _, h := range []string{"#", "gen", "when", "min–max", "moved", "worst gap", "Σ gap"} {
		assert.Contains(t, wide, h, "a wide pane shows every column")
	}
	for _, l := range lines {
		assert.LessOrEqual(t, textWidth(l), 44)
	}
}
