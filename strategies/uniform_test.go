package strategies

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Hand-checked examples for the server-side "uniform" assignor. Each expected
// answer is worked out in the comment from Kafka's builders
// (UniformHomogeneousAssignmentBuilder with KAFKA-18688,
// UniformHeterogeneousAssignmentBuilder of KAFKA-17710) and the member order
// of a java.util.HashMap: bucket of "a","b","c","d" = 1,2,3,4; of "c0".."c3"
// = 13,14,15,0 (see uniform_order_test.go).

func serverAssign(t *testing.T, name string, g Group) Result {
	t.Helper()
	require.NoError(t, g.Validate())
	a, err := Lookup(name)
	require.NoError(t, err)
	return a.Assign(g, NewExplainer(0))
}

func serverTPs(topic string, ps ...int32) []TopicPartition {
	out := make([]TopicPartition, len(ps))
	for i, p := range ps {
		out[i] = TopicPartition{topic, p}
	}
	return out
}

func serverMembers(topics []string, ids ...string) []Member {
	out := make([]Member, len(ids))
	for i, id := range ids {
		out[i] = Member{ID: id, Topics: topics, Generation: NoGeneration}
	}
	return out
}

// withOwned feeds an assignment back as every member's current target.
func serverWithOwned(members []Member, a Assignment) []Member {
	out := append([]Member(nil), members...)
	for i := range out {
		out[i].Owned = nil
		for _, topic := range SortedTopics(a[out[i].ID]) {
			out[i].Owned = append(out[i].Owned, serverTPs(topic, a[out[i].ID][topic]...)...)
		}
	}
	return out
}

func serverExplained(r Result, fragment string) bool {
	for _, l := range r.Explanation {
		if strings.Contains(l, fragment) {
			return true
		}
	}
	return false
}

// Fresh, homogeneous: t0 has 6 partitions, c0..c3 subscribe.
// Quota 6/4 = 1, 2 members get one more. Member order c3, c0, c1, c2.
// Every member starts with the extra slot while extras remain; with an empty
// target it gives the slot up as long as more members remain (4-i) than
// extras (2): c3 (4>2) and c0 (3>2) give it up, c1 (2>2 false) and c2 keep it.
// Fill from [0..5] in member order: c3 0, c0 1, c1 2–3, c2 4–5.
// (Kafka 4.0, before KAFKA-18688, gave the extras to c3 and c0 instead.)
//
// Round 2: c4 joins (bucket 1: order c3, c4, c0, c1, c2); quota 6/5 = 1, one
// extra. c3 keeps 0 and, holding 1 < 2, gives up the extra (5>1); c4 owns
// nothing and gives it up (4>1); c0 keeps 1, gives it up (3>1); c1 keeps 2–3
// and so keeps the extra; c2's quota is now 1: keeps 4, gives up 5. c4 takes 5.
func TestUniformHomogeneousFreshThenJoin(t *testing.T) {
	topics := []string{"t0"}
	g := Group{Topics: map[string]int32{"t0": 6}, Members: serverMembers(topics, "c0", "c1", "c2", "c3")}
	r1 := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"c3": {"t0": {0}},
		"c0": {"t0": {1}},
		"c1": {"t0": {2, 3}},
		"c2": {"t0": {4, 5}},
	}, r1.Assignment)
	require.True(t, serverExplained(r1, "quota: 6 partitions / 4 members → 1 each, 2 members get one more"), r1.Explanation)
	require.True(t, serverExplained(r1, "c3 (0), c0 (13), c1 (14), c2 (15)"), r1.Explanation)

	g.Members = append(serverWithOwned(g.Members, r1.Assignment), Member{ID: "c4", Topics: topics})
	r2 := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"c3": {"t0": {0}},
		"c4": {"t0": {5}},
		"c0": {"t0": {1}},
		"c1": {"t0": {2, 3}},
		"c2": {"t0": {4}},
	}, r2.Assignment)
	require.True(t, serverExplained(r2, "c2 gives up t0:5"), r2.Explanation)
	require.True(t, serverExplained(r2, "c4 takes t0:5"), r2.Explanation)
}

