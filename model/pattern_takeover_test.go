package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model/kafka"
)

// A static member that subscribes to a regex, leaves (epoch -2) before any
// heartbeat sent it and comes back with it takes its slot back with a joining heartbeat that
// carries the regex (SubscribedTopicRegex): GroupMetadataManager runs
// maybeUpdateRegularExpressions for it as for any member, so the regex is
// resolved and the member is given the topics it matches (here t3, which
// nobody else subscribes to). Found by TestKIP848BatchingRandomEventSequences.
func TestStaticTakeoverSendsItsRegex(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "takeover-regex.yaml", `seed: 0
cluster: {brokers: 2}
topics: {t0: 3, t3: 2}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t0]}
  - {id: c2, topics: [t0], instance: ic2}
timeline:
  - {at_ms: 60018, subscribe: {id: c2, pattern: "t.*"}}
  - {at_ms: 60100, leave: c2}
  - {at_ms: 60168, join: {id: c2, instance: ic2, pattern: "t.*"}}
`)
	stepWith(t, sim, kafka.KindConsumerGroupHeartbeatRequest, "c2", "takes over")
	stepWith(t, sim, kafka.KindRegexResolved, "", `"t.*" matches [t0 t3]`)
	end := last(sim)
	assert.Equal(t, kafka.KStable, end.GroupState)
	assert.Equal(t, []int32{0, 1}, end.Owned["c2"]["t3"], "the regex's only subscriber gets t3")
}
