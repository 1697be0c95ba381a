package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// fileSim is a trainer's own file: a shipped demo under another title.
func fileSim(t *testing.T, path, from, title string) *model.Sim {
	t.Helper()
	data, ok := demo.Get(from)
	require.True(t, ok)
	text := strings.Replace(string(data), "title:", "title: "+title+" #", 1)
	sc, err := scenario.Parse(path, []byte(text))
	require.NoError(t, err)
	require.Equal(t, title, strings.TrimSpace(strings.SplitN(sc.Title, "#", 2)[0]))
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	return sim
}

// Issue 19 item 14: every file the lab was started with is in the picker,
// first, beside the shipped demos, and the lab goes back to it.
func TestTheFilesGivenAreInThePicker(t *testing.T) {
	mine := fileSim(t, "talks/room-one.yaml", "example-09-cooperative-join", "Zebra dance")
	other := fileSim(t, "talks/room-two.yaml", "example-11-failover", "Quokka failover")
	for _, size := range presenterSizes {
		var m tea.Model = NewFromSim(mine).WithFiles(mine, other)
		m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		a := realDrive(m.(App), press("o"))
		require.Equal(t, modePicker, a.mode)
		out := screen(a)
		assert.Contains(t, out, "Zebra dance")
		assert.Contains(t, out, "file talks/room-one.yaml")
		assert.Less(t, strings.Index(out, "Quokka failover"), strings.Index(out, "demo:"), "the files come first")
		path, ok := a.picker.selectedFile()
		require.True(t, ok)
		assert.Equal(t, "talks/room-one.yaml", path, "the file on screen is selected")

		a = realDrive(a, typeText("11")...)
		a = realDrive(a, press("enter"))
		assert.Equal(t, "example-11-failover", a.Scenario().Name, "a demo by its number, the files beside it")

		a = realDrive(a, press("o"))
		a = realDrive(a, typeText("quokka")...)
		a = realDrive(a, press("enter"))
		assert.Equal(t, modeLab, a.mode)
		require.Equal(t, modelSim{other}, a.sim, "back on the file's own simulation")
		assert.Contains(t, screen(a), "opened room-two.yaml")
		assert.Equal(t, 0, a.Step())

		a = realDrive(a, press("o"), press("enter"))
		assert.Equal(t, modelSim{other}, a.sim, "enter on the selected file: the file on screen")
		a = realDrive(a, press("o"))
		a = realDrive(a, typeText("zebra")...)
		a = realDrive(a, press("enter"))
		assert.Equal(t, modelSim{mine}, a.sim)
		assertFits(t, a, size[0], size[1])
	}
}
