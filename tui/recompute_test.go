package tui

import (
	"context"
	"errors"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
)

// A recomputing key answers at once: the simulation on screen stays until
// the new one is back, navigation keeps working on it, and the header says
// a simulation is under way.
func TestRecomputeKeysAnswerAtOnce(t *testing.T) {
	for _, k := range []string{"s", "x", "d", "r"} { // e: the lab's range runs eager only
		t.Run(k, func(t *testing.T) {
			a := realDrive(demoApp(t, 120, 40), press("]"), press("]"))
			before, step := a.sim, a.Step()
			m, cmd := a.Update(press(k))
			require.NotNil(t, cmd, "the simulation runs as a command")
			a = m.(App)
			assert.True(t, a.sim == before, "the screen keeps the simulation it had")
			assert.Contains(t, screen(a), "simulating…", "the header shows the indicator")

			a = realDrive(a, press("n"))
			assert.Greater(t, a.Step(), step, "n still steps, on the simulation on screen")
			assert.True(t, a.sim == before)
			a = realDrive(a, press("b"))

			a = deliver(a, cmd).(App)
			assert.False(t, a.sim == before, "the result goes on screen")
			assert.NotContains(t, screen(a), "simulating…", "the indicator goes with it")
		})
	}
}

// s pressed twice goes two strategies on; the first result, arriving late
// or early, is never shown.
func TestNewerRecomputeSupersedes(t *testing.T) {
	for _, order := range []string{"first result first", "last result first"} {
		t.Run(order, func(t *testing.T) {
			a := demoApp(t, 120, 40)
			start := a.Scenario().Strategy
			m, first := a.Update(press("s"))
			once := m.(App).job.strategy
			m, last := m.Update(press("s"))
			twice := m.(App).job.strategy
			require.NotEqual(t, once, twice)
			require.NotEqual(t, start, twice)
			firstDone, lastDone := runJob(t, first), runJob(t, last)
			if order == "first result first" {
				m, _ = m.Update(firstDone)
				assert.Equal(t, start, m.(App).Scenario().Strategy, "the superseded result is dropped")
				m, _ = m.Update(lastDone)
			} else {
				m, _ = m.Update(lastDone)
				m, _ = m.Update(firstDone)
			}
			assert.Equal(t, twice, m.(App).Scenario().Strategy, "the last key wins")
			assert.Contains(t, m.(App).status, "re-simulated with "+twice)
		})
	}
}

// A key pressed while a switch is still simulated acts on what the switch
// brings: x after e crashes the member under the new protocol, and the
// cursor stays at the moment of the crash.
func TestRecomputeBuildsOnTheOneRunning(t *testing.T) {
	a := realDrive(demoApp(t, 120, 40), press("]"), press("]"), press("]"))
	m, sw := a.Update(press("s")) // range → roundrobin: the steps before the crash differ too
	strategy := m.(App).job.strategy
	m, crash := m.Update(press("x"))
	swDone := runJob(t, sw) // the crash waits for it
	crashDone := runJob(t, crash)
	m, _ = m.Update(swDone)
	assert.True(t, m.(App).busy(), "the switch alone is not shown: the crash builds on it")
	m, _ = m.Update(crashDone)
	sc := m.(App).Scenario()
	assert.Equal(t, strategy, sc.Strategy)
	require.NotEmpty(t, sc.Timeline)
	assert.Contains(t, m.(App).status, "crashes at")
	last := sc.Timeline[len(sc.Timeline)-1]
	crashed := false
	for _, ev := range sc.Timeline {
		crashed = crashed || (ev.Kind == "crash" && ev.Member == a.Selected() && ev.AtMs == a.view().TimeMs+1)
	}
	assert.True(t, crashed, "the crash is on the new strategy's timeline: %+v", last)
	assert.False(t, m.(App).busy())
	after := m.(App)
	now := a.view().TimeMs
	assert.LessOrEqual(t, after.view().TimeMs, now, "the cursor stays at the moment of the crash")
	assert.Greater(t, after.sim.StepLine(after.Step()+1).TimeMs, now, "the next step is the crash or later")
}

// A refusal from the background is the status line, as before.
func TestRecomputeErrorIsTheStatusLine(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n")...)
	fakeErr = errors.New("the model refuses")
	defer func() { fakeErr = nil }()
	before := a.sim
	a, _ = drive(t, a, press("x"))
	assert.True(t, a.sim == before)
	assert.True(t, a.statusBad)
	assert.Contains(t, screen(a), "» the model refuses")
	assert.False(t, a.busy())
}

