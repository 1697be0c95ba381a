package strategies

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kafka 4.0's OptimizedUniformAssignmentBuilderTest
// .testFirstAssignmentNumMembersGreaterThanTotalNumPartitions expects the
// first members in order to take the extras; 4.1 (KAFKA-18688) the last.
func TestUniformAtKafka40GivesTheExtrasToTheFirstMembers(t *testing.T) {
	g := Group{Topics: map[string]int32{"topic3": 2}, Members: srvMembers([]string{"topic3"}, "A", "B", "C")}
	a, _ := Lookup("uniform")
	g.Version = ClientVersion{4, 0, 0}
	ex := NewExplainer(0)
	r := a.Assign(g, ex)
	assert.Equal(t, Assignment{"A": {"topic3": {0}}, "B": {"topic3": {1}}, "C": {}}, r.Assignment)
	assert.Contains(t, strings.Join(r.Explanation, "\n"), "homogeneous builder as in Kafka 4.0.0")
	for _, v := range []ClientVersion{{}, {4, 1, 0}, {4, 3, 0}} {
		g.Version = v
		assert.Equal(t, Assignment{"A": {}, "B": {"topic3": {0}}, "C": {"topic3": {1}}}, a.Assign(g, nil).Assignment, "%v", v)
	}
	// AssignEach (the model's path) follows the version too.
	g.Version = ClientVersion{4, 0, 0}
	got := Assignment{"A": {}, "B": {}, "C": {}}
	uniformAssignor{}.AssignEach(g, func(int) {}, func(m int, topic string, ps []int32) {
		got[g.Members[m].ID][topic] = append([]int32(nil), ps...)
	})
	assert.Equal(t, Assignment{"A": {"topic3": {0}}, "B": {"topic3": {1}}, "C": {}}, got)
}

// Before 3.5 (KIP-881) the client assignors ignore racks.
func TestClientAssignorsIgnoreRacksBefore35(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 2}, PartitionRacks: map[string][][]string{"t0": {{"r1"}, {"r0"}}},
		Members: []Member{{ID: "c0", Rack: "r0", Topics: []string{"t0"}, Generation: NoGeneration}, {ID: "c1", Rack: "r1", Topics: []string{"t0"}, Generation: NoGeneration}}}
	for _, name := range []string{"range", "sticky", "cooperative-sticky"} {
		a, _ := Lookup(name)
		aware := a.Assign(g, nil).Assignment
		assert.Equal(t, Assignment{"c0": {"t0": {1}}, "c1": {"t0": {0}}}, aware, name)
		old := g
		old.Version = ClientVersion{3, 4, 0}
		ex := NewExplainer(0)
		r := a.Assign(old, ex)
		assert.Equal(t, Assignment{"c0": {"t0": {0}}, "c1": {"t0": {1}}}, r.Assignment, name)
		assert.Contains(t, r.Explanation[0], "not rack-aware before 3.5 (KIP-881)")
		assert.Equal(t, "r0", g.Members[0].Rack, "the caller's group is untouched")
	}
}

func TestCheckReleaseRefusesServerAssignorsBefore40(t *testing.T) {
	for _, name := range []string{"uniform", "range-server"} {
		a, _ := Lookup(name)
		require.ErrorContains(t, CheckRelease(a, ClientVersion{3, 9, 0}), "from Kafka 4.0")
		require.NoError(t, CheckRelease(a, ClientVersion{4, 0, 0}))
	}
	a, _ := Lookup("range")
	assert.NoError(t, CheckRelease(a, ClientVersion{2, 3, 0}))
	assert.Contains(t, VersionHelp(), "4.1    coordinator: the homogeneous uniform builder")
}
