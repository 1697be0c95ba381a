package strategies

import "slices"

// What an assignment did to a group, as `kviz assign` reports it: how even
// it is and how many owned partitions changed owner.

// Balance is the fewest and most partitions a member gets.
type Balance struct{ Min, Max int }

// Even reports whether the counts differ by at most one: Kafka's balance
// criterion (AbstractStickyAssignor.isBalanced, the uniform assignor's).
func (b Balance) Even() bool { return b.Max-b.Min <= 1 }

// BalanceOf is the fewest and most partitions the assignment gives a member
// of members (a member it gives nothing counts as 0).
func (a Assignment) BalanceOf(members []Member) Balance {
	var b Balance
	for i, m := range members {
		n := a.Count(m.ID)
		if i == 0 {
			b = Balance{n, n}
		}
		b.Min, b.Max = min(b.Min, n), max(b.Max, n)
	}
	return b
}

// Moved counts the existing partitions some member of g reported owning
// (owned) and those of them whose new owner in a is none of the members that
// claimed them (moved): a partition withheld this round counts, since it
// leaves its owner. A partition claimed by two members stays when either
// keeps it; an owned partition that does not exist (any more) cannot change
// owner and counts in neither. One byte per partition and no map per
// partition: a million owned partitions cost milliseconds.
func Moved(g Group, a Assignment) (owned, moved int) {
	const (
		unclaimed = iota
		left
		stayed
	)
	state := make(map[string][]uint8)
	for _, m := range g.Members {
		for _, tp := range m.Owned {
			if tp.Partition < 0 || tp.Partition >= g.Topics[tp.Topic] {
				continue
			}
			st := state[tp.Topic]
			if st == nil {
				st = make([]uint8, g.Topics[tp.Topic])
				state[tp.Topic] = st
			}
			if _, kept := slices.BinarySearch(a[m.ID][tp.Topic], tp.Partition); kept {
				st[tp.Partition] = stayed
			} else if st[tp.Partition] == unclaimed {
				st[tp.Partition] = left
			}
		}
	}
	for _, st := range state {
		for _, s := range st {
			if s != unclaimed {
				owned++
			}
			if s == left {
				moved++
			}
		}
	}
	return owned, moved
}
