package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// firstAfter is the first step of a kind (and member) at or after index from.
func firstAfter(sim *model.Sim, from int, kind kafka.StepKind, member string) (model.Step, bool) {
	for i := from; i < sim.Len(); i++ {
		if st := sim.Step(i); st.Kind == kind && (member == "" || st.Member == member) {
			return st, true
		}
	}
	return model.Step{}, false
}

// lateRejoiner: c3's join starts a rebalance at 20.01 s; c1 stalls at 21 s,
// after the rebalance began but before its next heartbeat tells it, for
// less than its max.poll.interval.ms. The join phase ends at 320.01 s
// without it; it polls at 320.5 s, before its next heartbeat could tell it
// it was removed.
const lateRejoiner = `seed: 1
topics: {t0: 4}
group: {id: g, strategy: %s}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, join: {id: c3}}
  - {at_ms: 21000, stall: {id: c1, ms: 299500}}
`

// Issue 23 item 1. A member removed at the rebalance timeout that polls
// again before any answer tells it still holds its generation and its
// partitions: under eager onJoinPrepare revokes everything it owned
// (ConsumerCoordinator.onJoinPrepare, EAGER), then the JoinGroup with its
// old member id gets UNKNOWN_MEMBER_ID and it joins again with a new id
// (AbstractCoordinator.joinGroupIfNeeded, JoinGroupResponseHandler).
func TestRemovedAtRebalanceTimeoutEagerRevokesAllItOwned(t *testing.T) {
	sim := simYAML(t, "late.yaml", strings.ReplaceAll(lateRejoiner, "%s", "range, protocol: eager"))
	removed, ok := firstAfter(sim, 0, kafka.KindMemberRemoved, "c1")
	require.True(t, ok, "the coordinator should remove c1 at the rebalance timeout")
	assert.Equal(t, int64(320010), removed.TimeMs)
	before := sim.Step(removed.Index - 1).Owned["c1"]["t0"]
	require.NotEmpty(t, before, "c1 owned partitions before it was removed")

	revoked, ok := firstAfter(sim, removed.Index, kafka.KindPartitionsRevoked, "c1")
	require.True(t, ok)
	assert.Equal(t, int64(320500), revoked.TimeMs, "at the poll after the stall")
	assert.Contains(t, revoked.Text, "onPartitionsRevoked("+kafka.FormatTPs(tpsOf("t0", before))+")")

	resp, ok := firstAfter(sim, revoked.Index, kafka.KindJoinGroupResponse, "c1")
	require.True(t, ok)
	assert.Equal(t, "UNKNOWN_MEMBER_ID", resp.Error)
	rejoin, ok := firstAfter(sim, resp.Index, kafka.KindJoinGroupRequest, "c1")
	require.True(t, ok)
	assert.Contains(t, rejoin.Text, "with no member id", "it joins again as a new member")
	_, lost := firstAfter(sim, revoked.Index, kafka.KindPartitionsLost, "c1")
	assert.False(t, lost, "eager gave everything up already: nothing is lost")
}

// The cooperative member keeps what it owns at the first JoinGroup; the
// UNKNOWN_MEMBER_ID answer resets it and asks for onJoinPrepare again
// (AbstractCoordinator.resetStateAndRejoin sets needsJoinPrepare), which
// reports them lost (ConsumerCoordinatorTest.
// shouldLoseAllOwnedPartitionsBeforeRejoiningAfterDroppingOutOfTheGroup).
func TestRemovedAtRebalanceTimeoutCooperativeLosesWhatItOwned(t *testing.T) {
	sim := simYAML(t, "late.yaml", strings.ReplaceAll(lateRejoiner, "%s", "cooperative-sticky"))
	removed, ok := firstAfter(sim, 0, kafka.KindMemberRemoved, "c1")
	require.True(t, ok)
	before := sim.Step(removed.Index - 1).Owned["c1"]["t0"]
	require.NotEmpty(t, before)
	resp, ok := firstAfter(sim, removed.Index, kafka.KindJoinGroupResponse, "c1")
	require.True(t, ok)
	require.Equal(t, "UNKNOWN_MEMBER_ID", resp.Error)
	lost, ok := firstAfter(sim, resp.Index, kafka.KindPartitionsLost, "c1")
	require.True(t, ok, "onPartitionsLost runs before the next JoinGroup")
	assert.Contains(t, lost.Text, "onPartitionsLost("+kafka.FormatTPs(tpsOf("t0", before))+")")
	next, ok := firstAfter(sim, resp.Index, kafka.KindJoinGroupRequest, "c1")
	require.True(t, ok)
	assert.Less(t, lost.Index, next.Index)
}

func tpsOf(topic string, ps []int32) []kafka.TP {
	out := make([]kafka.TP, len(ps))
	for i, p := range ps {
		out[i] = kafka.TP{Topic: topic, Partition: p}
	}
	return out
}

