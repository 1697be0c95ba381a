package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// simulateLong is simulate's --help text, with the shipped demos' names.
func simulateLong() string {
	return `simulate plays a scenario file (YAML: cluster, topics, group settings, members,
timeline) through Kafka's group protocol on a virtual clock and prints one step
per line: every JoinGroup, SyncGroup, callback and state change. FILE is a path,
or demo:NAME for a shipped scenario (` + strings.Join(demo.Names(), ", ") + `).
Routine heartbeats that change nothing are left out unless --all. A quiet
stretch of ten heartbeat intervals or more runs as one QuietStretch step
("45 min quiet: 900 heartbeats per member, nothing changed");
--every-heartbeat runs each of its heartbeats instead (with --all, to see
them one by one; long scenarios can then reach the step cap).
--strategy and --protocol run the scenario as if its group: said so, with every
default that depends on them derived again.
--changes (with --format jsonl) writes the first line in full and each later
line as a JSON Merge Patch (RFC 7396) of the line before it: only the owners,
targets, epochs, states and lag that changed, null for what is gone, with the
step's own fields on every line. Applying the lines in order rebuilds every
full line exactly; a large group's output then grows with its changes, not
with steps × partitions.`
}

func newSimulateCmd() *cobra.Command {
	var format string
	var untilMs int64
	var all, everyHeartbeat, changes bool
	var vary variation
	cmd := &cobra.Command{
		Use:   "simulate FILE",
		Short: "Run a group scenario step by step and print the protocol trace",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "jsonl" {
				return usageErrf("--format must be text or jsonl, got %q", format)
			}
			if changes && format != "jsonl" {
				return usageErrf("--changes needs --format jsonl (text lines carry no state)")
			}
			if untilMs < -1 {
				return usageErrf("--until-ms must not be negative, got %d", untilMs)
			}
			sc, err := loadScenario(args[0])
			if err != nil {
				return err
			}
			if sc, err = vary.apply(sc); err != nil {
				return err
			}
			if everyHeartbeat {
				every := *sc
				every.EveryHeartbeat = true
				sc = &every
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				if sim != nil && sim.Len() > 0 {
					_ = printSim(cmd.OutOrStdout(), sim, format, untilMs, all, changes)
				}
				return simFailure(sc, err)
			}
			return printSim(cmd.OutOrStdout(), sim, format, untilMs, all, changes)
		},
	}
	addFormatFlag(cmd, &format, "text", "output format: text or jsonl", "text", "jsonl")
	cmd.Flags().Int64Var(&untilMs, "until-ms", -1, "print only the steps up to this virtual time (ms)")
	cmd.Flags().BoolVar(&all, "all", false, "include routine heartbeats that change nothing")
	cmd.Flags().BoolVar(&everyHeartbeat, "every-heartbeat", false, "run every heartbeat of a quiet stretch instead of jumping it")
	cmd.Flags().BoolVar(&changes, "changes", false, "with --format jsonl: after the first line, write only what changed (JSON Merge Patch of the line before)")
	vary.addFlags(cmd)
	lateLong(cmd, simulateLong)
	return cmd
}

// variation is the --strategy/--protocol pair the scenario twins share.
type variation struct{ strategy, protocol string }

func (v *variation) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&v.strategy, "strategy", "", "run under this assignor instead of the scenario's (range, roundrobin, sticky, cooperative-sticky, uniform, range-server)")
	cmd.Flags().StringVar(&v.protocol, "protocol", "", "run under this protocol (eager, cooperative, consumer; default: the strategy's preferred one)")
	_ = cmd.RegisterFlagCompletionFunc("protocol", cobra.FixedCompletions([]string{"eager", "cooperative", "consumer"}, cobra.ShellCompDirectiveNoFileComp))
}

// apply is the scenario as its file would be with the flags' values under
// group: (the model derives the rest); no flags, the scenario itself.
func (v *variation) apply(sc *scenario.Scenario) (*scenario.Scenario, error) {
	if v.strategy == "" && v.protocol == "" {
		return sc, nil
	}
	strategy, protocol := v.strategy, v.protocol
	if strategy == "" {
		strategy = sc.Strategy
	}
	varied, err := sc.WithStrategy(strategy, protocol)
	if err != nil {
		return nil, usageErrf("%s: %v", sc.File, err)
	}
	return varied, nil
}

