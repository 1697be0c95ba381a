package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// KIP-848's online migration (issue 23 item 6), as Kafka 4.0's
// GroupMetadataManager runs it.

// The rolling upgrade (demo:kip848-upgrade): c1's first consumer-protocol
// heartbeat converts the classic group (convertToConsumerGroup,
// ConsumerGroup.fromClassicGroup): group epoch = assignment epoch = the
// generation, the classic members STABLE at it. c1's join bumps the epoch;
// the classic members hear REBALANCE_IN_PROGRESS at their next heartbeat
// (classicGroupHeartbeatToConsumerGroup) and rejoin through the consumer
// coordinator, whose JoinGroup answer carries their member epoch as the
// generation and no leader (classicGroupJoinToConsumerGroup;
// GroupMetadataManagerTest.testUpgradeFromEmptyClassicToConsumerGroup's
// non-empty sibling testClassicGroupOnlineMigrationConsumerGroupHeartbeat).
func TestRollingUpgrade(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-upgrade")
	js := jsonSteps(t, sim)
	conv := steps(sim, kafka.KindGroupConverted, "")
	require.Len(t, conv, 1)
	c := conv[0]
	before := sim.Step(c.Index - 1)
	assert.False(t, before.GroupState.Consumer())
	assert.Equal(t, kafka.KStable, c.GroupState)
	assert.Equal(t, before.Generation, c.Generation, "group epoch = the classic generation")
	require.NotNil(t, js[c.Index].AssignmentEpoch)
	assert.Equal(t, c.Generation, *js[c.Index].AssignmentEpoch)
	for _, m := range []string{"c2", "c3"} {
		assert.Equal(t, c.Generation, js[c.Index].MemberEpochs[m], "%s is STABLE at the generation", m)
		hb := stepWith(t, sim, kafka.KindHeartbeatResponse, m, "REBALANCE_IN_PROGRESS")
		assert.Greater(t, hb.Index, c.Index)
		join := stepWith(t, sim, kafka.KindJoinGroupResponse, m, "no leader")
		assert.Equal(t, join.Generation, js[join.Index].MemberEpochs[m], "the JoinGroup generation is %s's member epoch", m)
	}
	// After the last bounce every member runs the consumer protocol and
	// holds its target.
	final := js[len(js)-1]
	assert.Equal(t, kafka.KStable, final.GroupState)
	assert.Len(t, final.MemberEpochs, 3)
	for m, tps := range final.Target {
		assert.Equal(t, tps, final.Owned[m], m)
	}
	for _, st := range steps(sim, kafka.KindJoinGroupRequest, "") {
		assert.Less(t, st.TimeMs, int64(90000), "no classic member is left after c3's bounce: %s", st.Text)
	}
}

// Static members upgrade without a rebalance: the consumer-protocol member
// takes over the classic member's slot (getOrMaybeSubscribeStaticConsumerGroupMember
// replaces a classic member whatever its epoch), its subscription
// unchanged, so the group epoch stays and every partition stays where it
// was.
func TestStaticRollingUpgradeKeepsTheEpoch(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "up.yaml", `seed: 7
topics: {t0: 6}
group: {id: g, strategy: cooperative-sticky}
members:
  - {id: c1, instance: i1}
  - {id: c2, instance: i2}
  - {id: c3, instance: i3}
timeline:
  - {at_ms: 30000, restart: {id: c1, protocol: consumer}}
  - {at_ms: 60000, restart: {id: c2, protocol: consumer}}
  - {at_ms: 90000, restart: {id: c3, protocol: consumer}}
`)
	owned := sim.Step(firstAt(sim, 29000)).Owned
	conv := steps(sim, kafka.KindGroupConverted, "")
	require.Len(t, conv, 1)
	final := last(sim)
	assert.Equal(t, conv[0].Generation, final.Generation, "no group epoch bump")
	assert.Equal(t, owned, final.Owned)
	for _, st := range steps(sim, kafka.KindAssignmentComputed, "") {
		assert.Less(t, st.Index, conv[0].Index, "no target is computed after the upgrade: %s", st.Text)
	}
}

