package strategies

import (
	"fmt"
	"sort"
	"strings"
)

// roundRobinAssignor is Kafka's client RoundRobinAssignor ("roundrobin"):
// every subscribed partition, sorted by (topic, partition), dealt to the
// members in member order by one circular iterator that skips members not
// subscribed to the partition's topic. It ignores racks and ownership.
type roundRobinAssignor struct{}

func (roundRobinAssignor) Name() string          { return "roundrobin" }
func (roundRobinAssignor) KafkaName() string     { return "roundrobin" }
func (roundRobinAssignor) Protocols() []Protocol { return []Protocol{Eager} }

// Assign deals the partitions. Kafka's iterator peeks at each member until
// one subscribes to the topic, then hands it the partition and steps past
// it. Within one topic that visits the topic's subscribers cyclically, so
// after finding where a topic's deal starts (the first subscriber at or
// after the iterator), the rest of the topic is a walk over its subscriber
// list: O(partitions + subscriptions), whatever the skip pattern.
func (roundRobinAssignor) Assign(g Group, ex *Explainer) Result {
	members := SortMembers(g.Members)
	explainMemberOrder(ex, members)
	idx := newSubscriptionIndex(g, members)

	dealtByTopic := make([][][]int32, len(idx.names))
	counts := make([]int32, len(members)) // per topic, reused
	pos := 0                              // the iterator: next member to peek at
	for ti, ts := range idx.subs {
		if len(ts) == 0 {
			continue
		}
		n := idx.counts[ti]
		// First subscriber at or after pos, wrapping to the first one.
		k := sort.SearchInts(ts, pos)
		if k == len(ts) {
			k = 0
		}
		start := k
		dealt := partitionLists(n, ts, k, counts)
		for p := int32(0); p < n; p++ {
			dealt[k] = append(dealt[k], p)
			pos = ts[k] + 1
			k++
			if k == len(ts) {
				k = 0
			}
		}
		dealtByTopic[ti] = dealt
		explainRoundRobinTopic(ex, idx.names[ti], n, members, ts, start, dealt)
	}

	// Fill the maps member by member (see emitRangeAssignment for why).
	a := make(Assignment, len(members))
	for i, m := range members {
		refs := idx.refs[i]
		lists := make(map[string][]int32, len(refs))
		for _, r := range refs {
			if ps := dealtByTopic[r.topic][r.k]; len(ps) > 0 {
				lists[idx.names[r.topic]] = ps
			}
		}
		a[m.ID] = lists
	}
	return Result{Assignment: a, Explanation: ex.Lines()}
}

// partitionLists pre-sizes each subscriber's list for one topic: dealing n
// partitions from subscriber k gives each subscriber n/len or n/len+1,
// the extra ones going to the len(ts) subscribers starting at k. The lists
// share one backing array.
func partitionLists(n int32, ts []int, k int, counts []int32) [][]int32 {
	c := int32(len(ts))
	counts = counts[:0]
	for j := range ts {
		ahead := int32((j - k + len(ts)) % len(ts)) // position in the deal
		share := n / c
		if ahead < n%c {
			share++
		}
		counts = append(counts, share)
	}
	backing := make([]int32, 0, n)
	lists := make([][]int32, len(ts))
	for j, share := range counts {
		lists[j] = backing[len(backing) : len(backing) : len(backing)+int(share)]
		backing = backing[:len(backing)+int(share)]
	}
	return lists
}

// explainRoundRobinTopic says where the deal of one topic started and who
// got what, naming the members the iterator skipped over.
func explainRoundRobinTopic(ex *Explainer, topic string, n int32, members []Member, ts []int, start int, dealt [][]int32) {
	if !ex.Enabled() {
		ex.Skip()
		return
	}
	shares := make([]string, 0, min(len(ts), explainListMax)+1)
	for j := range ts {
		if j == explainListMax {
			shares = append(shares, fmt.Sprintf("… (%d more)", len(ts)-j))
			break
		}
		k := (start + j) % len(ts)
		if len(dealt[k]) == 0 {
			continue
		}
		shares = append(shares, fmt.Sprintf("%s takes %s", members[ts[k]].ID, FormatPartitions(dealt[k])))
	}
	skipped := ""
	if len(ts) < len(members) {
		skipped = fmt.Sprintf(" (skipping the %d not subscribed)", len(members)-len(ts))
	}
	ex.Addf("%s: %d partitions dealt in turn from %s%s → %s",
		topic, n, members[ts[start]].ID, skipped, strings.Join(shares, "; "))
}
