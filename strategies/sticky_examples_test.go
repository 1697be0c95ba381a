package strategies

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Worked examples whose answers were taken from Kafka's real assignors
// (SEED-EXAMPLES.md 7 and 8, KAFKA.md §2 and §4).

func stickyMember(id string, topics ...string) Member {
	return Member{ID: id, Topics: topics, Generation: NoGeneration}
}

// owning gives m the partitions listed as topic -> partitions, at generation g.
func stickyOwning(m Member, g int32, owned map[string][]int32) Member {
	m.Generation = g
	m.Owned = nil
	for _, t := range SortedTopics(owned) {
		for _, p := range owned[t] {
			m.Owned = append(m.Owned, TopicPartition{t, p})
		}
	}
	return m
}

// nextGeneration feeds an assignment back: every listed member owns what it
// got, at generation g.
func stickyNextGen(a Assignment, g int32, members ...Member) []Member {
	out := make([]Member, len(members))
	for i, m := range members {
		out[i] = stickyOwning(m, g, a[m.ID])
	}
	return out
}

func stickyAssign(t *testing.T, name string, g Group) Result {
	t.Helper()
	require.NoError(t, g.Validate())
	a, err := Lookup(name)
	require.NoError(t, err)
	return a.Assign(g, NewExplainer(0))
}

var stickyFourTopics = map[string]int32{"t0": 2, "t1": 2, "t2": 2, "t3": 2}

func TestStickySeedExample7(t *testing.T) {
	all := []string{"t0", "t1", "t2", "t3"}
	c0, c1, c2 := stickyMember("C0", all...), stickyMember("C1", all...), stickyMember("C2", all...)
	first := stickyAssign(t, "sticky", Group{Topics: stickyFourTopics, Members: []Member{c0, c1, c2}}).Assignment
	assert.Equal(t, Assignment{
		"C0": {"t0": {0}, "t1": {1}, "t3": {0}},
		"C1": {"t0": {1}, "t2": {0}, "t3": {1}},
		"C2": {"t1": {0}, "t2": {1}},
	}, first)

	// C1 leaves. The StickyAssignor Javadoc (example 1) prints C0 [t0p0,
	// t1p1, t3p0, t2p0], C2 [t1p0, t2p1, t0p1, t3p1]; Kafka really gives:
	second := stickyAssign(t, "sticky", Group{Topics: stickyFourTopics, Members: stickyNextGen(first, 1, c0, c2)}).Assignment
	assert.Equal(t, Assignment{
		"C0": {"t0": {0, 1}, "t1": {1}, "t3": {0}},
		"C2": {"t1": {0}, "t2": {0, 1}, "t3": {1}},
	}, second)
}

func TestStickySeedExample8(t *testing.T) {
	topics := map[string]int32{"t0": 1, "t1": 2, "t2": 3}
	c0, c1, c2 := stickyMember("C0", "t0"), stickyMember("C1", "t0", "t1"), stickyMember("C2", "t0", "t1", "t2")
	first := stickyAssign(t, "sticky", Group{Topics: topics, Members: []Member{c0, c1, c2}}).Assignment
	assert.Equal(t, Assignment{
		"C0": {"t0": {0}},
		"C1": {"t1": {0, 1}},
		"C2": {"t2": {0, 1, 2}},
	}, first)

	second := stickyAssign(t, "sticky", Group{Topics: topics, Members: stickyNextGen(first, 1, c1, c2)}).Assignment
	assert.Equal(t, Assignment{
		"C1": {"t0": {0}, "t1": {0, 1}},
		"C2": {"t2": {0, 1, 2}},
	}, second)
}

