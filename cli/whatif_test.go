package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// run runs kviz with args and decodes its JSON answer.
func runJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Execute(args, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.NoError(t, json.Unmarshal(stdout.Bytes(), out), stdout.String())
}

type outcomeOut struct {
	Strategy string                        `json:"strategy"`
	Protocol string                        `json:"protocol"`
	Before   map[string]map[string][]int32 `json:"before"`
	After    map[string]map[string][]int32 `json:"after"`
	Moves    []struct {
		Topic     string  `json:"topic"`
		Partition int32   `json:"partition"`
		From      *string `json:"from"`
		To        *string `json:"to"`
	} `json:"moves"`
	Moved      int     `json:"moved"`
	Rounds     int     `json:"rounds"`
	Found      bool    `json:"found"`
	Error      *string `json:"error"`
	Settled    bool    `json:"settled"`
	SettledMs  int64   `json:"settled_ms"`
	WorstGapMs int64   `json:"worst_gap_ms"`
	TotalGapMs int64   `json:"total_gap_ms"`
	Gaps       []struct {
		Topic     string `json:"topic"`
		Partition int32  `json:"partition"`
		Ms        int64  `json:"ms"`
	} `json:"gaps"`
}

type compareOut struct {
	Strategies []outcomeOut `json:"strategies"`
}

func byStrategy(t *testing.T, c compareOut, name string) outcomeOut {
	t.Helper()
	for _, s := range c.Strategies {
		if s.Strategy == name {
			return s
		}
	}
	t.Fatalf("no row for %s in %+v", name, c)
	return outcomeOut{}
}

// Seed example 7: after C1 leaves, sticky keeps what it can; round robin
// reshuffles (SEED-EXAMPLES.md 7, Kafka's real result).
func TestCompareSeedExample7(t *testing.T) {
	var c compareOut
	runJSON(t, &c, "compare", "demo:example-07-sticky-leave", "--at-ms", "1000", "--strategies", "sticky,roundrobin")
	sticky := byStrategy(t, c, "sticky")
	require.Equal(t, map[string]map[string][]int32{
		"C0": {"t0": {0}, "t1": {1}, "t3": {0}}, "C1": {"t0": {1}, "t2": {0}, "t3": {1}}, "C2": {"t1": {0}, "t2": {1}},
	}, sticky.Before)
	require.Equal(t, map[string]map[string][]int32{
		"C0": {"t0": {0, 1}, "t1": {1}, "t3": {0}}, "C2": {"t1": {0}, "t2": {0, 1}, "t3": {1}},
	}, sticky.After)
	require.Equal(t, 3, sticky.Moved, "only C1's three partitions move")
	rr := byStrategy(t, c, "roundrobin")
	require.Equal(t, map[string]map[string][]int32{
		"C0": {"t0": {0}, "t1": {0}, "t2": {0}, "t3": {0}}, "C2": {"t0": {1}, "t1": {1}, "t2": {1}, "t3": {1}},
	}, rr.After)
	require.Equal(t, 5, rr.Moved)
	require.Equal(t, 1, rr.Rounds)
}

// Seed example 8: sticky with different subscriptions; C0 leaves.
func TestWhatIfSeedExample8(t *testing.T) {
	var o outcomeOut
	runJSON(t, &o, "whatif", "demo:example-08-sticky-subscriptions", "--at-ms", "20000", "--leave", "C0")
	require.Equal(t, map[string]map[string][]int32{
		"C0": {"t0": {0}}, "C1": {"t1": {0, 1}}, "C2": {"t2": {0, 1, 2}},
	}, o.Before)
	require.Equal(t, map[string]map[string][]int32{
		"C1": {"t0": {0}, "t1": {0, 1}}, "C2": {"t2": {0, 1, 2}},
	}, o.After)
	require.Len(t, o.Moves, 1)
	require.Equal(t, "C0", *o.Moves[0].From)
	require.Equal(t, "C1", *o.Moves[0].To)
	require.True(t, o.Settled)
}

