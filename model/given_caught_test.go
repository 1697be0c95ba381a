package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
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

// The leader's client library computes the classic assignment: a franz-go
// leader runs franz-go's balancer (strategies.FranzGo), and an eager
// franz-go member reports no previous assignment, so its sticky starts
// from nothing; a Java leader runs Java's StickyAssignor on the same group.
func TestTheLeadersClientLibraryAssigns(t *testing.T) {
	const file = `topics: {t0: 5, t1: 4}
group: {strategy: sticky, generation: 3%s}
members:
  - {id: c1, member_id: c1-a, owned: {t0: [0, 1, 2]}}
  - {id: c2, member_id: c2-b, owned: {t0: [3, 4], t1: [0]}}
  - {id: c3, member_id: c3-c, owned: {t1: [1, 2, 3]}}
timeline:
  - {at_ms: 100, leave: c2}
`
	franz := simYAML(t, "f.yaml", fmt.Sprintf(file, ", client: franz-go"))
	computed := steps(franz, kafka.KindAssignmentComputed, "c1")
	if len(computed) == 0 || !strings.Contains(computed[0].Text, "runs franz-go's sticky balancer") {
		t.Fatalf("the franz-go leader: %v", computed)
	}
	grp := strategies.Group{Topics: map[string]int32{"t0": 5, "t1": 4}, Members: []strategies.Member{
		{ID: "c1-a", Topics: []string{"t0", "t1"}, Generation: 3}, {ID: "c3-c", Topics: []string{"t0", "t1"}, Generation: 3}}}
	answers, err := strategies.FranzGoOutcomes("sticky", grp, 256)
	if err != nil {
		t.Fatal(err)
	}
	end := last(franz)
	got := strategies.Assignment{"c1-a": end.Owned["c1"], "c3-c": end.Owned["c3"]}
	found := false
	for _, a := range answers {
		found = found || fmt.Sprint(a) == fmt.Sprint(got)
	}
	if !found {
		t.Errorf("the franz-go prediction %v is none of franz-go's answers %v", got, answers)
	}
	java := simYAML(t, "j.yaml", fmt.Sprintf(file, ""))
	if c := steps(java, kafka.KindAssignmentComputed, "c1"); len(c) == 0 || !strings.Contains(c[0].Text, "runs sticky:") {
		t.Errorf("the Java leader: %v", c)
	}
	// Java's sticky keeps c1's and c3's partitions
	if e := last(java); len(e.Owned["c1"]["t0"]) < 3 {
		t.Errorf("Java's StickyAssignor keeps what c1 owned: %v", e.Owned)
	}
}
