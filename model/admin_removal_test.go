package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// noSharedPartition fails at the first step where two members own one
// partition.
func noSharedPartition(t *testing.T, sim *model.Sim) {
	t.Helper()
	for i := 0; i < sim.Len(); i++ {
		owner := map[string]string{}
		for m, topics := range sim.Step(i).Owned {
			for tp, ps := range topics {
				for _, p := range ps {
					k := fmt.Sprintf("%s-%d", tp, p)
					require.Empty(t, owner[k], "step %d: %s owned by %s and %s", i, k, owner[k], m)
					owner[k] = m
				}
			}
		}
	}
}

// An administrator removes c1 (LeaveGroup by group.instance.id) just
// after the coordinator answered its SyncGroup: the group is Stable at
// 6.010 s and every parked SyncGroup is answered then
// (GroupMetadataManager.classicGroupSyncToClassicGroup, propagateAssignment);
// the removal lands at 6.011 s (classicGroupLeaveToClassicGroup,
// removeCurrentMemberFromClassicGroup), the answer reaches c1 at 6.012 s.
// The client takes the answer as any successful SyncGroup
// (AbstractCoordinator.SyncGroupResponseHandler: onJoinComplete, then
// onPartitionsAssigned), but the group no longer counts it: c2 rejoins at
// its next heartbeat and takes all four partitions while c1, whose
// heartbeat comes every 10 s, has not heard yet. Its heartbeat then gets
// UNKNOWN_MEMBER_ID and the next poll() calls onPartitionsLost
// (ConsumerCoordinatorTest.testUnknownMemberId), and it joins again. Found
// by TestRandomGroups at about one scenario in 30,000: before, c1 counted
// as the owner of t0-1 and t0-3 beside c2.
func TestAdminRemovalWhileSyncGroupAnswerInFlight(t *testing.T) {
	needStrategy(t, "cooperative-sticky")
	sim := simYAML(t, "rm.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: cooperative-sticky}
members:
  - {id: c1, instance: i1, heartbeat_interval_ms: 10000}
  - {id: c2, heartbeat_interval_ms: 1000}
timeline:
  - {at_ms: 6009, remove_members: {instances: [i1]}}
`)
	noSharedPartition(t, sim)
	leave := stepWith(t, sim, kafka.KindLeaveGroupRequest, "", "removes c1")
	sync := stepWith(t, sim, kafka.KindSyncGroupResponse, "c1", "generation 1")
	require.Greater(t, sync.Index, leave.Index, "the answer reaches c1 after the removal")
	assert.Contains(t, sync.Text, "the coordinator has removed it since it answered")
	assigned := stepWith(t, sim, kafka.KindPartitionsAssigned, "c1")
	assert.Equal(t, sync.Index+1, assigned.Index, "the client calls onPartitionsAssigned all the same")
	hb := stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "UNKNOWN_MEMBER_ID")
	for i := sync.Index; i <= hb.Index; i++ {
		assert.Empty(t, sim.Step(i).Owned["c1"], "step %d: the group does not count a removed member's partitions", i)
	}
	// c2 had every partition before c1 heard of its removal.
	all := -1
	for i := sync.Index; i < hb.Index && all < 0; i++ {
		if owns(sim.Step(i), "c2", "t0", 0, 1, 2, 3) {
			all = i
		}
	}
	require.GreaterOrEqual(t, all, 0, "c2 takes all four partitions before c1's heartbeat")
	lost := stepWith(t, sim, kafka.KindPartitionsLost, "c1")
	assert.Contains(t, lost.Text, "[t0-1, t0-3]")
	assert.GreaterOrEqual(t, lost.Index, hb.Index)
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.Len(t, final.Owned["c1"]["t0"], 2)
	assert.Len(t, final.Owned["c2"]["t0"], 2)
}
