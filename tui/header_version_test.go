package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// group.kafka_version shows in the header, before the coordinator when
// the terminal is narrow; without it the header says nothing of versions.
func TestHeaderShowsTheScenariosKafkaVersion(t *testing.T) {
	app := func(version string, w int) string {
		sc, err := scenario.Parse("v.yaml", []byte("topics: {t0: 2}\ngroup: {id: g, "+version+"strategy: uniform, protocol: consumer}\nmembers:\n  - {id: c1, topics: [t0]}\n"))
		require.NoError(t, err)
		sim, err := model.Simulate(sc)
		require.NoError(t, err)
		var m tea.Model = NewFromSim(sim)
		m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		return ansi.Strip(strings.Join(m.(App).headerLines(), "\n"))
	}
	for _, w := range []int{80, 120} {
		assert.Contains(t, app(`kafka_version: "4.0", `, w), "kafka 4.0.0", w)
		assert.NotContains(t, app("", w), "kafka ", w)
	}
}
