package strategies

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// rangeAssignor is Kafka's client RangeAssignor ("range"): each topic on its
// own, its partitions cut into contiguous runs over the topic's subscribers in
// member order; the first P%C subscribers get one extra. Since Kafka 3.5
// (KIP-881) it first matches partitions to members on the same rack, without
// giving up per-topic balance or co-partitioning.
type rangeAssignor struct{}

func (rangeAssignor) Name() string          { return "range" }
func (rangeAssignor) KafkaName() string     { return "range" }
func (rangeAssignor) Protocols() []Protocol { return []Protocol{Eager} }

// Assign follows RangeAssignor.assignPartitions: an optional rack-matching
// pass, then the plain range pass over whatever is left.
func (rangeAssignor) Assign(g Group, ex *Explainer) Result {
	g = g.racksAsOf(ex)
	members := SortMembers(g.Members)
	explainMemberOrder(ex, members)
	idx := newSubscriptionIndex(g, members)
	topics := newRangeTopics(g, members, idx)

	rackAware := false
	for _, t := range topics {
		rackAware = rackAware || t.needsRackAware
	}
	if rackAware {
		ex.Addf("racks: some partitions are not on every rack, so members are matched to partitions on their own rack first (KIP-881); per-topic balance and co-partitioning still come first")
		assignWithRackMatching(topics, ex)
	}
	for _, t := range topics {
		t.assignRanges()
	}
	a := emitRangeAssignment(members, idx, topics)
	for _, t := range topics {
		explainRangeTopic(ex, t, members, a)
	}
	return Result{Assignment: a, Explanation: ex.Lines()}
}

// rangeTopic is Kafka's TopicAssignmentState: one topic's subscribers and
// how many partitions each may still take.
type rangeTopic struct {
	index      int32 // in subscriptionIndex
	name       string
	partitions int32
	subs       []int    // positions in the sorted member list, ascending
	subRacks   []string // rack of each subscriber ("" = none)
	perMember  int32    // P / C
	extra      int32    // subscribers that may still take P/C + 1
	count      []int32  // partitions taken by each subscriber
	owner      []int32  // subscriber index of each partition, -1 = free
	cursor     int32    // every partition below it is taken
	batch      []int32  // scratch for one step's partitions
	dst        []int32  // the topic's partitions grouped by subscriber (output)
	first      []int32  // where each subscriber's run starts in dst
	racks      []RackSet
	// needsRackAware is Kafka's needsRackAwareAssignment for this topic alone.
	needsRackAware bool
	// anyMemberRack: some subscriber has a rack (Kafka only then knows the
	// partitions' racks, which decides the co-partitioning groups).
	anyMemberRack bool
}

// newRangeTopics builds the state of every subscribed topic with at least
// one partition (Kafka skips empty topics and unsubscribed ones), in Java
// order of topic name so the explanation reads in a fixed order.
func newRangeTopics(g Group, members []Member, idx subscriptionIndex) []*rangeTopic {
	var out []*rangeTopic
	for ti, subs := range idx.subs {
		if len(subs) == 0 {
			continue
		}
		t := &rangeTopic{index: int32(ti), name: idx.names[ti], partitions: idx.counts[ti], subs: subs}
		t.init(g, members)
		out = append(out, t)
	}
	return out
}

func (t *rangeTopic) init(g Group, members []Member) {
	c := int32(len(t.subs))
	t.perMember, t.extra = t.partitions/c, t.partitions%c
	t.count = make([]int32, c)
	t.owner = make([]int32, t.partitions)
	for p := range t.owner {
		t.owner[p] = -1
	}
	t.subRacks = make([]string, c)
	var memberRacks map[string]bool // only built when some subscriber has a rack
	for k, i := range t.subs {
		t.subRacks[k] = members[i].Rack
		if r := members[i].Rack; r != "" {
			if memberRacks == nil {
				memberRacks = make(map[string]bool)
			}
			memberRacks[r] = true
		}
	}
	t.anyMemberRack = memberRacks != nil
	if !t.anyMemberRack {
		return
	}
	t.racks = TopicRackSets(g, t.name)
	perPartition := t.racks
	if perPartition == nil {
		perPartition = make([]RackSet, t.partitions)
	}
	t.needsRackAware = UseRackAwareAssignment(memberRacks, perPartition)
}

