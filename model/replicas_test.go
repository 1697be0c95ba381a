package model

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

// A topic's given replica assignment is the run's, and the rack-aware
// assignors see it: each member gets the partitions on its rack.
func TestGivenReplicasPlaceTheTopic(t *testing.T) {
	src := `cluster: {brokers: 3, racks: [a, b, c]}
topics: {t0: {replicas: [[0], [1], [2], [0], [1], [2]]}, t1: 2}
group: {strategy: range}
members:
  - {id: c1, rack: a, topics: [t0]}
  - {id: c2, rack: b, topics: [t0]}
  - {id: c3, rack: c, topics: [t0]}
`
	owned, sc := finalOwned(t, src)
	want := map[string][]int32{"c1": {0, 3}, "c2": {1, 4}, "c3": {2, 5}}
	for m, ps := range want {
		if !sliceEq(owned[m]["t0"], ps) {
			t.Errorf("%s owns %v, want %v (the partitions on its rack): %v", m, owned[m]["t0"], ps, owned)
		}
	}
	k, err := newKafkaCluster(sc, newWorldRand(sc))
	if err != nil {
		t.Fatal(err)
	}
	parts, _ := k.Partitions("t0")
	if len(parts) != 6 || parts[4].Replicas[0] != 1 || parts[4].Leader != 1 {
		t.Errorf("t0's replicas are not the given ones: %+v", parts)
	}
	out, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := scenario.Parse("again.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(again.Replicas["t0"]) != 6 || again.Replicas["t0"][5][0] != 2 || again.Replicas["t1"] != nil || again.Topics["t1"] != 2 {
		t.Errorf("replicas lost in the round trip:\n%s", out)
	}
}

func TestGivenReplicasErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"topics: {t0: {replicas: [[0], [3]]}}\n", "s.yaml:1: topics.t0.replicas: partition 1 names broker 3; the cluster has brokers 0..2"},
		{"topics: {t0: {replicas: [[0, 0]]}}\n", "s.yaml:1: topics.t0.replicas: partition 0 lists broker 0 twice"},
		{"topics: {t0: {partitions: 3, replicas: [[0]]}}\n", "s.yaml:1: topics.t0.replicas lists 1 partitions, but partitions is 3"},
		{"topics: {t0: {replicas: [[]]}}\n", "s.yaml:1: topics.t0.replicas: partition 0 needs a list of brokers"},
		{"topics: {t0: {}}\n", "s.yaml:1: topics.t0 needs partitions (or replicas)"},
		{"topics: {t0: {parts: 2}}\n", `s.yaml:1: unknown key "parts" in topics.t0`},
		{"cluster: {brokers: 2}\ntopics:\n  t0: {replicas: [[0], [1], [2]]}\n", "s.yaml:3: topics.t0.replicas: partition 2 names broker 2; the cluster has brokers 0..1"},
	} {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
}
