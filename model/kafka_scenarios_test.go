package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// The scenarios Kafka's coordinator and client tests write (issue 23
// item 5), each checked against the Kafka code it follows.

// stepWith is the first step of a kind (and member) whose text has all of
// the parts, or fails.
func stepWith(t *testing.T, sim *model.Sim, kind kafka.StepKind, member string, parts ...string) model.Step {
	t.Helper()
	for _, st := range steps(sim, kind, member) {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(st.Text, p)
		}
		if ok {
			return st
		}
	}
	t.Fatalf("no %s step of %q with %q", kind, member, parts)
	return model.Step{}
}

// Timeouts are a member's own, sent in each JoinGroup (JoinGroupRequest's
// SessionTimeoutMs and RebalanceTimeoutMs): c2's 10 s session expires 10 s
// after its last heartbeat; the join phase waits for the largest rebalance
// timeout of the members (ClassicGroup.rebalanceTimeoutMs), so c1's
// 600 s keeps a rebalance open past the default 300 s until it rejoins.
func TestMemberTimeoutsAreTheirOwn(t *testing.T) {
	sim := simYAML(t, "own.yaml", `seed: 4
topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1, max_poll_interval_ms: 600000}
  - {id: c2, session_timeout_ms: 10000, heartbeat_interval_ms: 2000}
timeline:
  - {at_ms: 20000, crash: c2}
  - {at_ms: 60000, stall: {id: c1, ms: 450000}}
  - {at_ms: 61000, join: {id: c3}}
`)
	hb := steps(sim, kafka.KindHeartbeatRequest, "c2")
	require.NotEmpty(t, hb)
	var lastBefore int64
	for _, st := range hb {
		if st.TimeMs < 20000 {
			lastBefore = st.TimeMs
		}
	}
	exp := steps(sim, kafka.KindSessionExpired, "c2")
	require.Len(t, exp, 1)
	assert.Equal(t, lastBefore+10000, exp[0].TimeMs, "c2's own session.timeout.ms")
	// Heartbeats 2 s apart, c2's own interval.
	assert.Equal(t, int64(2000), hb[2].TimeMs-hb[1].TimeMs)

	// c1 stalls 450 s (under its 600 s max.poll.interval.ms): the rebalance
	// c3 starts waits for it instead of removing it at 300 s.
	assert.Empty(t, steps(sim, kafka.KindMemberRemoved, "c1"), "the join phase waits c1's 600 s rebalance timeout")
	done := stepWith(t, sim, kafka.KindGroupStateChanged, "", "Everyone has joined", "generation 3")
	assert.GreaterOrEqual(t, done.TimeMs, int64(510000))
}

