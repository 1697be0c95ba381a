package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
)

const twoMembers = `topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1, topics: [t0]}
  - {id: c2, topics: [t0]}
timeline:
`

// A leave or crash of a member whose process is not running would send
// nothing: in a scenario file it is an error naming the line.
func TestTimelineLeaveOrCrashOfAStoppedMemberIsALineError(t *testing.T) {
	for _, c := range []struct{ timeline, want string }{
		{"  - {at_ms: 1000, crash: c1}\n  - {at_ms: 2000, leave: c1}\n", "s.yaml:8: leave: c1 is not running at 2000 ms (it left or crashed earlier; restart or join it first)"},
		{"  - {at_ms: 1000, leave: c2}\n  - {at_ms: 2000, crash: c2}\n", "s.yaml:8: crash: c2 is not running at 2000 ms"},
		{"  - {at_ms: 2000, crash: c1}\n  - {at_ms: 1000, leave: c1}\n", "s.yaml:7: crash: c1 is not running at 2000 ms"},
	} {
		_, err := scenario.Parse("s.yaml", []byte(twoMembers+c.timeline))
		require.Error(t, err, c.timeline)
		assert.Contains(t, err.Error(), c.want)
	}
	// Restarted or joined again, it runs.
	for _, ok := range []string{
		"  - {at_ms: 1000, crash: c1}\n  - {at_ms: 1500, restart: c1}\n  - {at_ms: 2000, leave: c1}\n",
		"  - {at_ms: 1000, leave: c1}\n  - {at_ms: 1500, join: {id: c1}}\n  - {at_ms: 2000, crash: c1}\n",
	} {
		_, err := scenario.Parse("s.yaml", []byte(twoMembers+ok))
		assert.NoError(t, err, ok)
	}
}

// Sim.Insert refuses the same with just the fact, and inserts nothing; a
// scenario event that an inserted one made moot does nothing, and says so
// without showing a request.
func TestInsertedLeaveOrCrashOfAStoppedMember(t *testing.T) {
	sim := simYAML(t, "s.yaml", twoMembers+"  - {at_ms: 30000, crash: c2}\n  - {at_ms: 60000, leave: c1}\n")
	for _, kind := range []string{"leave", "crash"} {
		_, err := sim.Insert(scenario.Event{AtMs: 40000, Kind: kind, Member: "c2"})
		require.Error(t, err)
		assert.Equal(t, "c2 is not running", err.Error())
	}
	fork, err := sim.Insert(scenario.Event{AtMs: 40000, Kind: "crash", Member: "c1"})
	require.NoError(t, err)
	moot := steps(fork, "MemberStopped", "c1")
	require.Len(t, moot, 1)
	assert.Equal(t, int64(60000), moot[0].TimeMs)
	assert.Equal(t, "c1 is not running (crashed): the timeline's leave does nothing.", moot[0].Text)
	assert.Empty(t, steps(fork, "LeaveGroupRequest", "c1"), "nothing was sent")

	// The inserted crash is judged once: inserting after it does not judge it again.
	_, err = fork.Insert(scenario.Event{AtMs: 50000, Kind: "restart", Member: "c2"})
	assert.NoError(t, err)
}

// Found by .ci/run's deep TestRandomInserts (rapid seed 17383119014071359533):
// an event inserted at the very millisecond of a timeline leave runs after
// it, when the member is no longer running.
func TestInsertedLeaveAtTheMillisecondOfATimelineLeave(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1, t1: 1}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c1, topics: [t0], instance: ic1}
timeline:
  - {at_ms: 12, join: {id: c2, topics: [t0]}}
  - {at_ms: 13, leave: c1}
  - {at_ms: 15, restart: c1}
`)
	_, err := sim.Insert(scenario.Event{AtMs: 13, Kind: "leave", Member: "c1"})
	require.Error(t, err)
	assert.Equal(t, "c1 is not running", err.Error())
	_, err = sim.Insert(scenario.Event{AtMs: 16, Kind: "leave", Member: "c1"})
	assert.NoError(t, err)
}
