package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The issue 23 flags name the events a scenario's timeline holds.
func TestIssue23EventFlags(t *testing.T) {
	f := eventFlags{removeMembers: "i1, i2"}
	ev, err := f.event(5000)
	require.NoError(t, err)
	assert.Equal(t, "remove_members", ev.Kind)
	assert.Equal(t, []string{"i1", "i2"}, ev.Instances)
	for _, c := range []struct {
		f    eventFlags
		kind string
	}{
		{eventFlags{removeMembers: "all"}, "remove_members"},
		{eventFlags{disconnect: "c1:60000"}, "disconnect"},
		{eventFlags{wakeup: "c1"}, "wakeup"},
		{eventFlags{createTopic: "orders-9:3"}, "create_topic"},
		{eventFlags{deleteTopic: "orders-1"}, "delete_topic"},
	} {
		ev, err := c.f.event(5000)
		require.NoError(t, err)
		assert.Equal(t, c.kind, ev.Kind)
		assert.Equal(t, int64(5000), ev.AtMs)
		assert.True(t, c.f.given())
	}
	for _, bad := range []eventFlags{{disconnect: "c1"}, {createTopic: "orders-9"}, {removeMembers: ","}, {wakeup: "c1", deleteTopic: "t0"}} {
		_, err := bad.event(5000)
		assert.Error(t, err, "%+v", bad)
	}
}

func TestWhatIfCreateTopicReachesAPatternMember(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`topics: {orders-1: 2}
group: {strategy: cooperative-sticky}
members:
  - {id: c1, pattern: "orders-.*"}
  - {id: c2, topics: [orders-1]}
`), 0o644))
	var out struct {
		Event      map[string]any              `json:"event"`
		After      map[string]map[string][]int `json:"after"`
		SettledMs  int64                       `json:"settled_ms"`
		Rebalanced bool                        `json:"rebalanced"`
	}
	runJSON(t, &out, "whatif", file, "--at-ms", "20000", "--create-topic", "orders-2:2")
	assert.Equal(t, "create_topic", out.Event["kind"])
	assert.True(t, out.Rebalanced, "c1's metadata refresh at 300000 ms picks orders-2 up")
	assert.Equal(t, []int{0, 1}, out.After["c1"]["orders-2"], "only the pattern member subscribes to it")
	assert.Greater(t, out.SettledMs, int64(300000))
}
