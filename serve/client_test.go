package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/ssh"
	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// The tests run a real room on 127.0.0.1:0 and connect with x/crypto/ssh
// clients whose output feeds a terminal emulator, so they read the screen
// an attendee would see.

const waitLimit = 10 * time.Second

func demoSim(t testing.TB, name string) *model.Sim {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok, name)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	return sim
}

// room is a running server and its log.
type room struct {
	srv  *Server
	addr string
	log  *syncBuffer
	stop func() error // closes the room as SIGTERM does; returns Serve's error
}

func startRoom(t testing.TB, cfg Config, setup ...func(*Server)) *room {
	t.Helper()
	cfg.HostKeyPath = filepath.Join(t.TempDir(), "kviz", "host_key")
	if cfg.Open == nil {
		cfg.Open = demoSim(t, "lab")
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 10
	}
	logs := &syncBuffer{}
	cfg.Log = logs
	srv, err := New(cfg)
	require.NoError(t, err)
	for _, f := range setup {
		f(srv)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	var once sync.Once
	var serveErr error
	stop := func() error {
		once.Do(func() { cancel(); serveErr = <-done })
		return serveErr
	}
	t.Cleanup(func() { _ = stop() })
	return &room{srv: srv, addr: l.Addr().String(), log: logs, stop: stop}
}

// terminal is one attendee's ssh client and screen.
type terminal struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	screen *screen
	stdin  io.Writer
	stderr *syncBuffer
	raw    *syncBuffer // every byte the session wrote
	ended  chan struct{}
}

// connect opens a PTY session of w×h; signer, when set, is the key offered.
func connect(t testing.TB, addr string, w, h int, signer gossh.Signer) *terminal {
	t.Helper()
	return connectAs(t, addr, w, h, signer, "xterm-256color")
}

// connectAs is connect with the client's TERM and environment (NAME=VALUE).
func connectAs(t testing.TB, addr string, w, h int, signer gossh.Signer, termName string, env ...string) *terminal {
	t.Helper()
	term, err := dial(t, addr, signer)
	require.NoError(t, err)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		require.NoError(t, term.sess.Setenv(k, v))
	}
	require.NoError(t, term.sess.RequestPty(termName, h, w, gossh.TerminalModes{}))
	term.start(w, h, func(s *gossh.Session) error { return s.Shell() })
	return term
}

func dial(t testing.TB, addr string, signer gossh.Signer) (*terminal, error) {
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if signer != nil {
		auth = append([]gossh.AuthMethod{gossh.PublicKeys(signer)}, auth...)
	}
	client, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "attendee", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit}) //nolint:gosec // a test's own server
	if err != nil {
		return nil, err
	}
	sess, err := client.NewSession()
	if err != nil {
		client.Close()
		return nil, err
	}
	term := &terminal{t: t, client: client, sess: sess, stderr: &syncBuffer{}, raw: &syncBuffer{}, ended: make(chan struct{})}
	t.Cleanup(func() { sess.Close(); client.Close() })
	return term, nil
}

// start runs the session (a shell, a command) with the emulator as its
// terminal: it draws the output and answers the program's queries.
func (c *terminal) start(w, h int, run func(*gossh.Session) error) {
	c.t.Helper()
	c.screen = &screen{em: vt.NewEmulator(w, h)}
	stdin, err := c.sess.StdinPipe()
	require.NoError(c.t, err)
	stdout, err := c.sess.StdoutPipe()
	require.NoError(c.t, err)
	c.sess.Stderr = c.stderr
	c.stdin = stdin
	require.NoError(c.t, run(c.sess))
	go func() { _, _ = io.Copy(io.MultiWriter(c.screen, c.raw), stdout) }()
	go func() { _, _ = io.Copy(stdin, c.screen) }()
	go func() { _ = c.sess.Wait(); close(c.ended) }()
}

// waitFor waits until the screen shows want; it fails the test if not.
func (c *terminal) waitFor(want string) string {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := c.screen.String()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the screen never showed %q; it shows:\n%s\nstderr: %s", want, s, c.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// showsWithin reports whether the screen shows want within d.
func (c *terminal) showsWithin(want string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if strings.Contains(c.screen.String(), want) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// waitRow waits until row y (negative: from the bottom) shows want.
func (c *terminal) waitRow(y int, want string) {
	c.t.Helper()
	if err := eventually(func() bool { return strings.Contains(c.row(y), want) }); err != nil {
		c.t.Fatalf("row %d never showed %q; the screen shows:\n%s", y, want, c.screen.String())
	}
}

// press types keys one at a time, each after the screen has had time to
// take the previous one (a person does not type faster than the lab draws).
func (c *terminal) press(keys ...string) {
	c.t.Helper()
	for _, k := range keys {
		_, err := io.WriteString(c.stdin, k)
		require.NoError(c.t, err)
		time.Sleep(30 * time.Millisecond)
	}
}

func (c *terminal) resize(w, h int) {
	c.t.Helper()
	c.screen.Resize(w, h)
	require.NoError(c.t, c.sess.WindowChange(h, w))
}

// waitEnded waits until the server ends the session.
func (c *terminal) waitEnded() {
	c.t.Helper()
	select {
	case <-c.ended:
	case <-time.After(waitLimit):
		c.t.Fatalf("the session did not end; the screen shows:\n%s", c.screen.String())
	}
}

func (c *terminal) isEnded() bool {
	select {
	case <-c.ended:
		return true
	default:
		return false
	}
}

// row is line y of the screen.
func (c *terminal) row(y int) string {
	lines := strings.Split(c.screen.String(), "\n")
	if y < 0 {
		y += len(lines)
	}
	if y < 0 || y >= len(lines) {
		return ""
	}
	return lines[y]
}

// newKey is a fresh ed25519 key: its signer for the client, its public
// key for the server.
func newKey(t testing.TB) (gossh.Signer, ssh.PublicKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	signer, err := gossh.NewSignerFromKey(priv)
	require.NoError(t, err)
	return signer, signer.PublicKey()
}

// screen is the emulator behind one lock: the session's output draws on
// it while the test reads it. Its replies to the program's queries come
// out of a pipe, which needs no lock.
type screen struct {
	mu sync.Mutex
	em *vt.Emulator
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.Write(p)
}

func (s *screen) Read(p []byte) (int, error) { return s.em.Read(p) }

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.String()
}

func (s *screen) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.em.Resize(w, h)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var errTimeout = errors.New("timed out")

// eventually polls cond until it holds or the wait runs out.
func eventually(cond func() bool) error {
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			return errTimeout
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// testClock is a manual clock for the room's timeouts.
type testClock struct{ *manualClock }

// manualTime is a room setup that puts its sessions on a manual clock.
func manualTime() (testClock, func(*Server)) {
	c := testClock{newManualClock()}
	return c, func(s *Server) { s.clock = c.manualClock }
}

// wait waits until n waits are pending on the clock (the sessions' ticks
// run in their own goroutines: a tick not yet waiting would miss a move).
func (c testClock) wait(t testing.TB, n int) {
	t.Helper()
	require.NoError(t, eventually(func() bool { return c.Waiting() >= n }), "%d waits on the clock, want %d", c.Waiting(), n)
}

// advance waits for n pending waits, then moves the clock on by d.
func (c testClock) advance(t testing.TB, n int, d time.Duration) {
	t.Helper()
	c.wait(t, n)
	c.Advance(d)
}
