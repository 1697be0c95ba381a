package model_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// partitionsYAML writes {t0: [..]} for one topic's partitions.
func partitionsYAML(ps []int32) string {
	if len(ps) == 0 {
		return "{}"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprint(p)
	}
	return "{t0: [" + strings.Join(parts, ", ") + "]}"
}

// A group caught mid-reconcile continues exactly as the run it was caught
// from: c1 and c2 are STABLE at group epoch 2; c3 joins, the coordinator
// computes targets for epoch 3 and c3 is UNRELEASED_PARTITIONS at epoch 3
// (what it needs is still held), while c1 and c2 have not heartbeated yet.
// Starting from that moment (their old epoch and partitions, c3 at the
// assignment epoch with nothing, everyone's target) ends with the owners
// the whole run ends with.
func TestMidReconcileStartContinuesAsTheRun(t *testing.T) {
	for _, strategy := range []string{"uniform", "range-server"} {
		t.Run(strategy, func(t *testing.T) {
			needStrategy(t, strategy)
			head := "topics: {t0: 6}\ngroup: {strategy: " + strategy + ", protocol: consumer, group_epoch: %d}\nmembers:\n"
			run := simYAML(t, "run.yaml", fmt.Sprintf(head, 2)+
				"  - {id: c1, owned: {t0: [0, 1, 2]}}\n  - {id: c2, owned: {t0: [3, 4, 5]}}\n"+
				"timeline:\n  - {at_ms: 1000, join: {id: c3}}\n")
			var target map[string]map[string][]int32
			for i := 0; i < run.Len(); i++ {
				if st := run.Step(i); st.Kind == kafka.KindAssignmentComputed && st.Generation == 3 {
					target = st.Target
					break
				}
			}
			if target == nil {
				t.Fatal("the run computed no target for epoch 3")
			}
			mid := fmt.Sprintf(head, 3) +
				"  - {id: c1, member_epoch: 2, owned: {t0: [0, 1, 2]}, target: " + partitionsYAML(target["c1"]["t0"]) + "}\n" +
				"  - {id: c2, member_epoch: 2, owned: {t0: [3, 4, 5]}, target: " + partitionsYAML(target["c2"]["t0"]) + "}\n" +
				"  - {id: c3, target: " + partitionsYAML(target["c3"]["t0"]) + "}\n"
			sim := simYAML(t, "mid.yaml", mid)
			if st := sim.Step(0); st.GroupState != kafka.KReconciling || st.Generation != 3 || st.AssignmentEpoch != 3 {
				t.Fatalf("step 0: %s at %d/%d, want RECONCILING at group and assignment epoch 3", st.GroupState, st.Generation, st.AssignmentEpoch)
			}
			if got := sim.Step(0).MemberStates; got["c1"] != kafka.MStable || got["c3"] != kafka.MUnreleased {
				t.Errorf("member states at the start %v: c1 STABLE (at its old epoch), c3 UNRELEASED_PARTITIONS", got)
			}
			want, got := last(run), last(sim)
			if !maps.EqualFunc(want.Owned, got.Owned, func(a, b map[string][]int32) bool { return maps.EqualFunc(a, b, slices.Equal) }) {
				t.Errorf("from the mid-reconcile start the group ends %v; the run it was caught from ends %v", got.Owned, want.Owned)
			}
			if got.GroupState != kafka.KStable || got.Generation != 3 || steps(sim, kafka.KindAssignmentComputed, "") != nil {
				t.Errorf("end %s at %d, %d targets computed: the given targets stand, the group settles on them", got.GroupState, got.Generation, len(steps(sim, kafka.KindAssignmentComputed, "")))
			}
			assertNoDoubleOwner(t, sim)
		})
	}
}

