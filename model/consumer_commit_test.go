package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// KIP-1251 (Kafka 4.3): an OffsetCommit with an older member epoch is
// accepted when the member got every partition it commits at or before
// that epoch; 4.1 wants the member's own epoch. c1 gets t0-0 and t0-1 at
// epoch 2 (a 4.3 group starts at 1), keeps t0-0 when c2's join makes epoch
// 3, and c2 gets t0-1 at epoch 3.
func TestKIP1251AssignmentEpochCommits(t *testing.T) {
	needStrategy(t, "uniform")
	const src = `topics: {t0: 2}
group: {strategy: uniform, kafka_version: "%s"}
members:
  - {id: c1}
timeline:
  - {at_ms: 10000, join: {id: c2}}
  - {at_ms: 30000, commit: c1}
  - {at_ms: 31000, commit: {id: c1, generation: 2}}
  - {at_ms: 32000, commit: {id: c1, generation: 1}}
  - {at_ms: 33000, commit: {id: c2, generation: 2}}
  - {at_ms: 34000, commit: {id: c1, generation: 4}}
`
	answers := func(v string) []string {
		sim := simYAML(t, "c.yaml", fmt.Sprintf(src, v))
		var out []string
		for _, st := range steps(sim, kafka.KindOffsetCommitResponse, "") {
			out = append(out, st.Member+" "+st.Error)
		}
		return out
	}
	assert.Equal(t, []string{"c1 NONE", "c1 NONE", "c1 STALE_MEMBER_EPOCH", "c2 STALE_MEMBER_EPOCH", "c1 STALE_MEMBER_EPOCH"}, answers("4.3"),
		"4.3: epoch 2 covers t0-0 (assigned at 2), epoch 1 does not; c2's t0-1 came at 3; a newer epoch is never accepted")
	// 4.1 numbers from 0: after c2 joins both are at epoch 2, which is
	// all it accepts: 1 and 4 are stale.
	assert.Equal(t, []string{"c1 NONE", "c1 NONE", "c1 STALE_MEMBER_EPOCH", "c2 NONE", "c1 STALE_MEMBER_EPOCH"}, answers("4.1"))

	sim := simYAML(t, "c.yaml", fmt.Sprintf(src, "4.3"))
	resp := steps(sim, kafka.KindOffsetCommitResponse, "")
	require.Len(t, resp, 5)
	assert.Contains(t, resp[1].Text, "epoch 2 is older than its 3, but it got every partition it commits at or before epoch 2: KIP-1251")
	assert.Contains(t, resp[3].Text, "KIP-1251: [t0-1] not assigned to it at or before epoch 2")
}
