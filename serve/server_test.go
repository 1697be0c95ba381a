package serve

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// stepOf reads "step N/M" from the lab's header.
var stepOf = regexp.MustCompile(`step (\d+)/\d+`)

func step(t *testing.T, screen string) string {
	t.Helper()
	m := stepOf.FindStringSubmatch(screen)
	require.NotNil(t, m, "no step in the header:\n%s", screen)
	return m[1]
}

func TestSessionDrawsAtItsSizeAndFollowsAWindowChange(t *testing.T) {
	r := startRoom(t, Config{})
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("Protocol · tab: numbers") // below 120 columns the panes take turns
	c.waitRow(23, "q quit")              // the footer is on the terminal's last row
	assert.Contains(t, c.row(0), "kviz")
	grid := []rune(c.row(2))
	require.Len(t, grid, 80)
	assert.Equal(t, "╭╮", string(grid[0])+string(grid[79]), "the grid's box spans the 80 columns")

	c.resize(120, 40)
	c.waitFor("╮╭─ Numbers") // at 120 columns protocol and numbers stand side by side
	c.waitRow(39, "q quit")
	s := c.screen.String()
	assert.Contains(t, s, "coordinator broker", "the wide header spells its labels out")
	for i, line := range strings.Split(s, "\n") {
		assert.LessOrEqual(t, len([]rune(strings.TrimRight(line, " "))), 120, "row %d", i)
	}
}

func TestSessionsAreIndependent(t *testing.T) {
	r := startRoom(t, Config{})
	a, b := twoLabs(t, r, 100, 30)
	a.press("n", "n", "n")
	a.waitFor("step 3/")
	b.press("G") // the end of b's timeline
	sb := b.waitFor("Stable")
	assert.NotEqual(t, "3", step(t, sb))
	assert.Equal(t, "3", step(t, a.screen.String()), "b's keys do not move a")

	a.press("a", "\r", "\r") // a inserts an event: only a's timeline has it
	a.waitFor("— step on to see what happens")
	assert.NotContains(t, b.screen.String(), "— step on to see what happens")
}

func TestSessionOverTheCapIsRefused(t *testing.T) {
	r := startRoom(t, Config{MaxSessions: 1})
	first := connect(t, r.addr, 80, 24, nil)
	first.waitFor("step 0/")
	second := connect(t, r.addr, 80, 24, nil)
	second.waitEnded()
	assert.Contains(t, second.stderr.String(), "the room is full (1 attendee)")
	assert.False(t, first.isEnded())

	first.press("q")
	first.waitEnded()
	require.NoError(t, eventually(func() bool { return r.srv.Room().Len() == 0 }))
	third := connect(t, r.addr, 80, 24, nil)
	third.waitFor("step 0/") // the place is free again
}

// The room's clocks run on an injected clock: the tests move it.

func TestIdleSessionEnds(t *testing.T) {
	clk, setup := manualTime()
	r := startRoom(t, Config{IdleTimeout: 30 * time.Minute}, setup)
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("step 0/")
	clk.advance(t, 1, 20*time.Minute)
	c.press("n") // a key restarts the idle clock
	c.waitFor("step 1/")
	clk.advance(t, 1, 10*time.Minute) // 30 min since the start, 10 since the key
	clk.wait(t, 1)                    // the check has looked and waits again
	assert.NotContains(t, c.screen.String(), "no key pressed")
	assert.False(t, c.isEnded())
	clk.advance(t, 1, 20*time.Minute)
	c.waitFor("no key pressed for 30m0s")
	clk.advance(t, 1, farewell)
	c.waitEnded()
}

func TestSessionTimeLimit(t *testing.T) {
	clk, setup := manualTime()
	r := startRoom(t, Config{MaxSessionTime: 4 * time.Hour}, setup)
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("step 0/")
	clk.advance(t, 1, 4*time.Hour-time.Minute)
	c.press("n") // activity does not extend the session's time
	c.waitFor("step 1/")
	assert.NotContains(t, c.screen.String(), "the room's limit")
	clk.advance(t, 1, time.Minute)
	c.waitFor("this session has lasted 4h0m0s, the room's limit")
	clk.advance(t, 1, farewell)
	c.waitEnded()
}

