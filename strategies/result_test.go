package strategies

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestBalanceOf(t *testing.T) {
	members := []Member{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	a := Assignment{"a": {"t0": {0, 1}, "t1": {0}}, "b": {"t0": {2}}}
	b := a.BalanceOf(members)
	assert.Equal(t, Balance{Min: 0, Max: 3}, b, "c gets nothing and counts as 0")
	assert.False(t, b.Even())
	assert.True(t, Assignment{"a": {"t0": {0}}, "b": {}}.BalanceOf(members[:2]).Even())
	assert.Equal(t, Balance{Min: 2, Max: 2}, Assignment{"a": {"t0": {0, 1}}}.BalanceOf(members[:1]))
}

func TestMovedCases(t *testing.T) {
	tp := func(p int32) TopicPartition { return TopicPartition{Topic: "t0", Partition: p} }
	g := Group{Topics: map[string]int32{"t0": 4}, Members: []Member{
		{ID: "a", Owned: []TopicPartition{tp(0), tp(1), tp(7), {Topic: "gone", Partition: 0}}},
		{ID: "b", Owned: []TopicPartition{tp(1), tp(2)}},
		{ID: "c"},
	}}
	// t0-0 stays with a; t0-1, claimed by a and b, stays with b; t0-2
	// leaves b for c; t0-7 and gone-0 do not exist; t0-3 was nobody's.
	a := Assignment{"a": {"t0": {0}}, "b": {"t0": {1}}, "c": {"t0": {2, 3}}}
	owned, moved := Moved(g, a)
	assert.Equal(t, 3, owned)
	assert.Equal(t, 1, moved)
	// withheld (in nobody's list) counts as moved: it leaves its owner
	owned, moved = Moved(g, Assignment{"a": {"t0": {0}}, "b": {"t0": {1}}, "c": {}})
	assert.Equal(t, [2]int{3, 1}, [2]int{owned, moved})
	owned, moved = Moved(Group{Topics: g.Topics, Members: []Member{{ID: "c"}}}, Assignment{"c": {"t0": {0}}})
	assert.Equal(t, [2]int{0, 0}, [2]int{owned, moved})
}

// Moved is the plain definition, counted with a map per partition: of the
// existing partitions anyone claims, those whose new owner claimed none of
// them.
func TestMovedIsTheDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		topics := map[string]int32{"t0": rapid.Int32Range(1, 6).Draw(t, "t0"), "t1": rapid.Int32Range(0, 3).Draw(t, "t1")}
		n := rapid.IntRange(1, 4).Draw(t, "members")
		g := Group{Topics: topics}
		a := Assignment{}
		for i := range n {
			m := Member{ID: fmt.Sprintf("m%d", i)}
			a[m.ID] = map[string][]int32{}
			for _, topic := range []string{"t0", "t1", "gone"} {
				for p := range int32(7) {
					if rapid.IntRange(0, 3).Draw(t, "own") == 0 {
						m.Owned = append(m.Owned, TopicPartition{Topic: topic, Partition: p})
					}
				}
			}
			g.Members = append(g.Members, m)
		}
		for _, topic := range []string{"t0", "t1"} {
			for p := range topics[topic] {
				if who := rapid.IntRange(-1, n-1).Draw(t, "to"); who >= 0 { // -1: withheld
					a.Add(fmt.Sprintf("m%d", who), TopicPartition{Topic: topic, Partition: p})
				}
			}
		}
		claimers := map[TopicPartition]map[string]bool{}
		for _, m := range g.Members {
			for _, tp := range m.Owned {
				if tp.Partition < topics[tp.Topic] {
					if claimers[tp] == nil {
						claimers[tp] = map[string]bool{}
					}
					claimers[tp][m.ID] = true
				}
			}
		}
		owner := a.Owner()
		wantMoved := 0
		for tp, by := range claimers {
			if !by[owner[tp]] {
				wantMoved++
			}
		}
		owned, moved := Moved(g, a)
		if owned != len(claimers) || moved != wantMoved {
			t.Fatalf("Moved = %d of %d, want %d of %d", moved, owned, wantMoved, len(claimers))
		}
	})
}
