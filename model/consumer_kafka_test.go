package model_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// The KIP-848 consumer as Kafka's client and coordinator behave (issue 14),
// each test naming the Kafka test or method it follows.

// jsonStep is one line of `kviz simulate --format jsonl` under the consumer
// protocol, read back as a script would.
type jsonStep struct {
	Step            int                           `json:"step"`
	TimeMs          int64                         `json:"time_ms"`
	Kind            kafka.StepKind                `json:"kind"`
	Member          string                        `json:"member"`
	Text            string                        `json:"text"`
	GroupState      kafka.GroupState              `json:"group_state"`
	Generation      int32                         `json:"generation"`
	AssignmentEpoch *int32                        `json:"assignment_epoch"`
	Owned           map[string]map[string][]int32 `json:"owned"`
	MemberEpochs    map[string]int32              `json:"member_epochs"`
	MemberStates    map[string]kafka.MemberState  `json:"member_states"`
	Target          map[string]map[string][]int32 `json:"target"`
}

func jsonSteps(t interface{ Fatalf(string, ...any) }, sim *model.Sim) []jsonStep {
	out := make([]jsonStep, sim.Len())
	for i := range out {
		if err := json.Unmarshal(sim.AppendStepJSON(nil, i), &out[i]); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return out
}

// derivedState is ConsumerGroup.maybeUpdateGroupState on what one step shows.
func derivedState(st jsonStep) kafka.GroupState {
	switch {
	case len(st.MemberEpochs) == 0:
		return kafka.KEmpty
	case st.Generation > *st.AssignmentEpoch:
		return kafka.KAssigning
	}
	for m, e := range st.MemberEpochs {
		if e != *st.AssignmentEpoch || st.MemberStates[m] != kafka.MStable {
			return kafka.KReconciling
		}
	}
	return kafka.KStable
}

// requests lists a member's ConsumerGroupHeartbeatRequest steps.
func requests(sim *model.Sim, member string) []model.Step {
	return steps(sim, kafka.KindConsumerGroupHeartbeatRequest, member)
}

// 1. A subscription change rides the next regular heartbeat; subscribe()
// runs no callback; the member revokes only what the coordinator's answer
// takes away, and keeps consuming it until then
// (ConsumerMembershipManagerTest.testOnSubscriptionUpdatedDoesNotTransitionToJoiningIfInGroup,
// GroupMetadataManagerTest.testUpdatingSubscriptionTriggersNewTargetAssignment,
// AbstractMembershipManager.revokeAndAssign).
func TestKIP848SubscriptionChangeRidesTheNextHeartbeat(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "sub.yaml", `seed: 7
topics: {t0: 2, t1: 2}
group: {id: g, strategy: uniform}
members:
  - {id: c1, topics: [t0, t1]}
  - {id: c2, topics: [t0, t1]}
timeline:
  - {at_ms: 20000, subscribe: {id: c1, topics: [t1]}}
`)
	change := firstAt(sim, 20000)
	before := sim.Step(change - 1)
	if !owns(before, "c1", "t0", 0, 1) {
		t.Fatalf("setup: c1 should own t0-0 and t0-1 before the change: %v", before.Owned)
	}
	var lastBefore, carrying model.Step
	for _, r := range requests(sim, "c1") {
		if r.TimeMs < 20000 {
			lastBefore = r
		} else if carrying.Kind == "" {
			carrying = r
		}
	}
	// Routine heartbeats are an interval apart, and the change waits for one.
	if carrying.TimeMs != lastBefore.TimeMs+5000 || !strings.Contains(carrying.Text, "subscribing to [t1]") {
		t.Fatalf("c1's heartbeats around the change: %d ms %q, then %d ms %q; want the next regular one (+5000 ms) to carry [t1]",
			lastBefore.TimeMs, lastBefore.Text, carrying.TimeMs, carrying.Text)
	}
	var revoked []model.Step
	for i := change; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.TimeMs < carrying.TimeMs {
			if st.Member == "c1" && st.Kind.IsCallback() {
				t.Errorf("step %d: %s before the coordinator answered: subscribe() runs no callback", i, st.Text)
			}
			if !owns(st, "c1", "t0", 0, 1) {
				t.Errorf("step %d: c1 stopped consuming t0 before the coordinator took it away: %v", i, st.Owned["c1"])
			}
		}
		if st.Kind == kafka.KindPartitionsRevoked && st.Member == "c1" {
			revoked = append(revoked, st)
		}
	}
	if len(revoked) != 1 || revoked[0].Text != "c1 calls onPartitionsRevoked([t0-0, t0-1]): the new target moves them away." {
		t.Fatalf("c1's revocations: %+v, want one of [t0-0, t0-1]", revoked)
	}
	next := sim.Step(revoked[0].Index + 1)
	if next.Kind != kafka.KindPartitionsAssigned || next.Member != "c1" {
		t.Errorf("after revoking, c1 assigns at once (revokeAndAssign): step %d is %s %s", next.Index, next.Kind, next.Member)
	}
	end := last(sim)
	if !owns(end, "c1", "t1", 0, 1) || !owns(end, "c2", "t0", 0, 1) || end.GroupState != kafka.KStable {
		t.Errorf("end: %s %v, want c1 on t1, c2 on t0", end.GroupState, end.Owned)
	}
}

