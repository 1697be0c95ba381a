package model

import (
	"slices"
	"strconv"

	"github.com/kvizlab/kviz/strategies"
)

// sameOrNew converts one member's assignor result to a partition list,
// returning prev itself when it lists the same partitions: most members
// keep their target when one joins, and sharing the slice spares the
// allocation and lets snapshots share it too.
func sameOrNew(a map[string][]int32, prev []TP) []TP {
	if sameAsList(a, prev) {
		return prev
	}
	return tpsOf(a)
}

// sameAsList: a (topic -> ascending partitions) lists exactly prev, which
// is sorted by topic, then partition.
func sameAsList(a map[string][]int32, prev []TP) bool {
	if len(a) == 1 && len(prev) > 0 {
		// One topic (the usual group): one lookup, no map walk.
		t := prev[0].Topic
		ps := a[t]
		if len(ps) != len(prev) || prev[len(prev)-1].Topic != t {
			return false
		}
		for k, p := range ps {
			if prev[k].Partition != p {
				return false
			}
		}
		return true
	}
	n, topics := 0, 0
	for _, ps := range a {
		n += len(ps)
		if len(ps) > 0 {
			topics++
		}
	}
	if n != len(prev) {
		return false
	}
	for i := 0; i < len(prev); topics-- {
		ps := a[prev[i].Topic]
		if len(ps) == 0 || i+len(ps) > len(prev) {
			return false
		}
		for k, p := range ps {
			if prev[i+k].Topic != prev[i].Topic || prev[i+k].Partition != p {
				return false
			}
		}
		i += len(ps)
		if i < len(prev) && prev[i].Topic == prev[i-1].Topic {
			return false // prev holds more of this topic
		}
	}
	return topics == 0
}

// maxShown is how many partitions of one member a step's sentence names.
const maxShown = 12

// fmtShort names a member's partitions like fmtTPs, cutting a long list
// short: a trainer reads out a few, not ten thousand.
func fmtShort(tps []TP) string {
	if len(tps) <= maxShown {
		return fmtTPs(tps)
	}
	b := make([]byte, 0, 16*maxShown)
	b = append(b, '[')
	for _, tp := range tps[:maxShown-1] {
		b = appendTP(b, tp)
		b = append(b, ", "...)
	}
	b = append(b, "…, "...)
	b = appendTP(b, tps[len(tps)-1])
	b = append(b, "] ("...)
	b = strconv.AppendInt(b, int64(len(tps)), 10)
	b = append(b, " partitions)"...)
	return string(b)
}

// appendTP writes t0-3, as TopicPartition.String does.
func appendTP(b []byte, tp TP) []byte {
	b = append(b, tp.Topic...)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(tp.Partition), 10)
}

// runAssignor computes the new target of every member of grp (in g.order),
// keeping each unchanged target's slice. An assignor that can hand out its
// result member by member (uniform) is asked to: converting a thousand
// members' Assignment maps cost more than computing them (issue 3).
func (g *consumerGroup) runAssignor(grp strategies.Group) map[string][]TP {
	target := make(map[string][]TP, len(g.order))
	each, ok := g.w.assignor.(strategies.EachAssigner)
	if !ok {
		res := g.w.assignor.Assign(grp, nil)
		for _, id := range g.order {
			target[id] = sameOrNew(res.Assignment[id], g.target[id])
		}
		return target
	}
	// A member the assignor gives nothing gets nil, or keeps its empty
	// target, as sameOrNew would.
	for _, id := range g.order {
		if prev := g.target[id]; len(prev) == 0 {
			target[id] = prev
		} else {
			target[id] = nil
		}
	}
	b := targetBuilder{member: -1}
	each.AssignEach(grp, func(m int, topic string, ps []int32) {
		if m != b.member {
			b.flush(target)
			id := grp.Members[m].ID
			b.start(m, id, g.target[id])
		}
		b.add(topic, ps)
	})
	b.flush(target)
	return target
}

// targetBuilder turns one member's partitions, topic by topic in order, into
// its target list: prev itself while they match it, a new list from the
// first difference.
type targetBuilder struct {
	member int // index in the group's members, -1 before the first
	id     string
	prev   []TP
	n      int  // partitions seen so far
	same   bool // the first n partitions equal prev[:n]
	built  []TP // the list when !same
}

func (b *targetBuilder) start(member int, id string, prev []TP) {
	*b = targetBuilder{member: member, id: id, prev: prev, same: true}
}

func (b *targetBuilder) add(topic string, ps []int32) {
	if b.same {
		k := 0
		for k < len(ps) && b.n+k < len(b.prev) && b.prev[b.n+k].Topic == topic && b.prev[b.n+k].Partition == ps[k] {
			k++
		}
		if k == len(ps) {
			b.n += k
			return
		}
		b.same = false
		b.built = make([]TP, b.n, b.n+len(ps))
		copy(b.built, b.prev[:b.n])
	}
	for _, p := range ps {
		b.built = append(b.built, TP{Topic: topic, Partition: p})
	}
	b.n += len(ps)
}

// flush stores the member's target (nothing before the first member).
// Targets are shared by snapshots, so none has spare capacity.
func (b *targetBuilder) flush(target map[string][]TP) {
	switch {
	case b.member < 0:
	case b.same && b.n == len(b.prev):
		target[b.id] = b.prev
	case b.same:
		target[b.id] = slices.Clone(b.prev[:b.n])
	default:
		target[b.id] = slices.Clip(b.built) // appends never reach a neighbour
	}
}
