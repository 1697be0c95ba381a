package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

func newRebalancesCmd() *cobra.Command {
	var format string
	var atStep int
	var vary variation
	cmd := &cobra.Command{
		Use:   "rebalances FILE|demo:NAME [--at-step N] [--format json|table]",
		Short: "Every rebalance and outage of a run with its cost: rounds, moves, balance, gaps",
		Long: `rebalances simulates the scenario and lists what the lab's numbers pane shows:
the group at a step (partitions per live member, partitions consumed), every
rebalance of the run (its generation or group epoch, when, its rounds, the
partitions it moved, the balance after it, the worst and the total time
partitions went without a consumer, partition by partition), the rebalance
the step is about (the one under way, else the last one finished), and the
stretches outside any rebalance when some partition had no consumer (a
crashed member until its session expires, a static member restarting).

--at-step is the step index as kviz simulate prints it (the lab's header
counts from 1); without it, the last step.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "table" && format != "text" {
				return usageErrf("--format must be json or table, got %q", format)
			}
			if cmd.Flags().Changed("at-step") && atStep < 0 {
				return usageErrf("--at-step must not be negative, got %d", atStep)
			}
			sc, err := loadScenario(args[0])
			if err != nil {
				return err
			}
			if sc, err = vary.apply(sc); err != nil {
				return err
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				return simFailure(sc, err)
			}
			if !cmd.Flags().Changed("at-step") {
				atStep = sim.Len() - 1
			} else if atStep >= sim.Len() {
				return usageErrf("--at-step %d: %s has steps 0..%d", atStep, sc.File, sim.Len()-1)
			}
			n := model.NewLedger(sim).At(atStep)
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), newRebalancesJSON(n, sim.Len()))
			}
			return writeRebalancesTable(cmd.OutOrStdout(), n, sim.Len(), sc.Protocol == string(kafka.ProtocolConsumer))
		},
	}
	addFormatFlag(cmd, &format, "json", "output format: json or table (text)", "json", "table", "text")
	cmd.Flags().IntVar(&atStep, "at-step", -1, "the step the numbers are at (0 = the first; default the last)")
	vary.addFlags(cmd)
	return cmd
}

// rebalancesJSON is kviz rebalances' output: model.Numbers.
type rebalancesJSON struct {
	Step   int           `json:"step"`
	Steps  int           `json:"steps"`
	TimeMs int64         `json:"time_ms"`
	Now    numbersNowOut `json:"now"`
	// Focus is the number (from 1) of the rebalance the step is about:
	// the one under way, else the last finished; null before the first.
	Focus      *int            `json:"focus"`
	Rebalances []rebalanceJSON `json:"rebalances"`
	Outages    []outageJSON    `json:"outages"`
}

type numbersNowOut struct {
	Balance    balanceJSON `json:"balance"`
	Consumed   int         `json:"consumed"`
	Partitions int         `json:"partitions"`
}

type rebalanceJSON struct {
	Number     int         `json:"number"`
	Generation int32       `json:"generation"`
	StartStep  int         `json:"start_step"`
	EndStep    int         `json:"end_step"`
	StartMs    int64       `json:"start_ms"`
	EndMs      int64       `json:"end_ms"`
	Rounds     []roundJSON `json:"rounds"`
	Moves      []moveJSON  `json:"moves"`
	Moved      int         `json:"moved"`
	Balance    balanceJSON `json:"balance"`
	WorstGapMs int64       `json:"worst_gap_ms"`
	TotalGapMs int64       `json:"total_gap_ms"`
	Gaps       []gapJSON   `json:"gaps"`
}

type outageJSON struct {
	StartStep  int       `json:"start_step"`
	EndStep    int       `json:"end_step"`
	StartMs    int64     `json:"start_ms"`
	EndMs      int64     `json:"end_ms"`
	WorstGapMs int64     `json:"worst_gap_ms"`
	Gaps       []gapJSON `json:"gaps"`
}

func newRebalancesJSON(n model.Numbers, steps int) rebalancesJSON {
	out := rebalancesJSON{Step: n.Step, Steps: steps, TimeMs: n.TimeMs,
		Now:        numbersNowOut{balanceJSON{n.Balance.Min, n.Balance.Max}, n.Consumed, n.Partitions},
		Rebalances: []rebalanceJSON{}, Outages: []outageJSON{}}
	if n.Focus >= 0 {
		f := n.Rebalances[n.Focus].Number
		out.Focus = &f
	}
	for _, r := range n.Rebalances {
		j := rebalanceJSON{Number: r.Number, Generation: r.Generation, StartStep: r.StartStep, EndStep: r.EndStep,
			StartMs: r.StartMs, EndMs: r.EndMs, Rounds: roundsJSON(r.Rounds), Moves: movesJSON(r.Moves), Moved: r.Moved,
			Balance: balanceJSON{r.Balance.Min, r.Balance.Max}, WorstGapMs: r.WorstGapMs, TotalGapMs: r.TotalGapMs,
			Gaps: gapsJSON(r.UnownedMs)}
		out.Rebalances = append(out.Rebalances, j)
	}
	for _, o := range n.Outages {
		out.Outages = append(out.Outages, outageJSON{StartStep: o.StartStep, EndStep: o.EndStep, StartMs: o.StartMs,
			EndMs: o.EndMs, WorstGapMs: o.WorstGapMs, Gaps: gapsJSON(o.UnownedMs)})
	}
	return out
}

// gapsJSON lists the partitions that went without a consumer, in partition
// order, as whatif's and compare's "gaps".
func gapsJSON(unowned model.PartitionMs) []gapJSON {
	out := []gapJSON{}
	for _, g := range unowned.Gaps() {
		out = append(out, gapJSON{g.Topic, g.Partition, g.Ms})
	}
	return out
}

// writeRebalancesTable prints the numbers pane as a table: the group now,
// one row per rebalance (the one in focus marked ▸), each rebalance's rounds
// when it took more than one and its gaps, then the outages.
func writeRebalancesTable(w io.Writer, n model.Numbers, steps int, consumer bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d of %d at %s: %d–%d partitions per live member, %d/%d consumed\n",
		n.Step, steps, model.FormatMs(n.TimeMs), n.Balance.Min, n.Balance.Max, n.Consumed, n.Partitions)
	if len(n.Rebalances) == 0 {
		b.WriteString("no rebalance completed in this timeline\n")
	} else {
		gen := "GEN"
		if consumer {
			gen = "EPOCH" // KIP-848: the group epoch
		}
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, " #\t%s\tWHEN\tMIN–MAX\tMOVED\tWORST GAP\tΣ GAP\n", gen)
		for k, r := range n.Rebalances {
			mark := " "
			if k == n.Focus {
				mark = "▸"
			}
			fmt.Fprintf(tw, "%s%d\t%d\t%s\t%d–%d\t%d\t%s\t%s\n", mark, r.Number, r.Generation, model.FormatSpan(r.StartMs, r.EndMs),
				r.Balance.Min, r.Balance.Max, r.Moved, model.FormatDur(r.WorstGapMs), model.FormatDur(r.TotalGapMs))
		}
		if err := tw.Flush(); err != nil {
			return failure(err)
		}
		for _, r := range n.Rebalances {
			fmt.Fprintf(&b, "\n#%d: moves %s\n", r.Number, movesText(r.Moves))
			if len(r.Rounds) > 1 {
				for k, rd := range r.Rounds {
					fmt.Fprintf(&b, "    %s\n", rd.Text(k))
				}
			}
			if len(r.Gaps) > 0 {
				fmt.Fprintf(&b, "no consumer during #%d:\n", r.Number)
				for _, g := range r.Gaps {
					fmt.Fprintf(&b, "  %s\n", g.Text())
				}
			}
		}
	}
	if len(n.Outages) > 0 {
		b.WriteString("\nno consumer outside a rebalance (a member down, no join phase yet):\n")
		for _, o := range n.Outages {
			fmt.Fprintf(&b, "  %s\n", o.Text())
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return failure(err)
	}
	return nil
}
