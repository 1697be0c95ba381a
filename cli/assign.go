package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kvizlab/kviz/strategies"
)

// newAssignCmd is `kviz assign`: one assignment by one of Kafka's assignors,
// for scripts (json) and people (table). Its flags, input and json output
// are a contract other tools rely on.
func newAssignCmd() *cobra.Command {
	var (
		strategy, in, format, version string
		explain                       bool
	)
	cmd := &cobra.Command{
		Use:   "assign --strategy S [--in FILE|-] [--format json|table] [--explain] [--kafka-version V]",
		Short: "Assign a group's partitions with one of Kafka's assignors",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAssign(cmd, strategy, in, format, version, explain)
		},
	}
	f := cmd.Flags()
	f.StringVar(&strategy, "strategy", "", "assignor: "+strings.Join(strategies.AllNames(), ", ")+" (or Kafka's class name)")
	f.StringVar(&in, "in", "-", `input JSON file ("-" = stdin)`)
	addFormatFlag(cmd, &format, "", "output format: json or table (default: table on a terminal, json otherwise)", "json", "table")
	f.BoolVar(&explain, "explain", false, "print the assignor's steps")
	f.StringVar(&version, "kafka-version", "", "the Kafka release whose assignor runs (default: the newest kviz models)")
	lateLong(cmd, assignLong)
	_ = cmd.MarkFlagRequired("strategy")
	_ = cmd.RegisterFlagCompletionFunc("strategy", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return strategies.AllNames(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.MarkFlagFilename("in", "json")
	return cmd
}

// assignLong is assign's --help text, with the release list from strategies.
func assignLong() string {
	return `Reads a group as JSON and prints the assignment Kafka's assignor gives it.

Input (from --in FILE, or stdin when --in is absent or "-"):
  {"topics": {"t0": 3, "t1": 2},
   "partition_racks": {"t0": [["r1","r2"], ["r2","r3"], ["r3","r1"]]},
   "topic_ids": {"t0": "MkZ0Wr0bTXqCW3qLP7Ye4Q"}, "assignable": {"t0": [0, 1]},
   "members": [{"id": "c0", "topics": ["t0","t1"], "owned": {"t0": [0]},
                "generation": 3, "rack": "r1", "instance": "i0"}]}
Only "members" and each member's "id" are required. A member without "topics"
subscribes to every topic. "generation" defaults to -1 (none), "partition_racks"
lists the racks of each partition's replicas, "instance" is group.instance.id.
Unknown fields are errors. A member may subscribe to a topic that is not in
"topics" (deleted, or never created), own partitions of one, or list a topic
twice: each assignor treats that as Kafka's does, and a "note:" line says how
(under the table, on stderr with json, first in --explain). An owned partition
beyond an existing topic's count is refused by the assignors that read owned
partitions (sticky, cooperative-sticky, uniform, simple).

simple is the share-group (KIP-932) assignor; several members may hold one
partition, and "owned" is a member's current target. From Kafka 4.1 its
answer follows Java's hash orders over member ids and topic ids: members are
put into the coordinator's map in input order, "topic_ids" gives topics their
Kafka Uuids (base64; a topic without one gets an id derived from its name,
said in a note), and "assignable" lists the share-partitions whose state is
initialised (absent: all; a topic it does not list has none). A group on
which Kafka's assignor throws is an error (exit 1) naming the exception.

Output with --format json: {"c0": {"t0": [0, 1, 2], "t1": [0]}, "c1": {}}
on one line: every member in input order, its topics in name order,
partitions ascending. Partitions cooperative-sticky withholds this round are in
no member's list; --format table and --explain name them.
--format table (the default on a terminal) prints MEMBER, INSTANCE, #PARTITIONS
and ASSIGNMENT (t0:0,1;t1:2), the balance, and, when "owned" was given, how
many partitions moved. --explain adds the assignor's steps: after the table,
or on stderr with --format json so stdout stays parseable.

--kafka-version V (major.minor[.patch]; default the newest kviz models, ` + strategies.LatestClientVersion.String() + `)
runs the assignor as that release has it. What changed, release by release
(the same versions select the producer's partitioners in scenarios):
` + strategies.VersionHelp()
}

func runAssign(cmd *cobra.Command, strategy, in, format, version string, explain bool) error {
	assignor, err := strategies.LookupAny(strategy)
	if err != nil {
		return usageErr(err)
	}
	var release strategies.ClientVersion
	if cmd.Flags().Changed("kafka-version") {
		if release, err = strategies.ParseClientVersion(version); err != nil {
			return usageErrf("--kafka-version: %v", err)
		}
		if err := strategies.CheckRelease(assignor, release); err != nil {
			return usageErrf("--kafka-version: %v", err)
		}
	}
	stdout := cmd.OutOrStdout()
	switch format {
	case "":
		format = "json"
		if isTerminal(stdout) {
			format = "table"
		}
	case "json", "table":
	default:
		return usageErrf("--format %q: want json or table", format)
	}
	data, source, err := readAssignInput(cmd.InOrStdin(), in)
	if err != nil {
		return usageErr(err)
	}
	g, err := parseAssignInput(data, assignor)
	if err != nil {
		return usageErrf("%s: %v", source, err)
	}
	data = nil // the raw input can go before the assignment allocates
	g.Version = release

	var ex *strategies.Explainer
	if explain {
		ex = strategies.NewExplainer(0)
	}
	// What a tidy input would not hold (a topic that does not exist, one
	// listed twice) is said once: in the explanation, else on stderr beside
	// json, else under the table.
	notes := strategies.InputNotes(assignor, g)
	res := assignor.Assign(g, ex)
	if res.Err != nil {
		for _, n := range notes {
			fmt.Fprintln(cmd.ErrOrStderr(), "note: "+n)
		}
		if explain {
			for _, line := range res.Explanation {
				fmt.Fprintln(cmd.ErrOrStderr(), line)
			}
		}
		return failure(fmt.Errorf("%s (Kafka %s): %w", assignor.Name(), g.Version.OrLatest(), res.Err))
	}

	w := bufio.NewWriterSize(stdout, 1<<16)
	explainTo := w
	if format == "json" {
		writeAssignmentJSON(w, g, res.Assignment)
		explainTo = bufio.NewWriter(cmd.ErrOrStderr())
	} else {
		writeAssignmentTable(w, g, res)
	}
	if explain || format == "json" {
		if explain && format == "table" {
			fmt.Fprintln(w)
		}
		for _, n := range notes {
			fmt.Fprintln(explainTo, "note: "+n)
		}
		if explain {
			for _, line := range res.Explanation {
				fmt.Fprintln(explainTo, line)
			}
		}
		if err := explainTo.Flush(); err != nil {
			return failure(err)
		}
	} else {
		for _, n := range notes {
			fmt.Fprintln(w, "note: "+n)
		}
	}
	if err := w.Flush(); err != nil {
		return failure(err)
	}
	return nil
}

// readAssignInput reads the whole input and names its source for errors.
func readAssignInput(stdin io.Reader, in string) ([]byte, string, error) {
	if in == "" || in == "-" {
		if f, ok := stdin.(*os.File); ok && isTerminal(f) {
			return nil, "", fmt.Errorf("no input: pipe the group's JSON on stdin or pass --in FILE (see kviz assign --help)")
		}
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, "", fmt.Errorf("reading stdin: %w", err)
		}
		return data, "stdin", nil
	}
	data, err := os.ReadFile(in)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read --in: %w", err)
	}
	return data, in, nil
}

