package model

import (
	"maps"
	"slices"
	"strconv"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// sameOrNew converts one member's assignor result to a partition list,
// returning prev itself when it lists the same partitions: most members
// keep their target when one joins, and sharing the slice spares the
// allocation and lets snapshots share it too.
func sameOrNew(a map[string][]int32, prev []kafka.TP) []kafka.TP {
	if sameAsList(a, prev) {
		return prev
	}
	return kafka.TPsOf(a)
}

// sameAsList: a (topic -> ascending partitions) lists exactly prev, which
// is sorted by topic, then partition.
func sameAsList(a map[string][]int32, prev []kafka.TP) bool {
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

// fmtShort names a member's partitions like kafka.FormatTPs, cutting a long list
// short: a trainer reads out a few, not ten thousand.
func fmtShort(tps []kafka.TP) string {
	if len(tps) <= maxShown {
		return kafka.FormatTPs(tps)
	}
	b := make([]byte, 0, 16*maxShown)
	b = append(b, '[')
	for _, tp := range tps[:maxShown-1] {
		b = tp.AppendTo(b)
		b = append(b, ", "...)
	}
	b = append(b, "…, "...)
	b = tps[len(tps)-1].AppendTo(b)
	b = append(b, "] ("...)
	b = strconv.AppendInt(b, int64(len(tps)), 10)
	b = append(b, " partitions)"...)
	return string(b)
}

// runAssignor computes the new target of every member of grp (in g.order;
// prevs holds their current targets, by the same index), keeping each
// unchanged target's slice. An assignor that can hand out its result member
// by member (uniform) is asked to, and says which members keep their
// target: converting and comparing a thousand members' Assignment maps cost
// more than computing them (issue 3). When every key of g.target is still a
// member (ownKeys), the new map starts as its copy (cheaper than a thousand
// inserts), with the members it does not map (missing: new joiners) added,
// and only changed targets are written.
//
// delta, when not nil, names every member whose entry may differ from
// g.target's (or is new): the rest are g.target's own. A join in a group
// of 7,000 changes a few targets, and the history then logs those alone
// (targetChanges) instead of comparing 7,000 (issue 21). outs is the
// target's entries in g.order's order (g.outs' buffer, written anew).
func (g *consumerGroup) runAssignor(grp strategies.Group, prevs [][]kafka.TP, missing []int, ownKeys bool) (target map[string][]kafka.TP, delta []string, outs [][]kafka.TP) {
	outs = append(g.outs[:0], prevs...)
	for _, i := range missing {
		outs[i] = nil
	}
	each, ok := g.w.serverAssignor().(strategies.EachAssigner)
	if !ok {
		target := make(map[string][]kafka.TP, len(g.order))
		res := g.w.serverAssignor().Assign(grp, nil)
		for i, m := range g.order {
			outs[i] = sameOrNew(res.Assignment[m.id], prevs[i])
			target[m.id] = outs[i]
		}
		return target, nil, outs
	}
	if ownKeys {
		target = maps.Clone(g.target)
		delta = make([]string, 0, len(missing)+8)
		for _, i := range missing {
			target[g.order[i].id] = nil
			delta = append(delta, g.order[i].id)
		}
	} else {
		target = make(map[string][]kafka.TP, len(g.order))
		for i, m := range g.order {
			target[m.id] = prevs[i]
		}
	}
	seen := g.seen[:0]
	seen = append(seen, make([]bool, len(g.order))...)
	g.seen = seen
	b := targetBuilder{member: -1}
	each.AssignEach(grp, func(m int) {
		// Its Owned: the previous target itself (already in target), or
		// that target without the partitions of topics it left.
		seen[m] = true
		if owned := grp.Members[m].Owned; !sameSlice(owned, prevs[m]) {
			outs[m] = slices.Clip(owned)
			target[g.order[m].id] = outs[m]
			delta = noteDelta(delta, g.order[m].id)
		}
	}, func(m int, topic string, ps []int32) {
		if m != b.member {
			delta = b.flush(target, delta, outs)
			seen[m] = true
			b = targetBuilder{member: m, id: g.order[m].id}
		}
		b.add(topic, ps)
	})
	delta = b.flush(target, delta, outs)
	// A member the assignor gives nothing gets nil, or keeps its empty
	// target, as sameOrNew would.
	for i, m := range g.order {
		if !seen[i] && len(prevs[i]) > 0 {
			target[m.id] = nil
			outs[i] = nil
			delta = noteDelta(delta, m.id)
		}
	}
	return target, delta, outs
}

// noteDelta adds id to a delta being kept (not nil).
func noteDelta(delta []string, id string) []string {
	if delta == nil {
		return nil
	}
	return append(delta, id)
}

// targetBuilder collects one member's new target, topic by topic in order.
type targetBuilder struct {
	member int // index in the group's members, -1 before the first
	id     string
	built  []kafka.TP
}

func (b *targetBuilder) add(topic string, ps []int32) {
	if b.built == nil {
		b.built = make([]kafka.TP, 0, len(ps)) // usually the only topic
	}
	for _, p := range ps {
		b.built = append(b.built, kafka.TP{Topic: topic, Partition: p})
	}
}

// flush stores the member's target (nothing before the first member).
// Targets are shared by snapshots, so none has spare capacity.
func (b *targetBuilder) flush(target map[string][]kafka.TP, delta []string, outs [][]kafka.TP) []string {
	if b.member >= 0 {
		outs[b.member] = slices.Clip(b.built)
		target[b.id] = outs[b.member]
		delta = noteDelta(delta, b.id)
	}
	return delta
}

// sameStrings: a and b are the very same list.
func sameStrings(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// sameSlice: a and b are the very same list.
func sameSlice(a, b []kafka.TP) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// partText is one member's part of the AssignmentComputed sentence, kept
// for the target list it was written for.
type partText struct {
	tps  []kafka.TP
	text string
}

// partText writes "client target". Most members keep their target (the
// very slice) from one run to the next, so the last text is reused.
func (g *consumerGroup) partText(client string, tps []kafka.TP) string {
	if pt, ok := g.partTexts[client]; ok && sameSlice(pt.tps, tps) {
		return pt.text
	}
	if g.partTexts == nil || len(g.partTexts) > 4*(kafka.MaxListed+1) {
		g.partTexts = map[string]partText{} // only the first few members are ever asked for
	}
	text := client + " " + fmtShort(tps)
	g.partTexts[client] = partText{tps: tps, text: text}
	return text
}

// allOnTopics: every partition of s is of one of topics, so kafka.OnTopics(s,
// topics) would copy s whole.
func allOnTopics(s []kafka.TP, topics []string) bool {
	if len(topics) > 16 && slices.IsSorted(topics) {
		// A long subscription in order (a member of every topic): a
		// binary search per topic of s, not a scan (issue 21).
		for i, tp := range s {
			if i == 0 || tp.Topic != s[i-1].Topic {
				if _, found := slices.BinarySearch(topics, tp.Topic); !found {
					return false
				}
			}
		}
		return true
	}
	for i, tp := range s {
		if (i == 0 || tp.Topic != s[i-1].Topic) && !slices.Contains(topics, tp.Topic) {
			return false
		}
	}
	return true
}
