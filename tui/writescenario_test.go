package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
)

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// Issue 19 item 15: W writes the scenario with the events added by keys
// (the file reads back to the same timeline), never over an existing
// file; q after unsaved events asks once, and not after W.
func TestWriteScenarioAndQuit(t *testing.T) {
	t.Chdir(t.TempDir())
	a := demoApp(t, 120, 40)
	_, cmd := a.Update(press("q"))
	assert.True(t, isQuit(cmd), "nothing added: q quits")

	a = realDrive(a, press("]"), press("]"), press("x")) // a crash added with a key
	require.Greater(t, len(a.Scenario().Timeline), a.savedEvents)
	m, cmd := a.Update(press("q"))
	assert.False(t, isQuit(cmd), "the first q asks")
	assert.Contains(t, screen(m.(App)), "1 event added here not written: W writes the scenario, q again quits")
	_, cmd = m.Update(press("q"))
	assert.True(t, isQuit(cmd), "q again quits")

	a = realDrive(a, press("W"))
	require.NotNil(t, a.prompt)
	name := a.prompt.input.Value()
	a = realDrive(a, press("enter"))
	require.Nil(t, a.prompt, screen(a))
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	back, err := scenario.Parse(name, data)
	require.NoError(t, err)
	want, err := scenario.Format(a.Scenario())
	require.NoError(t, err)
	got, err := scenario.Format(back)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the written file is the scenario with the events added with keys")
	assert.Len(t, back.Timeline, a.savedEvents)
	assert.Contains(t, screen(a), "wrote "+name)
	_, cmd = a.Update(press("q"))
	assert.True(t, isQuit(cmd), "written: q quits at once")

	// the same name again is refused and the file kept
	a = realDrive(a, press("W"))
	assert.NotEqual(t, name, a.prompt.input.Value(), "the default is a free name")
	a.prompt.input.SetValue(name)
	a = realDrive(a, press("enter"))
	require.NotNil(t, a.prompt, "an existing file: the prompt stays")
	assert.Contains(t, screen(a), name+" exists: choose another name")
	again, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, data, again)
}

// Issue 19 item 16: v twice at one step keeps the first frame's files,
// and the file names count steps as the header and kviz export --step do.
func TestSaveFrameNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := realDrive(demoApp(t, 120, 40), press("]"))
	save := func(a App) App {
		m, cmd := a.Update(press("v"))
		require.NotNil(t, cmd)
		m, _ = m.Update(cmd())
		return m.(App)
	}
	a = save(a)
	first := filepath.Join(dir, "kviz-"+fileSlug(filepath.Base(a.Scenario().File[:len(a.Scenario().File)-len(filepath.Ext(a.Scenario().File))]))+"-step"+itoaStep(a.Step())+".svg")
	before, err := os.ReadFile(first)
	require.NoError(t, err, screen(a))
	assert.Regexp(t, `step +`+itoaStep(a.Step())+`/`, screen(a), "the header counts as the file name does")
	a = save(a)
	assert.Contains(t, screen(a), "kept the earlier")
	after, err := os.ReadFile(first)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	matches, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	assert.Len(t, matches, 2)
}

func itoaStep(i int) string { return fmt.Sprint(i) }
