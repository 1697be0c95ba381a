package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// press builds the key message a terminal sends for a key name.
func press(k string) tea.KeyPressMsg {
	switch k {
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// drive sends messages through Update and returns the resulting app and
// the last command. What a message sets off in the background is brought
// back at once (settle).
func drive(t *testing.T, a App, msgs ...tea.Msg) (App, tea.Cmd) {
	t.Helper()
	var m tea.Model = a
	var cmd tea.Cmd
	for _, msg := range msgs {
		before := requestsOf(m)
		m, cmd = m.Update(msg)
		m = settle(m, before, cmd)
	}
	return m.(App), cmd
}

// settle delivers what the background work started by the last Update
// brings back — a recompute, a compare table, a what-if, the quiz's
// questions: each counts as a request (tracker.sent) — as the program
// would a moment later, and what that sets off in turn. A command that
// started no work (an autoplay tick, the spinner's next frame) is left
// alone: tests send tickMsg themselves.
func settle(m tea.Model, before int, cmd tea.Cmd) tea.Model {
	if cmd == nil || requestsOf(m) == before {
		return m
	}
	return deliver(m, cmd)
}

// deliver runs cmd (a batch's commands one by one, in order) and sends
// what each brings to Update, settling what that starts.
func deliver(m tea.Model, cmd tea.Cmd) tea.Model {
	for _, msg := range results(cmd) {
		before := requestsOf(m)
		var next tea.Cmd
		m, next = m.Update(msg)
		m = settle(m, before, next)
	}
	return m
}

// results runs cmd and returns its messages (a batch's, flattened).
func results(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	b, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range b {
		out = append(out, results(c)...)
	}
	return out
}

// requestsOf is how many background requests the lab has made.
func requestsOf(m tea.Model) int {
	switch m := m.(type) {
	case App:
		return m.replies.sent
	case Live:
		return m.app.replies.sent
	}
	return 0
}

func keys(ks ...string) []tea.Msg {
	out := make([]tea.Msg, len(ks))
	for i, k := range ks {
		out[i] = press(k)
	}
	return out
}

func fakeApp(t *testing.T, w, h int) App {
	t.Helper()
	fakeErr = nil
	a := newApp(newFakeSim(fakeScenario()))
	a.simulate = simulateFake
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: w, Height: h})
	return a
}

func screen(a App) string { return ansi.Strip(a.View().Content) }

// assertFits checks that no line wraps and the frame fills no more than the terminal.
func assertFits(t *testing.T, a App, w, h int) {
	t.Helper()
	lines := strings.Split(a.View().Content, "\n")
	assert.LessOrEqual(t, len(lines), h, "frame taller than the terminal")
	for i, l := range lines {
		assert.LessOrEqual(t, ansi.StringWidth(l), w, "line %d wider than the terminal: %q", i, ansi.Strip(l))
	}
}

func TestViewUsesAltScreen(t *testing.T) {
	v := fakeApp(t, 80, 24).View()
	assert.True(t, v.AltScreen, "the lab must leave the user's screen untouched")
	assert.Contains(t, v.WindowTitle, "workshop")
}

func TestTooSmallAndRecovers(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 59, Height: 30})
	assert.Contains(t, screen(a), "make the terminal larger")
	assert.Contains(t, screen(a), "59×30")
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 100, Height: 19})
	assert.Contains(t, screen(a), "make the terminal larger")
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 60, Height: 20})
	assert.NotContains(t, screen(a), "make the terminal larger")
	assert.Contains(t, screen(a), "Assignment")
	assertFits(t, a, 60, 20)
}

func TestStepping(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "space", "right")...)
	assert.Equal(t, 3, a.Step())
	a, _ = drive(t, a, keys("b", "left")...)
	assert.Equal(t, 1, a.Step())
	a, _ = drive(t, a, keys("b", "b", "b")...)
	assert.Equal(t, 0, a.Step(), "stepping back stops at the first step")
	a, _ = drive(t, a, keys("G")...)
	assert.Equal(t, a.sim.Len()-1, a.Step())
	a, _ = drive(t, a, keys("n")...)
	assert.Equal(t, a.sim.Len()-1, a.Step(), "stepping on stops at the last step")
	assert.Contains(t, screen(a), a.sim.StepLine(a.Step()).Text, "the narration is the step's text")
}

func TestRebalanceJumps(t *testing.T) {
	a := fakeApp(t, 80, 24)
	rs := a.sim.Rebalances()
	require.Len(t, rs, 2)
	a, _ = drive(t, a, keys("n")...) // inside the first rebalance
	a, _ = drive(t, a, keys("]")...)
	assert.Equal(t, rs[1].StartStep, a.Step())
	a, _ = drive(t, a, keys("]")...)
	assert.Equal(t, rs[1].StartStep, a.Step(), "no later rebalance: stay")
	assert.Contains(t, screen(a), "no later rebalance")
	a, _ = drive(t, a, keys("[")...)
	assert.Equal(t, rs[0].StartStep, a.Step())
}