// protractedRebalance: c1 (max.poll.interval.ms 10 min) stalls for 500 s;
// c2 joins at 20 s and the rebalance waits for c1.
const protractedRebalance = `seed: 2
topics: {t0: 4}
group: {id: g, strategy: range, max_poll_interval_ms: 600000}
members:
  - {id: c1}
timeline:
  - {at_ms: 10000, stall: {id: c1, ms: 500000}}
  - {at_ms: 20000, join: {id: c2}}
`

// Issue 23 item 2. A new member's JoinGroup is held at most
// CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS (5 min) during a protracted
// rebalance: it is removed and told UNKNOWN_MEMBER_ID, and the consumer
// joins again with a new member id (GroupMetadataManagerTest.
// testNewMemberJoinExpiration; GroupMetadataManager.
// addMemberThenRebalanceOrCompleteJoin, ClassicGroupMember.hasSatisfiedHeartbeat).
func TestNewMemberJoinExpiresAfterFiveMinutes(t *testing.T) {
	sim := simYAML(t, "newjoin.yaml", protractedRebalance)
	var added model.Step
	for _, st := range steps(sim, kafka.KindJoinGroupRequest, "c2") {
		if strings.Contains(st.Text, "adds it to the group") {
			added = st
			break
		}
	}
	require.NotZero(t, added.TimeMs)
	removed, ok := firstAfter(sim, added.Index, kafka.KindMemberRemoved, "c2")
	require.True(t, ok, "c2's join should time out")
	assert.Equal(t, added.TimeMs+5*60*1000, removed.TimeMs)
	assert.Equal(t, kafka.PreparingRebalance, removed.GroupState, "the rebalance is still waiting for c1")
	resp, ok := firstAfter(sim, removed.Index, kafka.KindJoinGroupResponse, "c2")
	require.True(t, ok)
	assert.Equal(t, "UNKNOWN_MEMBER_ID", resp.Error)
	again, ok := firstAfter(sim, resp.Index, kafka.KindJoinGroupRequest, "c2")
	require.True(t, ok)
	assert.Contains(t, again.Text, "with no member id")
	// It gets in once c1 rejoins (at 510 s, before its new join times out).
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.NotEmpty(t, final.Owned["c2"])
}

// Issue 23 item 3. Completing the join re-arms every member's heartbeat
// deadline (completeClassicGroupJoin: rescheduleClassicGroupMemberHeartbeat
// for all members), also a static member kept in the new generation
// without rejoining: c1 crashes at 46 s, after its last heartbeat, the join
// phase ends at 50.01 s with c1 kept, and c1 expires session.timeout.ms
// after that, not after its last heartbeat.
func TestCompletingTheJoinRearmsAKeptStaticMember(t *testing.T) {
	sim := simYAML(t, "kept.yaml", `seed: 3
topics: {t0: 4}
group: {id: g, strategy: range, session_timeout_ms: 10000, max_poll_interval_ms: 30000}
members:
  - {id: c1, instance: i1}
  - {id: c2}
timeline:
  - {at_ms: 19000, stall: {id: c1, ms: 29000}}
  - {at_ms: 20000, join: {id: c3}}
  - {at_ms: 46000, crash: c1}
`)
	var done model.Step
	for _, st := range steps(sim, kafka.KindGroupStateChanged, "") {
		if st.GroupState == kafka.CompletingRebalance && st.Generation == 2 {
			done = st
			break
		}
	}
	require.Equal(t, int64(50010), done.TimeMs, "the join phase ends at the rebalance timeout")
	kept, ok := firstAfter(sim, done.Index, kafka.KindAssignmentComputed, "")
	require.True(t, ok)
	assert.Contains(t, kept.Text, "c1 [", "the static member c1 stays in the group and gets an assignment")
	expired := steps(sim, kafka.KindSessionExpired, "c1")
	require.Len(t, expired, 1)
	assert.Equal(t, done.TimeMs+10000, expired[0].TimeMs)
}

// Issue 23 item 4 (classic side). A classic member sends no heartbeat while
// its JoinGroup is pending (AbstractCoordinator.HeartbeatThread: the
// member has not joined while PREPARING_REBALANCE): c2's JoinGroup waits
// five minutes in the test above without one heartbeat from it.
func TestNoClassicHeartbeatWhileTheJoinGroupIsPending(t *testing.T) {
	sim := simYAML(t, "newjoin.yaml", protractedRebalance)
	sent := int64(-1)
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.Member != "c2" {
			continue
		}
		switch st.Kind {
		case kafka.KindJoinGroupRequest:
			sent = st.TimeMs
		case kafka.KindJoinGroupResponse:
			sent = -1
		case kafka.KindHeartbeatRequest:
			assert.Less(t, sent, int64(0), "c2 heartbeats at %d ms with a JoinGroup pending since %d ms", st.TimeMs, sent)
		}
	}
}