// KAFKA.md §4: HashMap order is consumer-3, consumer-2, consumer-1, so
// consumer-2 (visited before consumer-1) takes the one slot for 3 partitions.
func TestStickyQuotaSlotGoesInHashMapOrder(t *testing.T) {
	topics := map[string]int32{"t0": 7}
	g := Group{Topics: topics, Members: []Member{
		stickyOwning(stickyMember("consumer-1", "t0"), 1, map[string][]int32{"t0": {0, 1, 2}}),
		stickyOwning(stickyMember("consumer-2", "t0"), 1, map[string][]int32{"t0": {3, 4, 5}}),
		stickyOwning(stickyMember("consumer-3", "t0"), 1, map[string][]int32{"t0": {6}}),
	}}
	r := stickyAssign(t, "sticky", g)
	assert.Equal(t, Assignment{
		"consumer-1": {"t0": {0, 1}},
		"consumer-2": {"t0": {3, 4, 5}},
		"consumer-3": {"t0": {2, 6}},
	}, r.Assignment)
	assert.Contains(t, r.Explanation, "quota: 7 partitions / 3 members → min 2, max 3, one member may hold 3")
	assert.Contains(t, r.Explanation, "consumer-2 keeps t0-5: owned at generation 1")

	// cooperative-sticky withholds t0-2 (consumer-1 still owns it).
	r = stickyAssign(t, "cooperative-sticky", g)
	assert.Equal(t, Assignment{
		"consumer-1": {"t0": {0, 1}},
		"consumer-2": {"t0": {3, 4, 5}},
		"consumer-3": {"t0": {6}},
	}, r.Assignment)
	assert.Equal(t, []Withheld{{TopicPartition{"t0", 2}, "consumer-1", "consumer-3"}}, r.Withheld)
	assert.Contains(t, r.Explanation, "t0-2 withheld from consumer-3: consumer-1 must revoke it first")
}

// KAFKA.md §4: owned partitions are sorted by (partition, topic) before the
// quota cut (3.8+), so c0 keeps a-0 and b-0, not a-0 and a-1.
func TestStickyKeepsOwnedSortedByPartitionThenTopic(t *testing.T) {
	g := Group{Topics: map[string]int32{"a": 2, "b": 2}, Members: []Member{
		stickyOwning(stickyMember("c0", "a", "b"), 1, map[string][]int32{"a": {0, 1}, "b": {0, 1}}),
		stickyMember("c1", "a", "b"),
	}}
	r := stickyAssign(t, "sticky", g)
	assert.Equal(t, Assignment{"c0": {"a": {0}, "b": {0}}, "c1": {"a": {1}, "b": {1}}}, r.Assignment)
	assert.Contains(t, r.Explanation, "c0 keeps a-0: owned at generation 1")
}

// KAFKA.md §2: c2 joins a cooperative group; the partitions moving to it are
// withheld in round 1 and handed over in round 2.
func TestCooperativeStickyTwoRounds(t *testing.T) {
	topics := map[string]int32{"t0": 6}
	c0, c1, c2 := stickyMember("c0", "t0"), stickyMember("c1", "t0"), stickyMember("c2", "t0")
	round1 := stickyAssign(t, "cooperative-sticky", Group{Topics: topics, Members: []Member{
		stickyOwning(c0, 5, map[string][]int32{"t0": {0, 1, 2}}),
		stickyOwning(c1, 5, map[string][]int32{"t0": {3, 4, 5}}),
		c2,
	}})
	assert.Equal(t, Assignment{"c0": {"t0": {0, 1}}, "c1": {"t0": {3, 4}}, "c2": {}}, round1.Assignment)
	assert.Equal(t, []Withheld{
		{TopicPartition{"t0", 2}, "c0", "c2"},
		{TopicPartition{"t0", 5}, "c1", "c2"},
	}, round1.Withheld)

	round2 := stickyAssign(t, "cooperative-sticky", Group{Topics: topics, Members: stickyNextGen(round1.Assignment, 6, c0, c1, c2)})
	assert.Equal(t, Assignment{"c0": {"t0": {0, 1}}, "c1": {"t0": {3, 4}}, "c2": {"t0": {2, 5}}}, round2.Assignment)
	assert.Empty(t, round2.Withheld)

	// Eager sticky does it in one round.
	eager := stickyAssign(t, "sticky", Group{Topics: topics, Members: []Member{
		stickyOwning(c0, 5, map[string][]int32{"t0": {0, 1, 2}}),
		stickyOwning(c1, 5, map[string][]int32{"t0": {3, 4, 5}}),
		c2,
	}})
	assert.Equal(t, Assignment{"c0": {"t0": {0, 1}}, "c1": {"t0": {3, 4}}, "c2": {"t0": {2, 5}}}, eager.Assignment)
}

// SEED-EXAMPLES 9: c3 joins; p1 leaves c1 only in the second rebalance.
func TestCooperativeStickySeedExample9(t *testing.T) {
	topics := map[string]int32{"p": 3}
	c1, c2, c3 := stickyMember("c1", "p"), stickyMember("c2", "p"), stickyMember("c3", "p")
	round1 := stickyAssign(t, "cooperative-sticky", Group{Topics: topics, Members: []Member{
		stickyOwning(c1, 1, map[string][]int32{"p": {0, 1}}),
		stickyOwning(c2, 1, map[string][]int32{"p": {2}}),
		c3,
	}})
	assert.Equal(t, Assignment{"c1": {"p": {0}}, "c2": {"p": {2}}, "c3": {}}, round1.Assignment)
	assert.Equal(t, []Withheld{{TopicPartition{"p", 1}, "c1", "c3"}}, round1.Withheld)
	round2 := stickyAssign(t, "cooperative-sticky", Group{Topics: topics, Members: stickyNextGen(round1.Assignment, 2, c1, c2, c3)})
	assert.Equal(t, Assignment{"c1": {"p": {0}}, "c2": {"p": {2}}, "c3": {"p": {1}}}, round2.Assignment)
}