func TestQuitEndsOneSessionNotTheServer(t *testing.T) {
	r := startRoom(t, Config{})
	a, b := twoLabs(t, r, 80, 24)
	a.press("q")
	a.waitEnded()
	b.press("n")
	b.waitFor("step 1/")
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("step 0/")
}

func TestSessionWithoutPTYIsRefused(t *testing.T) {
	r := startRoom(t, Config{})
	c, err := dial(t, r.addr, nil)
	require.NoError(t, err)
	out, err := c.sess.CombinedOutput("")
	var exit *gossh.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 1, exit.ExitStatus())
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(string(out)), "\n")+1, "one line: %q", out)
	assert.Contains(t, string(out), "PTY")
}

func TestCommandsAreRefused(t *testing.T) {
	r := startRoom(t, Config{})
	c, err := dial(t, r.addr, nil)
	require.NoError(t, err)
	require.NoError(t, c.sess.RequestPty("xterm", 24, 80, gossh.TerminalModes{}))
	c.start(80, 24, func(s *gossh.Session) error { return s.Start("cat /etc/passwd") })
	c.waitEnded()
	assert.Contains(t, c.stderr.String(), "runs only the lab")
	assert.NotContains(t, c.screen.String(), "root:")
}

// panicOn is a lab that panics on "!": a bug met in one session.
type panicOn struct{ tea.Model }

func (p panicOn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "!" {
		panic("a bug in one session")
	}
	m, cmd := p.Model.Update(msg)
	return panicOn{m}, cmd
}

func TestPanicEndsOnlyThatSession(t *testing.T) {
	r := startRoom(t, Config{}, func(s *Server) { s.wrap = func(m tea.Model) tea.Model { return panicOn{m} } })
	a, b := twoLabs(t, r, 80, 24)
	a.press("!")
	a.waitEnded()
	b.press("n")
	b.waitFor("step 1/")
	connect(t, r.addr, 80, 24, nil).waitFor("step 0/")
}

func TestClosingTheRoomTellsEverySession(t *testing.T) {
	r := startRoom(t, Config{})
	a, b := twoLabs(t, r, 80, 24)
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- r.stop() }()
	a.waitFor("the room is closing")
	b.waitFor("the room is closing")
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not stop")
	}
	assert.Less(t, time.Since(start), 5*time.Second)
	a.waitEnded()
	b.waitEnded()
	_, err := dial(t, r.addr, nil)
	assert.Error(t, err, "a closed room accepts no one")
}

func TestOneLogLinePerConnectAndDisconnect(t *testing.T) {
	r := startRoom(t, Config{})
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("step 0/")
	c.press("q")
	c.waitEnded()
	require.NoError(t, eventually(func() bool { return strings.Contains(r.log.String(), "disconnect") }))
	lines := strings.Split(strings.TrimSpace(r.log.String()), "\n")
	require.Len(t, lines, 2, r.log.String())
	local := c.client.LocalAddr().String() // the server's remote address
	assert.Regexp(t, `session [0-9a-f]{8}: connect role=attendee user="attendee" remote=`+regexp.QuoteMeta(local)+` term=xterm-256color size=80x24$`, lines[0])
	assert.Regexp(t, `session [0-9a-f]{8}: disconnect role=attendee remote=`+regexp.QuoteMeta(local)+` after=\d+(\.\d+)?(ms|s)$`, lines[1])
	assert.Equal(t, lines[0][strings.Index(lines[0], "session "):][:16], lines[1][strings.Index(lines[1], "session "):][:16], "the same session id")

	require.NoError(t, r.stop())
	assert.Regexp(t, `stopping: 0 sessions told the room is closing\n.*stopped\n$`, r.log.String(), "the room logs its own stop")
}

// twoLabs connects two attendees and waits for both labs to open.
func twoLabs(t *testing.T, r *room, w, h int) (a, b *terminal) {
	t.Helper()
	a, b = connect(t, r.addr, w, h, nil), connect(t, r.addr, w, h, nil)
	a.waitFor("step 0/")
	b.waitFor("step 0/")
	return a, b
}

