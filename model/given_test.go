package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A given start is Stable at time 0 with exactly the owners it names: no
// join phase, the first member leads, the member ids are the given ones.
func TestGivenStartIsStableAtStepZero(t *testing.T) {
	sim := simYAML(t, "g.yaml", `topics: {t0: 3, t1: 2}
group: {strategy: range, generation: 5}
members:
  - {id: c1, topics: [t0], owned: {t0: [0, 1]}, member_id: c1-real}
  - {id: c2, owned: {t0: [2], t1: [0, 1]}}
  - {id: c3}
timeline:
  - {at_ms: 20000, commit: c2}
`)
	st := sim.Step(0)
	if st.GroupState != kafka.Stable || st.Generation != 5 || st.Leader != "c1" {
		t.Fatalf("step 0: %s generation %d leader %q, want Stable 5 led by c1", st.GroupState, st.Generation, st.Leader)
	}
	want := owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}, "t1": {0, 1}}, "c3": {}}
	assertOwned(t, st, want)
	if len(st.Owned) != 3 {
		t.Errorf("step 0 owners %v, want exactly c1, c2 and c3", st.Owned)
	}
	v := sim.View(0)
	for _, m := range v.Members {
		if m.Status != kafka.StatusActive || !m.InGroup || m.Generation != 5 {
			t.Errorf("%s: %s, in group %v, generation %d; want an active member of generation 5", m.ID, m.Status, m.InGroup, m.Generation)
		}
	}
	if v.Members[0].MemberID != "c1-real" || !strings.HasPrefix(v.Members[1].MemberID, "c2-") {
		t.Errorf("member ids %q, %q: want the given one and a coordinator-made c2-…", v.Members[0].MemberID, v.Members[1].MemberID)
	}
	for i := 0; i < sim.Len(); i++ {
		if k := sim.Step(i).Kind; k == "JoinGroupRequest" || k == "MemberStarted" {
			t.Fatalf("step %d: %s; a given start has no join phase", i, k)
		}
	}
	if end := last(sim); end.Generation != 5 {
		t.Errorf("the group rebalanced to generation %d with only a commit on its timeline", end.Generation)
	}
	if beats := steps(sim, "HeartbeatRequest", "c2"); len(beats) == 0 || beats[0].TimeMs != 3000+2 {
		t.Errorf("the members must heartbeat on their timers (heartbeat.interval.ms 3000 from time 0): %v", beats)
	}
	if c := steps(sim, "OffsetCommitResponse", "c2"); len(c) != 1 || c[0].Error != "NONE" {
		t.Errorf("a given member commits with the given generation: %v", c)
	}
}

// Seed 002: c1 owns {p0,p1}, c2 owns {p2}; c3 joins a cooperative group:
// c1 {0}, c2 {2}, c3 {1}, two generations later.
func TestGivenStartCooperativeJoin(t *testing.T) {
	needStrategy(t, "cooperative-sticky")
	sim := simYAML(t, "g.yaml", `topics: {t0: 3}
group: {strategy: cooperative-sticky, generation: 5}
members:
  - {id: c1, owned: {t0: [0, 1]}}
  - {id: c2, owned: {t0: [2]}}
timeline:
  - {at_ms: 1000, join: {id: c3}}
`)
	assertOwned(t, sim.Step(0), owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0}}, "c2": {"t0": {2}}, "c3": {"t0": {1}}})
	if end.Generation != 7 {
		t.Errorf("generation %d, want 7 (two rounds after 5)", end.Generation)
	}
	// The leader saw the owned partitions in the JoinGroup: round 1 withholds p1.
	computed := steps(sim, "AssignmentComputed", "c1")
	if len(computed) != 2 || !strings.Contains(computed[0].Text, "withheld until their owner revokes them: t0-1") {
		t.Errorf("want round 1 to withhold t0-1 from c3: %v", computed)
	}
}

// Under KIP-848 the epochs all equal the given group epoch and the targets
// are what the members own; the next join reconciles from there.
func TestGivenStartConsumerProtocol(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "g.yaml", `topics: {t0: 3}
group: {strategy: uniform, group_epoch: 4}
members:
  - {id: c1, owned: {t0: [0, 1]}}
  - {id: c2, owned: {t0: [2]}}
timeline:
  - {at_ms: 1000, join: {id: c3}}
`)
	st := sim.Step(0)
	if st.GroupState != kafka.KStable || st.Generation != 4 || sim.View(0).AssignmentEpoch != 4 {
		t.Fatalf("step 0: %s epoch %d assignment epoch %d, want STABLE 4/4", st.GroupState, st.Generation, sim.View(0).AssignmentEpoch)
	}
	assertOwned(t, st, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}})
	for _, m := range []string{"c1", "c2"} {
		if st.MemberEpochs[m] != 4 {
			t.Errorf("%s member epoch %d, want 4", m, st.MemberEpochs[m])
		}
		for tp, ps := range st.Owned[m] {
			if !slices.Equal(st.Target[m][tp], ps) {
				t.Errorf("%s target %v, want what it owns %v", m, st.Target[m], st.Owned[m])
			}
		}
	}
	end := last(sim)
	if end.Generation != 5 || end.GroupState != kafka.KStable {
		t.Errorf("after c3's join: %s epoch %d, want STABLE 5", end.GroupState, end.Generation)
	}
	total := 0
	for _, m := range end.Owned {
		total += len(m["t0"])
	}
	if total != 3 || len(end.Owned["c3"]["t0"]) != 1 {
		t.Errorf("after c3's join: %v, want one partition each", end.Owned)
	}
}

