package strategies

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func racked(m map[int]string) []BrokerRack {
	out := make([]BrokerRack, 0, len(m))
	for id, r := range m {
		out = append(out, BrokerRack{ID: id, Rack: r})
	}
	return out
}

// Kafka's AdminRackAwareTest.testGetRackAlternatedBrokerListAndAssignReplicasToBrokers.
func TestRackAwareMatchesAdminRackAwareTest(t *testing.T) {
	rackMap := map[int]string{0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
	list, err := RackAlternatedBrokers(racked(rackMap))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3, 1, 5, 4, 2}, list)
	delete(rackMap, 5)
	list, _ = RackAlternatedBrokers(racked(rackMap))
	assert.Equal(t, []int{0, 3, 1, 4, 2}, list)

	rackMap[5] = "rack1"
	got, err := PlaceReplicasOn(racked(rackMap), 7, 3, 0, 0)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{0, 3, 1}, {3, 1, 5}, {1, 5, 4}, {5, 4, 2}, {4, 2, 0}, {2, 0, 3}, {0, 4, 2}}, got)
}

func TestPlaceReplicasOnRealIDsAndMixedRacks(t *testing.T) {
	got, err := PlaceReplicasOn([]BrokerRack{{ID: 30}, {ID: 10}, {ID: 20}}, 2, 2, 0, 0)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{10, 20}, {20, 30}}, got)
	_, err = PlaceReplicasOn([]BrokerRack{{ID: 1, Rack: "a"}, {ID: 2}}, 2, 1, 0, 0)
	assert.ErrorContains(t, err, "not all brokers have rack information")
	_, err = PlaceReplicasOn([]BrokerRack{{ID: 1}, {ID: 1}}, 2, 1, 0, 0)
	assert.ErrorContains(t, err, "listed twice")
	_, err = PlaceReplicasRackAware([]BrokerRack{{ID: 1, Rack: "a"}}, 2, 2, 0, 0)
	assert.ErrorContains(t, err, "larger than the 1 available brokers")
}

// Property: replicas are distinct brokers, and span min(R, racks) racks.
func TestRackAwareSpreadsOverRacks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "brokers")
		racks := rapid.IntRange(1, n).Draw(t, "racks")
		brokers := make([]BrokerRack, n)
		for i := range brokers {
			brokers[i] = BrokerRack{ID: i, Rack: string(rune('a' + rapid.IntRange(0, racks-1).Draw(t, "rack")))}
		}
		distinctRacks := len(racksOf(brokers))
		rf := rapid.IntRange(1, n).Draw(t, "rf")
		start := rapid.IntRange(0, n-1).Draw(t, "start")
		shift := rapid.IntRange(0, n-1).Draw(t, "shift")
		got, err := PlaceReplicasRackAware(brokers, rapid.IntRange(0, 40).Draw(t, "partitions"), rf, start, shift)
		if err != nil {
			t.Fatal(err)
		}
		for p, replicas := range got {
			seen, rs := map[int]bool{}, map[string]bool{}
			for _, b := range replicas {
				if seen[b] {
					t.Fatalf("partition %d: broker %d twice in %v", p, b, replicas)
				}
				seen[b], rs[brokers[b].Rack] = true, true
			}
			if len(rs) != min(rf, distinctRacks) {
				t.Fatalf("partition %d: %v spans %d racks, want %d", p, replicas, len(rs), min(rf, distinctRacks))
			}
		}
	})
}
