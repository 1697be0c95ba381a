package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

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
	assertNoDoubleOwner(t, sim)
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

// A member closes while it cannot reach the coordinator: cut off
// (disconnect), its heartbeats fail and it is looking for the coordinator.
// The classic consumer sends no LeaveGroup while the coordinator is unknown
// (AbstractCoordinator.maybeLeaveGroup, shouldSendLeaveGroupRequest; close
// returns at once: ConsumerCoordinatorTest.testCloseCoordinatorNotKnownNoCommits);
// the KIP-848 consumer's leave heartbeat fails and close() completes the
// leave all the same (ConsumerMembershipManagerTest.
// testHeartbeatFailedResponseWhenLeavingGroupCompletesLeave). Either way
// the process is gone from the close on, and the coordinator removes it
// when its session expires. Before, the KIP-848 close left no step, so the
// trace's last step still showed it running beside a group that had
// expired it; the classic one said it had never been a member.
func TestMemberClosesWhileCutOff(t *testing.T) {
	for _, setup := range [][2]string{{"range", "eager"}, {"uniform", "consumer"}} {
		needStrategy(t, setup[0])
		sim := simYAML(t, "cut.yaml", fmt.Sprintf(`seed: 1
topics: {t0: 2}
group: {id: g, strategy: %s, protocol: %s}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, disconnect: {id: c1, ms: 100000}}
  - {at_ms: 30000, leave: c1}
`, setup[0], setup[1]))
		closed := stepWith(t, sim, kafka.KindMemberStopped, "c1", "it is cut off from the brokers", "the coordinator removes it when")
		assert.Equal(t, int64(30000), closed.TimeMs, setup[1])
		assert.Equal(t, kafka.StatusLeft, memberView(sim.View(closed.Index), "c1").Status, setup[1])
		assert.Empty(t, steps(sim, kafka.KindLeaveGroupRequest, "c1"), "%s: no leave reaches the coordinator", setup[1])
		for _, kind := range []kafka.StepKind{kafka.KindHeartbeatRequest, kafka.KindConsumerGroupHeartbeatRequest} {
			for _, st := range steps(sim, kind, "c1") {
				assert.Less(t, st.TimeMs, int64(20000), "%s: nothing of c1's reaches the coordinator after the cut", setup[1])
			}
		}
		exp := steps(sim, kafka.KindSessionExpired, "c1")
		require.Len(t, exp, 1, setup[1])
		assert.Greater(t, exp[0].TimeMs, closed.TimeMs, setup[1])
		final := last(sim)
		assert.True(t, final.GroupState == kafka.Stable || final.GroupState == kafka.KStable, "%s: ends %s", setup[1], final.GroupState)
		assert.Len(t, final.Owned["c2"]["t0"], 2, setup[1])
		assert.Equal(t, kafka.StatusLeft, memberView(sim.View(sim.Len()-1), "c1").Status, setup[1])
	}
}

// The failing scenario TestRandomGroups found: a static KIP-848 member that
// an administrator fenced (classicGroupLeaveToConsumerGroup) closes while
// cut off. Nothing it sends arrives, and the coordinator already fenced it,
// so the group is Empty and stays so: the close is the last step and shows
// the member gone, so the run ends with nobody running, as Kafka's group
// would (before, the trace ended on its last heartbeat answer, still
// running beside an Empty group). The classic twin: a static member the
// administrator removed closes (no LeaveGroup for static members,
// AbstractCoordinator.shouldSendLeaveGroupRequest) and the trace says the
// coordinator holds no place for it any more.
func TestRemovedMemberCloses(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "rm.yaml", `seed: 0
cluster: {brokers: 1}
topics: {t0: 1}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t0], instance: ic1, max_poll_interval_ms: 30000}
timeline:
  - {at_ms: 1, stall: {id: c1, ms: 1000}}
  - {at_ms: 2, commit: c1}
  - {at_ms: 5, remove_members: {instances: [ic1]}}
  - {at_ms: 7, disconnect: {id: c1, ms: 1000}}
  - {at_ms: 9, leave: c1}
`)
	closed := stepWith(t, sim, kafka.KindMemberStopped, "c1", "it is cut off from the brokers", "member epoch -2", "the coordinator has removed it already")
	assert.Equal(t, int64(9), closed.TimeMs)
	assert.Equal(t, closed.Index, sim.Len()-1, "nothing follows the close")
	assert.Equal(t, kafka.KEmpty, last(sim).GroupState)
	assert.Equal(t, kafka.StatusLeft, memberView(sim.View(sim.Len()-1), "c1").Status)

	sim = simYAML(t, "rm.yaml", `seed: 0
topics: {t0: 2}
group: {id: g0, strategy: range}
members:
  - {id: c1, instance: i1}
  - {id: c2}
timeline:
  - {at_ms: 10000, remove_members: {instances: [i1]}}
  - {at_ms: 10003, leave: c1}
`)
	closed = stepWith(t, sim, kafka.KindMemberStopped, "c1", "Static members send no LeaveGroup; the coordinator has removed it already")
	assert.Equal(t, int64(10003), closed.TimeMs)
	assert.Empty(t, steps(sim, kafka.KindSessionExpired, "c1"))
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.Len(t, final.Owned["c2"]["t0"], 2)
}

