package strategies

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Hand-checked examples for the server-side range assignor (Kafka's
// group-coordinator RangeAssignor since KAFKA-16944): per topic, subscribers
// sorted (static by instance id first, then member id), P/S each in
// contiguous runs, the first P%S one more.

// SEED-EXAMPLES 1: 10/3 = 3 rest 1 → C0 0–3, C1 4–6, C2 7–9.
func TestRangeServerSeedExample1(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 10}, Members: serverMembers([]string{"t0"}, "C2", "C0", "C1")}
	r := serverAssign(t, "range-server", g)
	require.Equal(t, Assignment{
		"C0": {"t0": {0, 1, 2, 3}},
		"C1": {"t0": {4, 5, 6}},
		"C2": {"t0": {7, 8, 9}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "t0: 10 partitions / 3 members = 3 rest 1 → C0 0–3, C1 4–6, C2 7–9"), r.Explanation)
}

// SEED-EXAMPLES 4 and the RangeAssignor Javadoc: two topics of 3, C0 and C1:
// 3/2 = 1 rest 1 on each topic, C0 first both times (co-partitioned).
func TestRangeServerSeedExample4(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 3}, Members: serverMembers([]string{"t0", "t1"}, "C0", "C1")}
	r := serverAssign(t, "range-server", g)
	require.Equal(t, Assignment{
		"C0": {"t0": {0, 1}, "t1": {0, 1}},
		"C1": {"t0": {2}, "t1": {2}},
	}, r.Assignment)
}

// SEED-EXAMPLES 3: t0 with 5 partitions and 6 consumers: one each for the
// first five, the sixth idle.
func TestRangeServerMoreMembersThanPartitions(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 5}, Members: serverMembers([]string{"t0"}, "C0", "C1", "C2", "C3", "C4", "C5")}
	r := serverAssign(t, "range-server", g)
	require.Equal(t, Assignment{
		"C0": {"t0": {0}}, "C1": {"t0": {1}}, "C2": {"t0": {2}},
		"C3": {"t0": {3}}, "C4": {"t0": {4}}, "C5": {},
	}, r.Assignment)
}

// Static members first, by instance id: m (i0), z (i1), then dynamic a.
// 5/3 = 1 rest 2 → m 0–1, z 2–3, a 4.
func TestRangeServerStaticFirst(t *testing.T) {
	ms := serverMembers([]string{"t0"}, "a", "z", "m")
	ms[1].InstanceID = "i1"
	ms[2].InstanceID = "i0"
	r := serverAssign(t, "range-server", Group{Topics: map[string]int32{"t0": 5}, Members: ms})
	require.Equal(t, Assignment{
		"m": {"t0": {0, 1}},
		"z": {"t0": {2, 3}},
		"a": {"t0": {4}},
	}, r.Assignment)
}

// Mixed subscriptions count subscribers per topic: t0 (a, b) 4/2 = 2 each;
// t1 (b, c) 3/2 = 1 rest 1 → b 0–1, c 2. Owned partitions are ignored (not
// sticky since 3.9): the same answer as without them.
func TestRangeServerHeterogeneousNotSticky(t *testing.T) {
	ms := []Member{
		{ID: "a", Topics: []string{"t0"}, Owned: serverTPs("t0", 3)},
		{ID: "b", Topics: []string{"t0", "t1", "t1"}, Owned: serverTPs("t1", 2)},
		{ID: "c", Topics: []string{"t1"}, Owned: serverTPs("t1", 0)},
	}
	r := serverAssign(t, "range-server", Group{Topics: map[string]int32{"t0": 4, "t1": 3}, Members: ms})
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1}},
		"b": {"t0": {2, 3}, "t1": {0, 1}},
		"c": {"t1": {2}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "KAFKA-16944"), r.Explanation)
}

func TestRangeServerRegistered(t *testing.T) {
	for _, name := range []string{"range-server", "org.apache.kafka.coordinator.group.assignor.RangeAssignor"} {
		a, err := Lookup(name)
		require.NoError(t, err)
		require.Equal(t, "range-server", a.Name())
		require.Equal(t, "range", a.KafkaName())
		require.Equal(t, []Protocol{Consumer}, a.Protocols())
	}
	r := rangeServerAssignor{}.Assign(Group{Topics: map[string]int32{"t0": 2}}, nil)
	require.Empty(t, r.Assignment)
}