// Autoplay runs one tick loop: pausing and resuming bumps the generation,
// and a tick of an earlier generation is dropped, so toggling fast can
// never run two loops (double speed).
func TestPlayNeverDoublesSpeed(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, cmd := drive(t, a, press("p"))
	require.True(t, a.Playing())
	require.NotNil(t, cmd)
	staleGen := a.playGen
	a, _ = drive(t, a, press("p"), press("p")) // pause, play again quickly
	require.True(t, a.Playing())
	step := a.Step()
	a, cmd = drive(t, a, tickMsg{gen: staleGen})
	assert.Equal(t, step, a.Step(), "a stale tick must not advance")
	assert.Nil(t, cmd, "a stale tick must not schedule another")
	a, cmd = drive(t, a, tickMsg{gen: a.playGen})
	assert.Equal(t, step+1, a.Step())
	assert.NotNil(t, cmd, "a live tick schedules exactly the next one")
	a, _ = drive(t, a, press("p"))
	a, cmd = drive(t, a, tickMsg{gen: a.playGen})
	assert.False(t, a.Playing())
	assert.Equal(t, step+1, a.Step(), "paused: ticks do nothing")
	assert.Nil(t, cmd)
}

func TestSpeedKeys(t *testing.T) {
	a := fakeApp(t, 80, 24)
	base := a.interval()
	a, _ = drive(t, a, press("+"))
	assert.Equal(t, base/2, a.interval())
	a, _ = drive(t, a, press("-"), press("-"))
	assert.Equal(t, base*2, a.interval())
	for range 10 {
		a, _ = drive(t, a, press("-"))
	}
	assert.Equal(t, 0, a.speed, "speed is bounded")
}

func TestPlayStopsAtTheEnd(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, press("G"), press("p"))
	assert.Equal(t, 0, a.Step(), "play from the end replays from the start")
	for i := 0; i < a.sim.Len()+2; i++ {
		a, _ = drive(t, a, tickMsg{gen: a.playGen})
	}
	assert.False(t, a.Playing())
	assert.Equal(t, a.sim.Len()-1, a.Step())
}

func TestMemberSelection(t *testing.T) {
	a := fakeApp(t, 80, 24)
	assert.Equal(t, "c1", a.Selected())
	a, _ = drive(t, a, keys("j", "down")...)
	assert.Equal(t, "c3", a.Selected())
	a, _ = drive(t, a, keys("down", "down")...)
	assert.Equal(t, "c3", a.Selected(), "selection stops at the last member")
	a, _ = drive(t, a, keys("k")...)
	assert.Equal(t, "c2", a.Selected())
	a, _ = drive(t, a, keys("up")...)
	assert.Equal(t, "c1", a.Selected())
	assert.Contains(t, screen(a), "▸ A c1")
}

// Events go in at the current time; the past is untouched, so stepping
// back and forward again is exact.
func TestInsertedEventKeepsThePast(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "j")...) // step 3, c2 selected
	before := a.sim
	a, _ = drive(t, a, press("d"))
	require.NotSame(t, before, a.sim)
	assert.Equal(t, 3, a.Step(), "the cursor stays put")
	for i := 0; i <= 3; i++ {
		assert.Equal(t, stepOf(before, i), stepOf(a.sim, i), "step %d changed", i)
	}
	assert.Contains(t, screen(a), "c2 leaves at 6.001 s")
	a, _ = drive(t, a, keys("n")...)
	after := screen(a)
	a, _ = drive(t, a, keys("b", "b", "n", "n")...)
	assert.Equal(t, after, screen(a), "stepping back then forward again shows the same frame")
	require.Len(t, a.Scenario().Timeline, 1)
	assert.Equal(t, "leave", a.Scenario().Timeline[0].Kind)
	assert.Equal(t, "c2", a.Scenario().Timeline[0].Member)
	assert.Equal(t, int64(6001), a.Scenario().Timeline[0].AtMs, "1 ms after the step on screen")
}

