package live

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
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
	f, err := sim.Forecast(model.Event{AtMs: 0, Kind: "leave", Member: "c1"})
	require.NoError(t, err)
	require.Equal(t, model.Assignment{"c2": {"orders": {0, 1, 2, 3}}, "c3": {}}, f.Outcome.After)
}