// KAFKA-18688: a balanced target does not move. 7 partitions over a, b, c:
// quota 2, one extra. a holds 2 (< 3) and leaves the extra (3 members > 1
// extra); b holds 3 and keeps it; c holds 2. Kafka 4.0 would have given the
// extra to a and moved t0-4 from b to a.
func TestUniformHomogeneousBalancedTargetStays(t *testing.T) {
	topics := []string{"t0"}
	ms := serverMembers(topics, "a", "b", "c")
	ms[0].Owned = serverTPs("t0", 0, 1)
	ms[1].Owned = serverTPs("t0", 2, 3, 4)
	ms[2].Owned = serverTPs("t0", 5, 6)
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 7}, Members: ms})
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1}},
		"b": {"t0": {2, 3, 4}},
		"c": {"t0": {5, 6}},
	}, r.Assignment)
}

// The last members must take the extras left over. 8 partitions over a, b, c:
// quota 2, two extras. a holds 3: keeps them, one extra used. b holds 2 < 3
// and 3-1 = 2 members remain for 1 extra: it gives the extra up. c holds 1,
// and 3-2 = 1 member remains for 1 extra: it must keep the slot, so it takes
// both unassigned partitions 6 and 7.
func TestUniformHomogeneousLastMemberTakesExtra(t *testing.T) {
	topics := []string{"t0"}
	ms := serverMembers(topics, "a", "b", "c")
	ms[0].Owned = serverTPs("t0", 0, 1, 2)
	ms[1].Owned = serverTPs("t0", 3, 4)
	ms[2].Owned = serverTPs("t0", 5)
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 8}, Members: ms})
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1, 2}},
		"b": {"t0": {3, 4}},
		"c": {"t0": {5, 6, 7}},
	}, r.Assignment)
}

// Trimming and unsubscribed topics. Topics t0:4, t1:2, t2:1; a, b, c subscribe
// to t0 and t1 (6 partitions, quota 2, no extra). Nobody claims t1-1, so the
// unassigned list starts [t1-1]. a's target t0-0,1,2 + t1-0 is over quota: it
// keeps t0-0,1 and gives up t0-2 then t1-0 → list [t1-1, t0-2, t1-0]. b keeps
// t0-3 (room 1). c drops t2-0 (not subscribed; room 2). Fill in member order:
// b takes t1-1; c takes t0-2 and t1-0. t2-0 has no subscriber: nobody gets it.
func TestUniformHomogeneousTrimAndDrop(t *testing.T) {
	topics := []string{"t0", "t1"}
	ms := serverMembers(topics, "a", "b", "c")
	ms[0].Owned = append(serverTPs("t0", 0, 1, 2), serverTPs("t1", 0)...)
	ms[1].Owned = serverTPs("t0", 3)
	ms[2].Owned = serverTPs("t2", 0)
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 4, "t1": 2, "t2": 1}, Members: ms})
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1}},
		"b": {"t0": {3}, "t1": {1}},
		"c": {"t0": {2}, "t1": {0}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "a gives up t0:2; t1:0"), r.Explanation)
	require.True(t, serverExplained(r, "c drops t2:0"), r.Explanation)
}

// Two members both list t0-0 as their target, which Kafka's coordinator never
// produces: the first in member order (a) keeps the claim, b's is ignored and
// b fills its quota of 1 with the unclaimed t0-1.
func TestUniformConflictingTargets(t *testing.T) {
	topics := []string{"t0"}
	ms := serverMembers(topics, "a", "b")
	ms[0].Owned = serverTPs("t0", 0)
	ms[1].Owned = serverTPs("t0", 0)
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 2}, Members: ms})
	require.Equal(t, Assignment{"a": {"t0": {0}}, "b": {"t0": {1}}}, r.Assignment)
	require.True(t, serverExplained(r, "t0-0 is in the targets of both a and b"), r.Explanation)
}

