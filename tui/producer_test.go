package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// producersApp opens the lab on demo:producers at w × h.
func producersApp(t testing.TB, w, h int) App {
	t.Helper()
	data, ok := demo.Get("producers")
	require.True(t, ok)
	sc, err := scenario.Parse("producers.yaml", data)
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	var m tea.Model = a
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m.(App)
}

// stepTo presses n until the view's time reaches ms.
func stepTo(t *testing.T, a App, ms int64) App {
	t.Helper()
	for a.view().TimeMs < ms && a.step < a.sim.Len()-1 {
		a, _ = drive(t, a, press("n"))
	}
	return a
}

// Goldens of the producer pane: during c4's eager rebalance (every
// partition unowned, lag growing) and at the end (the hot partition,
// re-reads after c2's crash, broker 1 down).
func TestGoldenProducerPane(t *testing.T) {
	for _, at := range []struct {
		name string
		ms   int64
	}{{"rebalancing", 21000}, {"end", 1 << 40}} {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s/%dx%d", at.name, size[0], size[1]), func(t *testing.T) {
				a := stepTo(t, producersApp(t, size[0], size[1]), at.ms)
				assertFits(t, a, size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(a.View().Content))
			})
		}
	}
}

func TestProducerPaneOpensAndTabCycles(t *testing.T) {
	a := producersApp(t, 160, 48)
	assert.Equal(t, paneFlow, a.focus, "a scenario with producers opens on them")
	seen := []pane{a.focus}
	for range paneCount {
		a, _ = drive(t, a, press("tab"))
		seen = append(seen, a.focus)
	}
	assert.Equal(t, []pane{paneFlow, paneGrid, paneProtocol, paneNumbers, paneFlow}, seen)
	a, _ = drive(t, a, press("tab"))
	assert.NotContains(t, screen(a), "Producers", "the grid pane hides the producer pane")
}

func TestNoProducerPaneWithoutProducers(t *testing.T) {
	a := fakeApp(t, 160, 48)
	assert.Equal(t, paneGrid, a.focus)
	for range 2 * paneCount {
		a, _ = drive(t, a, press("tab"))
		assert.NotEqual(t, paneFlow, a.focus, "tab must not reach an empty producer pane")
	}
	assert.NotContains(t, screen(a), "Producers")
}

// The pane shows what the model says: the hot key's partition marked, its
// owner, and the re-reads after the crash.
func TestProducerPaneShowsTheModel(t *testing.T) {
	a := stepTo(t, producersApp(t, 160, 48), 1<<40)
	f := a.view().Flow()
	require.NotNil(t, f)
	hot := -1
	for _, pv := range f.Producers {
		if pv.HotKey == "user-42" {
			hot = pv.HotPartition
		}
	}
	require.GreaterOrEqual(t, hot, 0, "the model names the hot key's partition")
	p, _ := f.Partition("orders", int32(hot))
	require.True(t, p.Hot)
	var row string
	for _, l := range strings.Split(screen(a), "\n") {
		if strings.Contains(l, fmt.Sprintf("▲p%d ", hot)) {
			row = l
		}
	}
	require.NotEmpty(t, row, "the hot partition is marked\n%s", screen(a))
	assert.Contains(t, row, p.Owner)
	assert.Contains(t, row, count(p.LogEnd))
	assert.Contains(t, screen(a), "✗ down", "broker 1 failed at 100 s")
}

// Every size from the smallest usable one up fits the terminal.
func TestProducerPaneFits(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {80, 24}, {100, 30}, {119, 40}, {120, 30}, {200, 60}} {
		a := stepTo(t, producersApp(t, size[0], size[1]), 50000)
		assertFits(t, a, size[0], size[1])
	}
}

func TestBar(t *testing.T) {
	assert.Equal(t, "    ", bar(0, 10, 4))
	assert.Equal(t, "████", bar(10, 10, 4))
	assert.Equal(t, "██  ", bar(5, 10, 4))
	assert.Equal(t, "▏   ", bar(0.001, 10, 4), "anything above zero shows")
	assert.Equal(t, "████", bar(50, 10, 4), "never longer than its width")
}

// BenchmarkProducerPaneFrame draws demo:producers' last step with the
// producer pane in focus.
func BenchmarkProducerPaneFrame(b *testing.B) {
	a := producersApp(b, 160, 48)
	var m tea.Model = a
	m, _ = m.Update(press("G"))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkProducerStep is one n press on demo:producers, frame included:
// the data path is already computed, so stepping stays instant.
func BenchmarkProducerStep(b *testing.B) {
	a := producersApp(b, 160, 48)
	var m tea.Model = a
	for b.Loop() {
		if m.(App).step == a.sim.Len()-1 {
			m = a
		}
		m, _ = m.Update(press("n"))
		_ = m.View()
	}
}

// BenchmarkProducerKeystrokeInsertsEvent is x (crash) on demo:producers:
// the group and its data path are simulated again.
func BenchmarkProducerKeystrokeInsertsEvent(b *testing.B) {
	a := realDrive(producersApp(b, 160, 48), press("]"), press("]"))
	for b.Loop() {
		_ = realDrive(a, press("x")).View()
	}
}
