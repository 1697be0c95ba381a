package cli

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/tui"
)

func newPlayCmd() *cobra.Command {
	var quiz bool
	cmd := &cobra.Command{
		Use:   "play FILE",
		Short: "Open the lab on a scenario file (or demo:NAME)",
		Long: `play opens the interactive lab on a scenario: a YAML file, or demo:NAME for a
shipped one. The scenario is read and simulated first, so a bad file is reported
(with its line) before the screen changes. "kviz" alone opens demo:` + demo.DefaultName + `.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrf("play needs exactly one scenario file (or demo:NAME), got %d arguments", len(args))
			}
			return nil
		},
		RunE:              func(cmd *cobra.Command, args []string) error { return showLab(cmd, args[0], quiz) },
		ValidArgsFunction: completeScenario,
	}
	cmd.Flags().BoolVar(&quiz, "quiz", false, "start in quiz mode: stop before each rebalance's outcome and ask (z toggles it)")
	return cmd
}

// completeScenario completes demo:NAME (with each demo's title as its
// description) and, unless the word already starts with demo:, files.
func completeScenario(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	entries, err := demo.Demos()
	if err != nil {
		return nil, cobra.ShellCompDirectiveError
	}
	var out []string
	for _, e := range entries {
		if name := "demo:" + e.Name; strings.HasPrefix(name, toComplete) {
			out = append(out, name+"\t"+e.Title)
		}
	}
	if strings.HasPrefix(toComplete, "demo:") {
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	return out, cobra.ShellCompDirectiveDefault // and scenario files
}

// labApp loads and simulates a scenario and opens the lab on it (the
// screen is not touched: export draws it without a terminal).
func labApp(file string) (tui.App, error) {
	sc, err := loadScenario(file)
	if err != nil {
		return tui.App{}, err
	}
	app, err := tui.New(sc)
	if err != nil {
		return tui.App{}, failure(fmt.Errorf("%s: %v", sc.File, err))
	}
	return app, nil
}

// openLab loads, simulates and shows a scenario ("" = the default demo).
// Every check that can fail happens before Bubble Tea takes the terminal,
// so an error is one plain line on a normal screen.
func openLab(cmd *cobra.Command, file string) error { return showLab(cmd, file, false) }

// showLab is openLab, in quiz mode when quiz is set.
func showLab(cmd *cobra.Command, file string, quiz bool) error {
	if file == "" {
		file = "demo:" + demo.DefaultName
	}
	app, err := labApp(file)
	if err != nil {
		return err
	}
	if !isTerminal(cmd.OutOrStdout()) {
		return usageErrf("the lab needs a terminal; for a text trace run: kviz simulate %s", file)
	}
	app = app.WithQuiz(quiz)
	p := tea.NewProgram(app,
		tea.WithContext(cmd.Context()),
		tea.WithInput(cmd.InOrStdin()),
		tea.WithOutput(cmd.OutOrStdout()))
	// Bubble Tea restores the terminal on return, also after a panic in
	// Update or View (it recovers them and reports ErrProgramPanic).
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return failure(fmt.Errorf("lab: %w", err))
	}
	return nil
}