// A prompt waits for its answer to be simulated: it closes once the event
// is in, and keeps the model's refusal to fix the answer.
func TestPromptWaitsForItsAnswer(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "t", "enter")...)
	m, cmd := a.Update(press("enter"))
	require.NotNil(t, m.(App).prompt, "the prompt stays while its answer is simulated")
	assert.Contains(t, screen(m.(App)), "simulating the answer")
	m, _ = m.Update(press("enter"))
	assert.True(t, m.(App).waitingFor(m.(App).prompt), "enter again does not insert twice")
	a = deliver(m, cmd).(App)
	assert.Nil(t, a.prompt)
	require.Len(t, a.Scenario().Timeline, 1)

	fakeErr = errors.New("no such partitions")
	defer func() { fakeErr = nil }()
	a, _ = drive(t, a, keys("t", "enter", "enter")...)
	require.NotNil(t, a.prompt, "a refusal keeps the prompt open")
	assert.Contains(t, screen(a), "no such partitions")

	m, cmd = a.Update(press("enter"))
	m, _ = m.Update(press("esc"))
	a = deliver(m, cmd).(App)
	assert.Nil(t, a.prompt)
	assert.Len(t, a.Scenario().Timeline, 1, "esc while simulating: the answer is dropped")
}

// Compare mode compares the simulation on screen: a key that replaces it
// compares again, and c pressed while a switch runs waits for it.
func TestCompareFollowsANewSimulation(t *testing.T) {
	a := fakeApp(t, 100, 30)
	a, _ = drive(t, a, keys("n", "n", "n", "c")...)
	require.NotNil(t, a.compare)
	a, _ = drive(t, a, press("x"))
	assert.Equal(t, modeCompare, a.mode)
	require.NotNil(t, a.compare, "compared again on the new simulation")

	a, _ = drive(t, a, press("c")) // close
	m, sw := a.Update(press("s"))
	m, cmp := m.Update(press("c"))
	assert.Nil(t, cmp, "nothing to compare until the switch is back")
	assert.Contains(t, screen(m.(App)), "simulating the scenario under each assignor")
	a = deliver(m, sw).(App)
	require.NotNil(t, a.compare)
	assert.Equal(t, a.Scenario().Strategy, a.compare.Rows[a.compare.Cursor].Strategy, "the new strategy's row is selected")
}

// The indicator turns only while something is being computed.
func TestSpinnerTurnsOnlyWhileBusy(t *testing.T) {
	a := fakeApp(t, 80, 24)
	m, cmd := a.Update(press("s"))
	var tick *spinner.TickMsg
	var done tea.Msg
	for _, msg := range results(cmd) {
		switch msg := msg.(type) {
		case spinner.TickMsg:
			tick = &msg
		case jobDoneMsg:
			done = msg
		}
	}
	require.NotNil(t, tick, "starting a job starts the spinner")
	_, next := m.Update(*tick)
	assert.NotNil(t, next, "busy: the spinner asks for its next frame")
	m, _ = m.Update(done)
	_, next = m.Update(*tick)
	assert.Nil(t, next, "idle: the spinner stops")
}

// The program runs commands on their own goroutines: navigation and frames
// go on while a switch, a crash, compare and what-if run (go test -race
// checks they share nothing unguarded).
func TestNavigationWhileSimulating(t *testing.T) {
	a := realDrive(demoApp(t, 120, 40), press("]"), press("]"))
	var m tea.Model = a
	var cmds []tea.Cmd
	for _, k := range []string{"s", "x", "c", "w"} {
		var cmd tea.Cmd
		m, cmd = m.Update(press(k))
		cmds = append(cmds, cmd)
		if k == "c" {
			m, _ = m.Update(press("c")) // close: w opens from the lab
		}
	}
	out := make(chan []tea.Msg, len(cmds))
	for _, cmd := range cmds {
		go func() { out <- results(cmd) }()
	}
	for i := 0; i < 60; i++ {
		m, _ = m.Update(press([]string{"n", "b", "]", "G", "g", "down"}[i%6]))
		_ = m.View()
	}
	for range cmds {
		for _, msg := range <-out {
			m, _ = m.Update(msg)
			_ = m.View()
		}
	}
	assert.NotContains(t, screen(m.(App)), "internal error")
}

// Work a newer key made useless before it started is skipped: three s in a
// row simulate once, the last one.
func TestSupersededWorkIsSkipped(t *testing.T) {
	a := fakeApp(t, 80, 24)
	runs := 0
	a.simulate = func(ctx context.Context, sc *scenario.Scenario) (simulation, error) {
		runs++
		return simulateFake(ctx, sc)
	}
	var m tea.Model = a
	var cmds []tea.Cmd
	for range 3 {
		var cmd tea.Cmd
		m, cmd = m.Update(press("s"))
		cmds = append(cmds, cmd)
	}
	want := m.(App).job.strategy
	for _, cmd := range cmds {
		m = deliver(m, cmd)
	}
	assert.Equal(t, 1, runs, "the two superseded switches never ran")
	assert.Equal(t, want, m.(App).Scenario().Strategy)
}

