package tui

import (
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A crash costs the session timeout before the coordinator starts a
// rebalance (the model's outage), a leave a few milliseconds: the preview
// shows both, and the crash's rebalance even though it starts after the
// next scenario event.
func TestWhatIfCrashCostsTheSessionTimeout(t *testing.T) {
	sc := demoScenario(t)
	real, err := model.Simulate(sc)
	require.NoError(t, err)
	sim := modelSim{real}
	at := int64(30000) // quiet: c4 has joined, c2 has not crashed yet
	step := stepAt(sim, at)
	leave := forecast(sim, step, model.Event{AtMs: at, Kind: "leave", Member: "c1"})
	crash := forecast(sim, step, model.Event{AtMs: at, Kind: "crash", Member: "c1"})
	require.True(t, leave.Found, "a leave starts a rebalance at once")
	require.True(t, crash.Found, "the crash's rebalance follows its session timeout")
	assert.Less(t, leave.UnownedMs, int64(1000), "a leave hands partitions over within a second")
	assert.GreaterOrEqual(t, crash.UnownedMs, sc.SessionTimeoutMs-sc.HeartbeatIntervalMs,
		"a crashed member's partitions wait for its session to expire")
	assert.Equal(t, at, crash.StartMs, "the cost starts at the crash")
}
