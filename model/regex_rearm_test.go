package model_test

import (
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/model"
)

// Found by TestKIP848BatchingRandomEventSequences (-rapid.seed=12643839909589659621):
// c2, the only member subscribed to "t[0-2]", restarts as a classic member
// under its instance id; the member that takes its place keeps the regex
// (ConsumerGroupMember.Builder(member, newMemberId) copies
// subscribedTopicRegex) while the resolution goes with the old member
// (maybeDeleteResolvedRegularExpressions). The regex is unresolved again,
// so the refresh after REGEX_BATCH_REFRESH_MIN_INTERVAL_MS is due; a quiet
// stretch jumped it and ran the refresh three minutes late.
func TestRegexUnresolvedByAReplacementIsNotJumped(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "rearm.yaml", `seed: 0
cluster: {brokers: 1}
topics: {t0: 1, t1: 1}
group: {id: g0, strategy: uniform, protocol: consumer, kafka_version: "4.3", assignment_interval_ms: 1000, heartbeat_interval_ms: 1000}
members:
  - {id: c1, pattern: "t.*", instance: ic1}
  - {id: c2, pattern: "t[0-2]", instance: ic2}
  - {id: c3, topics: [t0, t1], instance: ic3}
  - {id: c4, topics: [t0], instance: ic4}
timeline:
  - {at_ms: 23490, join: {id: c5, topics: [t0, t1]}}
  - {at_ms: 23550, create_topic: {topic: t3, partitions: 4}}
  - {at_ms: 24360, restart: {id: c2, protocol: classic}}
  - {at_ms: 213510, fail_broker: 0}
  - {at_ms: 2013510, join: {id: c6, topics: [t0]}}
`)
	every := *sim.Scenario()
	every.EveryHeartbeat = true
	full, err := model.Simulate(&every)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := changes(sim), changes(full); !reflect.DeepEqual(a, b) {
		t.Fatalf("jumping quiet stretches changed the trace (%d vs %d changing steps)", len(a), len(b))
	}
}