// writeAssignmentJSON writes {"member": {"topic": [partitions]}} by hand:
// members in input order, topics in Java name order, partitions ascending.
// By hand because a million partitions through encoding/json's reflection
// and map-key sorting cost more than the assignment itself. Names are
// encoded once and topics sorted by a precomputed rank, not compared as
// strings per member.
func writeAssignmentJSON(w *bufio.Writer, g strategies.Group, a strategies.Assignment) {
	order := assignmentTopicOrder(g, a)
	encoded := make([][]byte, len(order.names))
	for i, t := range order.names {
		encoded[i] = jsonString(t)
	}
	var num []byte
	var ranks []int
	w.WriteByte('{')
	for i, m := range g.Members {
		if i > 0 {
			w.WriteString(", ")
		}
		w.Write(jsonString(m.ID))
		w.WriteString(": {")
		topics := a[m.ID]
		ranks = order.ranks(topics, ranks[:0])
		for j, r := range ranks {
			if j > 0 {
				w.WriteString(", ")
			}
			w.Write(encoded[r])
			w.WriteString(": [")
			for k, p := range topics[order.names[r]] {
				if k > 0 {
					w.WriteString(", ")
				}
				num = strconv.AppendInt(num[:0], int64(p), 10)
				w.Write(num)
			}
			w.WriteByte(']')
		}
		w.WriteByte('}')
	}
	w.WriteString("}\n")
}

