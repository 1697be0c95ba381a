package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRouteJSONContract(t *testing.T) {
	code, out, errOut := run(t, "", "route", "--partitions", "6", "--key", "key1")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{\"partition\": 2, \"murmur2\": 28543940}\n", out)

	// Kafka's UtilsTest vector "21" hashes negative; the JSON keeps the sign.
	code, out, _ = run(t, "", "route", "--partitions", "10", "--key-hex", "3231", "--format", "json")
	require.Equal(t, 0, code)
	var got struct{ Partition, Murmur2 int64 }
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, int64(-973932308), got.Murmur2)
	assert.Equal(t, int64((-973932308&0x7fffffff)%10), got.Partition)

	// An empty key is a key: murmur2("") = 275646681.
	code, out, _ = run(t, "", "route", "--partitions", "3", "--key", "")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "275646681")
}

func TestRouteText(t *testing.T) {
	code, out, _ := run(t, "", "route", "--partitions", "6", "--key", "key1", "--format", "text")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "6b 65 79 31")
	assert.Contains(t, out, "murmur2(key) = 28543940")
	assert.Contains(t, out, "28543940 % 6 partitions = 2")
	assert.Contains(t, out, "→ partition 2")
}

func TestRouteBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"route", "--key", "k"},
		{"route", "--partitions", "6"},
		{"route", "--partitions", "6", "--key", "a", "--key-hex", "61"},
		{"route", "--partitions", "0", "--key", "a"},
		{"route", "--partitions", "x", "--key", "a"},
		{"route", "--partitions", "6", "--key-hex", "zz"},
		{"route", "--partitions", "6", "--key", "a", "--format", "yaml"},
	} {
		code, out, errOut := run(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: %q", args, errOut)
		assert.True(t, strings.HasPrefix(errOut, "kviz: "), errOut)
	}
}