// Each session's colours follow its own terminal: TERM from the PTY
// request, COLORTERM from the client's environment.
func TestColoursFollowEachSessionsTerminal(t *testing.T) {
	r := startRoom(t, Config{})
	cases := []struct {
		term, env string
		want      *regexp.Regexp // a foreground colour as this terminal takes it
		not       string
	}{
		{"xterm-256color", "COLORTERM=truecolor", regexp.MustCompile(`\x1b\[[0-9;]*38;2;`), ""},
		{"xterm-256color", "", regexp.MustCompile(`\x1b\[[0-9;]*38;5;`), "38;2;"},
		{"dumb", "", nil, "\x1b[38"},
	}
	for _, tc := range cases {
		t.Run(tc.term+" "+tc.env, func(t *testing.T) {
			var env []string
			if tc.env != "" {
				env = append(env, tc.env)
			}
			c := connectAs(t, r.addr, 80, 24, nil, tc.term, env...)
			c.waitRow(23, "q quit")
			raw := c.raw.String()
			if tc.want != nil {
				assert.Regexp(t, tc.want, raw)
			}
			if tc.not != "" {
				assert.NotContains(t, raw, tc.not)
			}
		})
	}
}

// A client cannot make its lab draw a giant window: the size is clamped.
func TestHugeWindowIsClamped(t *testing.T) {
	r := startRoom(t, Config{})
	c := connect(t, r.addr, 80, 24, nil)
	c.waitRow(23, "q quit")
	c.screen.Resize(maxColumns+20, maxRows+10) // first, so that no frame lands on the old size
	require.NoError(t, c.sess.WindowChange(maxRows+50, maxColumns+100))
	c.waitRow(maxRows-1, "q quit") // the footer on the clamped last row
	assert.Empty(t, strings.TrimSpace(c.row(maxRows+5)))
	for y := range maxRows {
		assert.LessOrEqual(t, len([]rune(strings.TrimRight(c.row(y), " "))), maxColumns, "row %d", y)
	}
	c.press("n")
	c.waitFor("step 1/")
}

func TestSizeFilter(t *testing.T) {
	assert.Equal(t, tea.WindowSizeMsg{Width: maxColumns, Height: maxRows}, sizeFilter(nil, tea.WindowSizeMsg{Width: 1 << 30, Height: 1 << 30}))
	assert.Equal(t, tea.WindowSizeMsg{Width: 80, Height: 24}, sizeFilter(nil, tea.WindowSizeMsg{Width: 80, Height: 24}))
	assert.Equal(t, tea.ResumeMsg{}, sizeFilter(nil, tea.SuspendMsg{}))
}

// One address reconnecting in a loop is slowed down: after a burst as
// large as the room (a whole class behind one NAT) it is refused.
func TestRateLimitPerAddress(t *testing.T) {
	r := startRoom(t, Config{MaxSessions: 1}) // a burst of 10
	for i := range 40 {
		c, err := dial(t, r.addr, nil)
		require.NoError(t, err)
		out, _ := c.sess.CombinedOutput("")
		if strings.Contains(string(out), "rate limit exceeded") {
			assert.GreaterOrEqual(t, i, 10, "the first ten get in at once")
			return
		}
		assert.Contains(t, string(out), "PTY", "attempt %d is let in, and refused for having no PTY", i)
	}
	t.Fatal("forty connections in a row were never slowed down")
}

// A client may claim any window. One Bubble Tea finds plausible (up to 4096
// a side, 2^20 cells) is clamped to maxColumns × maxRows; a larger one
// Bubble Tea drops (isPlausibleWindowSize), and the session goes on at the
// size it had. Either way it keeps answering keys.
func TestHugeWindowChangeIsClampedAndTheSessionAnswers(t *testing.T) {
	r := startRoom(t, Config{})
	c := connect(t, r.addr, 80, 24, nil)
	c.waitFor("q quit")
	c.screen.Resize(maxColumns, maxRows)
	require.NoError(t, c.sess.WindowChange(200, 4000))
	c.waitFor("╮╭─ Numbers") // redrawn wide: the panes stand side by side
	require.NoError(t, c.sess.WindowChange(1<<20, 1<<20))
	c.press("n", "n", "n")
	c.waitFor("step 3/")
	for i, line := range strings.Split(c.screen.String(), "\n") {
		assert.LessOrEqual(t, len([]rune(strings.TrimRight(line, " "))), maxColumns, "row %d", i)
	}
}