// An Empty group at a generation counts on from it; owned partitions
// without a generation start at generation 1.
func TestGivenStartDefaults(t *testing.T) {
	sim := simYAML(t, "g.yaml", "topics: {t0: 2}\ngroup: {generation: 5}\ntimeline:\n  - {at_ms: 0, join: {id: c1}}\n")
	if st := sim.Step(0); st.GroupState != kafka.Empty || st.Generation != 5 {
		t.Errorf("step 0: %s %d, want Empty at 5", st.GroupState, st.Generation)
	}
	if g := last(sim).Generation; g != 6 {
		t.Errorf("c1's join gave generation %d, want 6", g)
	}
	sim = simYAML(t, "g.yaml", "topics: {t0: 2}\nmembers:\n  - {id: c1, owned: {t0: [1]}}\n")
	if st := sim.Step(0); st.GroupState != kafka.Stable || st.Generation != 1 {
		t.Errorf("owned without a generation: %s %d, want Stable 1", st.GroupState, st.Generation)
	}
}

// A failover restores the given group from the log: Stable, same generation.
func TestGivenStartSurvivesFailover(t *testing.T) {
	base := "cluster: {brokers: 3}\ntopics: {t0: 2}\ngroup: {generation: 3}\nmembers:\n  - {id: c1, owned: {t0: [0, 1]}}\n"
	coord := simYAML(t, "g.yaml", base).View(0).CoordinatorBroker
	sim := simYAML(t, "g.yaml", base+"timeline:\n  - {at_ms: 5000, fail_broker: "+string(rune('0'+coord))+"}\n")
	moved := steps(sim, "CoordinatorMoved", "")
	if len(moved) != 1 || moved[0].GroupState != kafka.Stable || moved[0].Generation != 3 {
		t.Fatalf("want the group restored Stable at generation 3: %+v", moved)
	}
	assertOwned(t, last(sim), owned{"c1": {"t0": {0, 1}}})
}

// Invalid starts are line-numbered errors.
func TestGivenStartErrors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"topics: {t0: 3}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {t0: [0, 1]}}\n  - {id: c2, owned: {t0: [1]}}\n",
			"s.yaml:5: members.owned: t0-1 is owned by c1 and c2"},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, owned: {t0: [0, 0]}}\n", "s.yaml:3: members.owned: c1 lists t0-0 twice"},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, owned: {t0: [0], t0: [1]}}\n", `s.yaml:3: members.owned: topic "t0" is listed twice (give its partitions in one list, like {t0: [0, 1]})`},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, owned: {t0: [3]}}\n", "s.yaml:3: members.owned: t0 has 3 partitions (0..2): t0-3 does not exist"},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, owned: {t9: [0]}}\n", `s.yaml:3: members.owned: unknown topic "t9"`},
		{"topics: {t0: 3, t1: 1}\nmembers:\n  - {id: c1, topics: [t0],\n     owned: {t1: [0]}}\n", "s.yaml:4: members.owned: c1 owns partitions of t1 but does not subscribe to it"},
		{"topics: {t0: 3}\ngroup: {strategy: uniform, generation: 2}\n", "s.yaml:2: group.generation: the consumer protocol (KIP-848) counts group epochs"},
		{"topics: {t0: 3}\ngroup: {group_epoch: 2}\n", "s.yaml:2: group.group_epoch belongs to the KIP-848 consumer protocol"},
		{"topics: {t0: 3}\ngroup: {generation: 0}\n", "s.yaml:2: group.generation must be between 1 and"},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 1, join: {id: c1, owned: {t0: [0]}}}\n", "s.yaml:3: join: owned and member_id describe members present at time 0"},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, member_id: x}\n  - {id: c2, member_id: x}\n", `s.yaml:4: member id "x" is held by c1 and c2`},
		{"topics: {t0: 3}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, strategies: [range]}\n  - {id: c2, strategies: [roundrobin]}\n",
			"s.yaml:4: members: these members share no assignor"},
	}
	// A member of a Kafka-scale group owns partitions of many topics: the
	// repeat is found past the short list's scan too.
	var topics, owned []string
	for i := range 20 {
		topics = append(topics, fmt.Sprintf("t%d: 1", i))
		owned = append(owned, fmt.Sprintf("t%d: [0]", i))
	}
	cases = append(cases, struct{ yaml, want string }{
		"topics: {" + strings.Join(topics, ", ") + "}\nmembers:\n  - {id: c1, owned: {" + strings.Join(owned, ", ") + ", t3: [0]}}\n",
		`s.yaml:3: members.owned: topic "t3" is listed twice`})
	for _, c := range cases {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.yaml, err, c.want)
		}
	}
}
