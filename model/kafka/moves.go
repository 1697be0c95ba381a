package kafka

import (
	"slices"
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
		return CompareTPs(TP{Topic: a.Topic, Partition: a.Partition}, TP{Topic: b.Topic, Partition: b.Partition})
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

// Partitions is one member's partitions in the assignment, in partition
// order.
func (a Assignment) Partitions(member string) []TP {
	return TPsOf(a[member])
}

// Text is the move as both faces print it, "t0-1 c1→c3", each member named
// by name (given "" for nobody).
func (m Move) Text(name func(id string) string) string {
	return TP{Topic: m.Topic, Partition: m.Partition}.String() + " " + name(m.From) + "→" + name(m.To)
}

// String is the move with members by id: "t0-1 c1→nobody".
func (m Move) String() string { return m.Text(orNobody) }

// orNobody is a member id, or "nobody" for none.
func orNobody(id string) string {
	if id == "" {
		return "nobody"
	}
	return id
}

// Owners is who consumes each partition in the assignment.
func (a Assignment) Owners() Owners {
	out := Owners{}
	for id, ts := range a {
		for t, ps := range ts {
			for _, p := range ps {
				out[TP{Topic: t, Partition: p}] = id
			}
		}
	}
	return out
}