// Seed example 9: c3 joins c1 {p0,p1}, c2 {p2}. Cooperative-sticky takes two
// rounds and moves only p1; eager takes one round and every partition goes
// without a consumer meanwhile.
func TestCompareSeedExample9(t *testing.T) {
	var c compareOut
	runJSON(t, &c, "compare", "demo:example-09-cooperative-join", "--at-ms", "5000",
		"--strategies", "cooperative-sticky,sticky")
	coop := byStrategy(t, c, "cooperative-sticky")
	require.Equal(t, "cooperative", coop.Protocol)
	require.Equal(t, map[string]map[string][]int32{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}, "c3": {}}, coop.Before,
		"c3 has started joining, consuming nothing")
	require.Equal(t, 2, coop.Rounds)
	require.Len(t, coop.Moves, 1)
	require.Equal(t, int32(1), coop.Moves[0].Partition)
	require.Equal(t, "c3", *coop.Moves[0].To)
	require.Len(t, coop.Gaps, 1, "only p1 waits")
	eager := byStrategy(t, c, "sticky")
	require.Equal(t, "eager", eager.Protocol)
	require.Equal(t, 1, eager.Rounds)
	require.Len(t, eager.Gaps, 3, "every partition goes without a consumer")
	require.Equal(t, coop.After, eager.After, "the same assignment at the end")
}

func TestWhatIfBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"whatif", "demo:lab", "--leave", "c1"}, "kviz: whatif needs --at-ms T (a virtual time in ms, 0 or more)\n"},
		{[]string{"whatif", "demo:lab", "--at-ms", "10"}, "kviz: whatif needs an event: --leave, --crash, --restart, --join or --add-partitions\n"},
		{[]string{"whatif", "demo:lab", "--at-ms", "10", "--leave", "c1", "--crash", "c2"}, "kviz: give one event (--leave, --crash, --restart, --join or --add-partitions), got 2\n"},
		{[]string{"whatif", "demo:lab", "--at-ms", "10", "--leave", "zz"}, "kviz: lab.yaml: leave: no member \"zz\" has joined by 10 ms (did you mean \"c1\"?)\n"},
		{[]string{"whatif", "demo:lab", "--at-ms", "10", "--add-partitions", "orders"}, "kviz: --add-partitions must look like TOPIC:N (the new total), got \"orders\"\n"},
		{[]string{"compare", "demo:lab", "--strategies", "range,,sticky"}, "kviz: --strategies has an empty name in \"range,,sticky\"\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := Execute(tc.args, nil, &stdout, &stderr)
		require.Equal(t, 2, code, tc.args)
		require.Equal(t, tc.want, stderr.String(), tc.args)
	}
}

// An unknown strategy or protocol given to compare is bad input, not a row.
func TestCompareRefusesUnknownNames(t *testing.T) {
	for args, want := range map[string]string{
		"--strategies=nope":  "kviz: --strategies: unknown strategy \"nope\" (valid: range, roundrobin, sticky, cooperative-sticky, uniform, range-server)\n",
		"--protocol=classic": "kviz: --protocol must be eager, cooperative or consumer, got \"classic\"\n",
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, Execute([]string{"compare", "demo:lab", args}, nil, &stdout, &stderr), args)
		require.Equal(t, want, stderr.String(), args)
	}
}

// "What happens if we roll this group to the consumer protocol now": the
// first bounce of a rolling upgrade as a what-if (KIP-848's online
// migration converts the classic group; the classic members rejoin through
// the consumer coordinator), and a bad --restart-as is a one-line error.
func TestWhatIfRestartAsConsumer(t *testing.T) {
	var o struct {
		outcomeOut
		Event map[string]any `json:"event"`
	}
	runJSON(t, &o, "whatif", "demo:example-09-cooperative-join", "--at-ms", "30000", "--restart-as", "c1:consumer")
	require.Equal(t, "consumer", o.Event["protocol"])
	require.True(t, o.Settled)
	require.GreaterOrEqual(t, o.Rounds, 1)
	require.Equal(t, o.Before, o.After, "uniform keeps the converted targets")
	var stdout, stderr bytes.Buffer
	code := Execute([]string{"whatif", "demo:lab", "--at-ms", "10", "--restart-as", "c1:kip"}, nil, &stdout, &stderr)
	require.Equal(t, 2, code)
	require.Equal(t, "kviz: --restart-as must look like M:consumer or M:classic, got \"c1:kip\"\n", stderr.String())
}
