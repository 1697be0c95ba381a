package demo_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
)

func rankNames(t *testing.T, query string) []string {
	t.Helper()
	demos, err := demo.Demos()
	require.NoError(t, err)
	var out []string
	for _, i := range demo.Rank(query, demos) {
		out = append(out, demos[i].Name)
	}
	return out
}

// What a trainer types opens that example: the first row is a demo of it.
func TestRankPutsTheTypedExampleFirst(t *testing.T) {
	for n := 1; n <= 19; n++ {
		for _, q := range []string{fmt.Sprint(n), fmt.Sprintf("example %d", n), fmt.Sprintf("example-%d", n), fmt.Sprintf("%02d", n)} {
			got := rankNames(t, q)
			require.NotEmpty(t, got, q)
			assert.Contains(t, demo.ExampleDemos(n), got[0], "%q opens %s", q, got[0])
		}
	}
	// Example 1's title names C2, and example 12 contains a 2: neither is example 2.
	assert.Equal(t, "example-02-range-five-topics", rankNames(t, "2")[0])
	assert.Equal(t, "example-10-static-restart", rankNames(t, "10")[0])
}

func TestRankWordsAndTiers(t *testing.T) {
	assert.Equal(t, "lab", rankNames(t, "lab")[0], "the exact name first")
	got := rankNames(t, "sticky")
	require.NotEmpty(t, got)
	assert.Equal(t, "example-07-sticky-leave", got[0], "a word of a name ranks above a tag")
	for _, name := range rankNames(t, "kip848 join") {
		assert.Contains(t, name, "kip848", "every word must match")
	}
	assert.Empty(t, rankNames(t, "no-such-thing"))
	assert.Empty(t, rankNames(t, "  "))
	assert.Contains(t, rankNames(t, "producers"), "producers")
}
