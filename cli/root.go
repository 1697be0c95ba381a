// Package cli is kviz's command line: one file per subcommand, each a thin
// shell over strategies/ and model/, which hold every rule.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X github.com/kvizlab/kviz/cli.Version=...".
var Version = "0.1.0-dev"

// commands is every subcommand of kviz, by name, in the order help lists
// them. Each is built only when it is needed: a script calling `kviz assign`
// a thousand times pays for assign's flags alone (see commandsFor).
var commands = []struct {
	name  string
	build func() *cobra.Command
}{
	{"assign", newAssignCmd},
	{"compare", newCompareCmd},
	{"completion", newCompletionCmd},
	{"coordinator", newCoordinatorCmd},
	{"demos", newDemosCmd},
	{"export", newExportCmd},
	{"live", newLiveCmd},
	{"play", newPlayCmd},
	{"quiz", newQuizCmd},
	{"rebalances", newRebalancesCmd},
	{"replicas", newReplicasCmd},
	{"route", newRouteCmd},
	{"serve", newServeCmd},
	{"simulate", newSimulateCmd},
	{"whatif", newWhatIfCmd},
}

// NewRoot builds the whole command tree.
func NewRoot() *cobra.Command { return newRoot(commandsFor(nil)) }

// commandsFor picks the subcommands a run with these arguments can reach:
// the one args[0] names; none for the lab (no arguments) and --version; all
// of them for anything else (help, a flag before the command, a name that
// is no command and so wants suggestions) and for completion, whose script
// is written from the whole tree. A nil args means all.
func commandsFor(args []string) []func() *cobra.Command {
	all := func() []func() *cobra.Command {
		out := make([]func() *cobra.Command, len(commands))
		for i, c := range commands {
			out[i] = c.build
		}
		return out
	}
	switch {
	case args == nil:
		return all()
	case len(args) == 0 || len(args) == 1 && args[0] == "--version":
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "completion" {
			return []func() *cobra.Command{c.build}
		}
	}
	return all()
}

// newRoot builds the root command with the given subcommands.
func newRoot(subcommands []func() *cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "kviz",
		Short: "A terminal lab for Kafka partition assignment and rebalancing",
		Long: `kviz models topics, partitions, brokers, producers and a consumer group, and
applies Kafka's own assignors and group protocols one step at a time.

Run it with no arguments to open the lab; every screen has a scriptable twin below.`,
		Version:       Version,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          func(cmd *cobra.Command, _ []string) error { return openLab(cmd, "") },
	}
	// kviz's own completion command stands in for cobra's default one; a
	// tree built for one command must not build the default instead.
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	for _, build := range subcommands {
		c := build()
		c.SilenceUsage = true
		c.SilenceErrors = true
		root.AddCommand(c)
	}
	return root
}

// Execute runs kviz with args and returns the process exit code.
// Errors are printed as one line on stderr: "kviz: what is wrong".
func Execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if args == nil {
		args = []string{}
	}
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v") {
		// What cobra's version template prints, without building a
		// command tree and parsing that template on every run.
		fmt.Fprintf(stdout, "kviz version %s\n", Version)
		return 0
	}
	root := newRoot(commandsFor(args))
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "kviz: %s\n", oneLine(err.Error()))
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// Cobra's own errors (unknown command, missing args) are usage errors.
	return 2
}

// exitError carries the exit code for an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr marks bad input: a flag, a file, JSON or YAML that kviz cannot use. Exit code 2.
func usageErr(err error) error { return &exitError{code: 2, err: err} }

// usageErrf is usageErr with formatting.
func usageErrf(format string, args ...any) error { return usageErr(fmt.Errorf(format, args...)) }

// failure marks a run that went wrong after its input was accepted. Exit code 1.
func failure(err error) error { return &exitError{code: 1, err: err} }

// oneLine folds an error onto one line, so scripts can rely on it.
func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		out = append(out, r)
	}
	return string(out)
}

// isTerminal reports whether w is a terminal (for defaults like --format
// table). A character device is not enough: /dev/null is one too.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// lateLong gives cmd its long help only when help is shown: the text
// that takes work to write (a list built from tables) is not written on
// every run of the command.
func lateLong(cmd *cobra.Command, long func() string) {
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = long()
		c.SetHelpFunc(nil) // the parent's, cobra's default
		c.HelpFunc()(c, args)
	})
}

// addFormatFlag adds the --format flag every subcommand shares, with shell
// completion of its choices.
func addFormatFlag(cmd *cobra.Command, format *string, def, usage string, choices ...string) {
	cmd.Flags().StringVar(format, "format", def, usage)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp))
}