// maxAssignable is how many more partitions subscriber k may take: its
// share, plus one while extra slots remain, minus what it has.
func (t *rangeTopic) maxAssignable(k int) int32 {
	limit := t.perMember - t.count[k]
	if t.extra > 0 {
		limit++
	}
	return max(limit, 0)
}

// take gives the partitions to subscriber k in one step. Kafka counts an
// extra slot as used once per step in which the subscriber goes above
// P/C, which take reproduces by being called once per Kafka step.
func (t *rangeTopic) take(k int, ps []int32) {
	for _, p := range ps {
		t.owner[p] = int32(k)
	}
	t.count[k] += int32(len(ps))
	if t.count[k] > t.perMember {
		t.extra--
	}
}

// assignRanges is Kafka's assignRanges without rack matching: subscribers
// in order, each taking the lowest free partitions, up to maxAssignable.
// Each taker takes the lowest free ones, so a cursor finds them in O(P).
func (t *rangeTopic) assignRanges() {
	for k := range t.subs {
		t.takeLowestFree(k)
	}
}

// takeLowestFree gives subscriber k the lowest free partitions it may take.
func (t *rangeTopic) takeLowestFree(k int) {
	limit := t.maxAssignable(k)
	if limit == 0 {
		return
	}
	batch := t.batch[:0]
	for p := t.cursor; p < t.partitions && int32(len(batch)) < limit; p++ {
		if t.owner[p] < 0 {
			batch = append(batch, p)
		}
	}
	if len(batch) > 0 {
		t.take(k, batch)
	}
	t.batch = batch
	for t.cursor < t.partitions && t.owner[t.cursor] >= 0 {
		t.cursor++
	}
}

// assignWithRackMatching is Kafka's assignWithRackMatching. Topics with the
// same subscribers and the same partition count are co-partitioned: they
// are matched together, partition p of each going to one member. Any other
// topic is matched alone, and only if it needs rack matching itself.
func assignWithRackMatching(topics []*rangeTopic, ex *Explainer) {
	var keys []string
	groups := make(map[string][]*rangeTopic)
	for _, t := range topics {
		if !t.anyMemberRack {
			// Kafka knows no partition racks here: co-partitioned with
			// zero partitions or alone without need, either way no-op.
			continue
		}
		key := coPartitionKey(t)
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], t)
	}
	for _, key := range keys {
		ts := groups[key]
		before := ts[0].free()
		switch {
		case len(ts) > 1:
			assignCoPartitionedWithRackMatching(ts)
			if ex.Enabled() {
				names := make([]string, len(ts))
				for i, t := range ts {
					names[i] = t.name
				}
				ex.Addf("%s: co-partitioned (same %d members, %d partitions each): partition p of all of them goes to one member on a rack holding p in every topic; %d of %d matched",
					strings.Join(names, ", "), len(ts[0].subs), ts[0].partitions, before-ts[0].free(), ts[0].partitions)
			}
		case ts[0].needsRackAware:
			t := ts[0]
			t.matchRacksAlone()
			if ex.Enabled() {
				ex.Addf("%s: %d of %d partitions matched to a member on a rack holding a replica", t.name, before-t.free(), t.partitions)
			}
		}
	}
}

// coPartitionKey identifies topics Kafka co-partitions: same subscribers,
// same partition count.
func coPartitionKey(t *rangeTopic) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(t.partitions)))
	for _, i := range t.subs {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(i))
	}
	return b.String()
}

// free counts the partitions nobody has taken yet.
func (t *rangeTopic) free() int32 {
	var n int32
	for _, k := range t.count {
		n += k
	}
	return t.partitions - n
}

// matchRacksAlone is Kafka's assignRanges with racksMatch: subscribers in
// order, each taking the lowest free partitions with a replica on its rack
// (any partition when it has no rack), up to maxAssignable. Partitions are
// indexed by rack so the pass stays linear.
func (t *rangeTopic) matchRacksAlone() {
	byRack := make(map[string][]int32)
	for p, rs := range t.racks {
		for _, r := range rs {
			byRack[r] = append(byRack[r], int32(p))
		}
	}
	cursors := make(map[string]int)
	for k := range t.subs {
		rack := t.subRacks[k]
		if rack == "" {
			t.takeLowestFree(k)
			continue
		}
		list, limit := byRack[rack], t.maxAssignable(k)
		if len(list) == 0 || limit == 0 {
			continue
		}
		batch := t.batch[:0]
		for i := cursors[rack]; i < len(list) && int32(len(batch)) < limit; i++ {
			if p := list[i]; t.owner[p] < 0 {
				batch = append(batch, p)
			}
		}
		if len(batch) > 0 {
			t.take(k, batch)
		}
		t.batch = batch
		c := cursors[rack]
		for c < len(list) && t.owner[list[c]] >= 0 {
			c++
		}
		cursors[rack] = c
	}
}

