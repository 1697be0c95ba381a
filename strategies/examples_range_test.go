package strategies

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The worked examples of ../shared/SEED-EXAMPLES.md (1–6 and the round-robin
// half of 7), fed to the assignors as real groups. The expected values are
// Kafka's answers as written there.

// seedMembers builds dynamic members with the given ids, all subscribed to topics.
func seedMembers(topics []string, ids ...string) []Member {
	out := make([]Member, len(ids))
	for i, id := range ids {
		out[i] = Member{ID: id, Topics: topics, Generation: NoGeneration}
	}
	return out
}

func seedAssign(t *testing.T, name string, g Group) Assignment {
	t.Helper()
	require.NoError(t, g.Validate())
	a, err := Lookup(name)
	require.NoError(t, err)
	return a.Assign(g, NewExplainer(0)).Assignment
}

// seedSeq returns from..to inclusive.
func seedSeq(from, to int32) []int32 {
	var out []int32
	for p := from; p <= to; p++ {
		out = append(out, p)
	}
	return out
}

func TestSeedExample1RangeTenPartitionsThreeMembers(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 10}, Members: seedMembers([]string{"t0"}, "C0", "C1", "C2")}
	assert.Equal(t, Assignment{
		"C0": {"t0": {0, 1, 2, 3}},
		"C1": {"t0": {4, 5, 6}},
		"C2": {"t0": {7, 8, 9}},
	}, seedAssign(t, "range", g))
}

func TestSeedExample2RangeFirstMemberTakesEveryExtra(t *testing.T) {
	topics := map[string]int32{}
	var names []string
	for i := range 5 {
		name := fmt.Sprintf("t%d", i)
		topics[name] = 10
		names = append(names, name)
	}
	a := seedAssign(t, "range", Group{Topics: topics, Members: seedMembers(names, "C0", "C1", "C2")})
	assert.Equal(t, 20, a.Count("C0"))
	assert.Equal(t, 15, a.Count("C1"))
	assert.Equal(t, 15, a.Count("C2"))
	for _, name := range names {
		assert.Equal(t, seedSeq(0, 3), a["C0"][name], name)
		assert.Equal(t, seedSeq(4, 6), a["C1"][name], name)
		assert.Equal(t, seedSeq(7, 9), a["C2"][name], name)
	}
}

func TestSeedExample3RangeFivePartitionsByMemberCount(t *testing.T) {
	topics := map[string]int32{"t0": 5}
	cases := []struct {
		ids  []string
		want Assignment
	}{
		{[]string{"C0"}, Assignment{"C0": {"t0": seedSeq(0, 4)}}},
		{[]string{"C0", "C1"}, Assignment{"C0": {"t0": {0, 1, 2}}, "C1": {"t0": {3, 4}}}},
		{[]string{"C0", "C1", "C2"}, Assignment{"C0": {"t0": {0, 1}}, "C1": {"t0": {2, 3}}, "C2": {"t0": {4}}}},
		{[]string{"C0", "C1", "C2", "C3", "C4", "C5"}, Assignment{
			"C0": {"t0": {0}}, "C1": {"t0": {1}}, "C2": {"t0": {2}}, "C3": {"t0": {3}}, "C4": {"t0": {4}}, "C5": {},
		}},
	}
	for _, c := range cases {
		got := seedAssign(t, "range", Group{Topics: topics, Members: seedMembers([]string{"t0"}, c.ids...)})
		assert.Equal(t, c.want, got, "%d members", len(c.ids))
	}
}

func TestSeedExample4RangeTwoTopicsIsNotInterleaved(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 3}, Members: seedMembers([]string{"t0", "t1"}, "C0", "C1")}
	got := seedAssign(t, "range", g)
	assert.Equal(t, Assignment{
		"C0": {"t0": {0, 1}, "t1": {0, 1}},
		"C1": {"t0": {2}, "t1": {2}},
	}, got)
	// Seed 003's printed answer (C0 t0p0,t0p2…) is the round-robin one, not range's.
	assert.NotEqual(t, []int32{0, 2}, got["C0"]["t0"])
}

func TestSeedExample5RoundRobinTwoTopics(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 3}, Members: seedMembers([]string{"t0", "t1"}, "C0", "C1")}
	assert.Equal(t, Assignment{
		"C0": {"t0": {0, 2}, "t1": {1}},
		"C1": {"t0": {1}, "t1": {0, 2}},
	}, seedAssign(t, "roundrobin", g))
}

func TestSeedExample6RoundRobinDifferentSubscriptions(t *testing.T) {
	topics := map[string]int32{"t0": 1, "t1": 2, "t2": 3}
	c0 := Member{ID: "C0", Topics: []string{"t0"}, Generation: NoGeneration}
	c1 := Member{ID: "C1", Topics: []string{"t0", "t1"}, Generation: NoGeneration}
	c2 := Member{ID: "C2", Topics: []string{"t0", "t1", "t2"}, Generation: NoGeneration}

	got := seedAssign(t, "roundrobin", Group{Topics: topics, Members: []Member{c0, c1, c2}})
	assert.Equal(t, Assignment{
		"C0": {"t0": {0}},
		"C1": {"t1": {0}},
		"C2": {"t1": {1}, "t2": {0, 1, 2}},
	}, got)

	// C0 leaves.
	got = seedAssign(t, "roundrobin", Group{Topics: topics, Members: []Member{c1, c2}})
	assert.Equal(t, Assignment{
		"C1": {"t0": {0}, "t1": {1}},
		"C2": {"t1": {0}, "t2": {0, 1, 2}},
	}, got)
}

