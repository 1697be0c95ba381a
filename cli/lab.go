package cli

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/tui"
)

func newPlayCmd() *cobra.Command {
	var quiz bool
	cmd := &cobra.Command{
		Use:   "play FILE [FILE...]",
		Short: "Open the lab on a scenario file (or demo:NAME)",
		Long: `play opens the interactive lab on a scenario: a YAML file, or demo:NAME for a
shipped one. The scenario is read and simulated first, so a bad file is reported
(with its line) before the screen changes. "kviz" alone opens demo:` + demo.DefaultName + `.

With several FILEs the lab opens on the first; every file is in the demo picker
(o), first, beside the shipped demos, so the lab can go back to one.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrf("play needs a scenario file (or demo:NAME)")
			}
			return nil
		},
		RunE:              func(cmd *cobra.Command, args []string) error { return showLab(cmd, args[0], quiz, args...) },
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

// showLab is openLab, in quiz mode when quiz is set; the files (kviz play
// FILE...) are in the lab's picker.
func showLab(cmd *cobra.Command, file string, quiz bool, files ...string) error {
	if file == "" {
		file = "demo:" + demo.DefaultName
	}
	app, err := labApp(file)
	if err != nil {
		return err
	}
	if len(files) > 0 {
		sims, err := simulateFiles(files[1:])
		if err != nil {
			return err
		}
		first, ok := app.ModelSim()
		if !ok {
			return failure(fmt.Errorf("%s: not a simulation", file))
		}
		app = app.WithFiles(ownFiles(files, append([]*model.Sim{first}, sims...))...)
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
