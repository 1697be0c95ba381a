package demo_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
)

func TestCatalogCoversEveryDemo(t *testing.T) {
	entries, err := demo.Catalog()
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		assert.NotEmpty(t, e.Title, e.Name)
		data, _ := demo.Get(e.Name)
		sc, err := model.ParseScenario(e.Name+".yaml", data)
		require.NoError(t, err)
		// The catalogue shows the model's strategy and protocol, defaults applied.
		assert.Equal(t, sc.Strategy, e.Strategy, e.Name)
		assert.Equal(t, sc.Protocol, e.Protocol, e.Name)
		assert.Contains(t, e.Tags, sc.Strategy, e.Name)
		assert.Contains(t, e.Tags, sc.Protocol, e.Name)
		assert.Equal(t, sc.Flow != nil, slices.Contains(e.Tags, demo.TagProducers), e.Name)
	}
	assert.Equal(t, demo.Names(), names)
}

func TestCatalogTags(t *testing.T) {
	entries, err := demo.Catalog()
	require.NoError(t, err)
	byName := map[string]demo.Entry{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	failover := byName["example-11-failover"]
	assert.Equal(t, []int{11}, failover.Examples)
	assert.Contains(t, failover.Tags, "example 11")
	assert.Equal(t, []int{}, byName["lab"].Examples, "a demo that is no seed example has none")
	assert.Contains(t, byName["example-14-coordinator"].Tags, demo.TagCluster, "a broker fails in it")
	assert.NotContains(t, failover.Tags, demo.TagCluster)
	assert.Contains(t, byName["example-10-static-restart"].Tags, demo.TagStatic)
	assert.Contains(t, byName["producers"].Tags, demo.TagProducers)

	// Callers get copies: editing one cannot change the next answer.
	failover.Tags[0] = "edited"
	again, _ := demo.Catalog()
	for _, e := range again {
		assert.NotContains(t, e.Tags, "edited")
	}
}
