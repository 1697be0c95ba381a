package cluster

import (
	"slices"
	"testing"

	"github.com/kvizlab/kviz/strategies"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Seed example 18: brokers 0..4, RF 3, start index 0, shift 0; the first
// replica is the preferred leader and, on a healthy cluster, the leader.
func TestSeedExample18Placement(t *testing.T) {
	c, err := NewNumbered(5)
	require.NoError(t, err)
	require.NoError(t, c.CreateTopic("t", 10, 3, 0, 0))
	parts, err := c.Partitions("t")
	require.NoError(t, err)
	want := [][]int{{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 0}, {4, 0, 1}, {0, 2, 3}, {1, 3, 4}, {2, 4, 0}, {3, 0, 1}, {4, 1, 2}}
	for p, part := range parts {
		assert.Equal(t, want[p], part.Replicas, "p%d", p)
		assert.Equal(t, want[p][0], part.Leader)
		assert.Equal(t, want[p], part.ISR)
	}
}

func TestFailoverMovesLeaderToNextInSyncReplica(t *testing.T) {
	c, _ := NewNumbered(5)
	require.NoError(t, c.CreateTopic("t", 10, 3, 0, 0))
	changes, err := c.FailBroker(0)
	require.NoError(t, err)
	// Broker 0 led p0 [0,1,2] and p5 [0,2,3]: next in assignment order.
	assert.Equal(t, []LeaderChange{{"t", 0, 0, 1}, {"t", 5, 0, 2}}, changes)
	parts, _ := c.Partitions("t")
	assert.Equal(t, []int{1, 2}, parts[0].ISR)
	assert.Equal(t, []int{4, 1}, parts[4].ISR, "a follower leaves the ISR too")
	assert.Equal(t, 1, parts[0].LeaderEpoch)

	layout, _ := c.Layout("t")
	assert.Len(t, layout.Available, 10, "every partition still has a leader")

	changes, _ = c.RecoverBroker(0)
	assert.Empty(t, changes, "leaders stay until a preferred leader election")
	parts, _ = c.Partitions("t")
	assert.Equal(t, []int{0, 1, 2}, parts[0].ISR)
	assert.Equal(t, []LeaderChange{{"t", 0, 1, 0}, {"t", 5, 2, 0}}, c.PreferredLeaderElection())
}

func TestOfflineUntilLastInSyncReplicaReturns(t *testing.T) {
	c, _ := NewNumbered(2)
	require.NoError(t, c.CreateTopicWithAssignment("t", [][]int{{0, 1}}))
	_, _ = c.FailBroker(0)
	ch, _ := c.FailBroker(1)
	assert.Equal(t, []LeaderChange{{"t", 0, 1, NoLeader}}, ch)
	parts, _ := c.Partitions("t")
	assert.Equal(t, []int{1}, parts[0].ISR, "the last ISR member stays in the ISR")
	layout, _ := c.Layout("t")
	assert.Empty(t, layout.Available)
	assert.Equal(t, 1, layout.Partitions)

	ch, _ = c.RecoverBroker(0)
	assert.Empty(t, ch, "broker 0 was not in the ISR: no clean leader")
	ch, _ = c.RecoverBroker(1)
	assert.Equal(t, []LeaderChange{{"t", 0, NoLeader, 1}}, ch)
}

func TestUncleanElection(t *testing.T) {
	c, _ := NewNumbered(2)
	c.UncleanLeaderElection = true
	require.NoError(t, c.CreateTopicWithAssignment("t", [][]int{{0, 1}}))
	_, _ = c.FailBroker(0)
	_, _ = c.FailBroker(1)
	ch, _ := c.RecoverBroker(0)
	assert.Equal(t, []LeaderChange{{"t", 0, NoLeader, 0}}, ch)
}

// Seed example 14 on a cluster: "my-group" is on __consumer_offsets 12; when
// its leader fails the coordinator moves.
func TestCoordinatorMovesWhenItsLeaderFails(t *testing.T) {
	c, _ := NewNumbered(5)
	_, err := c.CoordinatorFor("my-group")
	assert.ErrorContains(t, err, "COORDINATOR_NOT_AVAILABLE")
	require.NoError(t, c.CreateOffsetsTopic(50, 3, 0, 0))
	co, err := c.CoordinatorFor("my-group")
	require.NoError(t, err)
	assert.Equal(t, Coordinator{Partition: 12, Broker: 2, Replicas: []int{2, 0, 1}}, co)

	changes, _ := c.FailBroker(2)
	move, ok := c.CoordinatorMove("my-group", changes)
	require.True(t, ok)
	assert.Equal(t, LeaderChange{OffsetsTopic, 12, 2, 0}, move)
	co, _ = c.CoordinatorFor("my-group")
	assert.Equal(t, 0, co.Broker)

	changes, _ = c.FailBroker(4)
	_, ok = c.CoordinatorMove("my-group", changes)
	assert.False(t, ok, "broker 4 did not lead partition 12")
}

func TestClusterBadInput(t *testing.T) {
	_, err := New(nil)
	assert.Error(t, err)
	_, err = New([]strategies.BrokerRack{{ID: 1}, {ID: 1}})
	assert.ErrorContains(t, err, "twice")
	c, _ := NewNumbered(3)
	assert.ErrorContains(t, c.CreateTopic("t", 3, 4, 0, 0), "larger than")
	require.NoError(t, c.CreateTopic("t", 3, 1, 0, 0))
	assert.ErrorContains(t, c.CreateTopic("t", 3, 1, 0, 0), "already exists")
	assert.ErrorContains(t, c.CreateTopicWithAssignment("u", [][]int{{0, 0}}), "two replicas")
	assert.ErrorContains(t, c.CreateTopicWithAssignment("u", [][]int{{7}}), "unknown broker 7")
	_, err = c.FailBroker(9)
	assert.Error(t, err)
	_, _ = c.FailBroker(1)
	_, err = c.FailBroker(1)
	assert.ErrorContains(t, err, "already down")
	_, err = c.Leader("t", 3)
	assert.Error(t, err)
}

// Property: through any failures and recoveries, a leader is always a live
// ISR member, the ISR is never empty, and the leader is NoLeader only when
// no ISR member is alive.
func TestFailoverInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "brokers")
		c, _ := NewNumbered(n)
		rf := rapid.IntRange(1, n).Draw(t, "rf")
		if err := c.CreateTopic("t", rapid.IntRange(1, 12).Draw(t, "partitions"), rf, 0, 0); err != nil {
			t.Fatal(err)
		}
		for _, id := range rapid.SliceOfN(rapid.IntRange(0, n-1), 0, 30).Draw(t, "toggles") {
			if c.brokers[id].Alive {
				_, _ = c.FailBroker(id)
			} else {
				_, _ = c.RecoverBroker(id)
			}
			parts, _ := c.Partitions("t")
			for i, p := range parts {
				if len(p.ISR) == 0 {
					t.Fatalf("p%d: empty ISR", i)
				}
				anyAlive := false
				for _, r := range p.ISR {
					anyAlive = anyAlive || c.brokers[r].Alive
				}
				if p.Leader == NoLeader && anyAlive {
					t.Fatalf("p%d offline with a live ISR member %v", i, p.ISR)
				}
				if p.Leader != NoLeader && !c.brokers[p.Leader].Alive {
					t.Fatalf("p%d led by dead broker %d", i, p.Leader)
				}
				if p.Leader != NoLeader && !slices.Equal(p.ISR, c.liveReplicas(&p)) {
					t.Fatalf("p%d has a leader but ISR %v is not its live replicas", i, p.ISR)
				}
			}
		}
	})
}

