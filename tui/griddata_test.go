package tui

import (
	"testing"

	"pgregory.net/rapid"
)

// A sparse row answers as the dense row it stands for: every cell, every
// run of partitions a condensed column reads, and renew.
func TestSparseRowAnswersAsADenseOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := rapid.SliceOfN(rapid.IntRange(1, 40), 1, 5).Draw(t, "partitions")
		dense := make([][]cellState, len(sizes))
		for ti, n := range sizes {
			dense[ti] = make([]cellState, n)
		}
		var m gridMember
		for range rapid.IntRange(0, 120).Draw(t, "sets") {
			ti := rapid.IntRange(0, len(sizes)-1).Draw(t, "topic")
			p := rapid.IntRange(0, sizes[ti]-1).Draw(t, "partition")
			st := cellState(rapid.IntRange(0, 4).Draw(t, "state"))
			if rapid.IntRange(0, 5).Draw(t, "renew") == 0 {
				was := dense[ti][p] == cellOwned
				if was {
					dense[ti][p] = cellNew
				}
				if got := m.renew(ti, p); got != was {
					t.Fatalf("renew(%d, %d) = %v, want %v", ti, p, got, was)
				}
				continue
			}
			dense[ti][p] = st
			m.setCell(ti, p, st)
		}
		for ti, n := range sizes {
			for p := range n {
				if got := m.cell(ti, p); got != dense[ti][p] {
					t.Fatalf("cell(%d, %d) = %d, want %d", ti, p, got, dense[ti][p])
				}
			}
			lo := rapid.IntRange(0, n-1).Draw(t, "lo")
			hi := rapid.IntRange(lo+1, n).Draw(t, "hi")
			want := map[int]cellState{}
			for p := lo; p < hi; p++ {
				if dense[ti][p] != cellEmpty {
					want[p] = dense[ti][p]
				}
			}
			got := map[int]cellState{}
			for _, c := range m.cellsIn(ti, lo, hi) {
				if int(c.Topic) != ti || int(c.Partition) < lo || int(c.Partition) >= hi {
					t.Fatalf("cellsIn(%d, %d, %d) gave %+v", ti, lo, hi, c)
				}
				if c.State != cellEmpty {
					got[int(c.Partition)] = c.State
				}
			}
			if len(got) != len(want) {
				t.Fatalf("cellsIn(%d, %d, %d) = %v, want %v", ti, lo, hi, got, want)
			}
			for p, st := range want {
				if got[p] != st {
					t.Fatalf("cellsIn(%d, %d, %d) = %v, want %v", ti, lo, hi, got, want)
				}
			}
		}
	})
}
