package model_test

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
)

type owned = map[string]map[string][]int32

// Example 9, cooperative: from the seed's premise (given start), two
// rounds; c1 revokes only p1; c1 keeps p0 and c2 keeps p2 throughout; p1
// ends at c3.
func TestExample9Cooperative(t *testing.T) {
	needStrategy(t, "cooperative-sticky")
	sim := simDemo(t, "example-09-cooperative-join")
	start := sim.Step(0)
	assertOwned(t, start, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	if start.GroupState != kafka.Stable || start.Generation != 1 {
		t.Errorf("step 0: %s at generation %d, want the given Stable generation 1", start.GroupState, start.Generation)
	}
	join := firstAt(sim, 10000)
	before := sim.Step(join - 1)
	assertOwned(t, before, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	for i := join; i < sim.Len(); i++ {
		st := sim.Step(i)
		if !owns(st, "c1", "t0", 0) && !owns(st, "c1", "t0", 0, 1) {
			t.Fatalf("step %d: c1 owns %v; it must keep p0 throughout", i, st.Owned["c1"])
		}
		if !owns(st, "c2", "t0", 2) {
			t.Fatalf("step %d: c2 owns %v; it must keep p2 throughout", i, st.Owned["c2"])
		}
		if st.Kind == "PartitionsRevoked" && (st.Member != "c1" || !strings.HasPrefix(st.Text, "c1 calls onPartitionsRevoked([t0-1])")) {
			t.Errorf("step %d: unexpected revocation: %s", i, st.Text)
		}
	}
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0}}, "c2": {"t0": {2}}, "c3": {"t0": {1}}})
	if got := end.Generation - before.Generation; got != 2 {
		t.Errorf("the join took %d generations, want 2", got)
	}
	if n := len(steps(sim, "PartitionsRevoked", "")); n != 1 {
		t.Errorf("%d revocations in all, want 1 (c1's t0-1 when c3 joined)", n)
	}
}

// Example 9, eager: one rebalance, everyone revokes everything, every
// partition unowned for a while.
func TestExample9Eager(t *testing.T) {
	needStrategy(t, "sticky")
	sim := simDemo(t, "example-09-eager-join")
	assertOwned(t, sim.Step(0), owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	join := firstAt(sim, 10000)
	before := sim.Step(join - 1)
	assertOwned(t, before, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0}}, "c2": {"t0": {2}}, "c3": {"t0": {1}}})
	if got := end.Generation - before.Generation; got != 1 {
		t.Errorf("the join took %d generations, want 1", got)
	}
	allUnowned := false
	for i := join; i < sim.Len(); i++ {
		st := sim.Step(i)
		n := 0
		for _, topics := range st.Owned {
			n += len(topics["t0"])
		}
		allUnowned = allUnowned || n == 0
	}
	if !allUnowned {
		t.Error("eager: there must be a moment when no partition is owned")
	}
	for _, m := range []string{"c1", "c2"} {
		rv := steps(sim, "PartitionsRevoked", m)
		if len(rv) == 0 || rv[len(rv)-1].TimeMs < 10000 {
			t.Errorf("%s did not revoke after c3 joined", m)
		}
	}
}

