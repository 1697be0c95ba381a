// Package cli is kviz's command line: one file per subcommand, each a thin
// shell over strategies/ and model/, which hold every rule.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X github.com/kvizlab/kviz/cli.Version=...".
var Version = "0.1.0-dev"

// subcommands are added by each subcommand's file from its init function.
var subcommands []func() *cobra.Command

// runLab opens the interactive lab on a scenario file ("" = the default
// scenario). The lab's file sets it; until then kviz prints its help.
var runLab func(cmd *cobra.Command, file string) error

// NewRoot builds the whole command tree.
func NewRoot() *cobra.Command {
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runLab == nil {
				return cmd.Help()
			}
			return runLab(cmd, "")
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	cmds := make([]*cobra.Command, 0, len(subcommands))
	for _, mk := range subcommands {
		cmds = append(cmds, mk())
	}
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name() < cmds[j].Name() })
	for _, c := range cmds {
		c.SilenceUsage = true
		c.SilenceErrors = true
		root.AddCommand(c)
	}
	return root
}

// Execute runs kviz with args and returns the process exit code.
// Errors are printed as one line on stderr: "kviz: what is wrong".
func Execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot()
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

// addFormatFlag adds the --format flag every subcommand shares, with shell
// completion of its choices.
func addFormatFlag(cmd *cobra.Command, format *string, def, usage string, choices ...string) {
	cmd.Flags().StringVar(format, "format", def, usage)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp))
}
