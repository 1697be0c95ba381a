package demo_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// Every demo's tags are its strategy, protocol and examples, plus what its
// scenario shows: producers, failing brokers, static members.
func TestDemoTags(t *testing.T) {
	demos, err := demo.Demos()
	require.NoError(t, err)
	byName := map[string]demo.DemoInfo{}
	for _, d := range demos {
		byName[d.Name] = d
		data, _ := demo.Get(d.Name)
		sc, err := scenario.Parse(d.Name+".yaml", data)
		require.NoError(t, err)
		assert.Contains(t, d.Tags, sc.Strategy, d.Name)
		assert.Contains(t, d.Tags, sc.Protocol, d.Name)
		assert.Equal(t, sc.Flow != nil, slices.Contains(d.Tags, demo.TagProducers), d.Name)
		assert.Equal(t, sc.Notes, d.Notes, d.Name)
	}
	assert.Contains(t, byName["example-11-failover"].Tags, "example 11")
	assert.Contains(t, byName["example-14-coordinator"].Tags, demo.TagCluster, "a broker fails in it")
	assert.NotContains(t, byName["example-11-failover"].Tags, demo.TagCluster)
	assert.Contains(t, byName["example-10-static-restart"].Tags, demo.TagStatic)
	assert.NotContains(t, byName["example-11-failover"].Tags, demo.TagStatic)
	assert.Contains(t, byName["example-07-sticky-leave"].Tags, demo.TagCompare, "example 7 opens compare")
	// The share groups (KIP-932): protocol share, assignor simple; the
	// record-lock demos carry records, the assignment ones do not.
	for _, name := range []string{"share-three-members", "share-crash-locks", "share-poison-record", "share-simple-41", "share-simple-42", "share-failover"} {
		assert.Contains(t, byName[name].Tags, "share", name)
		assert.Contains(t, byName[name].Tags, "simple", name)
	}
	assert.Contains(t, byName["share-poison-record"].Tags, demo.TagRecords)
	assert.Contains(t, byName["share-crash-locks"].Tags, demo.TagRecords)
	assert.NotContains(t, byName["share-simple-41"].Tags, demo.TagRecords)
	assert.Contains(t, byName["share-simple-41"].Tags, "kafka 4.1.0")
	// Pattern subscriptions: classic subscribe(Pattern) and KIP-848's regex.
	assert.Contains(t, byName["pattern-classic"].Tags, demo.TagPattern)
	assert.Contains(t, byName["pattern-regex"].Tags, demo.TagPattern)
	assert.NotContains(t, byName["example-12-partition-growth"].Tags, demo.TagPattern)
}