// A member revoking partitions (UNREVOKED_PARTITIONS) gives them up at
// once and acknowledges; the member waiting for them gets them then.
func TestMidReconcileRevokingMemberReleasesItsPartitions(t *testing.T) {
	sim := simYAML(t, "mid.yaml", `topics: {t0: 6}
group: {strategy: uniform, protocol: consumer, group_epoch: 3}
members:
  - {id: c1, member_epoch: 2, owned: {t0: [0, 1]}, revoking: {t0: [2]}, target: {t0: [0, 1]}}
  - {id: c2, owned: {t0: [3, 4]}, target: {t0: [3, 4]}}
  - {id: c3, owned: {t0: [5]}, target: {t0: [2, 5]}}
`)
	st := sim.Step(0)
	if st.MemberStates["c1"] != kafka.MUnrevoked || st.MemberEpochs["c1"] != 2 || !owns(st, "c1", "t0", 0, 1, 2) {
		t.Fatalf("step 0: c1 %s at %d owning %v; want UNREVOKED_PARTITIONS at 2, still holding t0-2", st.MemberStates["c1"], st.MemberEpochs["c1"], st.Owned["c1"])
	}
	if st.MemberStates["c3"] != kafka.MUnreleased {
		t.Errorf("c3 waits for t0-2: %s", st.MemberStates["c3"])
	}
	revoked := steps(sim, kafka.KindPartitionsRevoked, "c1")
	if len(revoked) != 1 || revoked[0].TimeMs != 0 {
		t.Errorf("c1 revokes t0-2 at once: %v", revoked)
	}
	assertOwned(t, last(sim), owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {3, 4}}, "c3": {"t0": {2, 5}}})
	if end := last(sim); end.GroupState != kafka.KStable || end.MemberEpochs["c1"] != 3 {
		t.Errorf("end: %s, c1 at %d", end.GroupState, end.MemberEpochs["c1"])
	}
	assertNoDoubleOwner(t, sim)
}

// An assignment epoch behind the group epoch (a member was fenced: the
// bump came without a target) is ASSIGNING; the next heartbeat computes
// the target for the group epoch.
func TestMidReconcileAssigningComputesAtTheNextHeartbeat(t *testing.T) {
	sim := simYAML(t, "mid.yaml", `topics: {t0: 6}
group: {strategy: uniform, protocol: consumer, group_epoch: 4, assignment_epoch: 3}
members:
  - {id: c1, owned: {t0: [0, 1]}}
  - {id: c2, owned: {t0: [2, 3]}}
`)
	if st := sim.Step(0); st.GroupState != kafka.KAssigning || st.AssignmentEpoch != 3 || st.MemberEpochs["c1"] != 3 {
		t.Fatalf("step 0: %s, assignment epoch %d, c1 at %d; want ASSIGNING at 3 with the members at 3", st.GroupState, st.AssignmentEpoch, st.MemberEpochs["c1"])
	}
	computed := steps(sim, kafka.KindAssignmentComputed, "")
	if len(computed) != 1 || computed[0].Generation != 4 || computed[0].TimeMs != 5000+2 {
		t.Fatalf("one target, for epoch 4, at the first heartbeat (5 s): %v", computed)
	}
	end := last(sim)
	if end.GroupState != kafka.KStable || len(end.Owned["c1"]["t0"])+len(end.Owned["c2"]["t0"]) != 6 {
		t.Errorf("end %s %v: all six partitions consumed", end.GroupState, end.Owned)
	}
}

func assertNoDoubleOwner(t *testing.T, sim *model.Sim) {
	t.Helper()
	for i := 0; i < sim.Len(); i++ {
		seen := map[string]string{}
		for m, topics := range sim.Step(i).Owned {
			for topic, ps := range topics {
				for _, p := range ps {
					k := fmt.Sprintf("%s-%d", topic, p)
					if other, ok := seen[k]; ok {
						t.Fatalf("step %d: %s owned by %s and %s", i, k, other, m)
					}
					seen[k] = m
				}
			}
		}
	}
}

