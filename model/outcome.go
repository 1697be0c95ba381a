package model

import (
	"slices"
	"strings"
)

// Move is one partition whose consumer differs between two moments of a
// run: From consumed it at the first, To at the second ("" = nobody).
type Move struct {
	Topic     string
	Partition int32
	From, To  string
}

// Taken reports whether the move took the partition from a member: the one
// meaning of "moved" (a partition that only gains its first consumer, such
// as a new one, is a move but was not taken from anyone).
func (m Move) Taken() bool { return m.From != "" }

// Round is one generation of a rebalance (KIP-848: one group epoch): from
// the join phase (epoch bump) that starts it to the group's Stable at that
// generation (the next bump, or the rebalance's end).
type Round struct {
	StartStep, EndStep int
	StartMs, EndMs     int64
	Generation         int32
}

// Owners maps each partition consumed at a moment to its consumer's id.
type Owners map[TP]string

// Diff lists the partitions whose consumer differs from before to after, in
// partition order (topic, then number).
func Diff(before, after Owners) []Move {
	var out []Move
	for tp, from := range before {
		if after[tp] != from {
			out = append(out, Move{Topic: tp.Topic, Partition: tp.Partition, From: from, To: after[tp]})
		}
	}
	for tp, to := range after {
		if _, had := before[tp]; !had {
			out = append(out, Move{Topic: tp.Topic, Partition: tp.Partition, To: to})
		}
	}
	slices.SortFunc(out, func(a, b Move) int {
		return cmpTP(TP{Topic: a.Topic, Partition: a.Partition}, TP{Topic: b.Topic, Partition: b.Partition})
	})
	return out
}

// Taken counts the moves that took a partition from a member.
func Taken(moves []Move) int {
	n := 0
	for _, m := range moves {
		if m.Taken() {
			n++
		}
	}
	return n
}

// Assignment is who consumes what, by member id, as the JSON twins print it
// (partitions ascending; members that consume nothing are listed empty).
type Assignment map[string]map[string][]int32

// assignmentOf turns owners into an Assignment, listing every member of ids.
func assignmentOf(o Owners, ids []string) Assignment {
	out := Assignment{}
	for _, id := range ids {
		out[id] = map[string][]int32{}
	}
	byMember := map[string][]TP{}
	for tp, id := range o {
		byMember[id] = append(byMember[id], tp)
	}
	for id, tps := range byMember {
		out[id] = asMap(sortTPs(tps))
	}
	return out
}

// ownersOf is who consumes what in a view: what each consuming member holds
// less what its revoke or lost callback is giving up (consumedBy, the rule
// the rebalance scan follows).
func ownersOf(v *GroupView) Owners {
	out := Owners{}
	for i := range v.Members {
		for _, tp := range consumedBy(&v.Members[i]) {
			out[tp] = v.Members[i].ID
		}
	}
	return out
}

// liveIDs are the members still in the group at a view, sorted.
func liveIDs(v *GroupView) []string {
	var out []string
	for _, m := range v.Members {
		if live(m.Status) {
			out = append(out, m.ID)
		}
	}
	slices.SortFunc(out, strings.Compare)
	return slices.Compact(out)
}

// live: a member that has not crashed, left or been fenced.
func live(status string) bool {
	switch status {
	case StatusCrashed, StatusLeft, StatusFenced:
		return false
	}
	return true
}

// Balance is the fewest and most partitions a live member consumes.
type Balance struct{ Min, Max int }

func balanceOf(v *GroupView) Balance {
	o := ownersOf(v)
	count := map[string]int{}
	for _, id := range o {
		count[id]++
	}
	var b Balance
	first := true
	for _, id := range liveIDs(v) {
		n := count[id]
		if first {
			b, first = Balance{n, n}, false
		}
		b.Min, b.Max = min(b.Min, n), max(b.Max, n)
	}
	return b
}
