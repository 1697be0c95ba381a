package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/strategies"
)

// SEED-EXAMPLES 4 as input: two topics of 3, two members.
const seedFour = `{"topics": {"t0": 3, "t1": 3},
 "members": [{"id": "C1", "topics": ["t0", "t1"]}, {"id": "C0", "topics": ["t0", "t1"]}, {"id": "C2", "topics": []}]}`

func TestAssignJSONIsTheContractShape(t *testing.T) {
	code, out, errOut := run(t, seedFour, "assign", "--strategy", "range")
	require.Equal(t, 0, code, errOut)
	// Members in input order, topics by name, partitions ascending, idle members {}.
	assert.Equal(t, `{"C1": {"t0": [2], "t1": [2]}, "C0": {"t0": [0, 1], "t1": [0, 1]}, "C2": {}}`+"\n", out)
	assert.Empty(t, errOut)

	var parsed map[string]map[string][]int32
	require.NoError(t, json.Unmarshal([]byte(out), &parsed))
	assert.Equal(t, []int32{0, 1}, parsed["C0"]["t1"])
}

func TestAssignRoundRobinAndKafkaClassName(t *testing.T) {
	code, out, errOut := run(t, seedFour, "assign", "--strategy", "org.apache.kafka.clients.consumer.RoundRobinAssignor", "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"C1": {"t0": [1], "t1": [0, 2]}, "C0": {"t0": [0, 2], "t1": [1]}, "C2": {}}`+"\n", out)
}

func TestAssignMemberWithoutTopicsSubscribesToAll(t *testing.T) {
	in := `{"topics": {"b": 1, "a": 1}, "members": [{"id": "m"}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "range")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"m": {"a": [0], "b": [0]}}`+"\n", out)
}

func TestAssignTable(t *testing.T) {
	in := `{"topics": {"t0": 3, "t1": 3},
	 "members": [{"id": "C0", "instance": "i0", "owned": {"t0": [2]}}, {"id": "C1"}, {"id": "C2", "topics": []}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "range", "--format", "table")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, strings.Join([]string{
		"MEMBER  INSTANCE  #PARTITIONS  ASSIGNMENT",
		"C0      i0        4            t0:0,1;t1:0,1",
		"C1      -         2            t0:2;t1:2",
		"C2      -         0            -",
		"",
		"balance: 0 to 4 partitions per member (differ by 4)",
		"moved: 1 of 1 owned partitions changed owner",
		"",
	}, "\n"), out)
}

func TestAssignExplainGoesToStderrWithJSONAndAfterTheTable(t *testing.T) {
	code, out, errOut := run(t, seedFour, "assign", "--strategy", "range", "--explain")
	require.Equal(t, 0, code)
	assert.True(t, json.Valid([]byte(out)), "stdout stays JSON: %q", out)
	assert.Contains(t, errOut, "t0: 3 partitions / 2 members = 1 rest 1 → C0 takes 0–1; C1 takes 2")

	code, out, errOut = run(t, seedFour, "assign", "--strategy", "range", "--explain", "--format", "table")
	require.Equal(t, 0, code)
	assert.Empty(t, errOut)
	table, steps, found := strings.Cut(out, "\n\nmember order:")
	require.True(t, found, out)
	assert.Contains(t, table, "MEMBER")
	assert.Contains(t, steps, "t1: 3 partitions / 2 members")
}

func TestAssignReadsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "group.json")
	require.NoError(t, os.WriteFile(path, []byte(seedFour), 0o600))
	code, out, errOut := run(t, "not json at all", "assign", "--strategy", "range", "--in", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"C0": {"t0": [0, 1]`)
}

