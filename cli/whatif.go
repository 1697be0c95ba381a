package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func newWhatIfCmd() *cobra.Command {
	var format string
	var atMs int64
	var ev eventFlags
	var vary variation
	cmd := &cobra.Command{
		Use:   "whatif FILE|demo:NAME --at-ms T (--leave M | --crash M | --restart M | --join M[:t1,t2] | --add-partitions TOPIC:N)",
		Short: "Forecast what one more event does to the group: before, after, moves, rounds, gaps",
		Long: `whatif inserts one event into a scenario's timeline at --at-ms, runs the fork until
the group is settled again (Stable; KIP-848: STABLE with every member at its
target) or the timeline ends, and prints what the group consumed just before
the event, what it consumes once settled, the partitions that changed hands,
the rounds (generations, or group epochs) it took and how long partitions went
without a consumer. It is the lab's w key as a command.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := textOrJSON(cmd, format)
			if err != nil {
				return err
			}
			if atMs < 0 {
				return usageErrf("whatif needs --at-ms T (a virtual time in ms, 0 or more)")
			}
			event, err := ev.event(atMs)
			if err != nil {
				return err
			}
			if event == nil {
				return usageErrf("whatif needs an event: --leave, --crash, --restart, --join or --add-partitions")
			}
			sc, err := loadScenario(args[0])
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("at-ms") && !sc.GivenStart() {
				// a given start (an imported group) is the moment to ask
				// about; a run from empty needs a time
				return usageErrf("whatif needs --at-ms T (a virtual time in ms, 0 or more)")
			}
			resolveMember(sc, event)
			if sc, err = vary.apply(sc); err != nil {
				return err
			}
			f, err := model.ForecastScenario(sc, *event)
			if err != nil {
				// A run that fails without the event is the scenario's
				// fault, said as simulate says it; else the event's.
				if _, baseErr := model.Simulate(sc); baseErr != nil {
					return simFailure(sc, baseErr)
				}
				return usageErrf("%s: %v", sc.File, strings.TrimPrefix(err.Error(), "insert: "))
			}
			if text {
				return writeWhatIfText(cmd.OutOrStdout(), sc, f)
			}
			return whatIfJSON{whatIfHead{Event: eventJSON(f.Event), AtMs: atMs, Strategy: sc.Strategy, Protocol: sc.Protocol,
				Timings: scenario.Timings(sc), Client: model.ClientModel(sc)}, newOutcomeJSON(f.Outcome)}.write(cmd.OutOrStdout())
		},
	}
	addFormatFlag(cmd, &format, "json", "output format: json or text", "json", "text")
	cmd.Flags().Int64Var(&atMs, "at-ms", 0, "when the event happens (virtual ms; default the start of a file that starts from a given state, such as an imported group)")
	ev.add(cmd)
	vary.addFlags(cmd)
	return cmd
}

// whatIfJSON is kviz whatif's output: its head, then the outcome's fields
// in the same object.
type whatIfJSON struct {
	whatIfHead
	outcome outcomeJSON
}

type whatIfHead struct {
	Event    map[string]any `json:"event"`
	AtMs     int64          `json:"at_ms"`
	Strategy string         `json:"strategy"`
	Protocol string         `json:"protocol"`
	// Timings are the timeouts the prediction used, each with where its
	// value came from.
	Timings []scenario.Timing `json:"timings"`
	// Client names whose code computes the assignments: the classic
	// leader's client library, or the KIP-848 coordinator.
	Client string `json:"client"`
}

// write writes j as encoding/json writes the head with the outcome
// embedded, the outcome's large parts streamed as they are made
// (jsonSink).
func (j whatIfJSON) write(w io.Writer) error {
	b, err := json.Marshal(j.whatIfHead)
	if err != nil {
		return failure(err)
	}
	bw := bufio.NewWriter(w)
	s := jsonSink{w: bw, b: b[:len(b)-1]} // the object stays open for the outcome's fields
	j.outcome.writeFields(&s)
	s.b = append(s.b, "}\n"...)
	s.write()
	if s.err == nil {
		s.err = bw.Flush()
	}
	if s.err != nil {
		return failure(s.err)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return failure(err)
	}
	if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
		return failure(err)
	}
	return nil
}

func writeWhatIfText(w io.Writer, sc *scenario.Scenario, f *model.Forecast) error {
	o := f.Outcome
	var b strings.Builder
	fmt.Fprintf(&b, "what if %s at %s (%s, %s protocol)\n", f.Event.Label(), model.FormatMs(f.Event.AtMs), sc.Strategy, sc.Protocol)
	fmt.Fprintf(&b, "  before  %s\n", assignmentText(o.Before))
	fmt.Fprintf(&b, "  after   %s\n", assignmentText(o.After))
	if sc.Protocol == string(kafka.ProtocolShare) {
		fmt.Fprintf(&b, "  moves   %s\n", shareMovesText(o.Moves)) // whatif_share.go
		fmt.Fprintf(&b, "  shared  %s\n", sharedText(o.After))
	} else {
		fmt.Fprintf(&b, "  moves   %s\n", movesText(o.Moves))
	}
	fmt.Fprintf(&b, "  %s\n", outcomeSummary(o))
	fmt.Fprintf(&b, "  timings %s\n", timingsText(scenario.Timings(sc)))
	fmt.Fprintf(&b, "  client  %s\n", model.ClientModel(sc))
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return failure(err)
	}
	return nil
}

// timingsText is "session.timeout.ms 3000 ms (flag --session-timeout) · …".
func timingsText(ts []scenario.Timing) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %d ms (%s)", t.Kafka, t.ValueMs, t.Source))
	}
	return strings.Join(parts, " · ")
}

// outcomeSummary is rounds, settling time, gaps and balance in one line;
// the rounds are the lab's text (Outcome.RoundsText).
func outcomeSummary(o model.Outcome) string {
	return fmt.Sprintf("%s; worst gap %d ms, total gap %d partition-ms; %d–%d partitions per member",
		o.RoundsText(), o.WorstGapMs, o.TotalGapMs, o.Balance.Min, o.Balance.Max)
}

// assignmentText is "c1 t0:0–1 · c2 t0:2 · c3 -".
func assignmentText(a kafka.Holdings) string {
	var parts []string
	for _, id := range a.Members() {
		runs := kafka.PartitionRuns(a.Partitions(id))
		if runs == "" {
			runs = "-"
		}
		parts = append(parts, id+" "+runs)
	}
	if len(parts) == 0 {
		return "nobody"
	}
	return strings.Join(parts, " · ")
}

// movesText is "t0-1 c1→c3, t0-4 c2→nobody" (kafka.Move's text).
func movesText(moves []kafka.Move) string {
	if len(moves) == 0 {
		return "none"
	}
	parts := make([]string, len(moves))
	for i, m := range moves {
		parts[i] = m.String()
	}
	return strings.Join(parts, ", ")
}
