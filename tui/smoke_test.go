package tui

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A real program: it draws, steps on a key press and quits on q. (The
// screens themselves are pinned by the goldens; this checks the wiring.)
func TestSmokeProgramStepsAndQuits(t *testing.T) {
	fakeErr = nil
	tm := teatest.NewTestModel(t, newApp(newFakeSim(fakeScenario())),
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii),
			tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Assignment")) },
		teatest.WithDuration(3*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	tm.Send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	// The renderer sends only changed cells, so wait for a phrase that is
	// new on screen rather than for "step 3/9".
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("assignment (range)")) },
		teatest.WithDuration(3*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final, ok := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(App)
	require.True(t, ok)
	assert.Equal(t, 2, final.Step())
}

// Autoplay in a real program advances on its own and stops at the end.
func TestSmokeAutoplayReachesTheEnd(t *testing.T) {
	fakeErr = nil
	a := newApp(newFakeSim(fakeScenario()))
	a.speed = len(speeds) - 1 // fastest: the fake has 9 steps
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	tm.Send(tea.KeyPressMsg{Code: 'p', Text: "p"})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("end of the timeline")) },
		teatest.WithDuration(5*time.Second))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(3*time.Second)).(App)
	assert.Equal(t, final.sim.Len()-1, final.Step())
	assert.False(t, final.Playing())
}
