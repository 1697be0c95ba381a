package model

import (
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// Round is one generation of a rebalance (KIP-848: one group epoch): from
// the join phase (epoch bump) that starts it to the group's Stable at that
// generation (the next bump, or the rebalance's end).
type Round struct {
	StartStep, EndStep int
	StartMs, EndMs     int64
	Generation         int32
}

// ownersOf is who consumes what in a view: what each consuming member holds
// less what its revoke or lost callback is giving up (consumedBy, the rule
// the rebalance scan follows).
func ownersOf(v *GroupView) kafka.Owners {
	n := 0
	for i := range v.Members {
		n += len(v.Members[i].Owned)
	}
	out := make(kafka.Owners, n)
	share := v.Protocol == kafka.ProtocolShare // several members per partition: the first names it, as Partitions does
	for i := range v.Members {
		for _, tp := range consumedBy(&v.Members[i]) {
			if _, taken := out[tp]; share && taken {
				continue
			}
			out[tp] = v.Members[i].ID
		}
	}
	return out
}

// liveIDs are the members still in the group at a view, sorted.
func liveIDs(v *GroupView) []string {
	var out []string
	for _, m := range v.Members {
		if m.Live() {
			out = append(out, m.ID)
		}
	}
	slices.SortFunc(out, strings.Compare)
	return slices.Compact(out)
}

// Live reports whether the member is still in the story: it has not
// crashed, left or been fenced.
func (m MemberView) Live() bool {
	switch m.Status {
	case kafka.StatusCrashed, kafka.StatusLeft, kafka.StatusFenced:
		return false
	}
	return true
}

// Balance is the fewest and most partitions a live member consumes.
type Balance struct{ Min, Max int }

// It counts per member, building no partition map: the lab asks it every
// frame (BenchmarkFrame50x1000).
func balanceOf(v *GroupView) Balance {
	count := make(map[string]int, len(v.Members))
	for i := range v.Members {
		count[v.Members[i].ID] += len(consumedBy(&v.Members[i]))
	}
	var b Balance
	first := true
	for i := range v.Members {
		if !v.Members[i].Live() {
			continue
		}
		n := count[v.Members[i].ID]
		if first {
			b, first = Balance{n, n}, false
		}
		b.Min, b.Max = min(b.Min, n), max(b.Max, n)
	}
	return b
}

// Balance is the fewest and most partitions a live member consumes now.
func (v *GroupView) Balance() Balance { return balanceOf(v) }

// Consumed is how many partitions have a consumer now (PartitionConsumed
// in Partitions), of how many the group's topics have.
func (v *GroupView) Consumed() (held, total int) {
	for _, t := range v.Topics {
		total += int(t.Partitions)
	}
	if v.Protocol == kafka.ProtocolShare {
		return len(ownersOf(v)), total // members share partitions: count each once
	}
	if v.sim != nil {
		// The simulation's count, moved from step to step (view_consumed.go).
		return v.sim.consumedCount(v.step, v.Topics), total
	}
	// Each existing partition once: a member may still hold a deleted
	// topic's partitions until it revokes them, and a topic created again
	// under that name can be read by two members at once, one given the
	// new topic's partition, one still revoking the old one's (topic_ids.go).
	type seen struct {
		n    int32
		bits []uint64
	}
	index := make(map[string]*seen, len(v.Topics))
	for _, t := range v.Topics {
		index[t.Name] = &seen{t.Partitions, make([]uint64, (t.Partitions+63)/64)}
	}
	for i := range v.Members {
		var cur *seen
		topic := ""
		for _, tp := range consumedBy(&v.Members[i]) {
			if tp.Topic != topic || cur == nil {
				topic, cur = tp.Topic, index[tp.Topic]
			}
			if cur == nil || tp.Partition < 0 || tp.Partition >= cur.n {
				continue
			}
			if bits, w := cur.bits, tp.Partition/64; bits[w]&(1<<(tp.Partition%64)) == 0 {
				bits[w] |= 1 << (tp.Partition % 64)
				held++
			}
		}
	}
	return held, total
}

// WorstGapMs is the longest one partition went without a consumer in it.
func (r Rebalance) WorstGapMs() int64 { w, _ := r.UnownedMs.stats(); return w }

// TotalGapMs is the partition-milliseconds without a consumer in it.
func (r Rebalance) TotalGapMs() int64 { _, t := r.UnownedMs.stats(); return t }

// WorstGapMs is the longest one partition went without a consumer in it.
func (o Outage) WorstGapMs() int64 { w, _ := o.UnownedMs.stats(); return w }

// AssignedIn reports the members whose onPartitionsAssigned ran in steps
// from..to: what is news on the grid during a rebalance.
func (s *Sim) AssignedIn(from, to int) map[string]bool {
	out := map[string]bool{}
	for i := max(from, 0); i <= to && i < len(s.steps); i++ {
		if s.steps[i].kind == kafka.KindPartitionsAssigned {
			out[s.steps[i].member] = true
		}
	}
	return out
}

// tpIndex numbers partitions densely, a topic by its index and then its
// partition number, so a table of 500,000 partitions is slices, not a map
// keyed by (topic string, partition) that every lookup hashes.
type tpIndex struct {
	ids   map[string]int32
	names []string
}

func newTPIndex() *tpIndex { return &tpIndex{ids: map[string]int32{}} }

// topic is the topic's index, given one on first sight.
func (x *tpIndex) topic(name string) int32 {
	if i, ok := x.ids[name]; ok {
		return i
	}
	i := int32(len(x.names))
	x.ids[name] = i
	x.names = append(x.names, name)
	return i
}

// order is the topics' indexes in partition order (kafka.CompareTPs: by
// topic name as Java compares them).
func (x *tpIndex) order() []int32 {
	out := make([]int32, len(x.names))
	for i := range out {
		out[i] = int32(i)
	}
	slices.SortFunc(out, func(a, b int32) int { return strategies.JavaCompare(x.names[a], x.names[b]) })
	return out
}

// ownerTable is who consumes each partition ("" nobody), by topic index
// and partition number.
type ownerTable [][]string

func (t ownerTable) get(ti, p int32) string {
	if int(ti) < len(t) && int(p) < len(t[ti]) {
		return t[ti][p]
	}
	return ""
}

// set names id the consumer of partition p of topic ti, growing the table.
func (t *ownerTable) set(ti, p int32, id string) {
	for int(ti) >= len(*t) {
		*t = append(*t, nil)
	}
	row := (*t)[ti]
	if int(p) >= len(row) {
		row = slices.Grow(row, int(p)+1-len(row))[:p+1]
		(*t)[ti] = row
	}
	row[p] = id
}

// clone is a copy of the table that shares nothing with it.
func (t ownerTable) clone() ownerTable {
	out := make(ownerTable, len(t))
	for i, row := range t {
		out[i] = slices.Clone(row)
	}
	return out
}

// ownerTableOf is ownersOf as a table in x's numbering.
func ownerTableOf(v *GroupView, x *tpIndex) ownerTable {
	// Each topic's row made at its partition count: filled member after
	// member, a range-server group's 1,000 rows grew one partition at a
	// time to 500.
	var t ownerTable
	for _, tv := range v.Topics {
		ti := x.topic(tv.Name)
		for int(ti) >= len(t) {
			t = append(t, nil)
		}
		t[ti] = make([]string, tv.Partitions)
	}
	share := v.Protocol == kafka.ProtocolShare
	for i := range v.Members {
		for _, tp := range consumedBy(&v.Members[i]) {
			ti := x.topic(tp.Topic)
			if share && t.get(ti, tp.Partition) != "" {
				continue
			}
			t.set(ti, tp.Partition, v.Members[i].ID)
		}
	}
	return t
}

// diffTables is kafka.Diff of two tables in x's numbering: the partitions
// whose consumer differs, in partition order.
func diffTables(before, after ownerTable, x *tpIndex) []kafka.Move {
	return diffTablesIn(before, after, x, x.order())
}

// diffTablesIn is diffTables with the topics' order given (x.order()).
func diffTablesIn(before, after ownerTable, x *tpIndex, order []int32) []kafka.Move {
	// Two passes, counting then filling: one leave can move 500,000
	// partitions, and growing the list to that copies it over and over.
	each := func(f func(ti, p int32, from, to string)) {
		for _, ti := range order {
			n := 0
			if int(ti) < len(before) {
				n = len(before[ti])
			}
			if int(ti) < len(after) {
				n = max(n, len(after[ti]))
			}
			for p := int32(0); int(p) < n; p++ {
				if from, to := before.get(ti, p), after.get(ti, p); from != to {
					f(ti, p, from, to)
				}
			}
		}
	}
	n := 0
	each(func(int32, int32, string, string) { n++ })
	if n == 0 {
		return nil
	}
	out := make([]kafka.Move, 0, n)
	each(func(ti, p int32, from, to string) {
		out = append(out, kafka.Move{Topic: x.names[ti], Partition: p, From: from, To: to})
	})
	return out
}

// holdingsOfTable is who holds what in a table in x's numbering, with
// every member of ids listed (held partitions or not), its topics in order
// (x.order(), computed once by a caller that builds several). Two passes
// over the table, no map per member: 500 maps of 1,000 topics were a
// quarter of a what-if's outcome, and its JSON sorted them again (issue
// 21). The first numbers each partition's member and counts each member's
// topics; then, members in id order, each one's topics get one stretch of
// one list, and the second pass fills them topic by topic, a member's
// partitions of a topic one run of one buffer, in partition order.
func holdingsOfTable(t ownerTable, x *tpIndex, order []int32, ids []string) kafka.Holdings {
	var (
		seen    = map[string]int32{} // member id -> its index
		mIDs    []string             // by member index: its id
		topics  []int32              // by member index: how many topics it holds
		lastRow []int32              // by member index: the last row it was counted in
		who     []int32              // by partition, row after row: its member's index, -1 nobody
	)
	size := 0
	for _, ti := range order {
		if int(ti) < len(t) {
			size += len(t[ti])
		}
	}
	who = make([]int32, 0, size)
	for r, ti := range order {
		if int(ti) >= len(t) {
			continue
		}
		last, lastID := int32(-1), ""
		for _, id := range t[ti] {
			if id == "" {
				who = append(who, -1)
				continue
			}
			if last < 0 || id != lastID {
				m, ok := seen[id]
				if !ok {
					m = int32(len(mIDs))
					seen[id] = m
					mIDs, topics, lastRow = append(mIDs, id), append(topics, 0), append(lastRow, -1)
				}
				last, lastID = m, id
			}
			if lastRow[last] != int32(r) {
				lastRow[last] = int32(r)
				topics[last]++
			}
			who = append(who, last)
		}
	}
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			seen[id] = int32(len(mIDs))
			mIDs, topics = append(mIDs, id), append(topics, 0)
		}
	}
	rank := make([]int32, len(mIDs)) // by id order: the member's index
	for m := range rank {
		rank[m] = int32(m)
	}
	slices.SortFunc(rank, func(a, b int32) int { return strings.Compare(mIDs[a], mIDs[b]) })
	sorted := make([]string, len(rank))
	at := make([]int32, len(mIDs)) // by member index: where its next topic goes
	total := int32(0)
	for r, m := range rank {
		sorted[r], at[m] = mIDs[m], total
		total += topics[m]
	}
	all := make([]kafka.TopicPartitions, total)
	count := make([]int32, len(mIDs)) // by member index: its partitions in this row
	var touched []int32               // the members with partitions in this row
	off := 0                          // the row's first partition in who
	for _, ti := range order {
		if int(ti) >= len(t) {
			continue
		}
		row := who[off : off+len(t[ti])]
		off += len(row)
		touched = touched[:0]
		held := 0
		for _, m := range row {
			if m < 0 {
				continue
			}
			if count[m] == 0 {
				touched = append(touched, m)
			}
			count[m]++
			held++
		}
		if held == 0 {
			continue
		}
		buf := make([]int32, 0, held)
		name := x.names[ti]
		for _, m := range touched {
			n := len(buf)
			all[at[m]] = kafka.TopicPartitions{Topic: name, Partitions: buf[n : n : n+int(count[m])]}
			buf = buf[:n+int(count[m])]
			count[m] = 0
		}
		for p, m := range row {
			if m >= 0 {
				tp := &all[at[m]]
				tp.Partitions = append(tp.Partitions, int32(p))
			}
		}
		for _, m := range touched {
			at[m]++
		}
	}
	out := make([][]kafka.TopicPartitions, len(rank))
	for r, m := range rank {
		end := at[m] // past its last topic now
		out[r] = all[end-topics[m] : end : end]
	}
	return kafka.HoldingsFrom(sorted, out)
}
