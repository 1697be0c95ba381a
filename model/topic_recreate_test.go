package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// A topic deleted and created again under its name (issue 23), once per
// protocol: the KIP-848 coordinator keys partitions by topic id, a classic
// group's books are names (model/topic_ids.go).

// KIP-848: c1 holds the old t1-0, t1-1, c2 the old t1-2, t1-3 (range-server,
// epoch 2). t1 is deleted and created again with 8 partitions before any
// heartbeat. The first heartbeat bumps the group epoch (the topic's metadata
// changed: GroupMetadataManager.onNewMetadataImage requests a refresh) and
// the target names the new id's partitions only: c1 [t1-0..3], c2
// [t1-4..7]. Both must first revoke what they hold of the old id
// (CurrentAssignmentBuilder.computeNextAssignment, keyed by Uuid: target
// minus assigned is pending revocation, and UNREVOKED_PARTITIONS keeps the
// member's epoch while it still reports them, as in
// CurrentAssignmentBuilderTest.testStableToUnrevokedPartitions). c1 revokes
// at once and is then given the new t1-0..3, the new t1-2 and t1-3 too:
// they have no current partition epoch (ConsumerGroup.currentPartitionEpoch
// by topic id), though c2's slow onPartitionsRevoked still holds the old
// t1-2 and t1-3 by name. Both clients see names: onPartitionsRevoked with
// the old partitions, then onPartitionsAssigned with the new ones
// (AbstractMembershipManager.maybeReconcile: revoked = owned − assigned).
func TestTopicRecreatedConsumerProtocol(t *testing.T) {
	needStrategy(t, "range-server")
	sim := simYAML(t, "recreate.yaml", `seed: 1
topics: {t1: 4}
group: {id: g, strategy: range-server, protocol: consumer}
members:
  - {id: c1, topics: [t1]}
  - {id: c2, topics: [t1], listener: {revoked_ms: 8000}}
timeline:
  - {at_ms: 20000, delete_topic: t1}
  - {at_ms: 20001, create_topic: {topic: t1, partitions: 8}}
`)
	created := stepWith(t, sim, kafka.KindTopicCreated, "", "created again", "new topic id")
	assertOwned(t, created, map[string]map[string][]int32{"c1": {"t1": {0, 1}}, "c2": {"t1": {2, 3}}})

	// Both revoke the old id's partitions before they get any of the new.
	unrevoked := stepAfter(t, sim, created, kafka.KindConsumerGroupHeartbeatResponse, "c2", "UNREVOKED_PARTITIONS", "assignment []")
	assert.Equal(t, int32(2), unrevoked.MemberEpochs["c2"], "c2 stays at its epoch until it has revoked")
	stepAfter(t, sim, created, kafka.KindPartitionsRevoked, "c1", "[t1-0, t1-1]")
	stepAfter(t, sim, created, kafka.KindPartitionsRevoked, "c2", "[t1-2, t1-3]")

	// c1 is given the new t1-0..3 while c2 still holds the old t1-2, t1-3.
	given := stepAfter(t, sim, created, kafka.KindPartitionsAssigned, "c1", "[t1-0, t1-1, t1-2, t1-3]")
	assertOwned(t, given, map[string]map[string][]int32{"c1": {"t1": {0, 1, 2, 3}}, "c2": {"t1": {2, 3}}})
	returned := stepAfter(t, sim, created, kafka.KindCallbackReturned, "c2", "onPartitionsRevoked")
	assert.Greater(t, returned.Index, given.Index, "the new t1-2 is free while the old one is being revoked")

	end := last(sim)
	assert.Equal(t, kafka.KStable, end.GroupState)
	assertOwned(t, end, map[string]map[string][]int32{"c1": {"t1": {0, 1, 2, 3}}, "c2": {"t1": {4, 5, 6, 7}}})
	assert.Equal(t, int32(3), end.Generation, "one group epoch bump for the deletion and the creation")

	// The heartbeat names what c2 owns by the deleted id.
	stepWith(t, sim, kafka.KindConsumerGroupHeartbeatRequest, "c2", "owns [t1-2, t1-3]", "deleted topic's id")
}

// stepAfter is the first step after from of a kind (and member) whose text
// has all of the parts, or fails.
func stepAfter(t *testing.T, sim *model.Sim, from model.Step, kind kafka.StepKind, member string, parts ...string) model.Step {
	t.Helper()
	for _, st := range steps(sim, kind, member) {
		ok := st.Index > from.Index
		for _, p := range parts {
			ok = ok && strings.Contains(st.Text, p)
		}
		if ok {
			return st
		}
	}
	t.Fatalf("no %s step of %q with %q after step %d", kind, member, parts, from.Index)
	return model.Step{}
}

// KIP-848, one member: it holds the old t1 and its target is the whole
// new t1. It revokes every old partition (onPartitionsRevoked([t1-0, t1-1]))
// and only then gets the new ones under the same names
// (onPartitionsAssigned([t1-0, t1-1, t1-2])), two reconciliations.
func TestTopicRecreatedConsumerProtocolSameMember(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "recreate1.yaml", `seed: 3
topics: {t1: 2}
group: {id: g, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t1]}
timeline:
  - {at_ms: 20000, delete_topic: t1}
  - {at_ms: 20001, create_topic: {topic: t1, partitions: 3}}
`)
	revoked := stepWith(t, sim, kafka.KindPartitionsRevoked, "c1", "[t1-0, t1-1]")
	var assigned []model.Step
	for _, st := range steps(sim, kafka.KindPartitionsAssigned, "c1") {
		if st.Index > revoked.Index {
			assigned = append(assigned, st)
		}
	}
	require.NotEmpty(t, assigned)
	assert.Contains(t, assigned[len(assigned)-1].Text, "[t1-0, t1-1, t1-2]", "the new partitions come after the old are revoked")
	assertOwned(t, last(sim), map[string]map[string][]int32{"c1": {"t1": {0, 1, 2}}})
}

