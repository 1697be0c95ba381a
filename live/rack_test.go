package live

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model/scenario"
)

// franz-go puts client.rack (kgo.Rack) in its classic subscription
// (ConsumerProtocolSubscription rack_id, for KIP-881 leaders) and in its
// KIP-848 heartbeat (RackId); kviz reads it and the import carries it as
// the member's rack.
func TestMemberRacksAreImported(t *testing.T) {
	for _, tc := range []struct {
		name  string
		group string
		opt   kgo.Opt
	}{
		{"classic", "g-classic", kgo.Balancers(kgo.RangeBalancer())},
		{"consumer", "g-consumer", kgo.ServerSideBalancer()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := livetest.Start(t, 4, "orders")
			racks := map[string]string{"c1": "rack-a", "c2": "rack-b"}
			for id, rack := range racks {
				c.Consumer(t, tc.group, id, kgo.ConsumeTopics("orders"), tc.opt, kgo.Rack(rack))
			}
			c.WaitStable(t, tc.group, 2)
			r := dialTest(t, c)
			g, err := r.Group(context.Background(), tc.group)
			require.NoError(t, err)
			for _, m := range g.Members {
				require.NotNil(t, m.Rack, "member %s", m.ClientID)
				require.Equal(t, racks[m.ClientID], *m.Rack)
			}
			yml, sc, _, err := g.Import()
			require.NoError(t, err)
			for _, m := range sc.Members {
				require.Equal(t, racks[m.ID], m.Rack, "%s", yml)
			}
			// the file says so, and reads back the same
			again, err := scenario.Parse("again.yaml", yml)
			require.NoError(t, err)
			for i, m := range again.Members {
				require.Equal(t, sc.Members[i].Rack, m.Rack)
			}
			require.Contains(t, string(yml), "rack: rack-a")
			if sc.BrokerRacks != nil { // kfake gives its brokers a rack: the real replicas come along
				require.Len(t, sc.Replicas["orders"], 4, "%s", yml)
			}
		})
	}
}

// Brokers' racks become cluster.racks, in broker id order, when every
// broker has one; a cluster where some broker has none gives none (the
// scenario, like Kafka's rack-aware placement, takes all or none).
func TestBrokerRacksAreImportedAllOrNone(t *testing.T) {
	a, b := "a", "b"
	g := &Group{Group: "g", Type: Classic, ProtocolType: "consumer", Protocol: "range", State: "Stable",
		RebalanceProtocol: "eager", Topics: map[string]int32{"orders": 4}, Brokers: 2,
		BrokerRacks: []BrokerRack{{ID: 1, Rack: &a}, {ID: 7, Rack: &b}}, Members: []Member{
			{MemberID: "c1-aa", ClientID: "c1", Rack: &a, Topics: []string{"orders"}, Assignment: map[string][]int32{"orders": {0, 1, 2, 3}}},
		}}
	g.Replicas = map[string][][]int32{"orders": {{1, 7}, {7, 1}, {7, 3}, {3}}} // broker 3 is down: Metadata does not list it
	_, sc, notes, err := g.Import()
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, sc.BrokerRacks)
	require.Nil(t, sc.Replicas, "a partition with every replica down: kviz places the topic")
	require.Contains(t, strings.Join(notes, "\n"), "orders has a partition whose replicas are all on brokers that are down")
	g.Replicas["orders"][3] = []int32{1, 3}
	yml, sc, _, err := g.Import()
	require.NoError(t, err)
	require.Equal(t, map[string][][]int{"orders": {{0, 1}, {1, 0}, {1}, {0}}}, sc.Replicas, "brokers numbered by id order, as cluster.racks")
	require.Contains(t, string(yml), "replicas:")
	g.BrokerRacks[1].Rack = nil
	_, sc, notes, err = g.Import()
	require.NoError(t, err)
	require.Nil(t, sc.BrokerRacks)
	require.Nil(t, sc.Replicas, "without broker racks the replicas change no assignment")
	require.Contains(t, strings.Join(notes, "\n"), "broker 7 has no rack")
}