// What Kafka's coordinator never holds is a line-numbered error; what it
// does hold (a target of a topic the member has left while a new target is
// pending, partitions nobody's target names) is taken.
func TestMidReconcileErrors(t *testing.T) {
	head := "topics: {t0: 4, t1: 2}\ngroup: {strategy: uniform, group_epoch: 3}\nmembers:\n"
	cases := []struct{ yaml, want string }{
		{head + "  - {id: c1, member_epoch: 4}\n", "s.yaml:4: members.member_epoch: c1's epoch must be 1..3"},
		{head + "  - {id: c1, target: {t0: [4]}}\n", "s.yaml:4: members.target: c1's target names t0-4, which does not exist: t0 has 4 partitions (0..3)"},
		{head + "  - {id: c1, target: {t9: [0]}}\n", `s.yaml:4: members.target: c1's target names the unknown topic "t9"`},
		{head + "  - {id: c1, target: {t0: [0]}}\n  - {id: c2, target: {t0: [0]}}\n", "s.yaml:5: members.target: t0-0 is in the targets of c1 and c2"},
		{head + "  - {id: c1, owned: {t0: [0]}, revoking: {t0: [0]}, member_epoch: 2}\n", "s.yaml:4: members.revoking: c1 holds t0-0 twice"},
		{head + "  - {id: c1, owned: {t0: [0]}}\n  - {id: c2, revoking: {t0: [0]}, member_epoch: 2}\n", "s.yaml:5: members.revoking: t0-0 is owned by c1 and c2"},
		{head + "  - {id: c1, revoking: {t0: [1]}}\n", "s.yaml:4: members.revoking: c1 revokes at member epoch 3, the assignment epoch"},
		{head + "  - {id: c1, owned: {t0: [0, 1]}, target: {t0: [1]}}\n", "s.yaml:4: members.target: c1 is at the assignment epoch 3 but owns [t0-0] outside its target"},
		{head + "  - {id: c1, topics: [t0], target: {t1: [0]}}\n", "s.yaml:4: members.target: c1's target holds t1-0 but it does not subscribe to t1"},
		{"topics: {t0: 2}\ngroup: {strategy: range, generation: 2}\nmembers:\n  - {id: c1, target: {t0: [0]}}\n", "s.yaml:4: members.target belongs to the KIP-848 consumer protocol"},
		{"topics: {t0: 2}\ngroup: {strategy: uniform, assignment_epoch: 2}\n", "s.yaml:2: group.assignment_epoch needs group.group_epoch"},
		{"topics: {t0: 2}\ngroup: {strategy: uniform, group_epoch: 2, assignment_epoch: 3}\n", "s.yaml:2: group.assignment_epoch 3 is above group.group_epoch 2"},
	}
	for _, c := range cases {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.yaml, err, c.want)
		}
	}
	// Taken: a target of a topic c1 left while the new target is pending.
	if _, err := scenario.Parse("s.yaml", []byte("topics: {t0: 4, t1: 2}\ngroup: {strategy: uniform, group_epoch: 4, assignment_epoch: 3}\nmembers:\n  - {id: c1, topics: [t0], target: {t0: [0], t1: [0]}, owned: {t0: [0]}}\n")); err != nil {
		t.Errorf("a pending target may still name a topic the member left: %v", err)
	}
}

// The mid-reconcile keys round-trip through scenario.Format.
func TestMidReconcileRoundTrip(t *testing.T) {
	src := `topics: {t0: 6}
group: {strategy: uniform, protocol: consumer, group_epoch: 4, assignment_epoch: 3}
members:
  - {id: c1, member_epoch: 2, owned: {t0: [0, 1]}, revoking: {t0: [2]}, target: {t0: [0, 1]}}
  - {id: c2, owned: {t0: [3, 4]}, target: {t0: [3, 4]}}
  - {id: c3, owned: {t0: [5]}, target: {t0: [2, 5]}}
  - {id: c4, target: {}}
`
	sc, err := scenario.Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := scenario.Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if again.AssignmentEpoch != 3 || again.Members[0].MemberEpoch != 2 || len(again.Members[0].Revoking) != 1 ||
		again.Members[2].Target == nil || again.Members[3].Target == nil || len(again.Members[3].Target) != 0 {
		t.Errorf("lost in the round trip:\n%s", out)
	}
}
