package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
)

func typeText(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		if r == ' ' {
			out = append(out, press("space"))
			continue
		}
		out = append(out, press(string(r)))
	}
	return out
}

func TestPickerOpensADemoInPlace(t *testing.T) {
	for _, size := range presenterSizes {
		a := demoApp(t, size[0], size[1])
		a = realDrive(a, keys("G")...)
		a = realDrive(a, press("o"))
		require.Equal(t, modePicker, a.mode)
		assert.Contains(t, screen(a), "Open a demo")
		assert.Contains(t, screen(a), "demo:lab", "the list shows the demos' names")

		a = realDrive(a, typeText("fail")...)
		out := screen(a)
		assert.Contains(t, out, "Example 11")
		assert.NotContains(t, out, "Example 9:", "typing filters")
		assertFits(t, a, size[0], size[1])

		a = realDrive(a, press("enter"))
		assert.Equal(t, modeLab, a.mode)
		assert.Equal(t, "example-11-failover", a.Scenario().Name)
		assert.Equal(t, 0, a.Step(), "a new simulation, from its first step")
		a = realDrive(a, press("n"))
		assert.Equal(t, "a", a.Selected(), "the new demo's first member is selected")
		assert.Contains(t, screen(a), "opened demo:example-11-failover")
	}
}

// In the picker every typed key is text: q filters, it does not quit;
// ctrl+c still quits, and esc goes back to the scenario as it was.
func TestPickerKeysAreText(t *testing.T) {
	a := demoApp(t, 80, 24)
	a = realDrive(a, keys("n", "n")...)
	before := a.sim
	var m tea.Model = realDrive(a, press("o"))
	m, _ = m.Update(press("q"))
	a = m.(App)
	assert.Equal(t, modePicker, a.mode, "q types into the filter")
	assert.Equal(t, "q", a.picker.input.Value())
	a = realDrive(a, press("esc"))
	assert.Equal(t, modeLab, a.mode)
	assert.True(t, before == a.sim, "esc leaves the scenario alone")
	assert.Equal(t, 2, a.Step())

	m = realDrive(a, press("o"))
	_, cmd := m.Update(press("ctrl+c"))
	require.NotNil(t, cmd)
	assert.IsType(t, tea.QuitMsg{}, cmd())
}

// o, the example's number, enter: the lab opens that example (not example
// 1 for "2" because its title names C2), in three keystrokes (four from 10).
func TestPickerOpensTheTypedExample(t *testing.T) {
	for n := 1; n <= 19; n++ {
		a := demoApp(t, 120, 40)
		a = realDrive(a, press("o"))
		a = realDrive(a, typeText(fmt.Sprint(n))...)
		a = realDrive(a, press("enter"))
		require.Equal(t, modeLab, a.mode, "example %d", n)
		assert.Contains(t, demo.ExampleDemos(n), a.sim.Scenario().Name, "o %d enter", n)
	}
}

// A typed word is highlighted where the row's text has it.
func TestPickerHighlightsTheTypedWords(t *testing.T) {
	entries, err := demo.Demos()
	require.NoError(t, err)
	targets := make([]string, len(entries))
	for i, e := range entries {
		targets[i] = demoItem{e: e}.FilterValue()
	}
	got := rankedFilter(entries)("failover", targets)
	require.NotEmpty(t, got)
	assert.Equal(t, "example-11-failover", entries[got[0].entry].Name)
	title := strings.ToLower(entries[got[0].entry].Title)
	from := strings.Index(title, "failover")
	if from >= 0 {
		assert.Equal(t, from, got[0].matched[0], "the match is highlighted in the title")
	}
	assert.Len(t, got[0].matched, len("failover"))
}

func TestPickerListsEveryDemoWithTags(t *testing.T) {
	a := demoApp(t, 120, 60)
	a = realDrive(a, press("o"))
	a = realDrive(a, typeText("producers")...)
	out := screen(a)
	assert.Contains(t, out, "demo:producers")
	assert.True(t, strings.Contains(out, "producers ·") || strings.Contains(out, "· producers"), "tags are shown")
}

// Under the list, the notes of the demo under the cursor say what to watch.
func TestPickerShowsTheNotesOfTheSelectedDemo(t *testing.T) {
	a := demoApp(t, 120, 40)
	a = realDrive(a, press("o"))
	a = realDrive(a, typeText("failover")...)
	entries, err := demo.Demos()
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name == "example-11-failover" {
			assert.Contains(t, screen(a), firstWords(e.Notes, 5))
		}
	}
	a = realDrive(a, typeText("zzz")...)
	assert.Contains(t, screen(a), "no demo matches")
	a = realDrive(a, press("enter"))
	assert.Equal(t, modePicker, a.mode, "enter on no match stays")
}

// A demo that asks for compare (example 7: sticky against round robin)
// opens from the picker with compare ready.
func TestPickerOpensCompareWhenTheDemoAsks(t *testing.T) {
	a := demoApp(t, 120, 40)
	a = realDrive(a, press("o"))
	a = realDrive(a, typeText("example-07-sticky")...)
	var m tea.Model = a
	m, cmd := m.Update(press("enter"))
	a = m.(App)
	assert.Equal(t, "example-07-sticky-leave", a.Scenario().Name)
	assert.Equal(t, modeCompare, a.mode)
	require.NotNil(t, cmd, "the comparison runs as a command")
	m = deliver(m, cmd)
	assert.Contains(t, screen(m.(App)), "Compare strategies")
}