// KAFKA.md §4: a partition claimed by two members of the same generation is
// void; the higher generation wins otherwise. cooperative-sticky gives a void
// partition to nobody this round.
func TestStickyConflictingClaims(t *testing.T) {
	topics := map[string]int32{"t0": 6}
	g := Group{Topics: topics, Members: []Member{
		stickyOwning(stickyMember("c1", "t0"), 3, map[string][]int32{"t0": {0, 1, 5}}),
		stickyOwning(stickyMember("c2", "t0"), 3, map[string][]int32{"t0": {2, 5}}),
		stickyOwning(stickyMember("c3", "t0"), 2, map[string][]int32{"t0": {0, 3, 4}}),
	}}
	eager := stickyAssign(t, "sticky", g)
	assert.Contains(t, eager.Explanation, "t0-5 claimed by c1 and c2 at generation 3: void, reassigned")
	assert.Contains(t, eager.Explanation, "t0-0 claimed by c1 (generation 3) and c3 (generation 2): the higher generation keeps it")
	assert.Equal(t, Assignment{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 5}}, "c3": {"t0": {3, 4}}}, eager.Assignment)

	coop := stickyAssign(t, "cooperative-sticky", g)
	assert.Equal(t, Assignment{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}, "c3": {"t0": {3, 4}}}, coop.Assignment)
	assert.Equal(t, []Withheld{{TopicPartition{"t0", 5}, "c1,c2", "c2"}}, coop.Withheld)
}

func TestStickyRegistration(t *testing.T) {
	for name, alias := range map[string]string{
		"sticky":             "org.apache.kafka.clients.consumer.StickyAssignor",
		"cooperative-sticky": "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
	} {
		a, err := Lookup(alias)
		require.NoError(t, err)
		assert.Equal(t, name, a.Name())
		assert.Equal(t, name, a.KafkaName())
	}
	s, _ := Lookup("sticky")
	c, _ := Lookup("cooperative-sticky")
	assert.Equal(t, []Protocol{Eager}, s.Protocols())
	assert.Equal(t, []Protocol{Eager, Cooperative}, c.Protocols())
}

func TestStickyEdgeCasesDoNotPanic(t *testing.T) {
	for _, name := range []string{"sticky", "cooperative-sticky"} {
		// No members, no topics, topics with no partitions, a member with no topics.
		assert.Empty(t, stickyAssign(t, name, Group{Topics: map[string]int32{"t": 3}}).Assignment)
		r := stickyAssign(t, name, Group{Topics: map[string]int32{"t": 0, "u": 2}, Members: []Member{stickyMember("a", "t"), stickyMember("b")}})
		assert.Equal(t, Assignment{"a": {}, "b": {}}, r.Assignment)
		// More members than partitions.
		r = stickyAssign(t, name, Group{Topics: map[string]int32{"t": 1}, Members: []Member{stickyMember("a", "t"), stickyMember("b", "t"), stickyMember("c", "t")}})
		assert.Equal(t, Assignment{"a": {"t": {0}}, "b": {}, "c": {}}, r.Assignment)
	}
}

// Found by the Kafka oracle: the general algorithm hands t3-2 back to C1,
// which reported it at an older generation but now subscribes to t2 only.
// Kafka's prevAssignment is built from raw reports, so this is what Kafka does.
func TestStickyKafkaQuirkPreviousOwnerNotSubscribed(t *testing.T) {
	g := Group{Topics: map[string]int32{"t2": 2, "t3": 7}, Members: []Member{
		stickyOwning(stickyMember("c4", "t2", "t3"), 3, map[string][]int32{"t2": {0}, "t3": {1, 3, 6}}),
		stickyMember("C0", "t2", "t3"),
		stickyOwning(stickyMember("C1", "t2"), 1, map[string][]int32{"t3": {2}}),
	}}
	assert.Equal(t, Assignment{
		"C0": {"t3": {0, 4, 5}},
		"C1": {"t2": {1}, "t3": {2}},
		"c4": {"t2": {0}, "t3": {1, 3, 6}},
	}, stickyAssign(t, "sticky", g).Assignment)
}