// INVALID_SESSION_TIMEOUT at JoinGroup, when the scenario asks the
// coordinator to answer it (GroupCoordinatorService.joinGroup checks
// group.min/max.session.timeout.ms); the client's JoinGroupResponseHandler
// treats it as fatal (ConsumerCoordinatorTest.testInvalidSessionTimeout).
// Without the key the scenario is refused, as before.
func TestInvalidSessionTimeoutAnsweredWhenAsked(t *testing.T) {
	const src = `topics: {t0: 2}
group: {id: g, strategy: range%s}
members:
  - {id: c1}
  - {id: c2, session_timeout_ms: 2000000}
`
	_, err := scenario.Parse("s.yaml", []byte(strings.Replace(src, "%s", "", 1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "INVALID_SESSION_TIMEOUT")
	sim := simYAML(t, "s.yaml", strings.Replace(src, "%s", ", session_timeout_check: coordinator", 1))
	resp := stepWith(t, sim, kafka.KindJoinGroupResponse, "c2", "INVALID_SESSION_TIMEOUT")
	assert.Equal(t, "INVALID_SESSION_TIMEOUT", resp.Error)
	v := sim.View(sim.Len() - 1)
	assert.Equal(t, kafka.StatusFenced, memberView(v, "c2").Status, "poll() throws: the consumer stops")
	assert.True(t, owns(last(sim), "c1", "t0", 0, 1), "c1 takes everything")
}

func memberView(v *model.GroupView, id string) model.MemberView {
	for _, m := range v.Members {
		if m.ID == id {
			return m
		}
	}
	return model.MemberView{}
}

// group.max_size: a joiner beyond it gets GROUP_MAX_SIZE_REACHED, fatal to
// it (GroupMetadataManager.acceptJoiningMember; classic
// GroupMetadataManagerTest.testJoinGroupShouldReceiveErrorIfGroupOverMaxSize,
// KIP-848 throwIfConsumerGroupIsFull).
func TestGroupMaxSize(t *testing.T) {
	needStrategy(t, "uniform")
	for _, strategy := range []string{"range", "uniform"} {
		sim := simYAML(t, "max.yaml", `seed: 2
topics: {t0: 4}
group: {id: g, strategy: `+strategy+`, max_size: 2}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, join: {id: c3}}
`)
		kind := kafka.KindJoinGroupResponse
		if strategy == "uniform" {
			kind = kafka.KindConsumerGroupHeartbeatResponse
		}
		resp := stepWith(t, sim, kind, "c3", "GROUP_MAX_SIZE_REACHED")
		assert.Equal(t, "GROUP_MAX_SIZE_REACHED", resp.Error, strategy)
		assert.Equal(t, kafka.StatusFenced, memberView(sim.View(sim.Len()-1), "c3").Status, strategy)
		assert.Len(t, last(sim).Owned["c1"]["t0"], 2, strategy)
	}
}

// An administrator removes a static member by group.instance.id
// (Admin.removeMembersFromConsumerGroup, LeaveGroup v3: classicGroupLeave
// removes it and rebalances). Its process, still running, learns it from its
// next heartbeat (UNKNOWN_MEMBER_ID), loses its partitions and joins again,
// as a new static member.
func TestAdminRemovesAStaticMember(t *testing.T) {
	sim := simYAML(t, "rm.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1, instance: i1}
  - {id: c2}
timeline:
  - {at_ms: 20000, remove_members: {instances: [i1]}}
`)
	leave := stepWith(t, sim, kafka.KindLeaveGroupRequest, "", "group.instance.id i1", "removes c1")
	assert.Empty(t, sim.Step(leave.Index + 1).Owned["c1"], "from the removal on the group no longer counts c1's partitions")
	hb := stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "UNKNOWN_MEMBER_ID")
	assert.Greater(t, hb.TimeMs, leave.TimeMs)
	lost := stepWith(t, sim, kafka.KindPartitionsLost, "c1")
	assert.GreaterOrEqual(t, lost.Index, hb.Index)
	stepWith(t, sim, kafka.KindJoinGroupRequest, "c1", "static members skip MEMBER_ID_REQUIRED")
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.Len(t, final.Owned["c1"]["t0"], 2)
	// An instance the group does not hold: UNKNOWN_MEMBER_ID, nobody removed.
	sim = simYAML(t, "rm.yaml", `topics: {t0: 2}
group: {id: g, strategy: range}
members:
  - {id: c1}
timeline:
  - {at_ms: 20000, remove_members: {instances: [nope]}}
`)
	st := stepWith(t, sim, kafka.KindLeaveGroupRequest, "", "nope: UNKNOWN_MEMBER_ID")
	assert.Equal(t, "UNKNOWN_MEMBER_ID", st.Error)
	assert.Empty(t, steps(sim, kafka.KindPartitionsLost, "c1"))
}

// One consumer cut off from the brokers while it keeps running: its
// heartbeats fail, it keeps looking for the coordinator, the coordinator
// removes it when its session expires and rebalances without it; when the
// link is back its heartbeat gets UNKNOWN_MEMBER_ID and it rejoins
// (AbstractCoordinatorTest.testHeartbeatUnknownMemberResponseWhileSendingJoinGroup's
// handling; AbstractCoordinator.HeartbeatResponseHandler).
func TestOneMemberCutOff(t *testing.T) {
	sim := simYAML(t, "cut.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: cooperative-sticky}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, disconnect: {id: c1, ms: 60000}}
`)
	stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "NETWORK_EXCEPTION")
	exp := steps(sim, kafka.KindSessionExpired, "c1")
	require.Len(t, exp, 1)
	assert.Less(t, exp[0].TimeMs, int64(80000))
	back := stepWith(t, sim, kafka.KindNetworkRestored, "c1")
	assert.Equal(t, int64(80000), back.TimeMs)
	for _, st := range steps(sim, kafka.KindHeartbeatRequest, "c1") {
		assert.False(t, st.TimeMs > 20000 && st.TimeMs < 80000, "no heartbeat reaches the coordinator while c1 is cut off (%d ms)", st.TimeMs)
	}
	hb := stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "UNKNOWN_MEMBER_ID")
	assert.Greater(t, hb.TimeMs, back.TimeMs)
	final := last(sim)
	assert.Equal(t, kafka.Stable, final.GroupState)
	assert.Len(t, final.Owned["c1"]["t0"], 2)
	assert.Len(t, final.Owned["c2"]["t0"], 2)
}

// wakeup() during a join: poll() throws WakeupException, the JoinGroup in
// flight stays so, and the rebalance completes as it would have
// (ConsumerCoordinatorTest.testWakeupDuringJoin): every step but the
// wakeup's own is the same.
func TestWakeupDuringJoin(t *testing.T) {
	const src = `seed: 3
topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, join: {id: c3}}
`
	plain := simYAML(t, "w.yaml", src)
	woken := simYAML(t, "w.yaml", src+"  - {at_ms: 20009, wakeup: c3}\n")
	w := stepWith(t, woken, kafka.KindPollInterrupted, "c3", "WakeupException", "JoinGroup stays in flight")
	assert.Equal(t, int64(20009), w.TimeMs)
	assert.Equal(t, plain.Len()+1, woken.Len())
	for i, j := 0, 0; i < plain.Len(); i, j = i+1, j+1 {
		if j == w.Index {
			j++
		}
		a, b := plain.StepLine(i), woken.StepLine(j)
		a.Index, b.Index = 0, 0
		require.Equal(t, a, b, "step %d", i)
	}
}