// Example 10: a static restart within the session timeout changes nothing;
// past it, the member is removed and the group rebalances.
func TestExample10StaticRestart(t *testing.T) {
	sim := simDemo(t, "example-10-static-restart")
	genAt := func(ms int64) int32 { return sim.Step(firstAt(sim, ms) - 1).Generation }
	if g1, g2 := genAt(30000), genAt(79000); g1 != 1 || g2 != 1 {
		t.Errorf("generation before/after c1's restart = %d/%d, want 1/1 (no rebalance)", g1, g2)
	}
	for i := firstAt(sim, 30000); i < firstAt(sim, 79000); i++ {
		if st := sim.Step(i); st.GroupState != kafka.Stable {
			t.Fatalf("step %d: group %s during c1's restart, want Stable throughout", i, st.GroupState)
		}
	}
	assertOwned(t, sim.Step(firstAt(sim, 79000)-1), owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
	if n := len(steps(sim, "SessionExpired", "c1")); n != 0 {
		t.Errorf("c1's session expired %d times, want 0", n)
	}
	exp := steps(sim, "SessionExpired", "c2")
	if len(exp) != 1 || exp[0].TimeMs < 80000+45000-3000 || exp[0].TimeMs > 80000+45000 {
		t.Fatalf("c2's session should expire once, 42-45 s after its crash: %v", exp)
	}
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
	if end.Generation != 3 {
		t.Errorf("final generation %d, want 3 (expiry, then c2's return)", end.Generation)
	}
}

// Example 11: after a's session expires, range gives b {p0,p1}, c {p2}.
func TestExample11Failover(t *testing.T) {
	sim := simDemo(t, "example-11-failover")
	exp := steps(sim, "SessionExpired", "a")
	if len(exp) != 1 {
		t.Fatalf("want one SessionExpired for a, got %v", exp)
	}
	var lastBeat int64
	for _, st := range steps(sim, "HeartbeatRequest", "a") {
		lastBeat = st.TimeMs
	}
	if got := exp[0].TimeMs - lastBeat; got != 45000 {
		t.Errorf("a expired %d ms after its last heartbeat, want session.timeout.ms 45000", got)
	}
	assertOwned(t, sim.Step(firstAt(sim, 30000)-1), owned{"a": {"t0": {0}}, "b": {"t0": {1}}, "c": {"t0": {2}}})
	assertOwned(t, last(sim), owned{"b": {"t0": {0, 1}}, "c": {"t0": {2}}})
}

// Example 12: six new partitions get consumers after the leader notices.
func TestExample12PartitionGrowth(t *testing.T) {
	sim := simDemo(t, "example-12-partition-growth")
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0, 1, 2, 3}}, "c2": {"t0": {4, 5, 6, 7}}, "c3": {"t0": {8, 9, 10, 11}}})
	ref := steps(sim, "MetadataRefreshed", "")
	if len(ref) != 1 || ref[0].TimeMs != 300000 {
		t.Errorf("the leader should notice at its first metadata refresh (300 s): %v", ref)
	}
	if end.Generation != 2 {
		t.Errorf("generation %d, want 2", end.Generation)
	}
}

// Example 13: the state sequence, +1 generation per rebalance, a stale
// commit rejected; the Java consumer then rejoins (CommitFailedException,
// resetStateOnResponseError, requestRejoin): a third rebalance.
func TestExample13States(t *testing.T) {
	sim := simDemo(t, "example-13-states")
	var seq []kafka.GroupState
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if len(seq) == 0 || seq[len(seq)-1] != st.GroupState {
			seq = append(seq, st.GroupState)
		}
	}
	rebalance := []kafka.GroupState{kafka.PreparingRebalance, kafka.CompletingRebalance, kafka.Stable}
	want := append(append(append([]kafka.GroupState{kafka.Empty}, rebalance...), rebalance...), rebalance...)
	if len(seq) != len(want) {
		t.Fatalf("states %v, want %v", seq, want)
	}
	for i := range want {
		if seq[i] != want[i] {
			t.Fatalf("states %v, want %v", seq, want)
		}
	}
	if g := last(sim).Generation; g != 3 {
		t.Errorf("three rebalances gave generation %d, want 3", g)
	}
	resp := steps(sim, "OffsetCommitResponse", "c1")
	if len(resp) != 2 || resp[0].Error != "NONE" || resp[1].Error != "ILLEGAL_GENERATION" {
		t.Fatalf("commit answers %+v, want NONE then ILLEGAL_GENERATION", resp)
	}
}

