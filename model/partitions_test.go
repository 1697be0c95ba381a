package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func ordersTPs(ps ...int32) []kafka.TP {
	var out []kafka.TP
	for _, p := range ps {
		out = append(out, kafka.TP{Topic: "orders", Partition: p})
	}
	return out
}

func TestMemberTags(t *testing.T) {
	cases := []struct {
		m   MemberView
		tag kafka.MemberTag
		bad bool
	}{
		{MemberView{Status: kafka.StatusCrashed}, kafka.TagCrashed, true},
		{MemberView{Status: kafka.StatusActive, IsLeader: true, Owned: ordersTPs(1)}, kafka.TagLeader, false},
		{MemberView{Status: kafka.StatusActive, IsLeader: true}, kafka.TagIdle, false},
		{MemberView{Status: kafka.StatusActive, Owned: ordersTPs(1)}, kafka.TagNone, false},
		{MemberView{Status: kafka.StatusStalled, Owned: ordersTPs(1)}, kafka.TagStalled, true},
		{MemberView{Status: kafka.StatusActive, Pending: ordersTPs(1)}, kafka.TagWaiting, false},
		{MemberView{Status: kafka.StatusRejoining, Owned: ordersTPs(1)}, kafka.TagRejoining, false},
		{MemberView{Status: kafka.StatusActive, MemberState: kafka.MUnrevoked, Owned: ordersTPs(1)}, kafka.TagUnrevoked, false},
		// Revoking kept after the callback returned: nothing held, idle
		{MemberView{Status: kafka.StatusActive, Revoking: ordersTPs(1)}, kafka.TagIdle, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.tag, c.m.Tag(), "%+v", c.m)
		assert.Equal(t, c.bad, c.m.Tag().Problem(), c.tag)
	}
}

// One view with every kind of partition: the members' answers and the
// partitions' agree.
func TestPartitionStates(t *testing.T) {
	v := &GroupView{Topics: []TopicView{{Name: "orders", Partitions: 6}}, Members: []MemberView{
		// classic, inside onPartitionsRevoked: holds 0 and 1, gives up 1
		{ID: "c1", Status: kafka.StatusRejoining, Owned: ordersTPs(0, 1), Revoking: ordersTPs(1)},
		// KIP-848 mid-reconciliation: must still revoke 2 (no longer in Owned)
		{ID: "c2", Status: kafka.StatusActive, MemberState: kafka.MUnrevoked, Owned: ordersTPs(3), Revoking: ordersTPs(2)},
		// waiting for 2 to be released, and for 4 (withheld)
		{ID: "c3", Status: kafka.StatusActive, MemberState: kafka.MUnreleased, Pending: ordersTPs(2, 4)},
		// crashed: its view is history
		{ID: "c4", Status: kafka.StatusCrashed, Owned: ordersTPs(5)},
	}}
	assert.Equal(t, ordersTPs(0), v.Members[0].Consumes())
	assert.Equal(t, ordersTPs(1), v.Members[0].Revokes())
	assert.Equal(t, ordersTPs(2), v.Members[1].Revokes())
	assert.Equal(t, ordersTPs(2, 4), v.Members[2].WaitsFor())
	assert.Equal(t, kafka.PartitionRevoking, v.Members[1].StateOf(kafka.TP{Topic: "orders", Partition: 2}))
	assert.Equal(t, kafka.PartitionNobody, v.Members[3].StateOf(kafka.TP{Topic: "orders", Partition: 5}))
	want := []PartitionView{
		{State: kafka.PartitionConsumed, Member: "c1"},
		{State: kafka.PartitionRevoking, Member: "c1"},
		{State: kafka.PartitionRevoking, Member: "c2", Waiter: "c3"},
		{State: kafka.PartitionConsumed, Member: "c2"},
		{State: kafka.PartitionWaiting, Waiter: "c3"},
		{State: kafka.PartitionNobody},
	}
	assert.Equal(t, [][]PartitionView{want}, v.Partitions())
	held, total := v.Consumed()
	assert.Equal(t, [2]int{2, 6}, [2]int{held, total})
}

// At every step of every shipped demo, the partitions' states, the
// members' answers, "consumed", the balance and the owners a rebalance
// diffs are one answer.
func TestPartitionStatesAgreeEveryDemoStep(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		require.NoError(t, err)
		sim, err := Simulate(sc)
		require.NoError(t, err)
		for i := range sim.Len() {
			v := sim.View(i)
			consumed, total := 0, 0
			owners := ownersOf(v)
			for ti, ps := range v.Partitions() {
				total += len(ps)
				for p, pv := range ps {
					tp := kafka.TP{Topic: v.Topics[ti].Name, Partition: int32(p)}
					if pv.State == kafka.PartitionConsumed {
						consumed++
						require.Equal(t, pv.Member, owners[tp], "%s step %d %s", name, i, tp)
					} else {
						require.NotContains(t, owners, tp, "%s step %d %s", name, i, tp)
					}
					if pv.Member != "" {
						require.Equal(t, pv.State, memberByID(v, pv.Member).StateOf(tp), "%s step %d %s", name, i, tp)
					}
				}
			}
			held, all := v.Consumed()
			require.Equal(t, [2]int{consumed, total}, [2]int{held, all}, "%s step %d", name, i)
		}
	}
}

func memberByID(v *GroupView, id string) *MemberView {
	for i := range v.Members {
		if v.Members[i].ID == id {
			return &v.Members[i]
		}
	}
	return nil
}
