package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// group.kafka_version selects the release whose assignors run: at 4.0 the
// uniform homogeneous builder still gives the extra slots to the first
// members in order (before KAFKA-18688), so C's arrival moves B's partition.
func TestScenarioKafkaVersion(t *testing.T) {
	const src = `topics: {topic3: 2}
group: {id: g, %sstrategy: uniform, protocol: consumer}
members:
  - {id: A, topics: [topic3]}
  - {id: B, topics: [topic3]}
  - {id: C, topics: [topic3]}
`
	latest := steps(simYAML(t, "v.yaml", fmt.Sprintf(src, "")), "AssignmentComputed", "")
	old := steps(simYAML(t, "v.yaml", fmt.Sprintf(src, `kafka_version: "4.0", `)), "AssignmentComputed", "")
	require.Len(t, latest, 3)
	require.Len(t, old, 3)
	assert.Contains(t, latest[2].Text, "target A [topic3-0], B [topic3-1], C [].")
	assert.Contains(t, old[2].Text, "target A [topic3-0], B [], C [topic3-1].")

	sc, err := scenario.Parse("v.yaml", []byte(fmt.Sprintf(src, `kafka_version: "4.0.1", `)))
	require.NoError(t, err)
	assert.Equal(t, strategies.ClientVersion{Major: 4, Minor: 0, Patch: 1}, sc.KafkaVersion)
	for v, want := range map[string]string{
		`"3.9"`: `v.yaml:2: group.kafka_version: kafka version 3.9.0: kviz models the server-side uniform assignor from Kafka 4.0`,
		`"x.y"`: `v.yaml:2: group.kafka_version: kafka version "x.y"`,
	} {
		_, err := scenario.Parse("v.yaml", []byte(fmt.Sprintf(src, "kafka_version: "+v+", ")))
		assert.ErrorContains(t, err, want)
	}
}