// Kafka's assignor throws NullPointerException when a partition's previous
// owner holds nothing it could balance (Z subscribes to an empty topic).
// kviz skips that step, says so, and still assigns everything.
func TestStickyWhereKafkaThrows(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 3, "u": 0}, Members: []Member{
		stickyOwning(stickyMember("A", "t0"), 2, map[string][]int32{"t0": {0, 1, 2}}),
		stickyMember("B", "t0"),
		stickyOwning(stickyMember("Z", "u"), 1, map[string][]int32{"t0": {0}}),
	}}
	r := stickyAssign(t, "sticky", g)
	assert.Equal(t, 3, r.Assignment.Count("A")+r.Assignment.Count("B"))
	assert.Contains(t, r.Explanation, "warning: Kafka's assignor throws NullPointerException here (t0-0's previous owner Z takes no part in balancing); kviz skips that step")
}

// A partition two members claim in the same generation: on the
// same-subscription path cooperative-sticky gives it to nobody this round;
// on the general path Kafka treats it as unowned and may hand it straight to
// one of the claimants (A here), which then is not "moving" (checked against
// Kafka's own CooperativeStickyAssignor).
func TestCooperativeStickyDoubleClaimByPath(t *testing.T) {
	same := Group{Topics: map[string]int32{"t0": 2}, Members: []Member{
		stickyOwning(stickyMember("A", "t0"), 3, map[string][]int32{"t0": {0}}),
		stickyOwning(stickyMember("B", "t0"), 3, map[string][]int32{"t0": {0}}),
		stickyMember("C", "t0"),
	}}
	r := stickyAssign(t, "cooperative-sticky", same)
	assert.Equal(t, Assignment{"A": {}, "B": {"t0": {1}}, "C": {}}, r.Assignment)
	assert.Equal(t, []Withheld{{TopicPartition{"t0", 0}, "A,B", "A"}}, r.Withheld)

	mixed := Group{Topics: map[string]int32{"t0": 2, "t1": 1}, Members: []Member{
		stickyOwning(stickyMember("A", "t0", "t1"), 3, map[string][]int32{"t0": {0}}),
		stickyOwning(stickyMember("B", "t0"), 3, map[string][]int32{"t0": {0}}),
		stickyMember("C", "t1"),
	}}
	r = stickyAssign(t, "cooperative-sticky", mixed)
	assert.Equal(t, Assignment{"A": {"t0": {0}}, "B": {"t0": {1}}, "C": {"t1": {0}}}, r.Assignment)
	assert.Empty(t, r.Withheld)
}

// KIP-881: with member racks and partition replica racks, partitions go to
// members on their racks, and owned partitions off the member's rack are
// given up (answers from Kafka's own assignors).
func TestStickyRackAware(t *testing.T) {
	racks := map[string][][]string{"t0": {{"r1"}, {"r1"}, {"r2"}, {"r2"}}}
	a, b := stickyMember("a", "t0"), stickyMember("b", "t0")
	a.Rack, b.Rack = "r2", "r1"
	g := Group{Topics: map[string]int32{"t0": 4}, PartitionRacks: racks, Members: []Member{a, b}}
	assert.Equal(t, Assignment{"a": {"t0": {2, 3}}, "b": {"t0": {0, 1}}}, stickyAssign(t, "sticky", g).Assignment)

	b2 := b
	b2.Topics = []string{"t0", "t1"}
	mixed := Group{Topics: map[string]int32{"t0": 4, "t1": 1}, Members: []Member{a, b2},
		PartitionRacks: map[string][][]string{"t0": racks["t0"], "t1": {{"r1"}}}}
	assert.Equal(t, Assignment{"a": {"t0": {2, 3}}, "b": {"t0": {0, 1}, "t1": {0}}}, stickyAssign(t, "sticky", mixed).Assignment)

	// Each owns the other rack's partitions: everything moves, so
	// cooperative-sticky withholds everything this round.
	swapped := Group{Topics: map[string]int32{"t0": 4}, PartitionRacks: racks, Members: []Member{
		stickyOwning(a, 2, map[string][]int32{"t0": {0, 1}}),
		stickyOwning(b, 2, map[string][]int32{"t0": {2, 3}}),
	}}
	r := stickyAssign(t, "cooperative-sticky", swapped)
	assert.Equal(t, Assignment{"a": {}, "b": {}}, r.Assignment)
	assert.Len(t, r.Withheld, 4)
}
