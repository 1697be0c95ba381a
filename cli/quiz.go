package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model"
)

func newQuizCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "quiz FILE|demo:NAME",
		Short: "Print the lab's predict-then-reveal questions for a scenario, with their answers",
		Long: `quiz prints the questions the lab's quiz mode (z, or kviz play --quiz) asks on a
scenario: before the step that reveals a rebalance's outcome it asks who gets a
partition, what a member revokes or how many rounds the rebalance takes, and
whether a restart causes a rebalance. Each question names the step it is asked
at, the step that reveals it, its choices and the index of the right one (0 =
the first); the wrong choices are what another assignor would have done, the
previous owner, a neighbouring count. Every answer is read from the simulated
trace.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrf("quiz needs exactly one scenario file (or demo:NAME), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "text" {
				return usageErrf("--format must be json or text, got %q", format)
			}
			sc, err := loadScenario(args[0])
			if err != nil {
				return err
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				return simFailure(sc, err)
			}
			qs := sim.Quiz()
			if format == "json" {
				return printQuizJSON(cmd.OutOrStdout(), qs)
			}
			return printQuizText(cmd.OutOrStdout(), qs)
		},
	}
	addFormatFlag(cmd, &format, "text", "output format: json or text", "json", "text")
	return cmd
}

func printQuizJSON(w io.Writer, qs []model.Question) error {
	if qs == nil {
		qs = []model.Question{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Questions []model.Question `json:"questions"`
	}{qs}); err != nil {
		return failure(err)
	}
	return nil
}

func printQuizText(w io.Writer, qs []model.Question) error {
	var b strings.Builder
	if len(qs) == 0 {
		b.WriteString("no questions: the scenario has no rebalance or restart to predict\n")
	}
	for n, q := range qs {
		fmt.Fprintf(&b, "%d. [%s] asked at step %d, revealed at step %d\n   %s\n", n+1, q.Kind, q.Step, q.RevealStep, q.Text)
		for i, c := range q.Choices {
			mark := " "
			if i == q.Answer {
				mark = "*"
			}
			fmt.Fprintf(&b, "   %s %d) %s\n", mark, i+1, c)
		}
		for _, line := range wrapWords(q.Explain, 96) {
			fmt.Fprintf(&b, "     %s\n", line)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return failure(err)
	}
	return nil
}
