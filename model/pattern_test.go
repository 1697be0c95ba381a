package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

const patternGroup = `
topics: {orders-1: 2, orders-2: 2, audit: 1}
group: {strategy: cooperative-sticky}
members:
  - {id: c1, pattern: "orders-.*"}
  - {id: c2, pattern: "orders-.*"}
timeline:
`

// ConsumerCoordinator.maybeUpdateSubscriptionMetadata → updatePatternSubscription:
// a classic pattern member sees a new topic at its next metadata refresh
// (metadata.max.age.ms, 300000 ms from its start), and its changed
// subscription rejoins (rejoinNeededOrPending: joinedSubscription differs).
func TestClassicPatternSeesNewTopicAtMetadataRefresh(t *testing.T) {
	sim := simYAML(t, "p.yaml", patternGroup+"  - {at_ms: 60000, create_topic: {topic: orders-3, partitions: 2}}\n")
	refreshed := steps(sim, kafka.KindMetadataRefreshed, "c1")
	require.Len(t, refreshed, 1)
	assert.Equal(t, int64(300000), refreshed[0].TimeMs)
	// Nothing holds orders-3 before the refresh; after it, the rebalance gives it out.
	before := sim.Step(firstAt(sim, 299999))
	assert.NotContains(t, before.Owned["c1"], "orders-3")
	end := last(sim)
	assert.Equal(t, 2, topicHeld(end, "orders-3"))
	assert.Equal(t, int32(2), end.Generation)
	assert.NotContains(t, end.Owned["c1"], "audit")
}

// ConsumerCoordinator.poll: before a pattern member rejoins it fetches
// fresh metadata and matches again, so a rebalance for another reason
// (here a join) already carries the new topic.
func TestClassicPatternRematchesBeforeRejoin(t *testing.T) {
	sim := simYAML(t, "p.yaml", patternGroup+
		"  - {at_ms: 60000, create_topic: {topic: orders-3, partitions: 2}}\n  - {at_ms: 100000, join: {id: c3, topics: [audit]}}\n")
	changed := steps(sim, kafka.KindSubscriptionChanged, "c1")
	require.NotEmpty(t, changed)
	assert.Less(t, changed[0].TimeMs, int64(110000))
	st := sim.Step(firstAt(sim, 120000))
	assert.Equal(t, 2, topicHeld(st, "orders-3"), "the join's rebalance assigned orders-3")
	assert.Empty(t, steps(sim, kafka.KindMetadataRefreshed, ""), "the refresh at 300000 ms finds nothing new")
}

// The leader watches only the group's topics (MetadataSnapshot over the
// group subscription): a topic nobody subscribes to starts no rebalance.
func TestClassicUnrelatedTopicStartsNoRebalance(t *testing.T) {
	sim := simYAML(t, "p.yaml", `
topics: {t0: 4}
members: [{id: c1, topics: [t0]}, {id: c2, topics: [t0]}]
timeline:
  - {at_ms: 60000, create_topic: {topic: t1, partitions: 2}}
  - {at_ms: 70000, delete_topic: t1}
`)
	assert.Empty(t, steps(sim, kafka.KindMetadataRefreshed, ""))
	assert.Equal(t, int32(1), last(sim).Generation)
}

// A deleted topic's partitions stay with their owners until the leader's
// metadata refresh (assignmentSnapshot no longer matches), then the
// cooperative rebalance revokes them (onJoinComplete: owned minus assigned).
func TestClassicDeletedTopicIsRevokedAtLeaderRefresh(t *testing.T) {
	sim := simYAML(t, "p.yaml", `
topics: {t0: 2, t1: 2}
group: {strategy: cooperative-sticky}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 60000, delete_topic: t1}
`)
	mid := sim.Step(firstAt(sim, 200000))
	assert.Equal(t, 2, topicHeld(mid, "t1"), "still owned before the refresh")
	refreshed := steps(sim, kafka.KindMetadataRefreshed, "")
	require.Len(t, refreshed, 1)
	assert.Equal(t, int64(300000), refreshed[0].TimeMs)
	assert.Contains(t, refreshed[0].Text, "t1 deleted")
	end := last(sim)
	assert.NotContains(t, end.Owned["c1"], "t1")
	assert.NotContains(t, end.Owned["c2"], "t1")
	assert.Len(t, steps(sim, kafka.KindPartitionsRevoked, ""), 2)
}