// topicOrder is the group's topics in Java order, with each one's rank, so
// per-member topic lists sort as integers.
type topicOrder struct {
	names []string
	rank  map[string]int
}

func newTopicOrder(topics map[string]int32) topicOrder {
	o := topicOrder{names: strategies.SortedTopics(topics), rank: make(map[string]int, len(topics))}
	for i, t := range o.names {
		o.rank[t] = i
	}
	return o
}

// assignmentTopicOrder is the order of g's topics, plus any topic a
// assigns that g does not have (the share assignor's heterogeneous builder
// leaves a deleted topic's partitions in a target), all in Java name order.
func assignmentTopicOrder(g strategies.Group, a strategies.Assignment) topicOrder {
	var extra map[string]int32
	for _, topics := range a {
		for t := range topics {
			if _, ok := g.Topics[t]; !ok {
				if extra == nil {
					extra = maps.Clone(g.Topics)
				}
				extra[t] = 0
			}
		}
	}
	if extra == nil {
		return newTopicOrder(g.Topics)
	}
	return newTopicOrder(extra)
}

// ranks appends the ranks of the topics in m, ascending.
func (o topicOrder) ranks(m map[string][]int32, out []int) []int {
	for t := range m {
		out = append(out, o.rank[t])
	}
	slices.Sort(out)
	return out
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// writeAssignmentTable prints the group the way
// kafka-consumer-groups.sh --describe --members --verbose does, then the
// balance, what moved, and what cooperative-sticky withheld.
func writeAssignmentTable(w *bufio.Writer, g strategies.Group, res strategies.Result) {
	a := res.Assignment
	order := assignmentTopicOrder(g, a)
	rows := [][]string{{"MEMBER", "INSTANCE", "#PARTITIONS", "ASSIGNMENT"}}
	for _, m := range g.Members {
		rows = append(rows, []string{m.ID, orDash(m.InstanceID), strconv.Itoa(a.Count(m.ID)), formatAssignmentCell(order, a[m.ID])})
	}
	writeColumns(w, rows)
	b := a.BalanceOf(g.Members)
	fmt.Fprintf(w, "\nbalance: %d to %d partitions per member", b.Min, b.Max)
	if b.Even() {
		w.WriteString(" (differ by at most one)\n")
	} else {
		fmt.Fprintf(w, " (differ by %d)\n", b.Max-b.Min)
	}
	if owned, moved := strategies.Moved(g, a); owned > 0 {
		fmt.Fprintf(w, "moved: %d of %d owned partitions changed owner\n", moved, owned)
	}
	for _, wh := range res.Withheld {
		fmt.Fprintf(w, "withheld: %s from %s this round: %s must revoke it first; the follow-up rebalance gives it\n", wh.TopicPartition, wh.To, wh.From)
	}
}

// formatAssignmentCell writes t0:0,1;t1:2 ("-" when empty).
func formatAssignmentCell(order topicOrder, topics map[string][]int32) string {
	if len(topics) == 0 {
		return "-"
	}
	var b []byte
	for i, r := range order.ranks(topics, nil) {
		t := order.names[r]
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, t...)
		b = append(b, ':')
		for j, p := range topics[t] {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(p), 10)
		}
	}
	return string(b)
}

// writeColumns left-aligns rows in columns two spaces apart, the last
// column unpadded.
func writeColumns(w *bufio.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		for i, c := range r {
			w.WriteString(c)
			if i < len(r)-1 {
				w.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		w.WriteByte('\n')
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
