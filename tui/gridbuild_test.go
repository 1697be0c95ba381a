package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

func tps(ps ...int32) []kafka.TP {
	var out []kafka.TP
	for _, p := range ps {
		out = append(out, tp("orders", p))
	}
	return out
}

func oneView(members ...model.MemberView) *model.GroupView {
	return &model.GroupView{Topics: []model.TopicView{{Name: "orders", Partitions: 4}}, Members: members}
}

// The view keeps Revoking and NewlyAssigned after the fact; the grid draws
// them only where they are still true.
func TestCellsFromTheView(t *testing.T) {
	info := &simInfo{letters: map[string]int{"c1": 0, "c2": 1, "c3": 2}, ledger: model.NewLedger(newFakeSim(fakeScenario()))}
	v := oneView(
		// classic, after an eager revoke: nothing owned, Revoking is history
		model.MemberView{ID: "c1", Status: kafka.StatusRejoining, Revoking: tps(0, 1), NewlyAssigned: tps(0, 1)},
		// KIP-848 mid-reconciliation: must still revoke 2; fetching it is paused
		model.MemberView{ID: "c2", Status: kafka.StatusActive, MemberState: "UNREVOKED_PARTITIONS", Owned: tps(3), Revoking: tps(2)},
		// waiting for 2 to be released
		model.MemberView{ID: "c3", Status: kafka.StatusActive, MemberState: "UNRELEASED_PARTITIONS", Pending: tps(2), NewlyAssigned: tps(3)},
	)
	g := buildGrid(v, info, 0, "c2", map[string]bool{"c3": true})
	assert.Equal(t, []cellState{cellEmpty, cellEmpty, cellEmpty, cellEmpty}, denseRow(g, g.row(0), 0), "c1 holds nothing")
	assert.Equal(t, []cellState{cellEmpty, cellEmpty, cellRevoking, cellOwned}, denseRow(g, g.row(1), 0))
	assert.Equal(t, []cellState{cellEmpty, cellEmpty, cellPending, cellEmpty}, denseRow(g, g.row(2), 0), "new only where held")
	// The status row is the model's answer: a partition being revoked has
	// no consumer (the numbers pane's "consumed" says the same).
	assert.Equal(t, []bool{true, true, true, false}, g.Topics[0].Unowned)
	assert.Equal(t, 1, g.Selected)
	assert.Equal(t, []string{"rejoining", "unrevoked", "unreleased"}, []string{g.Members[0].Tag, g.Members[1].Tag, g.Members[2].Tag})
	assert.Equal(t, "A", g.Members[0].Letter)
}

func TestGapLinesGroupAndCompress(t *testing.T) {
	rows := []model.RebalanceRow{{Gaps: []model.GapGroup{
		{Ms: 42000, Partitions: []kafka.TP{tp("orders", 4)}},
		{Ms: 4, Partitions: []kafka.TP{tp("orders", 0), tp("orders", 1), tp("orders", 2), tp("orders", 5), tp("pay", 0)}},
	}}}
	texts := &numbersTexts{gapLines: map[int][]string{}}
	assert.Equal(t, []string{"     42.0 s  orders:4", "       4 ms  orders:0–2,5; pay:0"}, texts.gaps(rows, 0))
}
