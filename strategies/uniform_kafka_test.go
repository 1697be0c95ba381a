package strategies

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// Kafka's own unit tests for the uniform assignor, with Kafka's expected
// answers, run against kviz:
//
//   - UniformHomogeneousAssignmentBuilderTest at apache/kafka d60495e8 (2025,
//     after KAFKA-18688);
//   - UniformHeterogeneousAssignmentBuilderTest at apache/kafka 1eb7644
//     (after KAFKA-17710).
//
// Kafka's tests use fixed topic UUIDs. The homogeneous builder walks topics in
// HashSet<Uuid> order: T2-B4s3… (bucket 1 of 16), T4-Tw9f… (5), T3-CU8f… (9),
// T1-A4s3… (10), so topic3 comes before topic1 and topic2 before topic1. kviz
// walks topics by name, so each port names the topics to keep Kafka's order
// ("a-topic2" < "b-topic1"). Members "A", "B", "C" hash to buckets 1, 2, 3,
// so Kafka's HashMap order is A, B, C as in the tests.

type serverKafkaCaseMember struct {
	id    string
	subs  []string
	owned map[string][]int32 // in the order the names sort
}

type serverKafkaCase struct {
	name   string
	topics map[string]int32
	member []serverKafkaCaseMember
	want   Assignment
}

func (c serverKafkaCase) group() Group {
	g := Group{Topics: c.topics}
	for _, m := range c.member {
		member := Member{ID: m.id, Topics: m.subs}
		for _, topic := range SortedTopics(m.owned) {
			member.Owned = append(member.Owned, serverTPs(topic, m.owned[topic]...)...)
		}
		g.Members = append(g.Members, member)
	}
	return g
}

func TestUniformKafkaHomogeneousCases(t *testing.T) {
	both := []string{"topic1", "topic2"}
	cases := []serverKafkaCase{{
		// testFirstAssignmentTwoMembersTwoTopicsNoMemberRacks: topic1 (3) and
		// topic3 (2); Kafka hands out topic3 first ("a-topic3").
		name:   "FirstAssignmentTwoMembersTwoTopics",
		topics: map[string]int32{"b-topic1": 3, "a-topic3": 2},
		member: []serverKafkaCaseMember{{id: "A", subs: []string{"b-topic1", "a-topic3"}}, {id: "B", subs: []string{"b-topic1", "a-topic3"}}},
		want:   Assignment{"A": {"a-topic3": {0, 1}}, "B": {"b-topic1": {0, 1, 2}}},
	}, {
		name:   "FirstAssignmentNumMembersGreaterThanTotalNumPartitions",
		topics: map[string]int32{"topic3": 2},
		member: []serverKafkaCaseMember{{id: "A", subs: []string{"topic3"}}, {id: "B", subs: []string{"topic3"}}, {id: "C", subs: []string{"topic3"}}},
		want:   Assignment{"A": {}, "B": {"topic3": {0}}, "C": {"topic3": {1}}},
	}, {
		// mkOrderedAssignment: A's target lists topic1 before topic2, so A
		// keeps topic1 0–1 and topic2 0, and gives up topic2 1.
		name:   "ReassignmentForTwoMembersTwoTopicsGivenUnbalancedPrevAssignment",
		topics: map[string]int32{"topic1": 3, "topic2": 3},
		member: []serverKafkaCaseMember{
			{id: "A", subs: both, owned: map[string][]int32{"topic1": {0, 1}, "topic2": {0, 1}}},
			{id: "B", subs: both, owned: map[string][]int32{"topic1": {2}, "topic2": {2}}},
		},
		want: Assignment{"A": {"topic1": {0, 1}, "topic2": {0}}, "B": {"topic1": {2}, "topic2": {1, 2}}},
	}, {
		// New partitions are listed topic2 first (HashSet order): "a-topic2".
		name:   "ReassignmentWhenPartitionsAreAddedForTwoMembersTwoTopics",
		topics: map[string]int32{"b-topic1": 6, "a-topic2": 5},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"b-topic1", "a-topic2"}, owned: map[string][]int32{"b-topic1": {0, 2}, "a-topic2": {0}}},
			{id: "B", subs: []string{"b-topic1", "a-topic2"}, owned: map[string][]int32{"b-topic1": {1}, "a-topic2": {1, 2}}},
		},
		want: Assignment{"A": {"b-topic1": {0, 2}, "a-topic2": {0, 3, 4}}, "B": {"b-topic1": {1, 3, 4, 5}, "a-topic2": {1, 2}}},
	}, {
		name:   "ReassignmentWhenOneMemberAddedAfterInitialAssignmentWithTwoMembersTwoTopics",
		topics: map[string]int32{"topic1": 3, "topic2": 3},
		member: []serverKafkaCaseMember{
			{id: "A", subs: both, owned: map[string][]int32{"topic1": {0, 2}, "topic2": {0}}},
			{id: "B", subs: both, owned: map[string][]int32{"topic1": {1}, "topic2": {1, 2}}},
			{id: "C", subs: both},
		},
		want: Assignment{"A": {"topic1": {0, 2}}, "B": {"topic1": {1}, "topic2": {1}}, "C": {"topic2": {0, 2}}},
	}, {
		// The unassigned list is topic2-2 then topic1-2 (HashSet order).
		name:   "ReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersTwoTopics",
		topics: map[string]int32{"b-topic1": 3, "a-topic2": 3},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"b-topic1", "a-topic2"}, owned: map[string][]int32{"b-topic1": {0}, "a-topic2": {0}}},
			{id: "B", subs: []string{"b-topic1", "a-topic2"}, owned: map[string][]int32{"b-topic1": {1}, "a-topic2": {1}}},
		},
		want: Assignment{"A": {"b-topic1": {0}, "a-topic2": {0, 2}}, "B": {"b-topic1": {1, 2}, "a-topic2": {1}}},
	}, {
		name:   "ReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics",
		topics: map[string]int32{"topic1": 2, "topic2": 2},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic2"}, owned: map[string][]int32{"topic1": {0}, "topic2": {0}}},
			{id: "B", subs: []string{"topic2"}, owned: map[string][]int32{"topic1": {1}, "topic2": {1}}},
		},
		want: Assignment{"A": {"topic2": {0}}, "B": {"topic2": {1}}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.group()
			r := serverAssign(t, "uniform", g)
			require.True(t, serverExplained(r, "homogeneous builder"), r.Explanation)
			require.Equal(t, c.want, r.Assignment)
		})
	}
}