// Every kind of bad input: exit 2, one line on stderr naming the problem
// and where it is, nothing on stdout.
func TestAssignBadInputIsOneLineExit2(t *testing.T) {
	cases := []struct {
		name, in string
		args     []string
		want     string
	}{
		{"malformed JSON", "{\"topics\": {\"t0\": 3},\n \"members\": [{\"id\": \"c0\",, }]}", nil,
			"stdin: line 2, column 26: malformed JSON: invalid character ',' looking for the beginning of an object key string"},
		{"truncated", `{"topics": {"t0": 3}, "members": [`, nil, "stdin: line 1, column 35: malformed JSON: the input ends in the middle of a value"},
		{"trailing data", `{"members": [{"id": "a"}]} {}`, nil, "line 1, column 28: unexpected data after the JSON object"},
		{"wrong type", "{\"topics\": {\"t0\": \"three\"},\n \"members\": []}", nil,
			"stdin: line 1, column 19: topics.t0: expected a whole number, got string"},
		{"fractional count", `{"topics": {"t0": 1.5}, "members": [{"id": "a"}]}`, nil, "stdin: line 1, column 19: topics.t0: expected a whole number, got number 1.5"},
		{"generation too big", `{"members": [{"id": "a", "generation": 9999999999}]}`, nil, "line 1, column 40: members[0].generation: expected a whole number that fits in 32 bits, got number 9999999999"},
		{"unknown field", "{\"topics\": {},\n \"members\": [{\"id\": \"c0\", \"topcs\": []}]}", nil,
			`stdin: line 2, column 27: unknown field "topcs"`},
		{"unknown strategy", seedFour, []string{"--strategy", "stiky"}, `unknown strategy "stiky" (valid: range, roundrobin`},
		{"duplicate member", `{"members": [{"id": "c0"}, {"id": "c0"}]}`, nil, `stdin: members[1]: duplicate member id "c0"`},
		{"duplicate instance", `{"members": [{"id": "a", "instance": "i"}, {"id": "b", "instance": "i"}]}`, nil, `members[1]: instance "i" is already used by member "a"`},
		{"empty member id", `{"members": [{"id": ""}]}`, nil, "members[0]: empty member id"},
		{"negative count", `{"topics": {"t0": -1}, "members": [{"id": "a"}]}`, nil, `topics: "t0" has a negative partition count (-1)`},
		{"absurd count", `{"topics": {"t0": 3000000000}, "members": [{"id": "a"}]}`, nil, `topics: "t0" has 3000000000 partitions; at most 1048576 are supported`},
		{"absurd total", `{"topics": {"a": 1048576, "b": 1048576, "c": 1048576, "d": 1048576, "e": 1}, "members": [{"id": "a"}]}`, nil, "topics: 4194305 partitions in all; at most 4194304 are supported"},
		{"owned out of range (sticky)", `{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"t0": [3]}}]}`, []string{"--strategy", "sticky"},
			`members[0] (c0): owns t0-3, but "t0" has partitions 0..2: Kafka's sticky assignor cannot take a partition that does not exist`},
		{"owned out of range (uniform)", `{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"t0": [3]}}]}`, []string{"--strategy", "uniform"}, `owns t0-3, but "t0" has partitions 0..2`},
		{"owned negative", `{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"t0": [-1]}}]}`, nil, `members[0] (c0): owns t0--1, but partitions are numbered 0..2147483647`},
		{"owned twice", `{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"t0": [1, 1]}}]}`, nil, `members[0] (c0): owns t0-1 twice`},
		{"owned twice, topic gone", `{"topics": {"t0": 3}, "members": [{"id": "c0", "owned": {"x": [1, 1]}}]}`, nil, `members[0] (c0): owns x-1 twice`},
		{"racks wrong length", `{"topics": {"t0": 3}, "partition_racks": {"t0": [["a"]]}, "members": [{"id": "c0"}]}`, nil,
			`partition_racks: "t0" lists racks for 1 partitions but the topic has 3`},
		{"no members", `{"topics": {"t0": 3}}`, nil, `"members" is missing`},
		{"empty members", `{"topics": {"t0": 3}, "members": []}`, nil, `"members" is empty`},
		{"empty input", "  \n", nil, "stdin: the input is empty"},
		{"members not a list", `{"members": {"id": "a"}}`, nil, "line 1, column 13: members: expected a list, got object"},
		{"owned partition not a number", "{\"topics\": {\"t0\": 3},\n \"members\": [{\"id\": \"a\", \"owned\": {\"t0\": [\"1\"]}}]}", nil,
			`line 2, column 43: members[0].owned.t0[0]: expected a whole number, got string`},
		{"bad escape", `{"members": [{"id": "a\x"}]}`, nil, `line 1, column 24: malformed JSON: invalid character 'x' in string escape code`},
		{"control character in string", "{\"members\": [{\"id\": \"a\tb\"}]}", nil, `line 1, column 23: malformed JSON: invalid character '\t' in string literal`},
		{"leading zero", `{"topics": {"t0": 01}, "members": [{"id": "a"}]}`, nil, `line 1, column 20: malformed JSON: invalid character '1' after object key:value pair`},
		{"not an object", `[1, 2]`, nil, "stdin: line 1, column 1: the input: expected an object, got array"},
		{"bad format", seedFour, []string{"--format", "yaml"}, `--format "yaml": want json or table`},
		{"missing file", seedFour, []string{"--in", "/no/such/file.json"}, "cannot read --in: open /no/such/file.json"},
		{"missing strategy", seedFour, []string{"--strategy", ""}, `unknown strategy ""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"assign"}, c.args...)
			if !strings.Contains(strings.Join(c.args, " "), "--strategy") {
				args = append(args, "--strategy", "range")
			}
			code, out, errOut := run(t, c.in, args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			assert.True(t, strings.HasPrefix(errOut, "kviz: "), errOut)
			assert.Contains(t, errOut, c.want)
		})
	}
}

// What Kafka's assignors take from real groups kviz takes too: a topic that
// no longer exists (subscribed to, or owned), a topic listed twice. Each
// is said once: under the table, on stderr beside json, or in --explain.
func TestAssignTakesKafkasInputsAsTheyCome(t *testing.T) {
	in := `{"topics": {"t0": 3}, "members": [
	  {"id": "c0", "topics": ["t0", "gone", "t0"], "owned": {"gone": [0], "t0": [0]}, "generation": 2},
	  {"id": "c1", "topics": ["t0"], "owned": {"t0": [1]}, "generation": 2}]}`
	for _, strategy := range strategies.Names() {
		code, out, errOut := run(t, in, "assign", "--strategy", strategy, "--format", "json")
		require.Equal(t, 0, code, "%s: %s", strategy, errOut)
		var parsed map[string]map[string][]int32
		require.NoError(t, json.Unmarshal([]byte(out), &parsed), strategy)
		assert.Equal(t, 3, len(parsed["c0"]["t0"])+len(parsed["c1"]["t0"]), "%s: t0 is assigned in full: %s", strategy, out)
		assert.NotContains(t, out, "gone")
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		require.Len(t, lines, 3, "%s: %q", strategy, errOut)
		assert.True(t, strings.HasPrefix(lines[0], `note: c0 subscribes to "gone", which does not exist: `), lines[0])
		assert.True(t, strings.HasPrefix(lines[1], `note: c0 lists "t0" twice: `), lines[1])
		assert.True(t, strings.HasPrefix(lines[2], `note: c0 owns gone-0, which does not exist: `), lines[2])

		code, out, errOut = run(t, in, "assign", "--strategy", strategy, "--format", "table")
		require.Equal(t, 0, code)
		assert.Empty(t, errOut)
		assert.Equal(t, 3, strings.Count(out, "\nnote: "), out)
		assert.Contains(t, out, "moved: ", "the partition of the deleted topic is not counted as moved")

		code, out, errOut = run(t, in, "assign", "--strategy", strategy, "--format", "table", "--explain")
		require.Equal(t, 0, code)
		assert.Empty(t, errOut)
		_, steps, _ := strings.Cut(out, "\n\n")
		_, steps, _ = strings.Cut(steps, "\n\n")
		assert.True(t, strings.HasPrefix(steps, `note: c0 subscribes to "gone"`), "the explanation opens with the notes: %q", steps)
		assert.Equal(t, 3, strings.Count(out, "note: "), "said once: %s", out)
	}
}

func TestAssignWithoutStrategyFlagIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, seedFour, "assign")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `required flag(s) "strategy" not set`)
}

// Escapes decode as JSON says (surrogate pairs included) and names come
// back out as valid JSON.
func TestAssignDecodesEscapes(t *testing.T) {
	in := `{"topics": {"t\u00e9": 1}, "members": [{"id": "\ud83d\ude00\"\\\/\n", "topics": ["t\u00e9"]}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "range")
	require.Equal(t, 0, code, errOut)
	var parsed map[string]map[string][]int32
	require.NoError(t, json.Unmarshal([]byte(out), &parsed))
	assert.Equal(t, map[string]map[string][]int32{"😀\"\\/\n": {"té": {0}}}, parsed)
}

// Null counts as absent: no rack, no generation, every topic.
func TestAssignNullIsAbsent(t *testing.T) {
	in := `{"topics": {"a": 2}, "partition_racks": null, "members": [{"id": "m", "topics": null, "owned": null, "generation": null, "rack": null, "instance": null}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "range")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"m": {"a": [0, 1]}}`+"\n", out)
}

// Withheld partitions (cooperative-sticky) are named in the table and kept
// out of the json, whose shape stays member → topic → partitions.
func TestAssignTableNamesWithheldPartitions(t *testing.T) {
	g := strategies.Group{Topics: map[string]int32{"t0": 3}, Members: []strategies.Member{
		{ID: "c1", Owned: []strategies.TopicPartition{{Topic: "t0", Partition: 0}, {Topic: "t0", Partition: 1}}},
		{ID: "c3"},
	}}
	res := strategies.Result{
		Assignment: strategies.Assignment{"c1": {"t0": {0, 2}}, "c3": {}},
		Withheld:   []strategies.Withheld{{TopicPartition: strategies.TopicPartition{Topic: "t0", Partition: 1}, From: "c1", To: "c3"}},
	}
	var b strings.Builder
	w := bufio.NewWriter(&b)
	writeAssignmentTable(w, g, res)
	require.NoError(t, w.Flush())
	assert.Equal(t, strings.Join([]string{
		"MEMBER  INSTANCE  #PARTITIONS  ASSIGNMENT",
		"c1      -         2            t0:0,2",
		"c3      -         0            -",
		"",
		"balance: 0 to 2 partitions per member (differ by 2)",
		"moved: 1 of 2 owned partitions changed owner",
		"withheld: t0-1 from c3 this round: c1 must revoke it first; the follow-up rebalance gives it",
		"",
	}, "\n"), b.String())
}

// SEED-EXAMPLES 9 through the command, when cooperative-sticky is registered:
// round 1 takes p1 from c1 and gives c3 nothing yet.
func TestAssignSeedExample9CooperativeRoundOne(t *testing.T) {
	if _, err := strategies.Lookup("cooperative-sticky"); err != nil {
		t.Skip("cooperative-sticky is not registered")
	}
	in := `{"topics": {"t0": 3}, "members": [
	  {"id": "c1", "owned": {"t0": [0, 1]}, "generation": 5},
	  {"id": "c2", "owned": {"t0": [2]}, "generation": 5},
	  {"id": "c3"}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "cooperative-sticky")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"c1": {"t0": [0]}, "c2": {"t0": [2]}, "c3": {}}`+"\n", out)
	code, out, _ = run(t, in, "assign", "--strategy", "cooperative-sticky", "--format", "table")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "withheld: t0-1 from c3 this round: c1 must revoke it first")
}

