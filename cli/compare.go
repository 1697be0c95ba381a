package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func newCompareCmd() *cobra.Command {
	var format, list, protocol string
	var atMs int64
	var atStep int
	var ev eventFlags
	cmd := &cobra.Command{
		Use:   "compare FILE|demo:NAME [--at-ms T | --at-step N] [--leave M | --crash M | --restart M | --join M[:t1,t2] | --add-partitions TOPIC:N]",
		Short: "The same moment under several assignors: who gets what, moves, rounds, gaps",
		Long: `compare runs the scenario once per strategy (range, roundrobin, sticky,
cooperative-sticky and uniform by default, each under the protocol it prefers
unless --protocol) and reads the same moment in each run: with an event flag,
what inserting that event at --at-ms leads to (as kviz whatif); without, the
first rebalance that starts at or after --at-ms (default 0). It is the lab's c
key as a command; --format table prints the slide.

--at-step N takes the lab's moment at step N (the step index as kviz simulate
prints it): inside a rebalance, the scenario event that set it off (the latest
after the rebalance before it), so each strategy's row is that rebalance;
outside one, the step's time. With an event flag, the event goes where the
lab's keys insert it, 1 ms after the step.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "table" && format != "text" {
				return usageErrf("--format must be json or table, got %q", format)
			}
			if atMs < 0 {
				return usageErrf("--at-ms must not be negative, got %d", atMs)
			}
			byStep := cmd.Flags().Changed("at-step")
			switch {
			case byStep && cmd.Flags().Changed("at-ms"):
				return usageErrf("--at-ms and --at-step both pick the moment: give one")
			case byStep && atStep < 0:
				return usageErrf("--at-step must not be negative, got %d", atStep)
			}
			if _, err := ev.event(0); err != nil {
				return err
			}
			variants, err := parseVariants(list, protocol)
			if err != nil {
				return err
			}
			sc, err := loadScenario(args[0])
			if err != nil {
				return err
			}
			if byStep {
				if atMs, err = stepMoment(sc, atStep, ev.given()); err != nil {
					return err
				}
			}
			event, err := ev.event(atMs)
			if err != nil {
				return err
			}
			resolveMember(sc, event)
			if list == "" && (protocol == "" || scenario.IsShare(sc)) {
				variants = model.DefaultVariants(sc) // the lab's c rows too
			}
			rows := model.Compare(sc, atMs, event, variants)
			if format == "json" {
				out := newCompareJSON(sc, atMs, event, rows)
				if byStep {
					out.AtStep = &atStep
				}
				return writeJSON(cmd.OutOrStdout(), out)
			}
			return writeCompareTable(cmd.OutOrStdout(), sc, atMs, event, rows)
		},
	}
	addFormatFlag(cmd, &format, "json", "output format: json or table (text)", "json", "table", "text")
	cmd.Flags().Int64Var(&atMs, "at-ms", 0, "the moment to compare (virtual ms): the event's time, or where to look for the next rebalance")
	cmd.Flags().IntVar(&atStep, "at-step", 0, "the lab's moment at this step (0 = the first), as its c key (or an event key) takes it")
	cmd.Flags().StringVar(&list, "strategies", "", "comma-separated strategies (default range,roundrobin,sticky,cooperative-sticky,uniform)")
	cmd.Flags().StringVar(&protocol, "protocol", "", "run every strategy under this protocol instead of its preferred one")
	ev.add(cmd)
	return cmd
}

// stepMoment is the lab's moment at step i of the scenario as it is: where
// its compare reads (model.Ledger.CompareMoment), or, for an event, where
// its keys insert one (model.Ledger.InsertMoment).
func stepMoment(sc *scenario.Scenario, i int, event bool) (int64, error) {
	sim, err := model.Simulate(sc)
	if err != nil {
		return 0, simFailure(sc, err)
	}
	if i >= sim.Len() {
		return 0, usageErrf("--at-step %d: %s has steps 0..%d", i, sc.File, sim.Len()-1)
	}
	l := model.NewLedger(sim)
	if event {
		return l.InsertMoment(i), nil
	}
	return l.CompareMoment(i), nil
}

// parseVariants reads --strategies and --protocol. An unknown strategy or
// protocol is bad input; a known strategy that cannot run under the
// protocol is a row of its own that says so.
func parseVariants(list, protocol string) ([]model.Variant, error) {
	if protocol != "" && !slices.Contains(kafka.Protocols(), kafka.Protocol(protocol)) {
		return nil, usageErrf("--protocol must be eager, cooperative or consumer, got %q", protocol)
	}
	names := kafka.CompareStrategies()
	if list != "" {
		names = strings.Split(list, ",")
	}
	var out []model.Variant
	for _, s := range names {
		if s = strings.TrimSpace(s); s == "" {
			return nil, usageErrf("--strategies has an empty name in %q", list)
		}
		if kafka.PreferredProtocol(s) == "" {
			return nil, usageErrf("--strategies: unknown strategy %q (valid: %s)", s, strings.Join(kafka.StrategyNames(), ", "))
		}
		out = append(out, model.Variant{Strategy: s, Protocol: protocol})
	}
	return out, nil
}

type compareRowJSON struct {
	Strategy string `json:"strategy"`
	// KafkaVersion is the release a share group's row runs (its label:
	// "4.0", "4.1", "4.2+"); absent for other groups' rows.
	KafkaVersion string  `json:"kafka_version,omitempty"`
	Protocol     string  `json:"protocol"`
	Error        *string `json:"error,omitempty"`
	Found        bool    `json:"found"`
	// Start says how a given start became this row's, when the row runs
	// the other protocol family (classic ↔ KIP-848).
	Start string `json:"start,omitempty"`
	// Timings are the timeouts the row used and where each came from.
	Timings []scenario.Timing `json:"timings,omitempty"`
	// Client names whose code computes the row's assignments.
	Client string `json:"client,omitempty"`
	// SkippedAcks: a share row under another release than the script's
	// answered these acknowledgements INVALID_RECORD_STATE and skipped them:
	// the member did not hold those records under that release.
	SkippedAcks []skippedAckJSON `json:"skipped_acks,omitempty"`
	outcomeJSON
}

type skippedAckJSON struct {
	Line      int     `json:"line"`
	AtMs      int64   `json:"at_ms"`
	Member    string  `json:"member"`
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Offsets   []int64 `json:"offsets"`
	Why       string  `json:"why"`
}

func skippedJSON(acks []model.SkippedAck) []skippedAckJSON {
	var out []skippedAckJSON
	for _, a := range acks {
		out = append(out, skippedAckJSON{Line: a.Line, AtMs: a.AtMs, Member: a.Member, Topic: a.TP.Topic, Partition: a.TP.Partition, Offsets: a.Offsets, Why: a.Why})
	}
	return out
}

// skippedText is a row's skipped acknowledgements in one line.
func skippedText(r model.CompareRow) string {
	var parts []string
	for _, a := range r.Skipped {
		parts = append(parts, fmt.Sprintf("line %d %s %s-%d %s", a.Line, a.Member, a.TP.Topic, a.TP.Partition, model.OffsetsText(a.Offsets)))
	}
	word := "acknowledgements"
	if len(r.Skipped) == 1 {
		word = "acknowledgement"
	}
	return fmt.Sprintf("%d %s of records the member does not hold under Kafka %s (INVALID_RECORD_STATE): %s",
		len(r.Skipped), word, r.Variant.Label, strings.Join(parts, "; "))
}

type compareJSON struct {
	AtMs   int64          `json:"at_ms"`
	AtStep *int           `json:"at_step,omitempty"` // --at-step: the step the moment is the lab's of
	Event  map[string]any `json:"event"`
	// Compares says what the rows compare, in words.
	Compares   string           `json:"compares"`
	Strategies []compareRowJSON `json:"strategies"`
}

func newCompareJSON(sc *scenario.Scenario, atMs int64, ev *scenario.Event, rows []model.CompareRow) compareJSON {
	out := compareJSON{AtMs: atMs, Compares: comparesText(sc, atMs, ev, rows), Strategies: []compareRowJSON{}}
	if ev != nil {
		out.Event = eventJSON(*ev)
	}
	for _, r := range rows {
		j := compareRowJSON{Strategy: r.Strategy, KafkaVersion: r.Variant.Label, Protocol: r.Protocol, Found: r.Found, outcomeJSON: newOutcomeJSON(r.Outcome),
			Start: sc.FamilyNote(r.Strategy, r.Protocol), Timings: rowTimings(sc, r), Client: rowClient(sc, r), SkippedAcks: skippedJSON(r.Skipped)}
		if r.Err != nil {
			msg := strings.TrimPrefix(r.Err.Error(), "insert: ")
			j.Error = &msg
		}
		out.Strategies = append(out.Strategies, j)
	}
	return out
}

// comparesText says what compare's rows compare: the event, the rebalance a
// caught group is in, the first rebalance from --at-ms on, or, when no row
// has one, that there is nothing to compare and how to ask.
func comparesText(sc *scenario.Scenario, atMs int64, ev *scenario.Event, rows []model.CompareRow) string {
	switch {
	case ev != nil:
		return fmt.Sprintf("what if %s at %s", ev.Label(), model.FormatMs(atMs))
	case sc.Classic.Rebalance != "" && atMs == 0:
		return fmt.Sprintf("the rebalance the group was caught in (%s, generation %d), from the same start under each strategy", caughtState(sc), sc.Generation)
	case !noneFound(rows):
		return fmt.Sprintf("the first rebalance at or after %s", model.FormatMs(atMs))
	case sc.GivenStart():
		return fmt.Sprintf("nothing to compare: the group starts settled at %s (a given start) and no rebalance starts at or after %s under any strategy; give an event (--leave M, --crash M, --restart M, --join M or --add-partitions TOPIC:N) to compare what it does",
			startCounter(sc), model.FormatMs(atMs))
	}
	return fmt.Sprintf("nothing to compare: no rebalance starts at or after %s under any strategy; give an earlier --at-ms or an event (--leave M, --crash M, --restart M, --join M or --add-partitions TOPIC:N)", model.FormatMs(atMs))
}

// rowTimings are the timings of a row's run (nil for a row that could not
// run).
func rowTimings(sc *scenario.Scenario, r model.CompareRow) []scenario.Timing {
	if r.Err != nil {
		return nil
	}
	varied, err := r.Variant.WithVersion(sc).AcrossFamilies(r.Strategy, r.Protocol)
	if err != nil {
		return nil
	}
	return scenario.Timings(varied)
}

// rowClient names whose code computes a row's assignments.
func rowClient(sc *scenario.Scenario, r model.CompareRow) string {
	if r.Err != nil {
		return ""
	}
	varied, err := r.Variant.WithVersion(sc).WithStrategy(r.Strategy, r.Protocol)
	if err != nil {
		return ""
	}
	return model.ClientModel(varied)
}

// noneFound: no row ran into a rebalance, and none failed.
func noneFound(rows []model.CompareRow) bool {
	for _, r := range rows {
		if r.Found || r.Err != nil {
			return false
		}
	}
	return true
}

func caughtState(sc *scenario.Scenario) string {
	if sc.Classic.Rebalance == scenario.RebalanceCompleting {
		return string(kafka.CompletingRebalance)
	}
	return string(kafka.PreparingRebalance)
}

func startCounter(sc *scenario.Scenario) string {
	if scenario.IsConsumer(sc) {
		return fmt.Sprintf("group epoch %d", sc.Generation)
	}
	return fmt.Sprintf("generation %d", sc.Generation)
}

// writeRowTimings lists the timings the rows used, once per distinct set
// (the classic and the KIP-848 rows differ).
func writeRowTimings(b *strings.Builder, sc *scenario.Scenario, rows []model.CompareRow) {
	var order []string
	by := map[string][]string{}
	for _, r := range rows {
		ts := rowTimings(sc, r)
		if ts == nil {
			continue
		}
		text := timingsText(ts)
		if by[text] == nil {
			order = append(order, text)
		}
		by[text] = append(by[text], rowName(r))
	}
	for _, text := range order {
		fmt.Fprintf(b, "\ntimings (%s): %s\n", strings.Join(by[text], ", "), text)
	}
}

// writeCompareTable prints one row per strategy, then each one's result.
func writeCompareTable(w io.Writer, sc *scenario.Scenario, atMs int64, ev *scenario.Event, rows []model.CompareRow) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", comparesText(sc, atMs, ev, rows))
	if ev == nil && noneFound(rows) {
		var names []string
		for _, r := range rows {
			names = append(names, rowName(r))
		}
		fmt.Fprintf(&b, "strategies: %s\n", strings.Join(names, ", "))
		_, err := io.WriteString(w, b.String())
		if err != nil {
			return failure(err)
		}
		return nil
	}
	tw := tabwriter.NewWriter(&b, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STRATEGY\tPROTOCOL\tMOVED\tROUNDS\tWORST GAP\tTOTAL GAP\tBALANCE\tSETTLED")
	for _, r := range rows {
		if r.Err != nil || !r.Found {
			why := "no rebalance then"
			if r.Err != nil {
				why = strings.TrimPrefix(r.Err.Error(), "insert: ")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", rowName(r), orDash(r.Protocol), why)
			continue
		}
		o := r.Outcome
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d ms\t%d ms\t%d–%d\t%s\n", rowName(r), r.Protocol, o.Moved, len(o.Rounds),
			o.WorstGapMs, o.TotalGapMs, o.Balance.Min, o.Balance.Max, model.FormatMs(o.SettledMs))
	}
	if err := tw.Flush(); err != nil {
		return failure(err)
	}
	for _, r := range rows {
		if r.Err != nil || !r.Found {
			continue
		}
		if r.Protocol == string(kafka.ProtocolShare) {
			fmt.Fprintf(&b, "\n%s: %s\n  moves  %s\n  shared %s\n", rowName(r), assignmentText(r.Outcome.After), shareMovesText(r.Outcome.Moves), sharedText(r.Outcome.After))
		} else {
			fmt.Fprintf(&b, "\n%s: %s\n  moves  %s\n", r.Strategy, assignmentText(r.Outcome.After), movesText(r.Outcome.Moves))
		}
		if note := sc.FamilyNote(r.Strategy, r.Protocol); note != "" {
			fmt.Fprintf(&b, "  start  %s\n", note)
		}
		fmt.Fprintf(&b, "  client %s\n", rowClient(sc, r))
		if len(r.Skipped) > 0 {
			fmt.Fprintf(&b, "  skipped %s\n", skippedText(r))
		}
	}
	writeRowTimings(&b, sc, rows)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return failure(err)
	}
	return nil
}