func TestEventKeys(t *testing.T) {
	cases := map[string]string{"x": "crash", "r": "restart", "a": "join", "t": "add_partitions"}
	for k, kind := range cases {
		t.Run(k, func(t *testing.T) {
			a := fakeApp(t, 80, 24)
			a, _ = drive(t, a, keys("n", "n", "n", k)...)
			if kind == "join" || kind == "add_partitions" {
				// a and t ask first; enter takes each default
				require.Empty(t, a.Scenario().Timeline, "nothing is inserted while the prompt asks")
				a, _ = drive(t, a, keys("enter", "enter")...)
			}
			require.Len(t, a.Scenario().Timeline, 1)
			ev := a.Scenario().Timeline[0]
			assert.Equal(t, kind, ev.Kind)
			assert.Equal(t, int64(6001), ev.AtMs)
			switch kind {
			case "join":
				assert.Equal(t, "c5", ev.Member, "the first id no one uses anywhere in the timeline (c4 joins later)")
				assert.Equal(t, []string{"orders"}, ev.Topics)
				assert.Equal(t, "c5", a.Selected(), "the newcomer is selected")
			case "add_partitions":
				assert.Equal(t, "orders", ev.Topic)
				assert.Equal(t, int32(12), ev.Count)
			default:
				assert.Equal(t, "c1", ev.Member)
			}
		})
	}
}

func TestInsertErrorIsShownNotFatal(t *testing.T) {
	a := fakeApp(t, 80, 24)
	fakeErr = errors.New("c1 is not running")
	defer func() { fakeErr = nil }()
	before := a.sim
	a, _ = drive(t, a, press("r"))
	assert.Same(t, before, a.sim)
	assert.Contains(t, screen(a), "» c1 is not running", "the model's answer is the whole message")
}

func TestWhatIfPreviewThenCommit(t *testing.T) {
	a := fakeApp(t, 100, 30)
	a, _ = drive(t, a, keys("n", "n", "n", "j", "w")...)
	require.Equal(t, modeWhatIf, a.mode)
	require.Len(t, a.whatIf.Outcomes, 2)
	leave := a.whatIf.Outcomes[0]
	assert.True(t, leave.Outcome.Rebalanced)
	assert.Equal(t, []kafka.Move{{Topic: "orders", Partition: 2, From: "c2", To: "c1"}, {Topic: "orders", Partition: 3, From: "c2", To: "c1"}}, leave.Outcome.Moves)
	assert.Empty(t, a.Scenario().Timeline, "a preview commits nothing")
	s := screen(a)
	assert.Contains(t, s, "What if c2 leaves or crashes now")
	assert.Contains(t, s, "orders-2 B c2→A c1")
	a, _ = drive(t, a, press("x"))
	assert.Equal(t, modeLab, a.mode)
	require.Len(t, a.Scenario().Timeline, 1)
	assert.Equal(t, "crash", a.Scenario().Timeline[0].Kind)

	a, _ = drive(t, a, keys("w", "esc")...)
	assert.Equal(t, modeLab, a.mode, "esc closes the preview")
	assert.Len(t, a.Scenario().Timeline, 1)
}

func TestStrategyAndProtocolKeys(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "n")...)
	now := a.view().TimeMs
	before := a.Scenario().Strategy
	a, _ = drive(t, a, press("s"))
	sc := a.Scenario()
	assert.NotEqual(t, before, sc.Strategy)
	assert.Equal(t, string(kafka.PreferredProtocol(sc.Strategy)), sc.Protocol, "s takes the strategy's own protocol")
	assert.LessOrEqual(t, a.view().TimeMs, now, "the cursor stays at the same virtual time")
}

// e cycles the protocols the strategy supports, keeping it; a strategy
// with one protocol says so and stays.
func TestProtocolKey(t *testing.T) {
	a := fakeApp(t, 80, 24)
	sc := a.Scenario()
	a, _ = drive(t, a, press("e"))
	if ps := kafka.StrategyProtocols(sc.Strategy); len(ps) < 2 {
		assert.Equal(t, sc.Protocol, a.Scenario().Protocol)
		assert.Contains(t, screen(a), sc.Strategy+" runs under only the "+sc.Protocol+" protocol")
		return
	}
	assert.Equal(t, sc.Strategy, a.Scenario().Strategy)
	assert.NotEqual(t, sc.Protocol, a.Scenario().Protocol)
}

func TestCompareMode(t *testing.T) {
	a := fakeApp(t, 120, 30)
	a, _ = drive(t, a, keys("n", "n", "n", "j", "d", "c")...)
	require.Equal(t, modeCompare, a.mode)
	assert.Equal(t, int64(6000), a.compare.AtMs, "quiet at the cursor: the first rebalance from now on is compared")
	require.Len(t, a.compare.Rows, len(kafka.CompareStrategies()))
	r := a.compare.Rows[a.compare.Cursor]
	assert.Equal(t, "range", r.Strategy, "the cursor starts on the strategy on screen")
	assert.True(t, r.Found)
	assert.Equal(t, 2, r.Outcome.Moved, "c2's orders-2 and orders-3 go to c1 in the fake")
	assert.Equal(t, model.Balance{Min: 2, Max: 4}, r.Outcome.Balance)
	s := screen(a)
	assert.Contains(t, s, "Compare strategies")
	assert.Contains(t, s, "A A A*A*C C", "moved cells are marked")
	assertFits(t, a, 120, 30)
	// ↓ then enter switches the lab to the next row's strategy.
	a, _ = drive(t, a, press("down"), press("enter"))
	assert.Equal(t, modeLab, a.mode)
	assert.Equal(t, kafka.CompareStrategies()[1], a.Scenario().Strategy)
}