// Kafka 4.0's testFirstAssignmentNumMembersGreaterThanTotalNumPartitions, as
// recorded on 4.0 (before KAFKA-18688), and the newest release's answer.
func TestAssignKafkaVersion(t *testing.T) {
	in := `{"topics": {"topic3": 2}, "members": [{"id": "A"}, {"id": "B"}, {"id": "C"}]}`
	code, out, errOut := run(t, in, "assign", "--strategy", "uniform", "--kafka-version", "4.0")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"A": {"topic3": [0]}, "B": {"topic3": [1]}, "C": {}}`+"\n", out)
	code, out, _ = run(t, in, "assign", "--strategy", "uniform")
	require.Equal(t, 0, code)
	assert.Equal(t, `{"A": {}, "B": {"topic3": [0]}, "C": {"topic3": [1]}}`+"\n", out)

	for _, c := range []struct{ version, want string }{
		{"3.9", "kviz models the server-side uniform assignor from Kafka 4.0"},
		{"four", `--kafka-version: kafka version "four": want major.minor`},
		{"4.4", "--kafka-version: kafka version 4.4.0: kviz knows Kafka releases up to 4.3"},
	} {
		code, out, errOut = run(t, in, "assign", "--strategy", "uniform", "--kafka-version", c.version)
		assert.Equal(t, 2, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, c.want)
	}
	// 4.3 changed the coordinator's protocol, not the assignor.
	code, out, _ = run(t, in, "assign", "--strategy", "uniform", "--kafka-version", "4.3")
	require.Equal(t, 0, code)
	assert.Equal(t, `{"A": {}, "B": {"topic3": [0]}, "C": {"topic3": [1]}}`+"\n", out)
	_, out, _ = run(t, "", "assign", "--help")
	assert.Contains(t, out, "4.1    coordinator: the homogeneous uniform builder")
	assert.Contains(t, out, "4.3    coordinator: a KIP-848 target is computed at most once per")
}
