package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Seed example 14: "my-group" → 12, "test" → 48, "polygenelubricants" → 0.
func TestCoordinatorSeedExample14(t *testing.T) {
	for _, c := range []struct{ group, want string }{
		{"my-group", `{"partition": 12, "hash": -1906497762}`},
		{"test", `{"partition": 48, "hash": 3556498}`},
		{"polygenelubricants", `{"partition": 0, "hash": -2147483648}`},
	} {
		code, out, errOut := run(t, "", "coordinator", "--group", c.group)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, c.want+"\n", out, c.group)
	}
	_, out, _ := run(t, "", "coordinator", "--group", "A", "--offsets-partitions", "10")
	assert.Equal(t, `{"partition": 5, "hash": 65}`+"\n", out)
}

func TestCoordinatorLeaderWithBrokers(t *testing.T) {
	// Partition 12 over 5 brokers from start index 0: 12 % 5 = 2 leads; the
	// shift has grown by 12/5 = 2, so followers sit 1 + (2+j)%4 further on.
	code, out, errOut := run(t, "", "coordinator", "--group", "my-group", "--brokers", "5")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"partition": 12, "hash": -1906497762, "leader": 2, "replicas": [2, 0, 1]}`+"\n", out)

	_, out, _ = run(t, "", "coordinator", "--group", "my-group", "--brokers", "5", "--format", "text")
	assert.Contains(t, out, "Utils.abs = 1906497762")
	assert.Contains(t, out, "__consumer_offsets partition 12")
	assert.Contains(t, out, "coordinator: broker 2")
	assert.Contains(t, out, "start index 0, shift 0")

	_, out, _ = run(t, "", "coordinator", "--group", "polygenelubricants", "--format", "text")
	assert.Contains(t, out, "Integer.MIN_VALUE")
}

func TestCoordinatorBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"coordinator"},
		{"coordinator", "--group", "g", "--offsets-partitions", "0"},
		{"coordinator", "--group", "g", "--brokers", "2"},
		{"coordinator", "--group", "g", "--brokers", "0"},
		{"coordinator", "--group", "g", "--brokers", "3", "--start-index", "5"},
		{"coordinator", "--group", "g", "--format", "csv"},
	} {
		code, out, errOut := run(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: %q", args, errOut)
	}
	_, _, errOut := run(t, "", "coordinator", "--group", "g", "--brokers", "2")
	assert.Contains(t, errOut, "COORDINATOR_NOT_AVAILABLE")
}

// An empty group.id is no group's (InvalidGroupIdException, INVALID_GROUP_ID).
func TestCoordinatorRefusesAnEmptyGroupID(t *testing.T) {
	for _, g := range []string{"", " ", "\t"} {
		code, out, errOut := run(t, "", "coordinator", "--group", g)
		assert.Equal(t, 2, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "an empty group.id is invalid")
		assert.Equal(t, 1, strings.Count(errOut, "\n"))
	}
}
