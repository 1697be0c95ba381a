package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 23 item 6: a given start mid-migration. A consumer group holding a
// classic member (GroupMetadataManager's ConsumerGroup with a member's
// classicMemberMetadata) starts STABLE with the classic member at its
// member epoch as its generation; a joiner bumps the epoch, the classic
// member learns it from its heartbeat (REBALANCE_IN_PROGRESS,
// classicGroupHeartbeatToConsumerGroup) and rejoins through the consumer
// coordinator, which answers its JoinGroup at once with the member epoch
// as generation; when the last consumer-protocol member leaves, the group
// is downgraded (validateOnlineDowngradeWithFencedMembers) to a classic
// group at generation = group epoch.
func TestMixedGivenStartRunsBothProtocols(t *testing.T) {
	sim := simYAML(t, "m.yaml", `topics: {t0: 4}
group: {protocol: consumer, strategy: uniform, group_epoch: 7}
members:
  - {id: c1, protocol: classic, member_id: m1, owned: {t0: [0, 1]}}
  - {id: c2, member_id: m2, owned: {t0: [2, 3]}}
timeline:
  - {at_ms: 10000, join: {id: c3}}
  - {at_ms: 40000, leave: c2}
  - {at_ms: 60000, leave: c3}
`)
	st := sim.Step(0)
	if st.GroupState != kafka.KStable || st.Generation != 7 {
		t.Fatalf("step 0: %s at %d, want STABLE at group epoch 7", st.GroupState, st.Generation)
	}
	if !strings.Contains(st.Text, "1 of them (c1) on the classic protocol") {
		t.Errorf("the opening does not say c1 runs the classic protocol: %s", st.Text)
	}
	assertOwned(t, st, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
	v := sim.View(0)
	if c1 := v.Members[0]; c1.Generation != 7 || !c1.InGroup || c1.MemberEpoch != 7 {
		t.Errorf("c1 at step 0: generation %d, member epoch %d, in group %v; want a classic member of generation 7 = its member epoch", c1.Generation, c1.MemberEpoch, c1.InGroup)
	}
	for _, k := range []kafka.StepKind{"JoinGroupRequest", "ConsumerGroupHeartbeatRequest"} {
		if s := steps(sim, k, ""); len(s) > 0 && s[0].TimeMs < 10000 && k == "JoinGroupRequest" {
			t.Errorf("a given start has no join phase: %s at %d ms", k, s[0].TimeMs)
		}
	}
	// c1's heartbeats go to the consumer coordinator from time 0 at its own
	// heartbeat.interval.ms (3000, the client's default).
	if hb := steps(sim, "HeartbeatRequest", "c1"); len(hb) == 0 || hb[0].TimeMs != 3000+2 || !strings.Contains(hb[0].Text, "generation 7") {
		t.Errorf("c1's first heartbeat: %v, want one at 3002 ms with generation 7", hb)
	}
	joins := steps(sim, "JoinGroupResponse", "c1")
	if len(joins) == 0 || joins[0].TimeMs < 10000 || !strings.Contains(joins[0].Text, "generation 8") || !strings.Contains(joins[0].Text, "no leader") {
		t.Fatalf("c1 must rejoin through the consumer coordinator after c3's join bumps the epoch to 8: %v", joins)
	}
	if rip := steps(sim, "HeartbeatResponse", "c1"); !slices.ContainsFunc(rip, func(s model.Step) bool {
		return s.TimeMs > 10000 && s.TimeMs < joins[0].TimeMs && s.Error == "REBALANCE_IN_PROGRESS"
	}) {
		t.Errorf("c1 learns of the new epoch from its heartbeat (REBALANCE_IN_PROGRESS) before it rejoins: %v", rip)
	}
	conv := steps(sim, "GroupConverted", "")
	if len(conv) != 1 || conv[0].TimeMs < 60000 || !strings.Contains(conv[0].Text, "into a classic group") {
		t.Fatalf("the last consumer-protocol member's leave downgrades the group: %v", conv)
	}
	end := last(sim)
	if end.GroupState != kafka.Stable {
		t.Errorf("end: %s, want a Stable classic group", end.GroupState)
	}
	assertOwned(t, end, owned{"c1": {"t0": {0, 1, 2, 3}}})
}

// The given start mid-migration is the state the online upgrade itself
// leaves: a rolling upgrade as demo kip848-upgrade runs it (c1 restarts
// with the consumer protocol at 30 s), read at 55 s (c1 upgraded, c2 and
// c3 still classic), written as a given start and run on with what
// follows (a classic member leaving, then the consumer-protocol one: the
// group is downgraded), ends with the same owners and epochs, and
// passes through the same group epochs and targets. (A restart's new
// member id is random, and the assignor hashes member ids, so the
// continuation has members leave, not restart.)
func TestMixedGivenStartContinuesTheUpgrade(t *testing.T) {
	full := simYAML(t, "upgrade.yaml", `seed: 7
topics: {t0: 6}
group: {id: workshop, strategy: cooperative-sticky}
members:
  - {id: c1}
  - {id: c2}
  - {id: c3}
timeline:
  - {at_ms: 30000, restart: {id: c1, protocol: consumer}}
  - {at_ms: 60000, leave: c3}
  - {at_ms: 90000, leave: c1}
`)
	const at = 55000
	i := firstAt(full, at) - 1
	st, v := full.Step(i), full.View(i)
	if st.GroupState != kafka.KStable {
		t.Fatalf("the upgrade at %d ms is %s, not a settled mixed group", at, st.GroupState)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "topics: {t0: 6}\ngroup: {protocol: consumer, strategy: uniform, group_epoch: %d}\nmembers:\n", st.Generation)
	// The coordinator's member order (the upgrade converted c2 and c3, then
	// c1 joined) is the given start's: the file's member order.
	ms := append(v.Members[1:], v.Members[0])
	for _, m := range ms {
		proto := ""
		if m.ID != "c1" {
			proto = "protocol: classic, strategies: [cooperative-sticky], "
		}
		var ps []string
		for _, tp := range m.Owned {
			ps = append(ps, fmt.Sprint(tp.Partition))
		}
		fmt.Fprintf(&b, "  - {id: %s, %smember_id: %s, member_epoch: %d, owned: {t0: [%s]}}\n", m.ID, proto, m.MemberID, m.MemberEpoch, strings.Join(ps, ", "))
	}
	fmt.Fprintf(&b, "timeline:\n  - {at_ms: %d, leave: c3}\n  - {at_ms: %d, leave: c1}\n", 60000-at, 90000-at)
	sc, err := scenario.Parse("given.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if n := scenario.ClassicMembers(sc); n != 2 {
		t.Fatalf("%d classic members parsed, want 2:\n%s", n, b.String())
	}
	given, err := model.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	a, g := last(full), last(given)
	if a.Generation != g.Generation || a.GroupState != g.GroupState || fmt.Sprint(a.Owned) != fmt.Sprint(g.Owned) {
		t.Errorf("the upgrade ends %s at %d with %v; its given start at %d ms ends %s at %d with %v\n%s", a.GroupState, a.Generation, a.Owned, at, g.GroupState, g.Generation, g.Owned, b.String())
	}
	targets := func(sim *model.Sim, from int64) []string {
		var out []string
		for _, s := range steps(sim, "AssignmentComputed", "") {
			if s.TimeMs >= from {
				out = append(out, s.Text)
			}
		}
		for _, s := range steps(sim, "GroupConverted", "") {
			if s.TimeMs >= from {
				out = append(out, s.Text)
			}
		}
		return out
	}
	if x, y := targets(full, at), targets(given, 0); fmt.Sprint(x) != fmt.Sprint(y) {
		t.Errorf("targets and conversions after %d ms differ:\nupgrade %q\ngiven   %q", at, x, y)
	}
}

// Bad mixed starts are refused at their line.
func TestMixedGivenStartErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"consumer member in a classic group", `topics: {t0: 2}
group: {strategy: range, generation: 3}
members:
  - {id: c1, owned: {t0: [0]}}
  - {id: c2, protocol: consumer,
     owned: {t0: [1]}}
`, "m.yaml:5: members: c2 runs the consumer protocol, but the given group is a classic group"},
		{"classic member with a target", `topics: {t0: 2}
group: {protocol: consumer, strategy: uniform, group_epoch: 3}
members:
  - {id: c1, protocol: classic, owned: {t0: [0]},
     target: {t0: [0, 1]}}
`, "m.yaml:5: members.target: c1 runs the classic protocol, which reconciles by rejoining"},
		{"classic members sharing no assignor", `topics: {t0: 2}
group: {protocol: consumer, strategy: uniform, group_epoch: 3}
members:
  - {id: c1, protocol: classic, strategies: [range], owned: {t0: [0]}}
  - {id: c2, protocol: classic, strategies: [roundrobin], owned: {t0: [1]}}
`, "m.yaml:5: members: the classic members of the group share no assignor"},
	} {
		_, err := scenario.Parse("m.yaml", []byte(tc.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
