package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
)

// A member may subscribe to a topic that does not exist, at start or later,
// in a scenario or inserted: Kafka takes it and assigns nothing of it. The
// narration says so, with a hint when it looks like a typo.
func TestSubscriptionToATopicThatDoesNotExist(t *testing.T) {
	for _, protocol := range []string{"eager", "cooperative", "consumer"} {
		strategy := "cooperative-sticky"
		if protocol == "consumer" {
			strategy = "uniform"
		}
		sim := simYAML(t, "missing.yaml", `topics: {orders: 6}
group: {id: g, strategy: `+strategy+`, protocol: `+protocol+`}
members:
  - {id: c1, topics: [orders, ordrs]}
  - {id: c2, topics: [orders]}
timeline:
  - {at_ms: 20000, subscribe: {id: c2, topics: [payments]}}
`)
		started := steps(sim, "MemberStarted", "c1")
		require.NotEmpty(t, started, protocol)
		assert.Contains(t, started[0].Text, `Topic "ordrs" does not exist (did you mean "orders"?): Kafka assigns nothing of it.`)
		changed := steps(sim, "SubscriptionChanged", "c2")
		require.Len(t, changed, 1, protocol)
		assert.Contains(t, changed[0].Text, `Topic "payments" does not exist: Kafka assigns nothing of it.`)
		assertOwned(t, last(sim), map[string]map[string][]int32{"c1": {"orders": {0, 1, 2, 3, 4, 5}}, "c2": {}})

		// Inserted, the same subscription is taken too.
		fork, err := sim.Insert(scenario.Event{AtMs: 30000, Kind: "subscribe", Member: "c1", Topics: []string{"gone"}})
		require.NoError(t, err, protocol)
		assert.True(t, strings.Contains(steps(fork, "SubscriptionChanged", "c1")[0].Text, `Topic "gone" does not exist`))
		assertOwned(t, last(fork), map[string]map[string][]int32{"c1": {}, "c2": {}})
	}
}
