package cli

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/serve"
)

type serveOpts struct {
	addr, hostKey, demo, trainerKey string
	maxSessions                     int
	idle, maxTime                   time.Duration
}

func newServeCmd() *cobra.Command {
	var o serveOpts
	cmd := &cobra.Command{
		Use:   "serve [FILE...]",
		Short: "Run a workshop room: every SSH session gets its own lab",
		Long: `serve runs an SSH server where every session is its own lab, with nothing to
install: attendees run "ssh -p 2222 HOST". It offers only the lab on --demo
(or on the first FILE named here): no shell, no commands, no files. Every FILE
named is in the lab's demo picker (o), beside the shipped demos.

With --trainer-key (an authorized_keys file) the trainer's session drives and
every other session follows it (same scenario, events and step) until its
user presses f to explore alone; f again rejoins. In quiz mode (z) the
attendees answer the trainer's question and the trainer reveals it with 0.

The host key is generated on the first run and kept at --host-key, so
attendees are not warned again after a restart. SIGINT or SIGTERM closes the
room: sessions are told, and kviz exits within a few seconds.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runServe(cmd, args, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", ":2222", "address to listen on")
	f.StringVar(&o.hostKey, "host-key", defaultHostKey(), "the server's SSH host key (generated if missing)")
	f.StringVar(&o.demo, "demo", "", "the demo every lab opens on (default: the first FILE, else "+demo.DefaultName+")")
	f.IntVar(&o.maxSessions, "max-sessions", 50, "attendees at once; the next is told the room is full (a trainer is never refused)")
	f.DurationVar(&o.idle, "idle-timeout", 30*time.Minute, "end a session after this long without a key (0 = never)")
	f.DurationVar(&o.maxTime, "max-session-time", 4*time.Hour, "end a session after this long (0 = never)")
	f.StringVar(&o.trainerKey, "trainer-key", "", "authorized_keys file of the trainer's key(s): the room follows them")
	return cmd
}

// defaultHostKey is under the user's config directory (~/.config/kviz).
func defaultHostKey() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = "."
	}
	return filepath.Join(dir, "kviz", "ssh_host_ed25519")
}

func runServe(cmd *cobra.Command, files []string, o serveOpts) error {
	if o.maxSessions < 1 {
		return usageErrf("--max-sessions must be at least 1, got %d", o.maxSessions)
	}
	if o.idle < 0 || o.maxTime < 0 {
		return usageErrf("--idle-timeout and --max-session-time must not be negative")
	}
	open, named, err := roomScenario(o.demo, files)
	if err != nil {
		return err
	}
	cfg := serve.Config{Addr: o.addr, HostKeyPath: o.hostKey, Open: open, Files: named, MaxSessions: o.maxSessions,
		IdleTimeout: o.idle, MaxSessionTime: o.maxTime, Log: cmd.ErrOrStderr()}
	if o.trainerKey != "" {
		if cfg.TrainerKeys, err = serve.ReadTrainerKeys(o.trainerKey); err != nil {
			return usageErr(err)
		}
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return failure(err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.ListenAndServe(ctx); err != nil {
		return failure(fmt.Errorf("serve: %w", err))
	}
	return nil
}

// roomScenario loads and simulates every scenario named (so a bad file
// stops the server before anyone connects) and returns the one labs open
// on (--demo, else the first file, else the default demo) and the files,
// which every lab's picker lists beside the shipped demos.
func roomScenario(demoName string, files []string) (open *model.Sim, named []*model.Sim, err error) {
	if demoName != "" {
		if open, err = simulateNamed("demo:" + demoName); err != nil {
			return nil, nil, err
		}
	}
	sims, err := simulateFiles(files)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case open != nil:
	case len(sims) > 0:
		open = sims[0]
	default:
		if open, err = simulateNamed("demo:" + demo.DefaultName); err != nil {
			return nil, nil, err
		}
	}
	return open, ownFiles(files, sims), nil
}

// ownFiles are the simulations of the files that are not demo:NAME (a
// demo is in the picker already).
func ownFiles(files []string, sims []*model.Sim) []*model.Sim {
	var out []*model.Sim
	for i, f := range files {
		if !strings.HasPrefix(f, "demo:") {
			out = append(out, sims[i])
		}
	}
	return out
}

// simulateFiles loads and simulates scenario files (demo:NAME too), in
// order; the first that fails is the error.
func simulateFiles(files []string) ([]*model.Sim, error) {
	var out []*model.Sim
	for _, f := range files {
		sim, err := simulateNamed(f)
		if err != nil {
			return nil, err
		}
		out = append(out, sim)
	}
	return out, nil
}

// simulateNamed loads and simulates one scenario (a file or demo:NAME).
func simulateNamed(name string) (*model.Sim, error) {
	sc, err := loadScenario(name)
	if err != nil {
		return nil, err
	}
	sim, err := model.Simulate(sc)
	if err != nil {
		return nil, simFailure(sc, err)
	}
	return sim, nil
}
