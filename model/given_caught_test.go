package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
)

// A group read CompletingRebalance: every member has rejoined for
// generation 4, so the join phase completes into it at time 0 and the given
// leader assigns; cooperative members keep what they own meanwhile.
func TestCaughtCompletingRebalanceCompletesIntoItsGeneration(t *testing.T) {
	sim := simYAML(t, "c.yaml", `topics: {orders: 6}
group: {strategy: cooperative-sticky, generation: 4, rebalance: completing, leader: c2}
members:
  - {id: c1, member_id: c1-a, owned: {orders: [0, 1, 2]}}
  - {id: c2, member_id: c2-b, owned: {orders: [3, 4, 5]}}
  - {id: c3, member_id: c3-c}
`)
	st := sim.Step(0)
	if st.Generation != 3 || st.Leader != "c2" {
		t.Errorf("step 0: generation %d, leader %q; want the generation before, 3, led by c2", st.Generation, st.Leader)
	}
	assertOwned(t, st, owned{"c1": {"orders": {0, 1, 2}}, "c2": {"orders": {3, 4, 5}}, "c3": {}})
	computed := steps(sim, kafka.KindAssignmentComputed, "c2")
	if len(computed) == 0 || computed[0].Generation != 4 || computed[0].TimeMs > 10 {
		t.Fatalf("the leader c2 must assign generation 4 at once: %v", computed)
	}
	if hb := steps(sim, kafka.KindHeartbeatRequest, ""); len(hb) > 0 && hb[0].TimeMs < computed[0].TimeMs {
		t.Errorf("nobody waits for a heartbeat to rejoin: %v", hb[0])
	}
	end := last(sim)
	if end.GroupState != kafka.Stable || len(end.Owned["c3"]["orders"]) != 2 {
		t.Errorf("end: %s, c3 owns %v", end.GroupState, end.Owned["c3"])
	}
}

// A group read PreparingRebalance after generation 4: c3 has rejoined and
// sends JoinGroup at once; c1 and c2 still own their eager partitions until
// their next heartbeat answers REBALANCE_IN_PROGRESS.
func TestCaughtPreparingRebalanceWaitsForTheOthersHeartbeats(t *testing.T) {
	sim := simYAML(t, "p.yaml", `topics: {orders: 6}
group: {strategy: range, generation: 4, rebalance: preparing, heartbeat_interval_ms: 1000}
members:
  - {id: c1, member_id: c1-a, owned: {orders: [0, 1, 2]}}
  - {id: c2, member_id: c2-b, owned: {orders: [3, 4, 5]}}
  - {id: c3, member_id: c3-c, rejoined: true}
`)
	if j := steps(sim, kafka.KindJoinGroupRequest, "c3"); len(j) == 0 || j[0].TimeMs > 5 {
		t.Errorf("c3 had rejoined: its JoinGroup goes at once, %v", j)
	}
	if r := steps(sim, kafka.KindPartitionsRevoked, "c3"); len(r) != 0 {
		t.Errorf("c3 revoked before it rejoined, not again: %v", r)
	}
	j := steps(sim, kafka.KindJoinGroupRequest, "c1")
	if len(j) == 0 || j[0].TimeMs < 1000 {
		t.Errorf("c1 rejoins after its heartbeat at 1 s: %v", j)
	}
	if st := sim.Step(firstAt(sim, 500)); len(st.Owned["c1"]["orders"]) != 3 {
		t.Errorf("c1 owns its partitions until it learns of the rebalance: %v", st.Owned)
	}
	if end := last(sim); end.Generation != 5 || len(end.Owned["c3"]["orders"]) != 2 {
		t.Errorf("end: generation %d, owners %v", end.Generation, end.Owned)
	}
}
