// Package serve is kviz's workshop room: an SSH server (wish) where every
// session gets its own lab, exact to Kafka, with nothing to install. It
// offers nothing but the lab: no shell, no commands, no files, no
// forwarding. With trainer keys, the trainer's session drives and the others
// follow it (room.go).
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/ratelimiter"
	wishrecover "charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/tui"
)

// Config is a room's settings.
type Config struct {
	Addr           string
	HostKeyPath    string       // generated on first use, kept for the next run
	Open           *model.Sim   // the scenario every lab opens on (simulated once, shared: it is immutable)
	Files          []*model.Sim // the scenario files named, in every lab's picker beside the demos (shared too)
	MaxSessions    int
	IdleTimeout    time.Duration // 0 = none
	MaxSessionTime time.Duration // 0 = none
	TrainerKeys    []ssh.PublicKey
	Log            io.Writer // one line per connect and disconnect
}

// Server is a room listening for SSH sessions.
type Server struct {
	cfg  Config
	ssh  *ssh.Server
	room *Room
	log  *log.Logger

	newApp func() tui.App            // the lab a session opens
	wrap   func(tea.Model) tea.Model // tests wrap the session's program (a panicking lab)
	clock  clock                     // the sessions' timeouts (tests move a manual one)
}

// handshakeTimeout bounds a connection that never finishes logging in.
const handshakeTimeout = 30 * time.Second

// stopGrace is how long sessions get to say goodbye when the room closes.
const stopGrace = 3 * time.Second

// New builds the server; nothing listens yet.
func New(cfg Config) (*Server, error) {
	if cfg.Open == nil {
		return nil, errors.New("serve: no scenario to open")
	}
	if cfg.MaxSessions < 1 {
		return nil, fmt.Errorf("--max-sessions must be at least 1, got %d", cfg.MaxSessions)
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if err := os.MkdirAll(filepath.Dir(cfg.HostKeyPath), 0o700); err != nil {
		return nil, fmt.Errorf("host key %s: %w", cfg.HostKeyPath, err)
	}
	s := &Server{cfg: cfg, room: newRoom(cfg.MaxSessions), log: log.New(cfg.Log, "kviz serve: ", log.LstdFlags), clock: wallClock{}}
	s.newApp = func() tui.App { return tui.NewFromSim(cfg.Open).WithFiles(cfg.Files...) }
	// A room behind one NAT address is thirty laptops at nine o'clock: the
	// burst lets the whole room in, the rate stops a reconnect loop.
	limiter := ratelimiter.NewRateLimiter(rate.Every(time.Second), max(10, cfg.MaxSessions), 1024)
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Addr),
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithVersion("kviz"),
		wish.WithPublicKeyAuth(s.publicKeyAuth),
		// Attendees need no key and no password: keyboard-interactive asks
		// no question. A trainer's key is recognised by public key auth.
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }),
		wish.WithPasswordAuth(func(ssh.Context, string) bool { return true }),
		wish.WithIdleTimeout(backstop(cfg.IdleTimeout)),
		wish.WithMaxTimeout(backstop(cfg.MaxSessionTime)),
		// Applied last to first: logging sees every session, then the rate
		// limit, the PTY check, the room's cap, and the lab.
		wish.WithMiddleware(
			wishrecover.MiddlewareWithLogger(s.log, bubbletea.MiddlewareWithProgramHandler(s.program)),
			s.admit,
			activeterm.Middleware(),
			ratelimiter.Middleware(limiter),
			s.logSession,
		),
	)
	if err != nil {
		return nil, fmt.Errorf("host key %s: %w", cfg.HostKeyPath, err)
	}
	srv.HandshakeTimeout = handshakeTimeout
	s.ssh = srv
	return s, nil
}

// backstop is the connection's own deadline behind one of the lab's
// clocks: the lab says goodbye first, the connection is cut a minute later
// if the client is gone and never reads it.
func backstop(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d + time.Minute
}

// Room is the server's room (for tests and the memory benchmark).
func (s *Server) Room() *Room { return s.room }

