package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Seed example 18: brokers 0..4, RF 3, start index 0, shift 0.
func TestReplicasSeedExample18(t *testing.T) {
	code, out, errOut := run(t, "", "replicas", "--brokers", "5", "--partitions", "10", "--replication-factor", "3", "--start-index", "0", "--shift", "0")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"0": [0, 1, 2], "1": [1, 2, 3], "2": [2, 3, 4], "3": [3, 4, 0], "4": [4, 0, 1], `+
		`"5": [0, 2, 3], "6": [1, 3, 4], "7": [2, 4, 0], "8": [3, 0, 1], "9": [4, 1, 2]}`+"\n", out)
	var m map[string][]int
	require.NoError(t, json.Unmarshal([]byte(out), &m))
	assert.Len(t, m, 10)
}

func TestReplicasStartIndexAlsoFixesShift(t *testing.T) {
	_, withShift, _ := run(t, "", "replicas", "--brokers", "5", "--partitions", "6", "--replication-factor", "3", "--start-index", "2", "--shift", "2")
	_, without, _ := run(t, "", "replicas", "--brokers", "5", "--partitions", "6", "--replication-factor", "3", "--start-index", "2")
	assert.Equal(t, withShift, without)
}

func TestReplicasSeededRandomIsReportedAndRepeatable(t *testing.T) {
	args := []string{"replicas", "--brokers", "4", "--partitions", "4", "--replication-factor", "2", "--seed", "42", "--format", "text"}
	code, a, _ := run(t, "", args...)
	require.Equal(t, 0, code)
	_, b, _ := run(t, "", args...)
	assert.Equal(t, a, b)
	assert.Contains(t, a, "drawn from seed 42")
	assert.Contains(t, a, "preferred leader")
}

func TestReplicasRackAware(t *testing.T) {
	// Kafka's AdminRackAwareTest: racks 1,3,3,2,2,1 for brokers 0..5, 7 partitions, RF 3.
	code, out, errOut := run(t, "", "replicas", "--brokers", "6", "--partitions", "7", "--replication-factor", "3",
		"--start-index", "0", "--racks", "rack1,rack3,rack3,rack2,rack2,rack1")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, `{"0": [0, 3, 1], "1": [3, 1, 5],`), out)
	assert.Contains(t, out, `"6": [0, 4, 2]}`)
}

func TestReplicasBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"replicas", "--brokers", "2", "--partitions", "3", "--replication-factor", "3"},
		{"replicas", "--brokers", "0", "--partitions", "3", "--replication-factor", "1"},
		{"replicas", "--brokers", "3", "--partitions", "0", "--replication-factor", "1"},
		{"replicas", "--brokers", "3", "--partitions", "3"},
		{"replicas", "--brokers", "3", "--partitions", "3", "--replication-factor", "1", "--start-index", "3"},
		{"replicas", "--brokers", "3", "--partitions", "3", "--replication-factor", "1", "--shift", "-1"},
		{"replicas", "--brokers", "3", "--partitions", "3", "--replication-factor", "1", "--racks", "a,b"},
		{"replicas", "--brokers", "3", "--partitions", "3", "--replication-factor", "1", "--format", "xml"},
	} {
		code, out, errOut := run(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: %q", args, errOut)
	}
	_, _, errOut := run(t, "", "replicas", "--brokers", "2", "--partitions", "3", "--replication-factor", "3")
	assert.Contains(t, errOut, "--replication-factor 3 is larger than the 2 brokers")
}