// The production incident: a slow onPartitionsRevoked that runs past the
// rebalance timeout. c1 hears of c3's rebalance at 21 s; its callback takes
// 299 s, so its JoinGroup cannot reach the coordinator before the join
// phase ends at 320.01 s: it is removed (completeClassicGroupJoin), its
// JoinGroup then gets UNKNOWN_MEMBER_ID, and it joins again as a new
// member, which starts another rebalance. It holds its partitions until
// the callback returns (ConsumerCoordinator.onJoinPrepare clears them
// after it), and its heartbeat thread keeps it alive meanwhile.
func TestSlowRevokeMissesTheRebalanceTimeout(t *testing.T) {
	sim := simYAML(t, "slow.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: range, protocol: eager}
members:
  - {id: c1, listener: {revoked_ms: 299000}}
  - {id: c2}
timeline:
  - {at_ms: 20000, join: {id: c3}}
`)
	revoke := stepWith(t, sim, kafka.KindPartitionsRevoked, "c1")
	busy := stepWith(t, sim, kafka.KindPollStalled, "c1", "onPartitionsRevoked runs for 299000 ms")
	assert.Equal(t, revoke.TimeMs, busy.TimeMs)
	during := sim.Step(firstAt(sim, revoke.TimeMs+100000))
	assert.NotEmpty(t, during.Owned["c1"], "c1 holds its partitions while the callback runs")
	removed := stepWith(t, sim, kafka.KindMemberRemoved, "c1", "did not rejoin within the rebalance timeout")
	returned := stepWith(t, sim, kafka.KindCallbackReturned, "c1")
	assert.Equal(t, revoke.TimeMs+299000, returned.TimeMs)
	assert.Less(t, removed.TimeMs, returned.TimeMs)
	join, ok := firstAfter(sim, returned.Index, kafka.KindJoinGroupRequest, "c1")
	require.True(t, ok)
	assert.Contains(t, join.Text, "sends JoinGroup as")
	resp, ok := firstAfter(sim, join.Index, kafka.KindJoinGroupResponse, "c1")
	require.True(t, ok)
	assert.Equal(t, "UNKNOWN_MEMBER_ID", resp.Error)
	assert.Empty(t, steps(sim, kafka.KindPollTimeout, "c1"), "299 s is under max.poll.interval.ms")
	assert.Equal(t, kafka.Stable, last(sim).GroupState)
}

// A callback that throws: the rebalance step completes, then poll() throws
// KafkaException ("User rebalance callback throws an error",
// ConsumerCoordinator.onJoinComplete / onJoinPrepare); the application
// polls again and the group settles as it would have.
func TestThrowingCallback(t *testing.T) {
	sim := simYAML(t, "throw.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1, listener: {throws: [assigned]}}
  - {id: c2}
`)
	assigned := stepWith(t, sim, kafka.KindPartitionsAssigned, "c1")
	threw := stepWith(t, sim, kafka.KindPollInterrupted, "c1", "onPartitionsAssigned throws")
	assert.Equal(t, assigned.Index+1, threw.Index)
	assert.Len(t, last(sim).Owned["c1"]["t0"], 2)
}

// Auto-commit in onJoinPrepare delays the rejoin: the member commits its
// positions and waits for the answer before it revokes and sends JoinGroup
// (ConsumerCoordinator.onJoinPrepare; ConsumerCoordinatorTest.
// testJoinPrepareAndCommitCompleted).
func TestAutoCommitBeforeRejoin(t *testing.T) {
	sim := simYAML(t, "commit.yaml", `seed: 1
topics: {t0: 4}
group: {id: g, strategy: range, protocol: eager}
members:
  - {id: c1, rejoin_commit_ms: 2000}
  - {id: c2}
timeline:
  - {at_ms: 20000, join: {id: c3}}
`)
	told := stepWith(t, sim, kafka.KindHeartbeatResponse, "c1", "REBALANCE_IN_PROGRESS")
	commit := stepWith(t, sim, kafka.KindOffsetCommitRequest, "c1", "before it rejoins")
	answer := stepWith(t, sim, kafka.KindOffsetCommitResponse, "c1", "after 2000 ms")
	revoke, ok := firstAfter(sim, told.Index, kafka.KindPartitionsRevoked, "c1")
	require.True(t, ok)
	join, ok := firstAfter(sim, told.Index, kafka.KindJoinGroupRequest, "c1")
	require.True(t, ok)
	assert.Less(t, commit.Index, answer.Index)
	assert.Less(t, answer.Index, revoke.Index, "it revokes only once the commit is answered")
	assert.GreaterOrEqual(t, join.TimeMs-told.TimeMs, int64(2000))
}