// The rolling downgrade (demo:kip848-downgrade): classic members join the
// consumer group; when the last consumer-protocol member leaves, the group
// becomes a classic group (validateOnlineDowngradeWithFencedMembers,
// convertToClassicGroup, ClassicGroup.fromConsumerGroup): Stable at
// generation = the group epoch, then a rebalance.
func TestRollingDowngrade(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-downgrade")
	conv := steps(sim, kafka.KindGroupConverted, "")
	require.Len(t, conv, 1)
	c := conv[0]
	assert.Equal(t, int64(90002), c.TimeMs, "when c3's leave heartbeat arrives")
	before := sim.Step(c.Index - 1)
	assert.True(t, before.GroupState.Consumer())
	assert.Equal(t, kafka.Stable, c.GroupState)
	assert.Equal(t, before.Generation, c.Generation, "generation = the group epoch")
	next := sim.Step(c.Index + 1)
	assert.Equal(t, kafka.PreparingRebalance, next.GroupState, "the downgrade triggers a rebalance")
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.Greater(t, final.Generation, c.Generation)
	for _, m := range []string{"c1", "c2", "c3"} {
		assert.Len(t, final.Owned[m]["t0"], 2, m)
	}
	// Before the downgrade a classic member's heartbeat says
	// REBALANCE_IN_PROGRESS when its target moves, and it rejoins.
	stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "REBALANCE_IN_PROGRESS")
}

// The policy refuses (group.consumer.migration.policy): with upgrades off, a
// consumer-protocol joiner's heartbeat to a non-empty classic group gets
// GROUP_ID_NOT_FOUND, fatal to it (validateOnlineUpgrade,
// AbstractHeartbeatRequestManager.onErrorResponse); with migration
// disabled a classic member cannot join a consumer group
// (throwIfClassicMemberCannotJoinConsumerGroup: INCONSISTENT_GROUP_PROTOCOL);
// with upgrade only, the last consumer-protocol member's leave leaves a
// consumer group of classic members.
func TestMigrationPolicies(t *testing.T) {
	needStrategy(t, "uniform")
	up := func(policy string) string {
		return `seed: 7
topics: {t0: 4}
group: {id: g, strategy: cooperative-sticky, migration_policy: ` + policy + `}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 30000, restart: {id: c1, protocol: consumer}}
`
	}
	sim := simYAML(t, "p.yaml", up("downgrade"))
	resp := stepWith(t, sim, kafka.KindConsumerGroupHeartbeatResponse, "c1", "GROUP_ID_NOT_FOUND", "online upgrade is disabled")
	assert.Equal(t, "GROUP_ID_NOT_FOUND", resp.Error)
	assert.Empty(t, steps(sim, kafka.KindGroupConverted, ""))
	assert.Equal(t, kafka.StatusFenced, memberView(sim.View(sim.Len()-1), "c1").Status)

	down := func(policy string) string {
		return `seed: 7
topics: {t0: 4}
group: {id: g, strategy: uniform, migration_policy: ` + policy + `}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 30000, restart: {id: c1, protocol: classic}}
  - {at_ms: 60000, restart: {id: c2, protocol: classic}}
`
	}
	sim = simYAML(t, "p.yaml", down("disabled"))
	stepWith(t, sim, kafka.KindJoinGroupResponse, "c1", "INCONSISTENT_GROUP_PROTOCOL")
	sim = simYAML(t, "p.yaml", down("upgrade"))
	assert.Empty(t, steps(sim, kafka.KindGroupConverted, ""), "downgrades are off")
	final := last(sim)
	assert.Equal(t, kafka.KStable, final.GroupState, "a consumer group of classic members")
	assert.Len(t, final.MemberEpochs, 2)
	sim = simYAML(t, "p.yaml", down("bidirectional"))
	assert.Len(t, steps(sim, kafka.KindGroupConverted, ""), 1)
}

// A classic joiner must share an assignor with the group's classic members
// (ConsumerGroup.supportsClassicProtocols: INCONSISTENT_GROUP_PROTOCOL).
func TestClassicJoinerSharesAnAssignor(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "p.yaml", `seed: 7
topics: {t0: 4}
group: {id: g, strategy: uniform}
members:
  - {id: c1, protocol: classic, strategies: [range]}
  - {id: c2}
timeline:
  - {at_ms: 30000, join: {id: c3, protocol: classic, strategies: [roundrobin]}}
`)
	resp := stepWith(t, sim, kafka.KindJoinGroupResponse, "c3", "INCONSISTENT_GROUP_PROTOCOL")
	assert.True(t, strings.Contains(resp.Text, "c3"))
}