// Heterogeneous, fresh: t0:3 (a, b subscribe), t1:3 (b, c). Both topics have
// 1.5 partitions per subscriber and 2 subscribers: name order, t0 first.
// t0: a and b both hold 0, sorted [a, b]: round-robin a 0, b 1, a 2.
// t1: loads b 1, c 0 → sorted [c, b]; the least loaded range is [c]: c 0;
// then the level rises to 1 and takes b in: c 1, b 2.
// Loads 2, 2, 2: the balance phase moves nothing.
//
// Round 2: d joins on t0 and t1 (order a, b, c, d). Nothing is unassigned.
// Balance t0 (subscribers a 2, b 2, d 0 → sorted [d, a, b]): the most loaded
// range is {a, b} at 2; b (last) gives its last t0 partition, t0-1, to d.
// Next a would give t0-2, but the least loaded level is now 1 and 2−1 ≤ 1:
// balanced. t1 (b 1, d 1, c 2): imbalance 1, nothing to do.
func TestUniformHeterogeneousFreshThenJoin(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 3}, Members: []Member{
		{ID: "a", Topics: []string{"t0"}},
		{ID: "b", Topics: []string{"t0", "t1"}},
		{ID: "c", Topics: []string{"t1"}},
	}}
	r1 := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"a": {"t0": {0, 2}},
		"b": {"t0": {1}, "t1": {2}},
		"c": {"t1": {0, 1}},
	}, r1.Assignment)
	require.True(t, serverExplained(r1, "heterogeneous"), r1.Explanation)

	g.Members = append(serverWithOwned(g.Members, r1.Assignment), Member{ID: "d", Topics: []string{"t0", "t1"}})
	r2 := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"a": {"t0": {0, 2}},
		"b": {"t1": {2}},
		"c": {"t1": {0, 1}},
		"d": {"t0": {1}},
	}, r2.Assignment)
	require.True(t, serverExplained(r2, "balance t0: t0-1 moves b → d"), r2.Explanation)
}

// Heterogeneous topic order: t0 has 2 partitions for 2 subscribers (1.0 each),
// t1 has 4 for 1 subscriber (4.0): t1 is handed out first, so b (t0 and t1)
// already holds 4 when t0 comes: t0's least loaded subscriber is a, which
// takes both t0 partitions (a 0 → 1, still below b's 4 → 2).
// Balance: only t0 has two subscribers; a 2, b 4 → b has no t0 partition to
// give (excluded), so nothing moves: loads stay 2 and 4.
func TestUniformHeterogeneousTopicOrder(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 2, "t1": 4}, Members: []Member{
		{ID: "a", Topics: []string{"t0"}},
		{ID: "b", Topics: []string{"t0", "t1"}},
	}}
	r := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1}},
		"b": {"t1": {0, 1, 2, 3}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "t1 (4/1), t0 (2/2)"), r.Explanation)
}

// Edge cases Kafka answers with an empty assignment.
func TestUniformEmpty(t *testing.T) {
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 3}})
	require.Empty(t, r.Assignment)
	r = serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 3}, Members: serverMembers(nil, "a", "b")})
	require.Equal(t, Assignment{"a": {}, "b": {}}, r.Assignment)
	// More members than partitions: quota 0, one extra; a (order a, b, c)
	// gives the extra up (3 > 1), b too (2 > 1), c must take it.
	r = serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 1}, Members: serverMembers([]string{"t0"}, "a", "b", "c")})
	require.Equal(t, Assignment{"a": {}, "b": {}, "c": {"t0": {0}}}, r.Assignment)
}

func TestUniformRegistered(t *testing.T) {
	for _, name := range []string{"uniform", "UNIFORM", "org.apache.kafka.coordinator.group.assignor.UniformAssignor"} {
		a, err := Lookup(name)
		require.NoError(t, err)
		require.Equal(t, "uniform", a.Name())
		require.Equal(t, "uniform", a.KafkaName())
		require.Equal(t, []Protocol{Consumer}, a.Protocols())
	}
}

// A nil explainer must work (the benchmarks and the lab's fast path use it).
func TestUniformNilExplainer(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "t1": 2}, Members: []Member{
		{ID: "a", Topics: []string{"t0"}}, {ID: "b", Topics: []string{"t0", "t1"}},
	}}
	r := uniformAssignor{}.Assign(g, nil)
	require.Nil(t, r.Explanation)
	require.Equal(t, 5, r.Assignment.Count("a")+r.Assignment.Count("b"))
}

