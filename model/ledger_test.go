package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func demoSim(t *testing.T, name string) *Sim {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok, name)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	sim, err := Simulate(sc)
	require.NoError(t, err)
	return sim
}

// Inside a rebalance, compare reads the event that set it off: the latest
// since the rebalance before. In example 10 the second rebalance is c2's
// session expiring (c2 crashed at 80 s); c1 crashed at 30 s and came back
// at 40 s, inside its session, which set off nothing. Taking the earliest
// event (30 s) made the KIP-848 row show a rebalance c1's crash sets off
// there, not c2's.
func TestCompareMomentIsTheEventThatSetTheRebalanceOff(t *testing.T) {
	sim := demoSim(t, "example-10-static-restart")
	l := NewLedger(sim)
	rs := l.Rebalances()
	require.Len(t, rs, 3)
	mid := (rs[1].StartStep + rs[1].EndStep) / 2
	assert.Equal(t, int64(80000), l.CompareMoment(mid))
	assert.Equal(t, int64(0), l.CompareMoment(rs[0].StartStep), "the first rebalance: its members start at 0")
	outside := rs[0].EndStep + 1
	assert.Equal(t, sim.View(outside).TimeMs, l.CompareMoment(outside), "outside a rebalance: now")
	var vs []Variant
	for _, n := range kafka.CompareStrategies() {
		vs = append(vs, Variant{Strategy: n})
	}
	for _, row := range Compare(sim.Scenario(), l.CompareMoment(mid), nil, vs) {
		require.NoError(t, row.Err, row.Strategy)
		require.True(t, row.Found, row.Strategy)
		assert.GreaterOrEqual(t, row.Outcome.AtMs, int64(80000), "%s/%s compares a rebalance after c2's crash", row.Strategy, row.Protocol)
	}
}

// A rebalance with no scenario event since the one before (a poll
// timeout) is compared from its own start.
func TestCompareMomentWithoutAnEvent(t *testing.T) {
	sim := demoSim(t, "example-15-poll-timeout")
	l := NewLedger(sim)
	rs := l.Rebalances()
	require.GreaterOrEqual(t, len(rs), 3)
	assert.Equal(t, rs[2].StartMs, l.CompareMoment(rs[2].StartStep))
}

// The ledger's rows are the run's rebalances with the figures the numbers
// pane shows; the focus is the rebalance under way, else the last one.
func TestLedgerAt(t *testing.T) {
	sim := demoSim(t, "example-09-cooperative-join")
	l := NewLedger(sim)
	rs := sim.Rebalances()
	require.Len(t, rs, 1)
	before := l.At(rs[0].StartStep - 1)
	assert.Equal(t, -1, before.Focus)
	during := l.At(rs[0].StartStep + 1)
	assert.Equal(t, 0, during.Focus)
	end := l.At(sim.Len() - 1)
	assert.Equal(t, 0, end.Focus)
	r := end.Rebalances[0]
	assert.Equal(t, 1, r.Number)
	assert.Equal(t, sim.View(rs[0].EndStep).Balance(), r.Balance)
	assert.Equal(t, rs[0].WorstGapMs(), r.WorstGapMs)
	assert.Equal(t, rs[0].TotalGapMs(), r.TotalGapMs)
	assert.Equal(t, []GapGroup{{Ms: 3008, Partitions: []kafka.TP{{Topic: "t0", Partition: 1}}}}, r.Gaps)
	assert.Equal(t, "    3.0 s  t0:1", r.Gaps[0].Text())
	assert.Equal(t, "round 2: generation 3, 12.0–15.0 s", r.Rounds[1].Text(1))
	held, total := sim.View(sim.Len() - 1).Consumed()
	assert.Equal(t, [2]int{held, total}, [2]int{end.Consumed, end.Partitions})
	assert.Equal(t, sim.View(5).TimeMs+1, l.InsertMoment(5))
}

func TestRoundsText(t *testing.T) {
	o := Outcome{Rebalanced: true, Settled: true, SettledMs: 63000, Rounds: []Round{
		{Generation: 4, StartMs: 60000, EndMs: 60000}, {Generation: 5, StartMs: 60000, EndMs: 63000}}}
	assert.Equal(t, "2 rounds: generation 4 (60.0–60.0 s), 5 (60.0–63.0 s); settled at 63.000 s", o.RoundsText())
	o.Rounds, o.Settled = o.Rounds[:1], false
	assert.Equal(t, "1 round: generation 4 (60.0–60.0 s); not settled when the run ends", o.RoundsText())
	assert.Equal(t, "no rebalance", Outcome{}.RoundsText())
}
