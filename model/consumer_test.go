package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// KIP-848: a joiner never stops the others. c1 and c2 keep consuming what
// does not move; each revokes only what moves; c3 waits in
// UNRELEASED_PARTITIONS; the group epoch goes up by one for the join.
func TestConsumerProtocolJoinerNeverStopsOthers(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-join")
	join := firstAt(sim, 30000)
	before := sim.Step(join - 1)
	end := sim.Step(firstAt(sim, 60000) - 1)
	if end.GroupState != "STABLE" || end.Generation != before.Generation+1 {
		t.Fatalf("after the join: %s, group epoch %d (was %d), want STABLE and +1", end.GroupState, end.Generation, before.Generation)
	}
	for _, m := range []string{"c1", "c2"} {
		kept := intersectInts(before.Owned[m]["t0"], end.Owned[m]["t0"])
		if len(kept) == 0 {
			t.Fatalf("%s kept nothing: %v -> %v", m, before.Owned[m], end.Owned[m])
		}
		for i := join; i < firstAt(sim, 60000); i++ {
			st := sim.Step(i)
			for _, p := range kept {
				if !slices.Contains(st.Owned[m]["t0"], p) {
					t.Fatalf("step %d: %s stopped consuming t0-%d, which it keeps", i, m, p)
				}
			}
		}
		for _, rv := range steps(sim, "PartitionsRevoked", m) {
			if rv.TimeMs >= 30000 && rv.TimeMs < 60000 && rv.Text != fmt.Sprintf("%s calls onPartitionsRevoked([t0-%d]): the new target moves them away.", m, minus1(before.Owned[m]["t0"], end.Owned[m]["t0"])) {
				t.Errorf("%s revoked more than what moved: %s", m, rv.Text)
			}
		}
	}
	sawUnreleased := false
	for _, r := range steps(sim, "ConsumerGroupHeartbeatResponse", "c3") {
		sawUnreleased = sawUnreleased || strings.Contains(r.Text, "UNRELEASED_PARTITIONS")
	}
	if !sawUnreleased {
		t.Error("c3 should wait in UNRELEASED_PARTITIONS")
	}
	for m, e := range end.MemberEpochs {
		if e != end.Generation {
			t.Errorf("%s at epoch %d, want the group epoch %d", m, e, end.Generation)
		}
	}
	if len(end.Owned["c3"]["t0"]) != 2 || len(end.Target["c3"]["t0"]) != 2 {
		t.Errorf("c3 owns %v, target %v; want 2 partitions", end.Owned["c3"], end.Target["c3"])
	}
}

// A static member that leaves with epoch -2 and comes back takes over its
// slot and partitions with no new group epoch.
func TestConsumerProtocolStaticReturn(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-join")
	before := sim.Step(firstAt(sim, 90000) - 1)
	end := last(sim)
	if end.Generation != before.Generation {
		t.Errorf("group epoch %d -> %d; a static return must not bump it", before.Generation, end.Generation)
	}
	if !slices.Equal(before.Owned["c2"]["t0"], end.Owned["c2"]["t0"]) {
		t.Errorf("c2 owned %v, then %v; it must get its partitions back", before.Owned["c2"], end.Owned["c2"])
	}
}

// OffsetCommit carries the member epoch; an old one gets STALE_MEMBER_EPOCH.
func TestConsumerProtocolStaleCommit(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "s.yaml", `topics: {t0: 2}
group: {strategy: uniform}
members:
  - {id: c1}
timeline:
  - {at_ms: 10000, join: {id: c2}}
  - {at_ms: 30000, commit: c1}
  - {at_ms: 31000, commit: {id: c1, generation: 1}}
`)
	resp := steps(sim, "OffsetCommitResponse", "c1")
	if len(resp) != 2 || resp[0].Error != "NONE" || resp[1].Error != "STALE_MEMBER_EPOCH" {
		t.Fatalf("commit answers %+v, want NONE then STALE_MEMBER_EPOCH", resp)
	}
}

func intersectInts(a, b []int32) []int32 {
	var out []int32
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func minus1(a, b []int32) int32 {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return x
		}
	}
	return -1
}

// Under KIP-848 a crashed static member's instance id is not released: the
// restarted process gets UNRELEASED_INSTANCE_ID (fatal) until the old
// session expires.
func TestConsumerProtocolUnreleasedInstance(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-static-crash")
	var errs []string
	for _, st := range steps(sim, "ConsumerGroupHeartbeatResponse", "c1") {
		if st.TimeMs > 30000 {
			errs = append(errs, st.Error)
		}
	}
	if len(errs) != 1 || errs[0] != "UNRELEASED_INSTANCE_ID" {
		t.Fatalf("c1's answers after the restart: %v, want one UNRELEASED_INSTANCE_ID", errs)
	}
	exp := steps(sim, "SessionExpired", "c1")
	if len(exp) != 1 || exp[0].TimeMs < 20000+40000 {
		t.Fatalf("c1's old session should expire about 45 s after its last heartbeat: %v", exp)
	}
	end := last(sim)
	if _, ok := end.Owned["c1"]; ok || len(end.Owned["c2"]["t0"]) != 4 {
		t.Errorf("c2 should end with all four partitions: %v", end.Owned)
	}
}