// A member the coordinator no longer has is not shown in the group: a
// classic coordinator that moves restores only the members its log holds
// (c1's JoinGroup was in flight, so c1 is not one), and the consumer group
// that then replaces the empty classic group starts with no members, whose
// views say so at once (found with -rapid.seed=5728414531131717458).
func TestMembersTheCoordinatorDroppedAreNotInTheGroup(t *testing.T) {
	sim := simYAML(t, "s.yaml", `cluster: {brokers: 2}
topics: {t0: 1}
group: {id: g1, strategy: uniform, protocol: consumer, kafka_version: "4.3", heartbeat_interval_ms: 1000}
members:
  - {id: c1, topics: [t0]}
timeline:
  - {at_ms: 1590, leave: c1}
  - {at_ms: 1951950, restart: {id: c1, protocol: classic}}
  - {at_ms: 1951980, fail_broker: 0}
  - {at_ms: 1952040, join: {id: c2, topics: [t0]}}
`)
	moved, converted := -1, -1
	for i := 0; i < sim.Len(); i++ {
		switch st := sim.StepLine(i); {
		case st.Kind == kafka.KindCoordinatorMoved && st.TimeMs == 1951980:
			moved = i
		case st.Kind == kafka.KindGroupConverted && st.TimeMs > 1951980:
			converted = i
		}
	}
	if moved < 0 || converted < 0 {
		t.Fatalf("no coordinator move (%d) or conversion back (%d) in the trace", moved, converted)
	}
	if m := memberView(sim.View(moved), "c1"); m.InGroup {
		t.Errorf("step %d: c1 is shown in the classic group its coordinator restored without it", moved)
	}
	st := sim.Step(converted)
	if _, ok := st.MemberEpochs["c1"]; ok {
		t.Errorf("step %d: the new consumer group lists c1 (epochs %v)", converted, st.MemberEpochs)
	}
	if st.GroupState != kafka.KEmpty {
		t.Errorf("step %d: the new consumer group is %s", converted, st.GroupState)
	}
}

// Kafka's window of two owners in an upgrade: c4 leaves while generation 2
// is completing, which empties every stored assignment
// (GroupMetadataManager.prepareRebalance, resetAndPropagateAssignmentWithError),
// and comes straight back with the consumer protocol. fromClassicGroup takes
// only the stored assignments, so c3, a cooperative client still holding
// t0-0 from generation 1, is STABLE with nothing, and the new target hands
// t0-0 to c4 before c3 revokes it. The upgrade's step says so; the property
// test exempts exactly these holdings (unlistedAtUpgrade).
func TestUpgradeAfterAnInterruptedSyncForgetsWhatClassicMembersHold(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "forgotten.yaml", `
topics: {t0: 2}
group: {id: g0, strategy: cooperative-sticky, protocol: cooperative}
members:
  - {id: c1, topics: [t0], instance: ic1, strategies: [range, cooperative-sticky], max_poll_interval_ms: 30000, session_timeout_ms: 6000, heartbeat_interval_ms: 1000}
  - {id: c2, topics: [t0]}
timeline:
  - {at_ms: 96, join: {id: c3, topics: [t0]}}
  - {at_ms: 302, leave: c2}
  - {at_ms: 2265, stall: {id: c1, ms: 1000}}
  - {at_ms: 60311, join: {id: c4, topics: [t0]}}
  - {at_ms: 62796, leave: c1}
  - {at_ms: 63013, restart: {id: c4, protocol: consumer}}
`)
	conv := steps(sim, kafka.KindGroupConverted, "")
	require.Len(t, conv, 1)
	assert.Contains(t, conv[0].Text, "emptied the stored assignments")
	assert.Contains(t, conv[0].Text, "Two members may consume a partition at once")
	assert.Contains(t, conv[0].Text, "(c3 [t0-0])")
	both, after := -1, -1
	for i := conv[0].Index; i < sim.Len(); i++ {
		st := sim.Step(i)
		two := slices.Contains(st.Owned["c3"]["t0"], 0) && slices.Contains(st.Owned["c4"]["t0"], 0)
		if two && both < 0 {
			both = i
		}
		if !two && both >= 0 && after < 0 {
			after = i
		}
	}
	require.GreaterOrEqual(t, both, 0, "c4 gets t0-0 while c3 still holds it")
	require.Greater(t, after, both, "c3 gives it up")
	assert.Equal(t, "c3", sim.Step(after).Member)
	assert.Equal(t, []int32{1}, sim.Step(after).Owned["c3"]["t0"], "c3 takes its target, t0-1")
}