// Serve accepts sessions on l until ctx ends, then closes the room: no new
// sessions, every session is told and ends, and Serve returns within a few
// seconds.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- s.ssh.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Printf("stopping: %d sessions told the room is closing", s.room.Len())
	s.room.close()
	defer s.log.Printf("stopped")
	stop, cancel := context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	if err := s.ssh.Shutdown(stop); err != nil {
		_ = s.ssh.Close() // a session that did not end in time is cut
	}
	if err := <-errc; err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		return err
	}
	return nil
}

// ListenAndServe listens on the configured address and serves until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context) error {
	l, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	attendees := fmt.Sprintf("%d attendees", s.cfg.MaxSessions)
	if s.cfg.MaxSessions == 1 {
		attendees = "1 attendee"
	}
	s.log.Printf("listening on %s (host key %s, up to %s; a trainer is never refused)", l.Addr(), s.cfg.HostKeyPath, attendees)
	return s.Serve(ctx, l)
}

// program opens a session's lab.
func (s *Server) program(sess ssh.Session) *tea.Program {
	id := sessionID(sess)
	trainer := s.isTrainer(sess.PublicKey())
	app := s.newApp().OverSSH()
	switch {
	case trainer:
		app = app.Trainer(s.room.last())
	case s.follows(trainer):
		app = app.Follower()
	}
	m := labSession{app: app, room: s.room, id: id, trainer: trainer, following: app.Following(),
		idle: s.cfg.IdleTimeout, maxTime: s.cfg.MaxSessionTime, clock: s.clock, lastActive: s.clock.Now()}
	if pty, _, ok := sess.Pty(); ok {
		m.width, m.height = clampSize(pty.Window.Width, pty.Window.Height)
	}
	// The server's signals are the room's (Serve closes it); a session's
	// program must not take them as its own.
	opts := append(bubbletea.MakeOptions(sess), tea.WithoutSignalHandler(), tea.WithFilter(sizeFilter))
	if pty, _, ok := sess.Pty(); ok {
		opts = append(opts, tea.WithWindowSize(clampSize(pty.Window.Width, pty.Window.Height)))
	}
	var model tea.Model = m
	if s.wrap != nil {
		model = s.wrap(m)
	}
	p := tea.NewProgram(model, opts...)
	s.room.sit(id, p)
	return p
}

// follows reports whether a session's lab opens following the trainer.
func (s *Server) follows(trainer bool) bool { return !trainer && len(s.cfg.TrainerKeys) > 0 }

// admit refuses commands and a full room; a session admitted is counted
// until it ends.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.Command()) > 0 || sess.Subsystem() != "" {
			wish.Fatalln(sess, "kviz: this server runs only the lab: connect without a command (ssh -p PORT HOST)")
			return
		}
		id, trainer := sessionID(sess), s.isTrainer(sess.PublicKey())
		if err := s.room.enter(id, trainer, s.follows(trainer)); err != nil {
			wish.Fatalln(sess, "kviz: "+err.Error())
			return
		}
		defer s.room.leave(id)
		next(sess)
	}
}

// logSession logs the session's connect and disconnect, one line each,
// led by the session's id and with every field named, so a room's log
// reads without knowing the code:
//
//	session 1a2b3c4d: connect role=attendee user=ann remote=10.0.0.7:51234 term=xterm-256color size=120x40
//	session 1a2b3c4d: disconnect role=attendee remote=10.0.0.7:51234 after=12m3.2s
func (s *Server) logSession(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id, role := sessionID(sess), "attendee"
		if s.isTrainer(sess.PublicKey()) {
			role = "trainer"
		}
		term, size := "none", "none"
		if pty, _, ok := sess.Pty(); ok {
			term, size = pty.Term, fmt.Sprintf("%dx%d", pty.Window.Width, pty.Window.Height)
		}
		start := time.Now()
		s.log.Printf("session %s: connect role=%s user=%q remote=%s term=%s size=%s",
			id, role, sess.User(), sess.RemoteAddr(), term, size)
		next(sess)
		s.log.Printf("session %s: disconnect role=%s remote=%s after=%s",
			id, role, sess.RemoteAddr(), time.Since(start).Round(time.Millisecond))
	}
}

// sessionID is a short form of the SSH session id, enough to tell a
// room's sessions apart in the log.
func sessionID(sess ssh.Session) string {
	id := sess.Context().SessionID()
	return id[:min(len(id), 8)]
}
