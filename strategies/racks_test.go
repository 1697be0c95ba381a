package strategies

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNewRackSetDropsEmptyAndDuplicates(t *testing.T) {
	assert.Equal(t, RackSet{"a", "b"}, NewRackSet([]string{"b", "", "a", "b"}))
	assert.Empty(t, NewRackSet([]string{"", ""}))
	assert.True(t, NewRackSet([]string{"x"}).Contains("x"))
	assert.False(t, NewRackSet(nil).Contains(""))
}

// The three ways Kafka's useRackAwareAssignment says no, and the one yes.
func TestUseRackAwareAssignment(t *testing.T) {
	ab := RackSet{"a", "b"}
	onlyA := RackSet{"a"}
	members := map[string]bool{"a": true}

	assert.False(t, UseRackAwareAssignment(nil, []RackSet{onlyA}), "no member has a rack")
	assert.False(t, UseRackAwareAssignment(map[string]bool{"z": true}, []RackSet{onlyA, ab}), "member racks hold no replica")
	assert.False(t, UseRackAwareAssignment(members, []RackSet{ab, ab}), "every partition on every rack")
	assert.True(t, UseRackAwareAssignment(members, []RackSet{ab, onlyA}), "a partition missing from a rack")
	assert.True(t, UseRackAwareAssignment(members, []RackSet{onlyA, nil}), "a partition on no rack")
	assert.False(t, UseRackAwareAssignment(members, []RackSet{nil, nil}), "no partition on any rack")
}

func TestRackMatches(t *testing.T) {
	assert.True(t, RackMatches("", nil), "a member without rack takes anything")
	assert.True(t, RackMatches("a", RackSet{"a", "b"}))
	assert.False(t, RackMatches("c", RackSet{"a", "b"}))
}

func TestTopicRackSetsAndMemberRacks(t *testing.T) {
	g := Group{
		Topics:         map[string]int32{"t0": 2, "t1": 1},
		PartitionRacks: map[string][][]string{"t0": {{"b", "a"}, {}}},
		Members:        []Member{{ID: "c0", Rack: "a"}, {ID: "c1"}, {ID: "c2", Rack: "a"}},
	}
	assert.Equal(t, []RackSet{{"a", "b"}, {}}, TopicRackSets(g, "t0"))
	assert.Nil(t, TopicRackSets(g, "t1"))
	g.PartitionRacks["t1"] = [][]string{{"a"}, {"b"}} // longer than the topic: cut to its partitions
	assert.Equal(t, []RackSet{{"a"}}, TopicRackSets(g, "t1"))
	assert.Equal(t, map[string]bool{"a": true}, MemberRacks(g.Members))
}