func TestHelpAndFocusAndQuit(t *testing.T) {
	a := fakeApp(t, 80, 24)
	assert.Contains(t, screen(a), "? full help")
	a, _ = drive(t, a, press("?"))
	s := screen(a)
	assert.Contains(t, s, "add a member")
	assert.Contains(t, s, "Reading the grid")
	for _, mark := range []string{"revoking", "no consumer", "timeline", "condensed columns"} {
		assert.Contains(t, s, mark, "at 80x24 the legend keeps every row")
	}
	a, _ = drive(t, a, press("esc"))
	assert.NotContains(t, screen(a), "Reading the grid")

	assert.Equal(t, paneGrid, a.focus)
	a, _ = drive(t, a, press("tab"), press("tab"))
	assert.Equal(t, paneNumbers, a.focus)
	assert.Contains(t, screen(a), "Numbers")
	a, _ = drive(t, a, press("tab"))
	assert.Equal(t, paneGrid, a.focus)

	for _, k := range []string{"q", "ctrl+c"} {
		_, cmd := drive(t, a, press(k))
		require.NotNil(t, cmd, k)
		assert.IsType(t, tea.QuitMsg{}, cmd(), k)
	}
}

func TestLightBackgroundRestyles(t *testing.T) {
	a := fakeApp(t, 80, 24)
	dark := a.View().Content
	a, _ = drive(t, a, tea.BackgroundColorMsg{Color: lightGray})
	assert.False(t, a.styles.IsDark)
	assert.NotEqual(t, dark, a.View().Content)
	assert.Equal(t, ansi.Strip(dark), screen(a), "only colours change")
}

// The timeline bar spans the width, marks rebalances and puts the cursor
// where the step's time is.
func TestTimelineBar(t *testing.T) {
	a := fakeApp(t, 100, 30)
	line := ansi.Strip(a.timelineLine(100))
	assert.Equal(t, 100, textWidth(line))
	assert.True(t, strings.HasPrefix(line, " 0 s ●"), "at the start the cursor is first: %q", line)
	assert.Contains(t, line, "━", "rebalances are drawn")
	a, _ = drive(t, a, press("G"))
	line = ansi.Strip(a.timelineLine(100))
	assert.True(t, strings.HasSuffix(line, "● 13.000 s "), "at the end the cursor is last: %q", line)
	assert.Contains(t, screen(a), line, "tall terminals show it under the header")
	short := fakeApp(t, 100, 24)
	assert.NotContains(t, screen(short), "━", "short terminals keep the rows for the grid")
}

// Compare and what-if run as commands: until the result arrives the panel
// says it is working, and a result for an older simulation is dropped.
func TestCompareAndWhatIfAreAsync(t *testing.T) {
	a := fakeApp(t, 100, 30)
	var m tea.Model = a
	m, cmd := m.Update(press("c"))
	require.NotNil(t, cmd)
	assert.Contains(t, ansi.Strip(m.View().Content), "simulating the scenario under each assignor")
	stale := results(cmd)
	m, _ = m.Update(press("c")) // close
	m, _ = m.Update(press("n"))
	m, cmd = m.Update(press("x")) // a new simulation
	m = deliver(m, cmd)
	for _, msg := range stale {
		m, _ = m.Update(msg)
	}
	assert.Nil(t, m.(App).compare, "a result for an older simulation is dropped")

	m, cmd = m.Update(press("w"))
	require.NotNil(t, cmd)
	assert.Contains(t, ansi.Strip(m.View().Content), "forking the timeline")
	m = deliver(m, cmd)
	assert.Len(t, m.(App).whatIf.Outcomes, 2)
}

// runJob runs the recompute a key started and returns its result message
// (not yet delivered).
func runJob(t *testing.T, cmd tea.Cmd) jobDoneMsg {
	t.Helper()
	for _, msg := range results(cmd) {
		if done, ok := msg.(jobDoneMsg); ok {
			return done
		}
	}
	t.Fatal("the command started no recompute")
	return jobDoneMsg{}
}
