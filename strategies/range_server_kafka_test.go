package strategies

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Cases from Kafka's group-coordinator RangeAssignorTest (apache/kafka
// 1eb7644, after KAFKA-16944), with Kafka's expected answers. Range sorts
// members itself, so the topic UUIDs (random there) do not matter.

// testFirstAssignmentThreeMembersThreeTopicsDifferentSubscriptions.
func TestRangeServerKafkaDifferentSubscriptions(t *testing.T) {
	g := Group{Topics: map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2}, Members: []Member{
		{ID: "A", Topics: []string{"topic1", "topic2"}},
		{ID: "B", Topics: []string{"topic3"}},
		{ID: "C", Topics: []string{"topic2", "topic3"}},
	}}
	require.Equal(t, Assignment{
		"A": {"topic1": {0, 1, 2}, "topic2": {0, 1}},
		"B": {"topic3": {0}},
		"C": {"topic2": {2}, "topic3": {1}},
	}, serverAssign(t, "range-server", g).Assignment)
}

// testReassignmentWhenMultipleSubscriptionsRemovedAfterInitialAssignmentWithThreeMembersTwoTopics:
// the old targets play no part.
func TestRangeServerKafkaSubscriptionsRemoved(t *testing.T) {
	g := Group{Topics: map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2}, Members: []Member{
		{ID: "A", Topics: []string{"topic1"}, Owned: append(serverTPs("topic1", 0, 1, 2), serverTPs("topic2", 0)...)},
		{ID: "B", Topics: []string{"topic1", "topic2", "topic3"}, Owned: serverTPs("topic2", 1)},
		{ID: "C", Topics: []string{"topic2"}, Owned: append(serverTPs("topic2", 2), serverTPs("topic3", 0, 1)...)},
	}}
	require.Equal(t, Assignment{
		"A": {"topic1": {0, 1}},
		"B": {"topic1": {2}, "topic2": {0, 1}, "topic3": {0, 1}},
		"C": {"topic2": {2}},
	}, serverAssign(t, "range-server", g).Assignment)
}

// testMixedStaticMembership: A and C static, B dynamic, 5 partitions. A
// restarts with a new member id but the same instance id and gets the same
// partitions back; so do the others.
func TestRangeServerKafkaMixedStaticMembership(t *testing.T) {
	g := Group{Topics: map[string]int32{"topic1": 5}, Members: []Member{
		{ID: "A", InstanceID: "instanceA", Topics: []string{"topic1"}},
		{ID: "C", InstanceID: "instanceC", Topics: []string{"topic1"}},
		{ID: "B", Topics: []string{"topic1"}},
	}}
	first := serverAssign(t, "range-server", g).Assignment
	// Static first by instance id: A 0–1, C 2–3, then B 4.
	require.Equal(t, Assignment{"A": {"topic1": {0, 1}}, "C": {"topic1": {2, 3}}, "B": {"topic1": {4}}}, first)
	g.Members[0].ID = "memberA1"
	second := serverAssign(t, "range-server", g).Assignment
	require.Equal(t, first["A"], second["memberA1"])
	require.Equal(t, first["B"], second["B"])
	require.Equal(t, first["C"], second["C"])
}
