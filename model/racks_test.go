package model

import (
	"maps"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

const rackScenario = `name: racks
cluster: {brokers: 4, racks: [a, b, c, d]}
topics: {t0: 4}
group: {strategy: %STRATEGY%%VERSION%}
members:
  - {id: c1, rack: a}
  - {id: c2, rack: b}
%JOIN%`

func rackYAML(strategy, version string, racks bool) string {
	s := strings.ReplaceAll(rackScenario, "%STRATEGY%", strategy)
	join := ""
	if strategy == "range" {
		// range is not sticky: a joiner's rack shapes the whole answer
		join = "timeline:\n  - {at_ms: 20000, join: {id: c3, rack: c}}\n"
	}
	s = strings.ReplaceAll(s, "%JOIN%", join)
	if version != "" {
		version = ", kafka_version: " + version
	}
	s = strings.ReplaceAll(s, "%VERSION%", version)
	if !racks {
		for _, r := range []string{", racks: [a, b, c, d]", ", rack: a", ", rack: b", ", rack: c"} {
			s = strings.ReplaceAll(s, r, "")
		}
	}
	return s
}

// ownedAt is who owns what at the end of a run, and the run's cluster
// (the placement is drawn from the seed, so it is the run's own).
func finalOwned(t *testing.T, yaml string) (map[string]map[string][]int32, *scenario.Scenario) {
	t.Helper()
	sc := parseForTest(t, yaml)
	sim, err := Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Step(sim.Len() - 1).Owned, sc
}

// KIP-881: with broker racks and a replication factor below the rack
// count, some partition is missing from every rack, so range and the
// sticky family give each member partitions with a replica on its own
// rack where balance allows (range also after a joiner with a rack
// rebalances the group); without racks (or before Kafka 3.5) the
// answer is the rack-unaware one.
func TestMemberRacksReachTheClassicAssignors(t *testing.T) {
	for _, strategy := range []string{"range", "sticky", "cooperative-sticky"} {
		t.Run(strategy, func(t *testing.T) {
			owned, sc := finalOwned(t, rackYAML(strategy, "", true))
			k, err := newKafkaCluster(sc, newWorldRand(sc))
			if err != nil {
				t.Fatal(err)
			}
			rackOf := map[string]string{"c1": "a", "c2": "b", "c3": "c"}
			total := 0
			for member, topics := range owned {
				parts, _ := k.Partitions("t0")
				for _, p := range topics["t0"] {
					total++
					onRack := false
					for _, b := range parts[p].Replicas {
						onRack = onRack || sc.BrokerRacks[b] == rackOf[member]
					}
					if !onRack {
						t.Errorf("%s (rack %s) owns t0-%d, whose replicas %v are not on its rack: %v", member, rackOf[member], p, parts[p].Replicas, owned)
					}
				}
			}
			if total != 4 {
				t.Fatalf("%d partitions owned, want 4: %v", total, owned)
			}
			plain, _ := finalOwned(t, rackYAML(strategy, "", false))
			old, _ := finalOwned(t, rackYAML(strategy, "3.4", true))
			if !maps.EqualFunc(old, plain, func(a, b map[string][]int32) bool { return maps.EqualFunc(a, b, sliceEq) }) {
				t.Errorf("Kafka 3.4 (before KIP-881) should ignore racks: %v, without racks %v", old, plain)
			}
		})
	}
}

func sliceEq(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRackInputErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"cluster: {brokers: 3, racks: [a, b]}\ntopics: {t0: 1}\n", "s.yaml:1: cluster.racks lists 2 racks for 3 brokers"},
		{"cluster: {brokers: 2, racks: [a, '']}\ntopics: {t0: 1}\n", "s.yaml:1: cluster.racks: an empty rack is no rack"},
		{"cluster: {brokers: 2, racks: a}\ntopics: {t0: 1}\n", "s.yaml:1: cluster.racks must list"},
		{"topics: {t0: 1}\nmembers:\n  - {id: c1, rack: ''}\n", "s.yaml:3: members.rack: an empty rack is no rack"},
		{"topics: {t0: 1}\nmembers:\n  - {id: c1, rack: [a]}\n", "s.yaml:3: members.rack must be a plain value"},
		{"topics: {t0: 1}\nmembers:\n  - {id: c1, rack: a}\ntimeline:\n  - {at_ms: 1000, leave: c1}\n  - {at_ms: 2000, join: {id: c1, rack: b}}\n",
			`s.yaml:6: join: c1 joins with rack "b" but was given rack "a" before`},
	} {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
}

func TestRacksRoundTripThroughTheFormat(t *testing.T) {
	sc := parseForTest(t, rackYAML("range", "", true))
	out, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := scenario.Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Join(again.BrokerRacks, ",") != "a,b,c,d" || again.Members[0].Rack != "a" || again.Members[1].Rack != "b" ||
		again.Timeline[0].Rack != "c" {
		t.Errorf("racks lost in\n%s", out)
	}
}