// simFailure is a simulation that stopped with err, named by its scenario:
// the step cap guards against a loop and refuses the scenario (exit 2);
// anything else is a failure of kviz (exit 1).
func simFailure(sc *scenario.Scenario, err error) error {
	err = fmt.Errorf("%s: %w", sc.File, err)
	if capped := (*model.StepCapError)(nil); errors.As(err, &capped) {
		return usageErr(err)
	}
	return failure(err)
}

// loadScenario reads a scenario from a path or a demo:NAME.
func loadScenario(arg string) (*scenario.Scenario, error) {
	var data []byte
	name := arg
	if d, ok := strings.CutPrefix(arg, "demo:"); ok {
		resolved, err := demo.Resolve(d)
		if err != nil {
			return nil, usageErr(err)
		}
		data, _ = demo.Get(resolved)
		name = resolved + ".yaml"
	} else {
		b, err := os.ReadFile(arg)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, usageErrf("%s: no such file", arg)
			}
			return nil, usageErrf("%s: %v", arg, err)
		}
		data = b
	}
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return nil, usageErr(err)
	}
	return sc, nil
}

func printSim(out io.Writer, sim *model.Sim, format string, untilMs int64, all, changes bool) error {
	w := bufio.NewWriter(out)
	if format == "text" {
		printHeader(w, sim.Scenario())
	}
	var patches *model.ChangeLines
	if changes {
		patches = sim.ChangeLines()
	}
	var line []byte
	var shares []model.ShareRecords // a share group's records as last printed
	for i := 0; i < sim.Len(); i++ {
		st := sim.StepHead(i)
		if untilMs >= 0 && st.TimeMs > untilMs {
			break
		}
		if st.Routine && !all {
			continue
		}
		if format == "text" && patches == nil {
			st = sim.StepLine(i)
		}
		if patches != nil {
			line = append(patches.Append(line[:0], i), '\n')
		} else if format == "jsonl" {
			line = append(sim.AppendStepJSON(line[:0], i), '\n')
		} else {
			line = append(append(line[:0], textLine(st)...), '\n')
			line, shares = appendShareLines(line, sim, i, shares)
		}
		if _, err := w.Write(line); err != nil {
			return failure(err)
		}
	}
	if err := w.Flush(); err != nil {
		return failure(err)
	}
	return nil
}

func printHeader(w io.Writer, sc *scenario.Scenario) {
	if sc.Title != "" {
		fmt.Fprintf(w, "# %s\n", sc.Title)
	}
	for _, line := range wrapWords(sc.Notes, 100) {
		fmt.Fprintf(w, "#   %s\n", line)
	}
	fmt.Fprintf(w, "# group %s: %s, %s protocol; session %d ms, heartbeat %d ms, max.poll %d ms, initial delay %d ms\n",
		sc.GroupID, sc.Strategy, sc.Protocol, sc.SessionTimeoutMs, sc.HeartbeatIntervalMs, sc.MaxPollIntervalMs, sc.InitialRebalanceDelayMs)
}

// textLine prints one step: number, time, kind, member, sentence, and the
// group state it left behind.
func textLine(st model.Step) string {
	who := st.Member
	if who == "" {
		who = "-"
	}
	errPart := ""
	if st.Error != "" && st.Error != "NONE" {
		errPart = " [" + st.Error + "]"
	}
	gen := "gen"
	if st.ConsumerProtocol() {
		gen = "group epoch"
	}
	return fmt.Sprintf("%5d %9.3fs  %-30s %-6s %s%s  (%s, %s %d)",
		st.Index, float64(st.TimeMs)/1000, st.Kind, who, st.Text, errPart, st.GroupState, gen, st.Generation)
}

// shareIndent puts a share-partition's records under the step's sentence.
const shareIndent = "                  "

// appendShareLines adds, under a share group's step, a line for each
// share-partition whose records the step (or a routine step left out
// before it) changed: who holds which records, what is ready, what is
// done, as the lab's grid shows them (model.ShareRecords.Line).
func appendShareLines(line []byte, sim *model.Sim, i int, before []model.ShareRecords) ([]byte, []model.ShareRecords) {
	now := sim.ShareRecords(i)
	for _, sr := range model.ChangedShareRecords(before, now) {
		line = append(append(append(line, shareIndent...), sr.Line()...), '\n')
	}
	return line, now
}

// wrapWords breaks narration into lines of at most width characters.
func wrapWords(text string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