// Classic, same partition count: the leader compares the MetadataSnapshot
// it assigned with, partition counts by topic name, with each refresh's
// (ConsumerCoordinator.rejoinNeededOrPending → MetadataSnapshot.matches;
// ConsumerCoordinatorTest.testRackAwareConsumerRebalanceWithNoMetadataChange
// for a client without client.rack). t1 deleted and created again with
// its 2 partitions between two refreshes changes nothing it sees: no
// rebalance, and the members keep t1-0 and t1-1 by name (TopicPartition
// has no id), now the new topic's.
func TestTopicRecreatedClassicSameCount(t *testing.T) {
	sim := recreatedClassic(t, 2)
	created := stepWith(t, sim, kafka.KindTopicCreated, "", "created again", "by topic, not id")
	assert.Empty(t, steps(sim, kafka.KindMetadataRefreshed, ""), "the leader's snapshot matches")
	for _, st := range steps(sim, kafka.KindJoinGroupRequest, "") {
		assert.Less(t, st.Index, created.Index, "no rejoin after the creation: %s", st.Text)
	}
	end := last(sim)
	assert.Equal(t, created.Generation, end.Generation)
	assert.Equal(t, created.Owned, end.Owned, "the members keep t1's partitions by name")
}

// Classic, another partition count: the leader's next refresh (300 s,
// metadata.max.age.ms from its start) shows t1 with 3 partitions, so it
// rejoins (ConsumerCoordinatorTest.testRebalanceWithMetadataChange). The
// members report t1-0 and t1-1 as owned by name
// (ConsumerProtocolSubscription.ownedPartitions), and cooperative-sticky
// keeps them where they are: nothing is revoked, only t1-2 is assigned.
func TestTopicRecreatedClassicOtherCount(t *testing.T) {
	sim := recreatedClassic(t, 3)
	before := stepWith(t, sim, kafka.KindTopicCreated, "", "created again")
	refresh := stepWith(t, sim, kafka.KindMetadataRefreshed, "c1", "t1 deleted, t1 created")
	assert.Equal(t, int64(300000), refresh.TimeMs)
	for _, st := range steps(sim, kafka.KindPartitionsRevoked, "") {
		assert.Less(t, st.Index, before.Index, "nothing of t1 is revoked: %s", st.Text)
	}
	end := last(sim)
	assert.Equal(t, before.Generation+1, end.Generation)
	for m, topics := range before.Owned {
		for _, p := range topics["t1"] {
			assert.Contains(t, end.Owned[m]["t1"], p, "%s keeps t1-%d by name", m, p)
		}
	}
	n := 0
	for _, topics := range end.Owned {
		n += len(topics["t1"])
	}
	assert.Equal(t, 3, n, "every partition of the new t1 is consumed")
}

// recreatedClassic: c1 and c2 (cooperative-sticky) share t0 and t1 (2
// partitions each); at 20 s t1 is deleted and created again with n.
func recreatedClassic(t *testing.T, n int) *model.Sim {
	return simYAML(t, "recreate-classic.yaml", fmt.Sprintf(`seed: 1
topics: {t0: 2, t1: 2}
group: {id: g, strategy: cooperative-sticky, protocol: cooperative}
members:
  - {id: c1, topics: [t0, t1]}
  - {id: c2, topics: [t0, t1]}
timeline:
  - {at_ms: 20000, delete_topic: t1}
  - {at_ms: 20001, create_topic: {topic: t1, partitions: %d}}
`, n))
}

// The numbers pane's gaps count a partition as consumed while any member
// reads it by name: while one member revokes the deleted t1's partition 1
// another already reads the new t1-1, so t1-1 has no gap then (found by
// TestRebalancesAgreeWithRecount, -rapid.seed=3404830427751686871).
func TestTopicRecreatedGapsCountReadersByName(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "recreate-gaps.yaml", `seed: 9223372036854775807
cluster: {brokers: 1}
topics: {t0: 2, t1: 3}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t1], instance: ic1}
  - {id: c2, topics: [t0, t1], max_poll_interval_ms: 120000}
  - {id: c3, topics: [t0, t1], max_poll_interval_ms: 120000}
timeline:
  - {at_ms: 831, join: {id: c4, topics: [t0, t1]}}
  - {at_ms: 851, join: {id: c5, topics: [t0, t1]}}
  - {at_ms: 8539, delete_topic: t1}
  - {at_ms: 8551, create_topic: {topic: t1, partitions: 3}}
  - {at_ms: 8552, join: {id: c6, topics: [t0, t1]}}
  - {at_ms: 60420, add_partitions: {topic: t0, count: 5}}
`)
	rbs := sim.Rebalances()
	require.NotEmpty(t, rbs)
	for _, r := range rbs {
		want := map[kafka.TP]int64{}
		for i := r.StartStep; i < r.EndStep; i++ {
			v := sim.View(i)
			for tp := range unconsumed(v) {
				want[tp] += sim.View(i+1).TimeMs - v.TimeMs
			}
		}
		for _, p := range []int32{0, 1, 2} {
			tp := kafka.TP{Topic: "t1", Partition: p}
			assert.Equal(t, want[tp], r.UnownedMs.Of(tp), "steps %d..%d: %v", r.StartStep, r.EndStep, tp)
		}
	}
}