// assignCoPartitionedWithRackMatching is Kafka's method of that name: for
// each partition number p, the first member (in member order) that may still
// take a partition and whose rack holds p in every topic (or that has no
// rack) takes p of every topic. All topics here have the same subscribers
// and counts and change in lockstep, so the first topic's counters stand
// for all. Members are queued by rack so each p costs O(racks of p).
func assignCoPartitionedWithRackMatching(ts []*rangeTopic) {
	first := ts[0]
	q := newRackQueues(first)
	one := make([]int32, 1)
	for p := int32(0); p < first.partitions; p++ {
		best := q.head(q.noRack)
		for _, r := range commonRacks(ts, p) {
			if k := q.head(q.byRack[r]); k >= 0 && (best < 0 || k < best) {
				best = k
			}
		}
		if best < 0 {
			continue
		}
		one[0] = p
		for _, t := range ts {
			t.take(best, one)
		}
	}
}

// commonRacks is the set of racks holding partition p in every topic of ts.
func commonRacks(ts []*rangeTopic, p int32) RackSet {
	if ts[0].racks == nil {
		return nil
	}
	var out RackSet
	for _, r := range ts[0].racks[p] {
		all := true
		for _, t := range ts[1:] {
			if t.racks == nil || !t.racks[p].Contains(r) {
				all = false
				break
			}
		}
		if all {
			out = append(out, r)
		}
	}
	return out
}

// rackQueues lists a topic's subscribers by rack, in member order, each
// with a cursor past those that can take no more (which never changes back:
// counts only grow and extra slots only shrink).
type rackQueues struct {
	t      *rangeTopic
	noRack *rackQueue
	byRack map[string]*rackQueue
}

type rackQueue struct {
	subs []int
	next int
}

func newRackQueues(t *rangeTopic) *rackQueues {
	q := &rackQueues{t: t, noRack: &rackQueue{}, byRack: make(map[string]*rackQueue)}
	for k, r := range t.subRacks {
		if r == "" {
			q.noRack.subs = append(q.noRack.subs, k)
			continue
		}
		if q.byRack[r] == nil {
			q.byRack[r] = &rackQueue{}
		}
		q.byRack[r].subs = append(q.byRack[r].subs, k)
	}
	return q
}

// head returns the first subscriber of rq that may still take a partition, or -1.
func (q *rackQueues) head(rq *rackQueue) int {
	if rq == nil {
		return -1
	}
	for rq.next < len(rq.subs) && q.t.maxAssignable(rq.subs[rq.next]) == 0 {
		rq.next++
	}
	if rq.next == len(rq.subs) {
		return -1
	}
	return rq.subs[rq.next]
}

// emitRangeAssignment turns every topic's owner table into the Assignment,
// each member's partitions of a topic ascending. The lists are grouped by
// subscriber topic by topic, then the maps are filled member by member:
// filling 2,000 maps one at a time is several times faster than touching
// every map for every topic, which misses the cache on each insert.
func emitRangeAssignment(members []Member, idx subscriptionIndex, topics []*rangeTopic) Assignment {
	total := 0
	for _, t := range topics {
		total += int(t.partitions)
	}
	backing := make([]int32, total) // one allocation for every partition list
	byIndex := make([]*rangeTopic, len(idx.names))
	for _, t := range topics {
		byIndex[t.index] = t
		t.first = make([]int32, len(t.count))
		var off int32
		for k, n := range t.count {
			t.first[k] = off
			off += n
		}
		t.dst, backing = backing[:off:off], backing[off:]
		next := slices.Clone(t.first)
		for p, k := range t.owner {
			t.dst[next[k]] = int32(p)
			next[k]++
		}
	}
	a := make(Assignment, len(members))
	for i, m := range members {
		refs := idx.refs[i]
		lists := make(map[string][]int32, len(refs))
		for _, r := range refs {
			t := byIndex[r.topic]
			if n := t.count[r.k]; n > 0 {
				from := t.first[r.k]
				lists[t.name] = t.dst[from : from+n : from+n]
			}
		}
		a[m.ID] = lists
	}
	return a
}