// 2. A joining member given nothing still reconciles: onPartitionsAssigned([])
// and, ACKNOWLEDGING, a heartbeat at once
// (ConsumerMembershipManagerTest.testMemberJoiningCallsRebalanceListenerWhenReceivingEmptyAssignment,
// testTransitionToReconcilingIfEmptyAssignmentReceived).
func TestKIP848EmptyFirstAssignmentIsReconciled(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "empty.yaml", `seed: 3
topics: {t0: 1}
group: {id: g, strategy: uniform}
members:
  - {id: c1}
timeline:
  - {at_ms: 10000, join: {id: c2}}
`)
	var answer model.Step
	for _, r := range steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "c2") {
		answer = r
		break
	}
	if !strings.HasSuffix(answer.Text, "assignment [].") {
		t.Fatalf("c2's first answer: %q, want an empty assignment", answer.Text)
	}
	cb := sim.Step(answer.Index + 1)
	if cb.Kind != kafka.KindPartitionsAssigned || cb.Member != "c2" || cb.Text != "c2 calls onPartitionsAssigned([])." {
		t.Fatalf("after the empty answer: %s %s %q, want onPartitionsAssigned([])", cb.Kind, cb.Member, cb.Text)
	}
	reqs := requests(sim, "c2")
	if len(reqs) < 2 || reqs[1].TimeMs != answer.TimeMs+2 {
		t.Fatalf("c2's acknowledgement should reach the coordinator 2 ms after the answer (%d ms): %+v", answer.TimeMs, reqs)
	}
}

// 3. The heartbeat timer is reset when a heartbeat is sent, so a stable
// member's heartbeats are 5,000 ms apart send to send; the first answer sets
// the interval (it starts at 0) and restarts it
// (ConsumerHeartbeatRequestManagerTest.testSuccessfulHeartbeatTiming,
// HeartbeatRequestState.updateHeartbeatIntervalMs).
func TestKIP848HeartbeatsAreAnIntervalApartSendToSend(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "hb.yaml", `seed: 1
topics: {t0: 2}
group: {id: g, strategy: uniform}
members:
  - {id: c1}
timeline:
  - {at_ms: 31000, commit: c1}
`)
	reqs := requests(sim, "c1")
	answers := steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "c1")
	if len(reqs) < 6 {
		t.Fatalf("%d heartbeats, want a few", len(reqs))
	}
	// The join, then the acknowledgement of the first assignment at once.
	if reqs[1].TimeMs != answers[0].TimeMs+2 {
		t.Fatalf("acknowledgement at %d ms, answer at %d ms", reqs[1].TimeMs, answers[0].TimeMs)
	}
	for k := 2; k < len(reqs); k++ {
		if gap := reqs[k].TimeMs - reqs[k-1].TimeMs; gap != 5000 {
			t.Errorf("heartbeats %d and %d are %d ms apart, want 5000 (send to send)", k-1, k, gap)
		}
	}
}