// Growing a topic continues AdminUtils' walk from the current count with the
// shift starting again at the start index, so partitions 6..11 are not what
// a fresh 12-partition topic would get (p6 there is [0 1]).
func TestAddPartitionsContinuesTheWalk(t *testing.T) {
	c, _ := NewNumbered(3)
	require.NoError(t, c.CreateTopic("t", 6, 2, 0, 0))
	require.NoError(t, c.AddPartitions("t", 12))
	parts, _ := c.Partitions("t")
	var got [][]int
	for _, p := range parts[6:] {
		got = append(got, p.Replicas)
		assert.Equal(t, p.Replicas[0], p.Leader)
	}
	assert.Equal(t, [][]int{{0, 2}, {1, 0}, {2, 1}, {0, 1}, {1, 2}, {2, 0}}, got)
	layout, _ := c.Layout("t")
	assert.Equal(t, 12, layout.Partitions)
	assert.ErrorContains(t, c.AddPartitions("t", 12), "not be an increase")
}

// A broker that returns while its partition is offline cannot lead it (it
// was not in the last ISR) and has no leader to follow; once the last ISR
// member returns, it follows and rejoins the ISR, so it can lead after a
// later failure.
func TestReturnedReplicaRejoinsWhenPartitionIsBackOnline(t *testing.T) {
	c, _ := NewNumbered(2)
	require.NoError(t, c.CreateTopicWithAssignment("t", [][]int{{0, 1}}))
	_, _ = c.FailBroker(0)
	_, _ = c.FailBroker(1)
	_, _ = c.RecoverBroker(0)
	parts, _ := c.Partitions("t")
	assert.Equal(t, []int{1}, parts[0].ISR, "offline: broker 0 has no leader to catch up from")
	_, _ = c.RecoverBroker(1)
	parts, _ = c.Partitions("t")
	assert.Equal(t, []int{0, 1}, parts[0].ISR)
	assert.Equal(t, 1, parts[0].Leader)
	ch, _ := c.FailBroker(1)
	assert.Equal(t, []LeaderChange{{"t", 0, 1, 0}}, ch)
}