func TestSeedExample7RoundRobinReshufflesWhenC1Leaves(t *testing.T) {
	topics := map[string]int32{"t0": 2, "t1": 2, "t2": 2, "t3": 2}
	names := []string{"t0", "t1", "t2", "t3"}
	got := seedAssign(t, "roundrobin", Group{Topics: topics, Members: seedMembers(names, "C0", "C2")})
	assert.Equal(t, Assignment{
		"C0": {"t0": {0}, "t1": {0}, "t2": {0}, "t3": {0}},
		"C2": {"t0": {1}, "t1": {1}, "t2": {1}, "t3": {1}},
	}, got)
}

// KAFKA.md §4's run example: static members sort first by instance id.
func TestRangeStaticMembersFirstByInstanceID(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 6}, Members: []Member{
		{ID: "c0", InstanceID: "z", Topics: []string{"t0"}},
		{ID: "c1", InstanceID: "a", Topics: []string{"t0"}},
		{ID: "c2", Topics: []string{"t0"}},
	}}
	assert.Equal(t, Assignment{
		"c1": {"t0": {0, 1}},
		"c0": {"t0": {2, 3}},
		"c2": {"t0": {4, 5}},
	}, seedAssign(t, "range", g))
}

func TestRangeExplanationSaysTheArithmetic(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 10}, Members: seedMembers([]string{"t0"}, "c0", "c1", "c2")}
	a, err := Lookup("range")
	require.NoError(t, err)
	lines := a.Assign(g, NewExplainer(0)).Explanation
	assert.Contains(t, lines, "t0: 10 partitions / 3 members = 3 rest 1 → c0 takes 0–3; c1 takes 4–6; c2 takes 7–9")
}

func TestRoundRobinExplanationNamesTheStart(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 3}, Members: seedMembers([]string{"t0", "t1"}, "c0", "c1")}
	a, err := Lookup("roundrobin")
	require.NoError(t, err)
	lines := a.Assign(g, NewExplainer(0)).Explanation
	assert.Contains(t, lines, "t0: 3 partitions dealt in turn from c0 → c0 takes 0,2; c1 takes 1")
	assert.Contains(t, lines, "t1: 3 partitions dealt in turn from c1 → c1 takes 0,2; c0 takes 1")
}

// Kafka's own RangeAssignor and RoundRobinAssignor, compiled from Kafka's
// source and run on 400 random groups (racks on some members and
// partitions, static members, mixed subscriptions, co-partitioned topics),
// recorded in testdata/kafka-range-roundrobin.golden. kviz must
// give the very same answers.
func TestRangeAndRoundRobinEqualKafkaRecordedAnswers(t *testing.T) {
	data, err := os.ReadFile("testdata/kafka-range-roundrobin.golden")
	require.NoError(t, err)
	var g Group
	cases := 0
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "#":
		case "group":
			g = parseHarnessGroup(t, rest)
			require.NoError(t, g.Validate(), "line %d", n+1)
			cases++
		case "range", "roundrobin":
			a, err := Lookup(kind)
			require.NoError(t, err)
			got := harnessString(a.Assign(g, nil).Assignment)
			assert.Equal(t, rest, got, "line %d: %s", n+1, kind)
		default:
			t.Fatalf("line %d: unknown kind %q", n+1, kind)
		}
	}
	assert.Equal(t, 400, cases)
}

// parseHarnessGroup reads "topic count racks... ; ... # member instance rack topics ; ...".
func parseHarnessGroup(t *testing.T, s string) Group {
	topicsPart, membersPart, ok := strings.Cut(s, "#")
	require.True(t, ok, s)
	g := Group{Topics: map[string]int32{}, PartitionRacks: map[string][][]string{}}
	for _, spec := range strings.Split(topicsPart, ";") {
		f := strings.Fields(spec)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.Atoi(f[1])
		require.NoError(t, err)
		g.Topics[f[0]] = int32(n)
		racks := make([][]string, n)
		for p := range racks {
			if f[2+p] == "-" {
				continue
			}
			for _, r := range strings.Split(f[2+p], ",") {
				racks[p] = append(racks[p], strings.ReplaceAll(r, "_", ""))
			}
		}
		g.PartitionRacks[f[0]] = racks
	}
	for _, spec := range strings.Split(membersPart, ";") {
		f := strings.Fields(spec)
		if len(f) == 0 {
			continue
		}
		dash := func(s string) string { return strings.TrimPrefix(s, "-") }
		m := Member{ID: f[0], InstanceID: dash(f[1]), Rack: dash(f[2]), Generation: NoGeneration}
		if f[3] != "-" {
			m.Topics = strings.Split(f[3], ",")
		}
		g.Members = append(g.Members, m)
	}
	return g
}

// harnessString writes an assignment as the harness does: members sorted,
// each "id=t-p,..." with its partitions sorted as strings.
func harnessString(a Assignment) string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(a)) {
		var tps []string
		for topic, ps := range a[id] {
			for _, p := range ps {
				tps = append(tps, fmt.Sprintf("%s-%d", topic, p))
			}
		}
		slices.Sort(tps)
		out = append(out, id+"="+strings.Join(tps, ","))
	}
	return strings.Join(out, " ")
}