// 4a. A member that must revoke and does not within its rebalance timeout
// (max.poll.interval.ms) is fenced by the coordinator
// (GroupMetadataManagerTest.testRebalanceTimeoutExpiration,
// GroupMetadataManager.scheduleConsumerGroupRebalanceTimeout).
func TestKIP848RevocationTimeoutFences(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "revoke.yaml", `seed: 7
topics: {t0: 6}
group: {id: g, strategy: uniform, max_poll_interval_ms: 10000}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 29000, stall: {id: c1, ms: 9000}}
  - {at_ms: 30000, join: {id: c3}}
  - {at_ms: 35000, crash: c1}
`)
	var unrevoked model.Step // the heartbeat that put c1 into UNREVOKED_PARTITIONS
	for _, a := range steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "c1") {
		if a.TimeMs > 30000 && strings.Contains(a.Text, "UNREVOKED_PARTITIONS") {
			unrevoked = sim.Step(a.Index - 1)
			for unrevoked.Kind != kafka.KindConsumerGroupHeartbeatRequest || unrevoked.Member != "c1" {
				unrevoked = sim.Step(unrevoked.Index - 1)
			}
			break
		}
	}
	if unrevoked.Kind == "" {
		t.Fatal("c1 was never asked to revoke")
	}
	removed := steps(sim, kafka.KindMemberRemoved, "c1")
	if len(removed) != 1 || removed[0].TimeMs != unrevoked.TimeMs+10000 || !strings.Contains(removed[0].Text, "did not revoke") {
		t.Fatalf("c1 asked to revoke at %d ms; removals %+v, want one at +10000 ms", unrevoked.TimeMs, removed)
	}
	if exp := steps(sim, kafka.KindSessionExpired, "c1"); len(exp) != 0 {
		t.Errorf("c1 was fenced by the rebalance timeout; its session cannot expire after: %+v", exp)
	}
	if after := sim.Step(removed[0].Index + 1); after.Generation != removed[0].Generation+1 {
		t.Errorf("fencing bumps the group epoch: %d -> %d", removed[0].Generation, after.Generation)
	}
}

// 4b. A static member leaving with epoch -2 keeps no partitions pending
// revocation (GroupMetadataManager.consumerGroupStaticMemberGroupLeave): the
// member waiting for them gets them, and the rebalance timeout scheduled
// for the old epoch fences no one.
func TestKIP848StaticLeaveClearsPendingRevocations(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "static.yaml", `seed: 7
topics: {t0: 6}
group: {id: g, strategy: uniform, max_poll_interval_ms: 10000}
members:
  - {id: c1, instance: i1}
  - {id: c2}
timeline:
  - {at_ms: 29000, stall: {id: c1, ms: 20000}}
  - {at_ms: 30000, join: {id: c3}}
`)
	if r := steps(sim, kafka.KindMemberRemoved, ""); len(r) != 0 {
		t.Fatalf("no one should be fenced: %+v", r)
	}
	var leave model.Step
	for _, r := range requests(sim, "c1") {
		if strings.Contains(r.Text, "epoch -2") {
			leave = r
		}
	}
	if leave.Kind == "" {
		t.Fatal("c1 never left with epoch -2")
	}
	js := jsonSteps(t, sim)
	got := int64(-1)
	for _, st := range js[leave.Index:] {
		if slices.Contains(st.Owned["c3"]["t0"], 2) {
			got = st.TimeMs
			break
		}
	}
	if got < 0 || got > leave.TimeMs+5000+netRoundTrip {
		t.Fatalf("c3 should take t0-2, which c1 had to revoke, at its first heartbeat after c1 left (%d ms): got it at %d ms", leave.TimeMs, got)
	}
}

// netRoundTrip is a request and its answer (2 ms each way).
const netRoundTrip = 4

// 5. While the coordinator holds a member, member_epochs (and member_states)
// list it whenever target does, under the same key: a static member away at
// epoch -2 whose process restarted, a crashed static member whose process
// restarted, a dynamic member that restarted before its old session expired.
func TestKIP848TraceNamesEveryHeldMemberOnce(t *testing.T) {
	needStrategy(t, "uniform")
	sims := map[string]*model.Sim{
		"kip848-join":         simDemo(t, "kip848-join"),
		"kip848-static-crash": simDemo(t, "kip848-static-crash"),
		"dynamic restart": simYAML(t, "restart.yaml", `seed: 5
topics: {t0: 4}
group: {id: g, strategy: uniform}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 20000, restart: c1}
`),
	}
	for name, sim := range sims {
		sawOld := false
		for _, st := range jsonSteps(t, sim) {
			for m := range st.Target {
				if _, ok := st.MemberEpochs[m]; !ok {
					t.Fatalf("%s step %d: target names %s, member_epochs does not: %v", name, st.Step, m, st.MemberEpochs)
				}
			}
			for m := range st.MemberEpochs {
				if _, ok := st.MemberStates[m]; !ok {
					t.Fatalf("%s step %d: member_states lacks %s", name, st.Step, m)
				}
				sawOld = sawOld || strings.Contains(m, "-")
			}
		}
		if !sawOld {
			t.Errorf("%s: the old member should show under its member id while the coordinator holds it", name)
		}
	}
}

