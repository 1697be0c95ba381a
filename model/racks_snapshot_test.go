package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model/kafka"
)

// A classic leader with client.rack keeps, in its assignment's
// MetadataSnapshot, each partition's set of replica racks
// (ConsumerCoordinator.PartitionRackInfo); a replica on a broker that is
// down has no rack in the client's metadata (MetadataResponse lists live
// brokers only, and the client makes a rackless Node for the others). So a
// broker failing, and coming back, changes the snapshot, and
// rejoinNeededOrPending sends the leader back to rejoin at its next
// metadata refresh (ConsumerCoordinatorTest.
// testRackAwareConsumerRebalanceWithDifferentRacks). Without a client.rack
// the racks are not compared and nothing happens.
func TestLeaderRejoinsWhenReplicaRacksChange(t *testing.T) {
	src := func(rack string) string {
		return `seed: 1
cluster: {brokers: 3, racks: [a, b, c]}
topics: {t0: 6}
group: {id: g, strategy: range}
members:
  - {id: c1, topics: [t0]` + rack + `}
  - {id: c2, topics: [t0]}
timeline:
  - {at_ms: 60000, fail_broker: 1}
  - {at_ms: 400000, recover_broker: 1}
`
	}
	sim := simYAML(t, "racks.yaml", src(", rack: a"))
	var at []int64
	for _, st := range steps(sim, kafka.KindMetadataRefreshed, "c1") {
		assert.Contains(t, st.Text, "racks of the group's partition replicas changed")
		at = append(at, st.TimeMs)
	}
	assert.Equal(t, []int64{300_000, 600_000}, at, "at the metadata.max.age.ms refreshes after the failure and the recovery")
	assert.Equal(t, int32(3), last(sim).Generation)

	plain := simYAML(t, "racks.yaml", src(""))
	assert.Empty(t, steps(plain, kafka.KindMetadataRefreshed, "c1"))
	assert.Equal(t, int32(1), last(plain).Generation)
}