const regexGroup = `
topics: {orders-1: 2, orders-2: 2, audit: 1}
group: {protocol: consumer, strategy: uniform%s}
members:
  - {id: c1, pattern: "orders-.*"}
  - {id: c2, pattern: "orders-.*"}
timeline:
  - {at_ms: 60000, create_topic: {topic: orders-3, partitions: 2}}
  - {at_ms: 400000, delete_topic: orders-1}
`

func regexSim(t *testing.T, version string) []timedText {
	t.Helper()
	extra := ""
	if version != "" {
		extra = ", kafka_version: " + version
	}
	sim := simYAML(t, "r.yaml", fmt.Sprintf(regexGroup, extra))
	var out []timedText
	for _, st := range steps(sim, kafka.KindRegexResolved, "") {
		out = append(out, timedText{st.TimeMs, st.Text})
	}
	end := last(sim)
	assert.NotContains(t, end.Owned["c1"], "orders-1")
	assert.NotContains(t, end.Owned["c2"], "orders-1")
	assert.Equal(t, 2, topicHeld(end, "orders-3"))
	assert.NotContains(t, end.Owned["c1"], "audit")
	return out
}

type timedText struct {
	at   int64
	text string
}

// GroupMetadataManager.maybeUpdateRegularExpressions and
// handleRegularExpressionsResult: the first member's regex is resolved
// asynchronously after its join (the join's target is empty), a new topic
// at the first heartbeat 10 s (REGEX_BATCH_REFRESH_MIN_INTERVAL_MS) after the
// last refresh; a deletion leaves through the metadata, and 4.1's
// group.consumer.regex.refresh.interval.ms (10 min) cleans the resolution,
// which 4.0 never does without a new topic.
func TestConsumerRegexResolution(t *testing.T) {
	got := regexSim(t, "")
	require.Len(t, got, 3)
	assert.Equal(t, int64(6), got[0].at)
	assert.Contains(t, got[0].text, "[orders-1 orders-2]")
	assert.GreaterOrEqual(t, got[1].at, int64(60000))
	assert.Greater(t, got[1].at, got[0].at+10000)
	assert.Contains(t, got[1].text, "[orders-1 orders-2 orders-3]")
	assert.Greater(t, got[2].at, got[1].at+600000, "4.1: the periodic refresh")
	assert.Contains(t, got[2].text, "[orders-2 orders-3]")

	old := regexSim(t, "4.0")
	assert.Len(t, old, 2, "4.0 refreshes only for new topics")
}

// A deleted topic a member names leaves the KIP-848 subscription at the
// next heartbeat (onNewMetadataImage: requestMetadataRefresh).
func TestConsumerDeletedTopicBumpsEpoch(t *testing.T) {
	sim := simYAML(t, "d.yaml", `
topics: {t0: 2, t1: 2}
group: {protocol: consumer, strategy: uniform}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 60000, delete_topic: t1}
`)
	var bump []string
	for _, st := range steps(sim, kafka.KindGroupStateChanged, "") {
		if st.TimeMs >= 60000 {
			bump = append(bump, st.Text)
		}
	}
	require.NotEmpty(t, bump)
	assert.Contains(t, bump[0], "subscribed topic t1 was deleted")
	end := last(sim)
	assert.NotContains(t, end.Owned["c1"], "t1")
	assert.NotContains(t, end.Owned["c2"], "t1")
}

// The lab inserts topic events through Sim.Insert, the path a file's
// timeline takes.
func TestInsertCreateTopic(t *testing.T) {
	sim := simYAML(t, "p.yaml", patternGroup)
	fork, err := sim.Insert(scenario.Event{AtMs: 30000, Kind: "create_topic", Topic: "orders-9", Count: 2})
	require.NoError(t, err)
	end := last(fork)
	assert.Equal(t, 2, topicHeld(end, "orders-9"))
	_, err = sim.Insert(scenario.Event{AtMs: 30000, Kind: "delete_topic", Topic: "nope"})
	assert.ErrorContains(t, err, "UNKNOWN_TOPIC_OR_PARTITION")
}

// topicHeld counts the partitions of topic the members own at st.
func topicHeld(st model.Step, topic string) int {
	n := 0
	for _, m := range st.Owned {
		n += len(m[topic])
	}
	return n
}
