package live

import (
	"context"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A KIP-848 group caught mid-reconcile is imported mid-reconcile: c1 is
// held in onPartitionsRevoked, so when c3 joins the group stays
// RECONCILING, with targets that differ from what members own. The import
// carries the epochs and targets; the simulator, run from there, ends with
// the owners the real group ends with once c1 is let go.
func TestMidReconcileGroupIsImportedMidReconcile(t *testing.T) {
	c := livetest.Start(t, 6, "orders")
	release := make(chan struct{})
	var once sync.Once
	var armed atomic.Bool
	let := func() { once.Do(func() { close(release) }) }
	c.Consumer(t, "g", "c1", kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer(),
		kgo.OnPartitionsRevoked(func(context.Context, *kgo.Client, map[string][]int32) {
			if armed.Load() {
				<-release
			}
		}))
	t.Cleanup(let) // runs before c1's own cleanup closes it (c1 revokes on close)
	c.Consumer(t, "g", "c2", kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer())
	c.WaitStable(t, "g", 2)
	armed.Store(true) // from now on c1 holds what it must revoke
	c.Consumer(t, "g", "c3", kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer())

	r := dialTest(t, c)
	var g *Group
	deadline := time.Now().Add(10 * time.Second)
	for {
		var err error
		g, err = r.Group(context.Background(), "g")
		require.NoError(t, err)
		if len(g.Members) == 3 && reconcilingNow(g) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the group never showed a member short of its target: %+v", g)
		}
		time.Sleep(50 * time.Millisecond)
	}
	yml, sc, notes, err := g.Import()
	require.NoError(t, err)
	t.Logf("%s\nnotes: %v", yml, notes)
	require.NotContains(t, strings.Join(notes, "\n"), "starts settled")
	require.Contains(t, string(yml), "target:")
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	require.Contains(t, []kafka.GroupState{kafka.KReconciling, kafka.KAssigning}, sim.Step(0).GroupState)
	end := sim.Step(sim.Len() - 1)
	require.Equal(t, kafka.KStable, end.GroupState)
	predicted := map[string]map[string]string{}
	for _, m := range sc.Members {
		if tps := end.Owned[m.ID]; len(tps) > 0 {
			predicted[m.MemberID] = flat(tps)
		}
	}

	let()
	real := realAssignmentOf(t, c, "g", 3, 6)
	if !maps.EqualFunc(predicted, real, maps.Equal) {
		t.Errorf("predicted %v\nreal      %v", predicted, real)
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}

// reconcilingNow: some member does not hold its target yet.
func reconcilingNow(g *Group) bool {
	for _, m := range g.Members {
		if m.Target != nil && AssignmentString(m.Target) != AssignmentString(m.Assignment) {
			return true
		}
	}
	return false
}

// A describe a coordinator never gives (a member at epoch -2 or 0, or one
// owning partitions outside its target at the target's epoch) imports as
// settled for that member, with a note, never as a broken scenario.
func TestMidReconcileImportOfOddStates(t *testing.T) {
	g := &Group{Group: "g", Type: Consumer, ProtocolType: "consumer", Protocol: "uniform", State: "Reconciling",
		GroupEpoch: ptr(int32(5)), AssignmentEpoch: ptr(int32(4)), RebalanceProtocol: "consumer",
		Topics: map[string]int32{"orders": 4}, Members: []Member{
			{MemberID: "m1", ClientID: "c1", Topics: []string{"orders"}, MemberEpoch: ptr(int32(-2)),
				Assignment: map[string][]int32{"orders": {0}}, Target: map[string][]int32{"orders": {0}}},
			{MemberID: "m2", ClientID: "c2", Topics: []string{"orders"}, MemberEpoch: ptr(int32(4)),
				Assignment: map[string][]int32{"orders": {1, 2}}, Target: map[string][]int32{"orders": {1}}},
			{MemberID: "m3", ClientID: "c3", Topics: []string{"orders"}, MemberEpoch: ptr(int32(3)),
				Assignment: map[string][]int32{"orders": {3}}, Target: map[string][]int32{"orders": {2, 3, 9}, "gone": {0}}},
		}}
	yml, sc, notes, err := g.Import()
	require.NoError(t, err, "%s", yml)
	all := strings.Join(notes, "\n")
	for _, want := range []string{"c1's epoch must be 1..4 (the assignment epoch), got -2 (a static member away", "c2 is at the assignment epoch 4 but owns [orders-2] outside its target",
		`c3's target names the unknown topic "gone"`, "c3's target names orders-9, which does not exist", "may still be revoking"} {
		require.Contains(t, all, want)
	}
	require.EqualValues(t, 4, sc.AssignmentEpoch)
	require.EqualValues(t, 3, sc.Members[2].MemberEpoch)
	require.Equal(t, []kafka.TP{{Topic: "orders", Partition: 2}, {Topic: "orders", Partition: 3}}, sc.Members[2].Target)
	require.Nil(t, sc.Members[1].Target)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	require.Equal(t, kafka.KAssigning, sim.Step(0).GroupState)
}

// The same from a pasted Kafka 4 describe: the second member is at epoch 6
// on its way to target epoch 7 (orders 2 → 2,3); the import starts it
// there and the simulation finishes its reconciliation.
func TestMidReconcileImportFromDescribe(t *testing.T) {
	g, err := ParseDescribe("d.txt", strings.NewReader(describeConsumer4))
	require.NoError(t, err)
	yml, sc, _, err := g.Import()
	require.NoError(t, err, "%s", yml)
	require.Contains(t, string(yml), "member_epoch: 6")
	var late scenario.MemberSpec
	for _, m := range sc.Members {
		if m.MemberID == "Xq9pZ0bnRkW2hCk1d3Yt2A" {
			late = m
		}
	}
	require.EqualValues(t, 6, late.MemberEpoch, "%s", yml)
	require.Equal(t, []kafka.TP{{Topic: "orders", Partition: 2}, {Topic: "orders", Partition: 3}}, late.Target)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	require.Equal(t, kafka.KReconciling, sim.Step(0).GroupState)
	end := sim.Step(sim.Len() - 1)
	require.Equal(t, kafka.KStable, end.GroupState)
	require.Equal(t, []int32{2, 3}, end.Owned[late.ID]["orders"])
}
