package model_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Partitions added while a rebalance is in progress: the leader assigns
// with the metadata it has (ConsumerCoordinator.performAssignment after
// updateGroupSubscription), keeps it as assignmentSnapshot, and only its
// next metadata refresh shows the new partitions and sends it to rejoin.
func TestClassicLeaderAssignsWithItsOwnMetadata(t *testing.T) {
	const growth = `topics: {t0: 6, t1: 2}
group: {id: g, strategy: range}
members:
  - {id: c1, topics: [t0]}
  - {id: c2, topics: [t0]}
timeline:
  - {at_ms: 20000, join: {id: c3, topics: [%s]}}
  - {at_ms: 20100, add_partitions: {topic: t0, count: 12}}
`
	sim := simYAML(t, "grow.yaml", fmt.Sprintf(growth, "t0"))
	assigned := steps(sim, "AssignmentComputed", "c1")
	require.Len(t, assigned, 3)
	assert.Equal(t, int64(21020), assigned[1].TimeMs)
	assert.Contains(t, assigned[1].Text, "c1 [t0-0, t0-1], c2 [t0-2, t0-3], c3 [t0-4, t0-5]; its metadata predates partitions added since")
	refreshed := steps(sim, "MetadataRefreshed", "c1")
	require.Len(t, refreshed, 1)
	assert.Equal(t, int64(300000), refreshed[0].TimeMs)
	assert.Greater(t, assigned[2].TimeMs, refreshed[0].TimeMs)
	assert.Contains(t, assigned[2].Text, "c3 [t0-8, t0-9, t0-10, t0-11]")

	// c3 also subscribes to t1, which c1 does not: groupSubscribe makes the
	// leader fetch fresh metadata before it assigns, so it sees 12.
	sim = simYAML(t, "grow.yaml", fmt.Sprintf(growth, "t0, t1"))
	assigned = steps(sim, "AssignmentComputed", "c1")
	require.Len(t, assigned, 2)
	assert.Equal(t, int64(21020), assigned[1].TimeMs)
	assert.Contains(t, assigned[1].Text, "c1 [t0-0, t0-1, t0-2, t0-3], c2 [t0-4, t0-5, t0-6, t0-7], c3 [t0-8, t0-9, t0-10, t0-11, t1-0, t1-1]")
	assert.Empty(t, steps(sim, "MetadataRefreshed", "c1"))
}