// Assign expects a validated group, but a bad one must not panic: unknown
// topics and partitions that do not exist are ignored, repeats count once.
func TestServerAssignorsToleratesUnvalidatedInput(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 2}, Members: []Member{
		{ID: "a", Topics: []string{"t0", "nope", "t0"}, Owned: []TopicPartition{{"nope", 0}, {"t0", -1}, {"t0", 7}, {"t0", 1}, {"t0", 1}}},
		{ID: "b", Topics: []string{"t0"}},
	}}
	require.Error(t, g.Validate())
	for _, a := range []Assignor{uniformAssignor{}, rangeServerAssignor{}} {
		r := a.Assign(g, NewExplainer(0))
		require.Equal(t, 2, r.Assignment.Count("a")+r.Assignment.Count("b"), a.Name())
	}
	r := uniformAssignor{}.Assign(g, nil)
	require.Equal(t, []int32{1}, r.Assignment["a"]["t0"], "a keeps its valid target t0-1")
}

// Trimming follows Kafka's HashSet order. t0 has 18 partitions, quota 9 each
// for a and b. a's target is 0–8 and 17: ten partitions, rebuilt by Kafka as
// a HashSet with 16 buckets, iterating 0, 1, 17, 2, …, 8 (17 shares bucket 1
// with 1). a keeps the first nine — 0–7 and 17 — and gives up 8, not 17.
// b takes the never-assigned 9–16, then the given-up 8.
func TestUniformHomogeneousTrimsInHashSetOrder(t *testing.T) {
	ms := serverMembers([]string{"t0"}, "a", "b")
	ms[0].Owned = serverTPs("t0", 0, 1, 2, 3, 4, 5, 6, 7, 8, 17)
	r := serverAssign(t, "uniform", Group{Topics: map[string]int32{"t0": 18}, Members: ms})
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1, 2, 3, 4, 5, 6, 7, 17}},
		"b": {"t0": {8, 9, 10, 11, 12, 13, 14, 15, 16}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "a gives up t0:8"), r.Explanation)
}

// SEED-EXAMPLES 1 under uniform instead of range: t0 with 10 partitions,
// C0 C1 C2 (buckets 13, 14, 15: that order). Quota 3, one extra. With no
// targets, C0 (3 members left > 1 extra) and C1 (2 > 1) leave the extra slot;
// C2 (1 left for 1) must take it. Fill in order: C0 0–2, C1 3–5, C2 6–9 —
// range gives the extra partition to C0 instead.
func TestUniformSeedExample1(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 10}, Members: serverMembers([]string{"t0"}, "C0", "C1", "C2")}
	r := serverAssign(t, "uniform", g)
	require.Equal(t, Assignment{
		"C0": {"t0": {0, 1, 2}},
		"C1": {"t0": {3, 4, 5}},
		"C2": {"t0": {6, 7, 8, 9}},
	}, r.Assignment)
	require.True(t, serverExplained(r, "C2 must take an extra partition: 1 member left for 1 extra"), r.Explanation)
}

// What KAFKA-18688 fixed, on TestUniformHomogeneousBalancedTargetStays's
// group: Kafka 4.0 gives the extra slot to the first member, a, whatever the
// targets. a keeps 0–1 and has room for one more; b's quota is 2, so it gives
// up 4; c keeps 5–6. a takes 4: a balanced target moved.
func TestUniformHomogeneousKafka40Rule(t *testing.T) {
	ms := serverMembers([]string{"t0"}, "a", "b", "c")
	ms[0].Owned = serverTPs("t0", 0, 1)
	ms[1].Owned = serverTPs("t0", 2, 3, 4)
	ms[2].Owned = serverTPs("t0", 5, 6)
	g := Group{Topics: map[string]int32{"t0": 7}, Members: ms}
	order, _ := serverMemberOrder(g.Members)
	s := newServerSpec(g, order)
	require.Equal(t, Assignment{
		"a": {"t0": {0, 1, 4}},
		"b": {"t0": {2, 3}},
		"c": {"t0": {5, 6}},
	}, s.assignment(assignUniformHomogeneousKafka40(s, nil)))
}
