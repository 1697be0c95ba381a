package strategies

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// RoundRobin: valid on any group; racks change nothing.
func TestRoundRobinPropertiesValidAndRackBlind(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, true)
		a := roundRobinAssignor{}.Assign(g, NewExplainer(0)).Assignment
		checkValidAssignment(t, g, a)
		bare := g
		bare.PartitionRacks = nil
		bare.Members = slices.Clone(g.Members)
		for i := range bare.Members {
			bare.Members[i].Rack = ""
		}
		if b := (roundRobinAssignor{}).Assign(bare, nil).Assignment; !assert.ObjectsAreEqual(a, b) {
			t.Fatalf("racks changed roundrobin: %v vs %v", a, b)
		}
	})
}

// With identical subscriptions, round robin is balanced to within one
// partition over all topics together (not per topic, unlike range).
func TestRoundRobinPropertyIdenticalSubscriptionsBalanced(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, false)
		var topics []string
		for topic := range g.Topics {
			topics = append(topics, topic)
		}
		for i := range g.Members {
			g.Members[i].Topics = topics
		}
		a := roundRobinAssignor{}.Assign(g, nil).Assignment
		lo, hi := a.Count(g.Members[0].ID), a.Count(g.Members[0].ID)
		for _, m := range g.Members {
			lo, hi = min(lo, a.Count(m.ID)), max(hi, a.Count(m.ID))
		}
		if hi-lo > 1 {
			t.Fatalf("counts range %d..%d", lo, hi)
		}
	})
}

// The iterator carries over between topics: t1's deal starts after the
// member that took t0's last partition, skipping non-subscribers.
func TestRoundRobinIteratorCarriesAcrossTopics(t *testing.T) {
	g := Group{Topics: map[string]int32{"a": 2, "b": 3}, Members: []Member{
		{ID: "m0", Topics: []string{"a", "b"}},
		{ID: "m1", Topics: []string{"a"}},
		{ID: "m2", Topics: []string{"b"}},
	}}
	// a-0 m0, a-1 m1; iterator at m2: b-0 m2, b-1 m0 (m1 skipped), b-2 m2.
	assert.Equal(t, Assignment{
		"m0": {"a": {0}, "b": {1}},
		"m1": {"a": {1}},
		"m2": {"b": {0, 2}},
	}, roundRobinAssignor{}.Assign(g, nil).Assignment)
}

func TestRangeAndRoundRobinAreRegisteredWithKafkaNames(t *testing.T) {
	for name, alias := range map[string]string{
		"range":      "org.apache.kafka.clients.consumer.RangeAssignor",
		"roundrobin": "org.apache.kafka.clients.consumer.RoundRobinAssignor",
	} {
		a, err := Lookup(alias)
		if assert.NoError(t, err) {
			assert.Equal(t, name, a.Name())
			assert.Equal(t, name, a.KafkaName())
			assert.Equal(t, []Protocol{Eager}, a.Protocols())
		}
	}
}
