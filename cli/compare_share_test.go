package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// compare on a share group: one row per release of simple, each labelled;
// 4.0 gives every member both partitions, later releases share them out.
func TestCompareShareRowsPerRelease(t *testing.T) {
	code, out, stderr := run(t, "", "compare", "demo:share-simple-42", "--at-ms", "10000", "--leave", "c2")
	require.Equal(t, 0, code, stderr)
	var c struct {
		Strategies []struct {
			Strategy     string                        `json:"strategy"`
			KafkaVersion string                        `json:"kafka_version"`
			Error        *string                       `json:"error"`
			After        map[string]map[string][]int32 `json:"after"`
		} `json:"strategies"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	require.Len(t, c.Strategies, 3)
	for i, want := range []string{"4.0", "4.1", "4.2+"} {
		r := c.Strategies[i]
		require.Equal(t, "simple", r.Strategy)
		require.Equal(t, want, r.KafkaVersion)
		require.Nil(t, r.Error, want)
		require.NotContains(t, r.After, "c2", "%s: c2 left", want)
	}
	for id, ts := range c.Strategies[0].After {
		require.Equal(t, []int32{0, 1}, ts["t0"], "4.0: %s gets every partition", id)
	}
	code, text, stderr := run(t, "", "compare", "demo:share-simple-42", "--at-ms", "10000", "--leave", "c2", "--format", "table")
	require.Equal(t, 0, code, stderr)
	for _, row := range []string{"simple 4.0 ", "simple 4.1 ", "simple 4.2+ ", "  shared t0-0 "} {
		require.True(t, strings.Contains(text, row), "table lacks %q:\n%s", row, text)
	}
}

// whatif on a share group names every holder of a partition: the text's
// shared line is the JSON's after, partition by partition, and the moves
// are the leaver's partitions it stops holding.
func TestWhatIfShareNamesEveryHolder(t *testing.T) {
	args := []string{"whatif", "demo:share-simple-42", "--at-ms", "10000", "--leave", "c2"}
	code, out, stderr := run(t, "", args...)
	require.Equal(t, 0, code, stderr)
	var o struct {
		Before map[string]map[string][]int32 `json:"before"`
		After  map[string]map[string][]int32 `json:"after"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &o))
	holders := map[int32][]string{}
	for _, id := range slices.Sorted(maps.Keys(o.After)) {
		for _, p := range o.After[id]["t0"] {
			holders[p] = append(holders[p], id)
		}
	}
	require.Greater(t, len(holders[0])+len(holders[1]), 2, "five members minus one on two partitions share them")
	shared := fmt.Sprintf("  shared  t0-0 %s · t0-1 %s\n", strings.Join(holders[0], " "), strings.Join(holders[1], " "))
	var stops []string
	for _, p := range o.Before["c2"]["t0"] {
		stops = append(stops, fmt.Sprintf("t0-%d c2 stops", p))
	}
	code, text, stderr := run(t, "", append(args, "--format", "text")...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, text, shared)
	require.Contains(t, text, "  moves   "+strings.Join(stops, ", ")+"\n")
}
