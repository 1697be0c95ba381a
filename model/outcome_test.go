package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func tp(topic string, p int32) kafka.TP { return kafka.TP{Topic: topic, Partition: p} }

// A move is any change of consumer; "moved" counts those taken from a member.
func TestDiffAndTaken(t *testing.T) {
	before := kafka.Owners{tp("o", 0): "c1", tp("o", 1): "c2", tp("o", 3): "c2"}
	after := kafka.Owners{tp("o", 0): "c1", tp("o", 1): "c3", tp("o", 2): "c3"}
	moves := kafka.Diff(before, after)
	assert.Equal(t, []kafka.Move{{Topic: "o", Partition: 1, From: "c2", To: "c3"},
		{Topic: "o", Partition: 2, From: "", To: "c3"}, {Topic: "o", Partition: 3, From: "c2", To: ""}}, moves)
	assert.Equal(t, 2, kafka.Taken(moves), "a first assignment is not taken from anyone")
}

// Seed example 9's cooperative join is one rebalance of two rounds
// (generations 4 and 5); the eager one is one round.
func TestRebalanceRounds(t *testing.T) {
	coop := simDemo(t, "example-09-cooperative-join").Rebalances()
	last := coop[len(coop)-1]
	require.Len(t, last.Rounds, 2)
	assert.Equal(t, []int32{last.Generation - 1, last.Generation}, []int32{last.Rounds[0].Generation, last.Rounds[1].Generation})
	assert.Less(t, last.Rounds[0].EndStep, last.Rounds[1].StartStep)
	assert.Equal(t, last.StartStep, last.Rounds[0].StartStep)
	require.Len(t, last.Moves, 1)
	assert.Equal(t, kafka.Move{Topic: "t0", Partition: 1, From: "c1", To: "c3"}, last.Moves[0])
	eager := simDemo(t, "example-09-eager-join").Rebalances()
	assert.Len(t, eager[len(eager)-1].Rounds, 1)
	for _, name := range []string{"lab", "kip848-join", "upgrade-cooperative"} {
		for _, r := range simDemo(t, name).Rebalances() {
			require.NotEmpty(t, r.Rounds, name)
			assert.Equal(t, r.Generation, r.Rounds[len(r.Rounds)-1].Generation, name)
			assert.Equal(t, kafka.Taken(r.Moves), r.Moved, name)
		}
	}
}

// A crash costs the session timeout before the coordinator rebalances (an
// outage leading into the rebalance); a leave a few milliseconds. The
// forecast runs until the group has settled, past the next scripted event.
func TestForecastRunsUntilSettled(t *testing.T) {
	sim := simDemo(t, "lab")
	sc := sim.Scenario()
	at := int64(30000) // quiet: c4 has joined, c2 has not crashed yet
	leave, err := sim.Forecast(scenario.Event{AtMs: at, Kind: "leave", Member: "c1"})
	require.NoError(t, err)
	crash, err := sim.Forecast(scenario.Event{AtMs: at, Kind: "crash", Member: "c1"})
	require.NoError(t, err)
	for _, f := range []*model.Forecast{leave, crash} {
		o := f.Outcome
		require.True(t, o.Rebalanced && o.Settled, f.Event.Kind)
		assert.Empty(t, o.After.Topics("c1"), "c1 consumes nothing afterwards")
		assert.NotEmpty(t, o.Before.Topics("c1"))
		for _, m := range o.Moves {
			assert.NotEqual(t, "", m.To, "every partition has a consumer once settled: %+v", m)
		}
	}
	assert.Less(t, leave.Outcome.WorstGapMs, int64(1000), "a leave hands partitions over within a second")
	assert.GreaterOrEqual(t, crash.Outcome.WorstGapMs, sc.SessionTimeoutMs-sc.HeartbeatIntervalMs,
		"a crashed member's partitions wait for its session to expire")
	assert.Equal(t, at, crash.Outcome.StartMs, "the cost starts at the crash")
	assert.Greater(t, crash.Outcome.SettledMs, int64(45000), "settled after the next scripted event (c2's crash at 45 s)")
	// The run itself is unchanged.
	assert.Equal(t, len(sc.Timeline), len(sim.Scenario().Timeline))
}

// OutcomeOfRebalance reads the first rebalance at or after a time, with its
// rounds; none after the last.
func TestOutcomeOfRebalance(t *testing.T) {
	sim := simDemo(t, "example-10-static-restart")
	rs := sim.Rebalances()
	o, ok := sim.OutcomeOfRebalance(rs[len(rs)-1].StartMs)
	require.True(t, ok)
	assert.Equal(t, rs[len(rs)-1].Rounds, o.Rounds)
	_, ok = sim.OutcomeOfRebalance(rs[len(rs)-1].EndMs + 1)
	assert.False(t, ok, "no rebalance starts after the last")
}

// A forecast at time 0 of a given start reads "before" from the opening
// step: the group is already consuming then.
func TestForecastAtTimeZeroOfAGivenStart(t *testing.T) {
	sim := simDemo(t, "example-09-cooperative-join")
	f, err := sim.Forecast(scenario.Event{AtMs: 0, Kind: "leave", Member: "c2"})
	require.NoError(t, err)
	assert.Equal(t, kafka.Assignment{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}}, f.Outcome.Before.Assignment())
	assert.Equal(t, []kafka.Move{{Topic: "t0", Partition: 2, From: "c2", To: "c1"}}, f.Outcome.Moves)
}