// Compare or a what-if opened while a recompute runs shows the result of
// it, or the simulation that stays when it fails.
func TestPanelsOpenedDuringARecompute(t *testing.T) {
	a := fakeApp(t, 100, 30)
	a, _ = drive(t, a, keys("n", "n", "n")...)
	m, sw := a.Update(press("s"))
	m, _ = m.Update(press("j"))
	m, wi := m.Update(press("w"))
	assert.Nil(t, wi, "the preview waits for the switch")
	assert.Contains(t, screen(m.(App)), "forking the timeline")
	a = deliver(m, sw).(App)
	require.NotNil(t, a.whatIf)
	assert.Len(t, a.whatIf.Outcomes, 2, "forecast on the new simulation")
	assert.Equal(t, a.Scenario().Strategy, a.whatIf.Strategy)
	assert.False(t, a.busy())

	a, _ = drive(t, a, press("esc"))
	fakeErr = errors.New("the model refuses")
	defer func() { fakeErr = nil }()
	before := a.sim
	m, x := a.Update(press("x"))
	m, _ = m.Update(press("c"))
	a = deliver(m, x).(App)
	assert.True(t, a.sim == before)
	assert.Contains(t, a.status, "the model refuses")
	require.NotNil(t, a.compare, "the failed crash leaves the simulation on screen: it is compared")
	assert.False(t, a.busy(), "nothing left to wait for")
}

// When a key that built on another fails, the other's result stays: the
// first x crashes the member, the second says why it cannot.
func TestAFailedKeyKeepsWhatItBuiltOn(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n")...)
	m, first := a.Update(press("x"))
	m, _ = m.Update(press("j"))
	m, second := m.Update(press("x"))
	firstDone := runJob(t, first)
	fakeErr = errors.New("the second crash is refused")
	defer func() { fakeErr = nil }()
	secondDone := runJob(t, second)
	m, _ = m.Update(firstDone)
	m, _ = m.Update(secondDone)
	a = m.(App)
	require.Len(t, a.Scenario().Timeline, 1, "the first crash is on screen")
	assert.Equal(t, "crash", a.Scenario().Timeline[0].Kind)
	assert.Contains(t, a.status, "the second crash is refused")
	assert.True(t, a.statusBad)
	assert.False(t, a.busy())
}

// esc on a prompt whose answer is being simulated drops that answer only:
// the switch it built on still comes.
func TestCancelledAnswerKeepsWhatItBuiltOn(t *testing.T) {
	for _, order := range []string{"switch done before esc", "switch done after esc"} {
		t.Run(order, func(t *testing.T) {
			a := fakeApp(t, 80, 24)
			a, _ = drive(t, a, keys("n", "n", "n")...)
			m, sw := a.Update(press("s"))
			strategy := m.(App).job.strategy
			m, _ = m.Update(press("t"))
			m, _ = m.Update(press("enter"))
			m, grow := m.Update(press("enter"))
			require.True(t, m.(App).waitingFor(m.(App).prompt))
			swDone := runJob(t, sw)
			if order == "switch done before esc" {
				m, _ = m.Update(swDone) // dropped: the answer builds on it
				_ = runJob(t, grow)
				var cmd tea.Cmd
				m, cmd = m.Update(press("esc"))
				m = deliver(m, cmd)
			} else {
				m, _ = m.Update(press("esc"))
				m, _ = m.Update(swDone)
			}
			a = m.(App)
			assert.Nil(t, a.prompt)
			assert.Equal(t, strategy, a.Scenario().Strategy, "the switch is on screen")
			assert.Empty(t, a.Scenario().Timeline, "the cancelled answer is not")
			assert.False(t, a.busy())
		})
	}
}

// Work a newer key made useless while it runs is given up mid-run: the
// first s blocks until its context is done, and the second s (which needs
// nothing of it) cancels it, so both finish and the second shows.
func TestSupersededWorkIsCancelledMidRun(t *testing.T) {
	a := fakeApp(t, 80, 24)
	started := make(chan struct{})
	first := true
	a.simulate = func(ctx context.Context, sc *scenario.Scenario) (simulation, error) {
		if first {
			first = false
			close(started)
			<-ctx.Done() // a long simulation, given up
			return nil, ctx.Err()
		}
		return simulateFake(ctx, sc)
	}
	var m tea.Model = a
	m, one := m.Update(press("s"))
	done := make(chan []tea.Msg)
	go func() { done <- results(one) }()
	<-started
	m, two := m.Update(press("s"))
	want := m.(App).job.strategy
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the superseded simulation was not cancelled")
	}
	m = deliver(m, two)
	assert.Equal(t, want, m.(App).Scenario().Strategy)
	assert.NotContains(t, screen(m.(App)), "context canceled")
}
