package model

import (
	"slices"
	"strings"
	"testing"

	kcluster "github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/model/scenario"
)

func parseForTest(t *testing.T, yaml string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("s.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// Kafka elects only an in-sync replica (unclean.leader.election.enable is
// false): when every replica of the group's offsets partition has failed,
// the last one to fail is its ISR, and a broker that comes back before it
// cannot lead, so the group stays without a coordinator until it returns.
func TestOffsetsPartitionWaitsForItsLastInSyncReplica(t *testing.T) {
	sim, err := Simulate(parseForTest(t, `topics: {t0: 2}
cluster: {brokers: 3}
members:
  - {id: c1}
timeline:
  - {at_ms: 1000, fail_broker: 0}
  - {at_ms: 2000, fail_broker: 1}
  - {at_ms: 3000, fail_broker: 2}
  - {at_ms: 4000, recover_broker: 0}
  - {at_ms: 5000, recover_broker: 2}
`))
	if err != nil {
		t.Fatal(err)
	}
	var recovered []string
	for i := range sim.Len() {
		if st := sim.Step(i); st.Kind == "BrokerRecovered" {
			recovered = append(recovered, st.Text)
		}
	}
	if len(recovered) != 2 {
		t.Fatalf("recoveries: %q", recovered)
	}
	if strings.Contains(recovered[0], "has a coordinator") {
		t.Errorf("broker 0 was not in the ISR but took the coordinator: %s", recovered[0])
	}
	if !strings.Contains(recovered[1], "has a coordinator") {
		t.Errorf("broker 2, the last in-sync replica, should lead again: %s", recovered[1])
	}
}

// The group simulation and the data path replay one timeline through two
// clusters built by newKafkaCluster; after the same events they must hold
// the same leaders, replicas and ISRs, offsets topic included.
func TestGroupAndDataPathClustersAgree(t *testing.T) {
	sc := parseForTest(t, `topics: {t0: 4, t1: 3}
cluster: {brokers: 4, offsets_partitions: 10}
members:
  - {id: c1}
  - {id: c2}
producers:
  - {topic: t0, rate: 50}
timeline:
  - {at_ms: 500, add_partitions: {topic: t1, count: 6}}
  - {at_ms: 1000, fail_broker: 1}
  - {at_ms: 1500, fail_broker: 2}
  - {at_ms: 2500, recover_broker: 1}
  - {at_ms: 3000, fail_broker: 0}
  - {at_ms: 3500, recover_broker: 2}
`)
	w, err := newWorld(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.run(); err != nil {
		t.Fatal(err)
	}
	f, err := newFlow(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.advanceTo(w.clock.now); err != nil {
		t.Fatal(err)
	}
	for _, topic := range []string{kcluster.OffsetsTopic, "t0", "t1"} {
		group, _ := w.cluster.k.Partitions(topic)
		data, _ := f.cluster.Partitions(topic)
		if len(group) != len(data) || len(group) == 0 {
			t.Fatalf("%s: %d partitions in the group's cluster, %d in the data path's", topic, len(group), len(data))
		}
		if topic == "t1" && len(group) != 6 {
			t.Errorf("t1 has %d partitions after growing to 6", len(group))
		}
		for p := range group {
			g, d := group[p], data[p]
			if g.Leader != d.Leader || !slices.Equal(g.Replicas, d.Replicas) || !slices.Equal(g.ISR, d.ISR) {
				t.Errorf("%s-%d: group %+v, data path %+v", topic, p, g, d)
			}
		}
	}
}
