package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
)

// Every demo's tags are its strategy, protocol and examples, plus what its
// scenario shows: producers, failing brokers, static members.
func TestDemoTags(t *testing.T) {
	demos, err := model.Demos()
	require.NoError(t, err)
	byName := map[string]model.DemoInfo{}
	for _, d := range demos {
		byName[d.Name] = d
		data, _ := demo.Get(d.Name)
		sc, err := model.ParseScenario(d.Name+".yaml", data)
		require.NoError(t, err)
		assert.Contains(t, d.Tags, sc.Strategy, d.Name)
		assert.Contains(t, d.Tags, sc.Protocol, d.Name)
		assert.Equal(t, sc.Flow != nil, slices.Contains(d.Tags, model.TagProducers), d.Name)
		assert.Equal(t, sc.Notes, d.Notes, d.Name)
	}
	assert.Contains(t, byName["example-11-failover"].Tags, "example 11")
	assert.Contains(t, byName["example-14-coordinator"].Tags, model.TagCluster, "a broker fails in it")
	assert.NotContains(t, byName["example-11-failover"].Tags, model.TagCluster)
	assert.Contains(t, byName["example-10-static-restart"].Tags, model.TagStatic)
	assert.NotContains(t, byName["example-11-failover"].Tags, model.TagStatic)
	assert.Contains(t, byName["example-07-sticky-leave"].Tags, model.TagCompare, "example 7 opens compare")
}
