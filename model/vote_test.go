package model_test

import (
	"strings"
	"testing"
)

// One rolling bounce that drops range: the vote moves to cooperative-sticky
// as soon as range is not supported by every member; members still listing
// range stay eager until their own bounce.
func TestUpgradeToCooperative(t *testing.T) {
	needStrategy(t, "cooperative-sticky")
	sim := simDemo(t, "upgrade-cooperative")
	protocolAt := func(ms int64) string {
		for i := firstAt(sim, ms) - 1; i >= 0; i-- {
			st := sim.Step(i)
			if st.Kind == "GroupStateChanged" && strings.HasPrefix(st.Text, "Everyone has joined") {
				return strings.Fields(st.Text)[6]
			}
		}
		return ""
	}
	if p := protocolAt(30500); p != "range," && p != "range" {
		t.Errorf("before the bounce the vote picks %q, want range", p)
	}
	if p := protocolAt(59000); !strings.HasPrefix(p, "cooperative-sticky") {
		t.Errorf("after c1's bounce the vote picks %q, want cooperative-sticky", p)
	}
	eagerRevokes := func(from, to int64, member string) int {
		n := 0
		for _, st := range steps(sim, "PartitionsRevoked", member) {
			if st.TimeMs >= from && st.TimeMs < to && strings.Contains(st.Text, "eager protocol") {
				n++
			}
		}
		return n
	}
	if eagerRevokes(30500, 59000, "c3") == 0 {
		t.Error("c3 still lists range: it must stay eager after c1's bounce")
	}
	if eagerRevokes(30500, 200000, "c1") != 0 {
		t.Error("c1 lists only cooperative-sticky: it must never revoke everything")
	}
	if n := eagerRevokes(120000, 200000, ""); n != 0 {
		t.Errorf("after every bounce, %d eager revocations; want none", n)
	}
	end := last(sim)
	if end.Generation-sim.Step(firstAt(sim, 120000)-1).Generation != 2 {
		t.Error("c4's join should take two cooperative generations")
	}
}

// A joiner sharing no assignor with the group gets INCONSISTENT_GROUP_PROTOCOL.
func TestInconsistentGroupProtocol(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 2}
members:
  - {id: c1, strategies: [range]}
timeline:
  - {at_ms: 10000, join: {id: c2, strategies: [roundrobin]}}
`)
	resp := steps(sim, "JoinGroupResponse", "c2")
	if len(resp) != 1 || resp[0].Error != "INCONSISTENT_GROUP_PROTOCOL" {
		t.Fatalf("c2's JoinGroup answers: %+v", resp)
	}
	end := last(sim)
	if _, ok := end.Owned["c2"]; ok || end.Generation != 1 {
		t.Errorf("c2 must stop and the group stay at generation 1: %+v", end)
	}
}