// 6. The group state of every step is Kafka's rule on what the step shows
// (ConsumerGroup.maybeUpdateGroupState), and never STABLE or RECONCILING
// while the group epoch is ahead of the assignment epoch (issue 13 item 5).
func TestKIP848StateFollowsFromEveryStep(t *testing.T) {
	needStrategy(t, "uniform")
	for _, name := range []string{"kip848-join", "kip848-static-crash"} {
		sim := simDemo(t, name)
		for _, st := range jsonSteps(t, sim) {
			if st.AssignmentEpoch == nil {
				t.Fatalf("%s step %d has no assignment_epoch", name, st.Step)
			}
			if want := derivedState(st); st.GroupState != want {
				t.Fatalf("%s step %d (%s): %s at group epoch %d, assignment epoch %d, members %v %v; the rule gives %s",
					name, st.Step, st.Kind, st.GroupState, st.Generation, *st.AssignmentEpoch, st.MemberEpochs, st.MemberStates, want)
			}
		}
	}
	// demo:kip848-join's first join is one write, as Kafka's
	// consumerGroupHeartbeat makes it (issue 23 item 4): the bump step
	// already shows the target's epoch and c1 at it, as
	// CurrentAssignmentBuilder decided it, so the group is STABLE, never
	// ASSIGNING with a joiner at epoch 0.
	sim := simDemo(t, "kip848-join")
	js := jsonSteps(t, sim)
	bump := steps(sim, kafka.KindGroupStateChanged, "")[1]
	if bump.Text != "Group epoch 1: c1 joined." || bump.GroupState != kafka.KStable || js[bump.Index].MemberEpochs["c1"] != 1 {
		t.Errorf("the first bump: %q %s, c1 at %v; want STABLE with c1 at epoch 1", bump.Text, bump.GroupState, js[bump.Index].MemberEpochs)
	}
	// A fence is a write of its own (consumerGroupFenceMember): ASSIGNING
	// until the next heartbeat computes the target.
	sim = simDemo(t, "kip848-static-crash")
	fenced := false
	for _, st := range steps(sim, kafka.KindGroupStateChanged, "") {
		if strings.Contains(st.Text, "session expired") {
			fenced = true
			if st.GroupState != kafka.KAssigning {
				t.Errorf("the fence's bump %q is %s, want ASSIGNING", st.Text, st.GroupState)
			}
		}
	}
	if !fenced {
		t.Error("demo:kip848-static-crash should fence c1")
	}
}

// An answer to a heartbeat that was in flight when the member left the
// group (its poll timed out) is ignored: the member does not take back the
// partition the group gave away meanwhile
// (ConsumerMembershipManagerTest.testIgnoreHeartbeatResponseWhenNotInGroup;
// found by TestKIP848RandomEventSequences).
func TestKIP848AnswerAfterLeavingIsIgnored(t *testing.T) {
	needStrategy(t, "range-server")
	sim := simYAML(t, "late.yaml", `seed: 2808
cluster: {brokers: 3}
topics: {t0: 2, t1: 1}
group: {id: g99, strategy: range-server, protocol: consumer}
members:
  - {id: c1, topics: [t0, t1]}
  - {id: c2, topics: [t0, t1], instance: ic2}
  - {id: c3, topics: [t0, t1]}
timeline:
  - {at_ms: 13, stall: {id: c1, ms: 343961}}
  - {at_ms: 6695, join: {id: c4, topics: [t0, t1]}}
`)
	timeout := steps(sim, kafka.KindPollTimeout, "c1")
	if len(timeout) != 1 {
		t.Fatalf("c1's poll should time out once: %+v", timeout)
	}
	for _, a := range steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "c1") {
		if a.TimeMs > timeout[0].TimeMs && a.TimeMs < 343974 {
			t.Errorf("c1 heeds an answer after leaving: %q at %d ms", a.Text, a.TimeMs)
		}
	}
	for _, st := range jsonSteps(t, sim) {
		seen := map[int32]string{}
		for m, topics := range st.Owned {
			for _, p := range topics["t0"] {
				if o, dup := seen[p]; dup {
					t.Fatalf("step %d: t0-%d owned by %s and %s", st.Step, p, o, m)
				}
				seen[p] = m
			}
		}
	}
}
