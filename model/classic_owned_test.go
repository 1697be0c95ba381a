package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Found by .ci/run's deep TestRandomInserts (rapid seed 15944919742409964548):
// c2 changes its subscription while its JoinGroup is parked, and the retry
// after NOT_COORDINATOR runs no onJoinPrepare, so it still reports t0's
// partitions. The leader's cooperative-sticky must see them (Kafka passes
// Subscription.ownedPartitions as reported) and withhold them from c1 until
// c2 revokes them: no partition ever has two consumers.
func TestCooperativeOwnedOfAnUnsubscribedTopicAreWithheld(t *testing.T) {
	sim := simYAML(t, "dup.yaml", `seed: 162
cluster: {brokers: 2}
topics: {t0: 5, t1: 4}
group: {id: g71, strategy: cooperative-sticky, protocol: cooperative}
members:
  - {id: c1, topics: [t0, t1]}
  - {id: c2, topics: [t0, t1]}
timeline:
  - {at_ms: 18014, restart: c1}
  - {at_ms: 33289, subscribe: {id: c2, topics: [t1]}}
  - {at_ms: 33290, fail_broker: 1}
  - {at_ms: 33292, restart: c1}
`)
	for i := 0; i < sim.Len(); i++ {
		owner := map[string]string{}
		for m, topics := range sim.Step(i).Owned {
			for topic, ps := range topics {
				for _, p := range ps {
					k := fmt.Sprintf("%s-%d", topic, p)
					require.Empty(t, owner[k], "step %d: %s owned by %s and %s", i, k, owner[k], m)
					owner[k] = m
				}
			}
		}
	}
	computed := steps(sim, "AssignmentComputed", "c1")
	require.NotEmpty(t, computed)
	found := false
	for _, st := range computed {
		found = found || strings.Contains(st.Text, "withheld until their owner revokes them: t0-1 (c2 → c1), t0-3 (c2 → c1)")
	}
	assert.True(t, found, "the leader withholds c2's t0 partitions")
	assertOwned(t, last(sim), map[string]map[string][]int32{"c1": {"t0": {0, 1, 2, 3, 4}}, "c2": {"t1": {0, 1, 2, 3}}})
}