func TestUniformKafkaHeterogeneousCases(t *testing.T) {
	all3 := []string{"topic1", "topic2", "topic3"}
	cases := []serverKafkaCase{{
		name:   "FirstAssignmentTwoMembersTwoTopics",
		topics: map[string]int32{"topic1": 3, "topic3": 6},
		member: []serverKafkaCaseMember{{id: "A", subs: []string{"topic1", "topic3"}}, {id: "B", subs: []string{"topic3"}}},
		want:   Assignment{"A": {"topic1": {0, 1, 2}, "topic3": {4}}, "B": {"topic3": {0, 1, 2, 3, 5}}},
	}, {
		name:   "FirstAssignmentNumMembersGreaterThanTotalNumPartitions",
		topics: map[string]int32{"topic3": 1, "topic1": 2},
		member: []serverKafkaCaseMember{{id: "A", subs: []string{"topic3"}}, {id: "B", subs: []string{"topic3"}}, {id: "C", subs: []string{"topic1"}}},
		want:   Assignment{"A": {"topic3": {0}}, "B": {}, "C": {"topic1": {0, 1}}},
	}, {
		name:   "ReassignmentForTwoMembersThreeTopicsGivenUnbalancedPrevAssignment",
		topics: map[string]int32{"topic1": 6, "topic2": 4, "topic3": 4},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic1"}, owned: map[string][]int32{"topic1": {0, 1, 2}}},
			{id: "B", subs: []string{"topic1", "topic2"}, owned: map[string][]int32{"topic1": {3}, "topic2": {0}}},
			{id: "C", subs: all3, owned: map[string][]int32{"topic1": {4, 5}, "topic2": {1, 2, 3}, "topic3": {0, 1, 2, 3}}},
		},
		want: Assignment{
			"A": {"topic1": {0, 1, 2, 5}},
			"B": {"topic1": {3}, "topic2": {0, 1, 2, 3}},
			"C": {"topic1": {4}, "topic3": {0, 1, 2, 3}},
		},
	}, {
		name:   "ReassignmentWhenPartitionsAreAddedForTwoMembers",
		topics: map[string]int32{"topic1": 6, "topic2": 5, "topic3": 3, "topic4": 3},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic1", "topic3"}, owned: map[string][]int32{"topic1": {0, 1, 2, 3}, "topic3": {0, 1}}},
			{id: "B", subs: []string{"topic1", "topic2", "topic3", "topic4"}, owned: map[string][]int32{"topic2": {0, 1, 2}, "topic4": {0, 1, 2}}},
		},
		want: Assignment{
			"A": {"topic1": {0, 1, 2, 3, 4, 5}, "topic3": {0, 1, 2}},
			"B": {"topic2": {0, 1, 2, 3, 4}, "topic4": {0, 1, 2}},
		},
	}, {
		name:   "ReassignmentWhenOneMemberAddedAndPartitionsAddedTwoMembersTwoTopics",
		topics: map[string]int32{"topic1": 6, "topic2": 7},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic1"}, owned: map[string][]int32{"topic1": {0, 2}, "topic2": {0}}},
			{id: "B", subs: []string{"topic1", "topic2"}, owned: map[string][]int32{"topic1": {1}, "topic2": {1, 2}}},
			{id: "C", subs: []string{"topic1", "topic2"}},
		},
		want: Assignment{
			"A": {"topic1": {0, 2, 3, 4, 5}},
			"B": {"topic1": {1}, "topic2": {1, 2, 6}},
			"C": {"topic2": {0, 3, 4, 5}},
		},
	}, {
		name:   "ReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersThreeTopics",
		topics: map[string]int32{"topic1": 3, "topic2": 8, "topic3": 3},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic1", "topic3"}, owned: map[string][]int32{"topic1": {0, 1, 2}, "topic3": {0, 1}}},
			{id: "B", subs: []string{"topic2"}, owned: map[string][]int32{"topic2": {3, 4, 5, 6}}},
		},
		want: Assignment{
			"A": {"topic1": {0, 1, 2}, "topic3": {0, 1, 2}},
			"B": {"topic2": {0, 1, 2, 3, 4, 5, 6, 7}},
		},
	}, {
		name:   "ReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics",
		topics: map[string]int32{"topic1": 3, "topic2": 5},
		member: []serverKafkaCaseMember{
			{id: "A", subs: []string{"topic1"}, owned: map[string][]int32{"topic1": {0, 2}, "topic2": {1, 3}}},
			{id: "B", subs: []string{"topic1", "topic2"}, owned: map[string][]int32{"topic1": {1}, "topic2": {0, 2, 4}}},
		},
		want: Assignment{"A": {"topic1": {0, 1, 2}}, "B": {"topic2": {0, 1, 2, 3, 4}}},
	}, {
		// Kafka forces the heterogeneous builder here although both members
		// subscribe to the same topics; kviz calls that builder directly below.
		name:   "ReassignmentWhenTopicPartitionsRunOutAndMembersHaveNoPartitions",
		topics: map[string]int32{"topic1": 2, "topic2": 2, "topic3": 2},
		member: []serverKafkaCaseMember{
			{id: "A", subs: all3, owned: map[string][]int32{"topic1": {0, 1}, "topic2": {0, 1}, "topic3": {0, 1}}},
			{id: "B", subs: all3},
		},
		want: Assignment{"A": {"topic2": {0}, "topic3": {0, 1}}, "B": {"topic1": {0, 1}, "topic2": {1}}},
	}, {
		name:   "FirstAssignmentWithTwoMembersIncludingOneWithoutSubscriptions",
		topics: map[string]int32{"topic1": 3},
		member: []serverKafkaCaseMember{{id: "A", subs: []string{"topic1"}}, {id: "B"}},
		want:   Assignment{"A": {"topic1": {0, 1, 2}}, "B": {}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.group()
			require.NoError(t, g.Validate())
			// Kafka's TestGroupSpecImpl lists members sorted by id.
			order := make([]int, len(g.Members))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int { return JavaCompare(g.Members[a].ID, g.Members[b].ID) })
			s := newServerSpec(g, order)
			require.Equal(t, c.want, s.assignment(assignUniformHeterogeneous(s, nil)))
		})
	}
}
