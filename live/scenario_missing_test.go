package live

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A member subscribed to a topic that no longer exists stays in the import
// with that subscription, as Kafka keeps it in the group: its assignors
// give nothing of a missing topic, and a member that only subscribes to
// one still counts (it is sorted and hashed with the others).
func TestImportKeepsSubscriptionsToMissingTopics(t *testing.T) {
	g := &Group{Group: "g", Type: Classic, ProtocolType: "consumer", Protocol: "range", State: "Stable",
		RebalanceProtocol: "eager", Topics: map[string]int32{"orders": 4}, Members: []Member{
			{MemberID: "c1-aa", ClientID: "c1", Topics: []string{"orders", "gone"}, Assignment: map[string][]int32{"orders": {0, 1}}},
			{MemberID: "c2-bb", ClientID: "c2", Topics: []string{"orders"}, Assignment: map[string][]int32{"orders": {2, 3}}},
			{MemberID: "c3-cc", ClientID: "c3", Topics: []string{"gone"}},
		}}
	yaml, sc, notes, err := g.Import()
	require.NoError(t, err, "%s", yaml)
	require.Len(t, sc.Members, 3, "%s", yaml)
	require.Equal(t, []string{"gone", "orders"}, slices.Sorted(slices.Values(sc.Members[0].Topics)))
	require.True(t, strings.Contains(strings.Join(notes, "\n"), "gone, which does not exist (kept"), notes)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	f, err := sim.Forecast(scenario.Event{AtMs: 0, Kind: "leave", Member: "c1"})
	require.NoError(t, err)
	require.Equal(t, kafka.Assignment{"c2": {"orders": {0, 1, 2, 3}}, "c3": {}}, f.Outcome.After.Assignment())
}

// Partitions of a deleted topic a classic member still owns (and
// subscribes to) stay in the import: the simulator has the leader rebalance
// at its metadata refresh and the owner revoke them, as Kafka does. Those
// of a topic it no longer subscribes to are left out (it revokes them
// before it joins again).
func TestImportKeepsOwnedPartitionsOfDeletedTopics(t *testing.T) {
	g := &Group{Group: "g", Type: Classic, ProtocolType: "consumer", Protocol: "cooperative-sticky", State: "Stable",
		RebalanceProtocol: "cooperative", Topics: map[string]int32{"orders": 4}, Members: []Member{
			{MemberID: "c1-aa", ClientID: "c1", Topics: []string{"gone", "orders"}, Assignment: map[string][]int32{"orders": {0, 1}, "gone": {0}, "old": {2}}},
			{MemberID: "c2-bb", ClientID: "c2", Topics: []string{"orders"}, Assignment: map[string][]int32{"orders": {2, 3}}},
		}}
	yaml, sc, notes, err := g.Import()
	require.NoError(t, err, "%s", yaml)
	require.Equal(t, []kafka.TP{{Topic: "gone", Partition: 0}, {Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}, sc.Members[0].Owned)
	all := strings.Join(notes, "\n")
	require.Contains(t, all, "c1 owns partitions of gone, which no longer exists (kept")
	require.Contains(t, all, "c1 owns partitions of old, which no longer exists and it no longer subscribes to (left out")
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	end := sim.Step(sim.Len() - 1)
	require.Equal(t, map[string][]int32{"orders": {0, 1}}, end.Owned["c1"], "gone-0 revoked at the leader's rebalance")
}