// The failing scenario TestRandomInserts found: a static KIP-848 member
// the administrator fenced closes before any answer tells it so, and its
// coordinator moved a moment before. It still holds t0-0 at member epoch 1
// in its own eyes, so close() revokes it
// (ConsumerMembershipManager.invokeOnPartitionsRevokedOrLostToReleaseAssignment:
// onPartitionsRevoked while the epoch is positive), though the group no
// longer counts it; its leave heartbeat goes to the broker that failed and
// the trace says so, the member gone. Before, close() released only what
// the group still counted (nothing) and the lost leave left no step, so
// the trace ended with c1 running beside an Empty group.
func TestFencedMemberClosesAfterTheCoordinatorMoved(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "rm.yaml", `seed: 2
cluster: {brokers: 3}
topics: {t0: 1}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t0], instance: ic1}
timeline:
  - {at_ms: 11, fail_broker: 0}
  - {at_ms: 12, remove_members: {instances: [ic1]}}
  - {at_ms: 15, leave: c1}
`)
	revoked := stepWith(t, sim, kafka.KindPartitionsRevoked, "c1", "[t0-0]", "it is closing")
	assert.Equal(t, int64(15), revoked.TimeMs)
	assert.Empty(t, revoked.Owned["c1"], "the group does not count a fenced member's partitions")
	gone := stepWith(t, sim, kafka.KindMemberStopped, "c1", "leave heartbeat (member epoch -2) does not reach the coordinator", "the coordinator has removed it already")
	assert.Equal(t, gone.Index, sim.Len()-1)
	assert.Equal(t, kafka.KEmpty, last(sim).GroupState)
	assert.Equal(t, kafka.StatusLeft, memberView(sim.View(sim.Len()-1), "c1").Status)
}

// Found by TestRandomInserts with the administrator's removals drawn: a
// classic group still in its first join phase (generation 0) is converted
// when its static member comes back with the consumer protocol, so the
// member's epoch is 0 (ConsumerGroup.fromClassicGroup takes the
// generation). An administrator then fences it; its next heartbeat, at
// epoch 0, is a join and carries its subscription, as every join does
// (GroupMetadataManager.throwIfConsumerGroupHeartbeatRequestIsInvalid
// refuses one without it). Before, the client left the subscription out,
// believing it had sent it already, and the coordinator assigned the new
// member nothing: t0-0 stayed unconsumed.
func TestEpochZeroMemberRejoinsWithItsSubscription(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "rm.yaml", `seed: 0
cluster: {brokers: 1}
topics: {t0: 1}
group: {id: g0, strategy: range, protocol: eager}
members:
  - {id: c1, topics: [t0], instance: ic1}
timeline:
  - {at_ms: 7, leave: c1}
  - {at_ms: 8, restart: {id: c1, protocol: consumer}}
  - {at_ms: 14, remove_members: all}
`)
	stepWith(t, sim, kafka.KindGroupConverted, "", "generation 0")
	stepWith(t, sim, kafka.KindLeaveGroupRequest, "", "fences c1")
	stepWith(t, sim, kafka.KindConsumerGroupHeartbeatRequest, "c1", "epoch 0 (join)", "subscribing to [t0]")
	final := last(sim)
	assert.Equal(t, kafka.KStable, final.GroupState)
	assert.True(t, owns(final, "c1", "t0", 0), "c1 consumes t0-0 (owned %v)", final.Owned)
}

// Found by TestKIP848BatchingRandomEventSequences: a member whose poll
// timed out sends its leave heartbeat and is stale until it polls again
// (ConsumerMembershipManager.maybeRejoinStaleMember); the process keeps
// running. When that heartbeat finds the coordinator gone, the step is a
// failed heartbeat, not the process stopping, and onPartitionsLost runs at
// the next poll() with what it held.
func TestPollTimedOutLeaveToAMovedCoordinatorKeepsTheProcess(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "stale.yaml", `seed: 0
cluster: {brokers: 1}
topics: {t0: 1, t1: 1}
group: {id: g0, strategy: uniform, protocol: consumer, kafka_version: "4.3", assignment_interval_ms: 1000, heartbeat_interval_ms: 1000}
members:
  - {id: c1, topics: [t0, t1], instance: ic1}
  - {id: c2, topics: [t0, t1], instance: ic2, max_poll_interval_ms: 30000}
timeline:
  - {at_ms: 9, stall: {id: c1, ms: 300003}}
  - {at_ms: 10, remove_members: {instances: [ic1]}}
  - {at_ms: 1011, fail_broker: 0}
`)
	assert.Empty(t, steps(sim, kafka.KindMemberStopped, "c1"), "c1's process never stops")
	hb := stepWith(t, sim, kafka.KindConsumerGroupHeartbeatResponse, "c1", "leave heartbeat (member epoch -2) does not reach the coordinator", "rejoins when it polls again")
	assert.Equal(t, "NETWORK_EXCEPTION", hb.Error)
	lost := stepWith(t, sim, kafka.KindPartitionsLost, "c1", "[t0-0, t1-0]")
	assert.Greater(t, lost.Index, hb.Index)
}
