package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFollowerTakesTheTrainersStateUntilF(t *testing.T) {
	trainer := fakeApp(t, 100, 30).Trainer(nil)
	follower := fakeApp(t, 100, 30).Follower()
	assert.True(t, follower.Following())
	assert.Contains(t, ansi.Strip(follower.View().Content), "◉ following the trainer")

	trainer, _ = drive(t, trainer, keys("n", "n", "a")...) // a step, and an event of the trainer's
	follower, _ = drive(t, follower, trainer.RoomState())
	assert.Equal(t, trainer.Step(), follower.Step())
	assert.Same(t, trainer.Scenario(), follower.Scenario(), "the same simulation, shared")

	follower, _ = drive(t, follower, keys("n", "x")...)
	assert.Equal(t, trainer.Step(), follower.Step(), "stepping keys wait for the trainer")
	assert.Same(t, trainer.Scenario(), follower.Scenario(), "and so do events")
	assert.Contains(t, ansi.Strip(follower.View().Content), "the trainer drives")

	follower, _ = drive(t, follower, press("f"))
	assert.False(t, follower.Following())
	follower, _ = drive(t, follower, press("n"))
	assert.Equal(t, trainer.Step()+1, follower.Step(), "on its own the lab steps")
	trainer, _ = drive(t, trainer, keys("n", "n", "n")...)
	follower, _ = drive(t, follower, trainer.RoomState())
	assert.NotEqual(t, trainer.Step(), follower.Step(), "a lab on its own ignores the trainer")
	assert.Contains(t, ansi.Strip(follower.View().Content), "on your own")

	follower, _ = drive(t, follower, press("f"))
	assert.True(t, follower.Following())
	assert.Equal(t, trainer.Step(), follower.Step(), "f rejoins at the trainer's latest step")
}

func TestFollowerLeavesATableOfAReplacedSimulation(t *testing.T) {
	trainer := fakeApp(t, 100, 30).Trainer(nil)
	follower, _ := drive(t, fakeApp(t, 100, 30).Follower(), press("c"))
	require.Contains(t, screen(follower), "Compare strategies")
	trainer, _ = drive(t, trainer, press("a"))
	follower, _ = drive(t, follower, trainer.RoomState())
	assert.NotContains(t, screen(follower), "Compare strategies")
	assert.Contains(t, screen(follower), "Assignment")
}

func TestTrainerResumesTheRoomsState(t *testing.T) {
	before, _ := drive(t, fakeApp(t, 100, 30), keys("n", "n", "n")...)
	st := before.RoomState()
	back := fakeApp(t, 100, 30).Trainer(&st)
	assert.Equal(t, before.Step(), back.Step())
	back, _ = drive(t, back, RoomCount{Following: 3, Attendees: 4})
	assert.Contains(t, ansi.Strip(back.View().Content), "★ trainer · 3 of 4 following")
}

func TestFollowKeyOnlyInARoom(t *testing.T) {
	a := fakeApp(t, 100, 30)
	a, _ = drive(t, a, press("f"))
	assert.False(t, a.Following())
	assert.NotContains(t, ansi.Strip(a.View().Content), "following")
}

func TestVSavesTheFrameAsSVGAndText(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	require.NoError(t, os.Chdir(dir))
	t.Cleanup(func() { _ = os.Chdir(wd) })
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n")...)
	want := ansi.Strip(a.View().Content)
	m, cmd := a.Update(press("v"))
	require.NotNil(t, cmd)
	m, _ = m.Update(cmd()) // the write, as the program runs it
	a = m.(App)
	svg, err := filepath.Glob(filepath.Join(dir, "kviz-*-step2.svg"))
	require.NoError(t, err)
	require.Len(t, svg, 1)
	txt, err := os.ReadFile(svg[0][:len(svg[0])-len(".svg")] + ".txt")
	require.NoError(t, err)
	assert.Contains(t, string(txt), firstLine(want))
	assert.Contains(t, ansi.Strip(a.View().Content), "saved "+svg[0])

	remote := fakeApp(t, 80, 24).OverSSH()
	_, cmd = remote.Update(press("v"))
	assert.Nil(t, cmd, "over SSH v writes nothing")
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

var _ tea.Msg = RoomCount{}