// Example 14: the coordinator partition, and failover to the next replica.
func TestExample14Coordinator(t *testing.T) {
	for id, want := range map[string]int32{"my-group": 12, "test": 48, "polygenelubricants": 0} {
		sim := simYAML(t, "c.yaml", "topics: {t0: 1}\ngroup: {id: "+id+"}\n")
		if got := sim.View(0).CoordinatorPartition; got != want {
			t.Errorf("%s: coordinator partition %d, want %d", id, got, want)
		}
	}
	sim := simDemo(t, "example-14-coordinator")
	first := sim.View(0).CoordinatorBroker
	moved := steps(sim, "CoordinatorMoved", "")
	if len(moved) != 1 || moved[0].TimeMs != 30000 || moved[0].GroupState != kafka.Stable || moved[0].Generation != 1 {
		t.Fatalf("want one move at 30 s restoring Stable generation 1, got %+v", moved)
	}
	v := sim.View(moved[0].Index)
	if v.CoordinatorBroker == first || v.CoordinatorBroker < 0 {
		t.Errorf("coordinator %d after the move, was %d", v.CoordinatorBroker, first)
	}
	if n := len(steps(sim, "FindCoordinatorRequest", "")); n != 4 {
		t.Errorf("%d FindCoordinator steps, want 4 (two at start, two after the move)", n)
	}
	assertOwned(t, last(sim), owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
}

// Example 15: a poll loop slower than max.poll.interval.ms leaves the group;
// a crash is noticed by the session timeout.
func TestExample15Leaving(t *testing.T) {
	sim := simDemo(t, "example-15-poll-timeout")
	pt := steps(sim, "PollTimeout", "c2")
	if len(pt) != 1 || pt[0].TimeMs != 20000+300000 {
		t.Fatalf("want c2's poll timeout at 320 s, got %v", pt)
	}
	lv := steps(sim, "LeaveGroupRequest", "c2")
	if len(lv) != 1 || lv[0].TimeMs < pt[0].TimeMs {
		t.Fatalf("a dynamic member leaves after its poll timeout: %v", lv)
	}
	lost := steps(sim, "PartitionsLost", "c2")
	if len(lost) != 1 || lost[0].TimeMs != 420000 {
		t.Fatalf("c2 calls onPartitionsLost when poll() returns at 420 s: %v", lost)
	}
	exp := steps(sim, "SessionExpired", "c3")
	if len(exp) != 1 || exp[0].TimeMs <= 500000+42000 {
		t.Fatalf("c3 is removed by session expiry: %v", exp)
	}
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0, 1, 2}}, "c2": {"t0": {3, 4, 5}}})
}

// A coordinator that fails mid-rebalance loses it: the new one restores the
// last stored generation, members rediscover it and rejoin, and a member
// added only in memory is unknown.
func TestFailoverMidRebalance(t *testing.T) {
	sim := simYAML(t, "f.yaml", `cluster: {brokers: 3}
topics: {t0: 6}
group: {id: my-group}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 30000, join: {id: c3}}
  - {at_ms: 30017, fail_broker: 2}
`)
	if sim.View(0).CoordinatorBroker != 2 {
		t.Skipf("this seed puts the coordinator on broker %d", sim.View(0).CoordinatorBroker)
	}
	moved := steps(sim, "CoordinatorMoved", "")
	if len(moved) != 1 || moved[0].GroupState != kafka.Stable || moved[0].Generation != 1 {
		t.Fatalf("want the group restored Stable at generation 1: %+v", moved)
	}
	if prev := sim.Step(moved[0].Index - 2); prev.GroupState != kafka.PreparingRebalance {
		t.Errorf("the move should interrupt a rebalance, found %s", prev.GroupState)
	}
	unknown := false
	for _, st := range steps(sim, "JoinGroupResponse", "c3") {
		unknown = unknown || st.Error == "UNKNOWN_MEMBER_ID"
	}
	if !unknown {
		t.Error("c3 was only in the lost coordinator's memory: its rejoin must get UNKNOWN_MEMBER_ID")
	}
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}, "c3": {"t0": {4, 5}}})
	if end.Generation != 3 {
		t.Errorf("generation %d, want 3", end.Generation)
	}
}