// subscriptionIndex is who subscribes to what, indexed both ways, built
// once in O(subscriptions). Range and RoundRobin share it.
type subscriptionIndex struct {
	names  []string   // every topic of the group, Java order
	counts []int32    // partitions of each
	subs   [][]int    // per topic: subscribers as positions in the sorted member list, ascending; none for empty topics
	refs   [][]subRef // per member: its topics with partitions, and its place among each one's subscribers
}

type subRef struct{ topic, k int32 }

func newSubscriptionIndex(g Group, members []Member) subscriptionIndex {
	idx := subscriptionIndex{names: SortedTopics(g.Topics)}
	position := make(map[string]int32, len(idx.names))
	idx.counts = make([]int32, len(idx.names))
	for i, name := range idx.names {
		position[name] = int32(i)
		idx.counts[i] = g.Topics[name]
	}
	total := 0
	for _, m := range members {
		total += len(m.Topics)
	}
	// Pass 1: each member's topics (known, with partitions, each once) and
	// how many subscribers each topic has.
	refs := make([]subRef, 0, total)
	idx.refs = make([][]subRef, len(members))
	subscribers := make([]int, len(idx.names))
	listedBy := make([]int, len(idx.names)) // member+1 that last listed the topic
	var resolved []int32
	var prev []string
	for i, m := range members {
		// Members often share one topic list (every topic); resolve it once.
		if len(m.Topics) != len(prev) || len(prev) == 0 || &m.Topics[0] != &prev[0] {
			resolved = resolved[:0]
			for _, name := range m.Topics {
				if ti, ok := position[name]; ok && idx.counts[ti] > 0 {
					resolved = append(resolved, ti)
				}
			}
			prev = m.Topics
		}
		from := len(refs)
		for _, ti := range resolved {
			if listedBy[ti] == i+1 {
				continue // a topic listed twice is one subscription
			}
			listedBy[ti] = i + 1
			refs = append(refs, subRef{topic: ti})
			subscribers[ti]++
		}
		idx.refs[i] = refs[from:len(refs):len(refs)]
	}
	// Pass 2: every topic's subscriber list, in member order, in one array.
	backing := make([]int, len(refs))
	idx.subs = make([][]int, len(idx.names))
	for ti, n := range subscribers {
		idx.subs[ti], backing = backing[:0:n], backing[n:]
	}
	for i, rs := range idx.refs {
		for j, r := range rs {
			rs[j].k = int32(len(idx.subs[r.topic]))
			idx.subs[r.topic] = append(idx.subs[r.topic], i)
		}
	}
	return idx
}

func explainMemberOrder(ex *Explainer, members []Member) {
	if !ex.Enabled() || len(members) == 0 {
		return
	}
	names := make([]string, 0, min(len(members), explainListMax))
	for i, m := range members {
		if i == explainListMax {
			names = append(names, fmt.Sprintf("… (%d members)", len(members)))
			break
		}
		if m.InstanceID != "" {
			names = append(names, fmt.Sprintf("%s (instance %s)", m.ID, m.InstanceID))
		} else {
			names = append(names, m.ID)
		}
	}
	ex.Addf("member order: static members by group.instance.id, then the others by member id: %s", strings.Join(names, ", "))
}

// explainRangeTopic says how one topic was cut: the arithmetic and who took what.
func explainRangeTopic(ex *Explainer, t *rangeTopic, members []Member, a Assignment) {
	if !ex.Enabled() {
		ex.Skip()
		return
	}
	c := len(t.subs)
	shares := make([]string, 0, min(c, explainListMax)+1)
	for k, i := range t.subs {
		if k == explainListMax {
			shares = append(shares, fmt.Sprintf("… (%d more)", c-k))
			break
		}
		id := members[i].ID
		if ps := a[id][t.name]; len(ps) > 0 {
			shares = append(shares, fmt.Sprintf("%s takes %s", id, FormatPartitions(ps)))
		} else {
			shares = append(shares, fmt.Sprintf("%s takes nothing", id))
		}
	}
	ex.Addf("%s: %d partitions / %d members = %d rest %d → %s",
		t.name, t.partitions, c, t.partitions/int32(c), t.partitions%int32(c), strings.Join(shares, "; "))
}

// explainListMax bounds how many members one explanation line names.
const explainListMax = 8
