package strategies

import (
	"strings"
)

// rangeServerAssignor is the KIP-848 server-side assignor Kafka calls "range"
// (org.apache.kafka.coordinator.group.assignor.RangeAssignor in the group
// coordinator), as rewritten by KAFKA-16944 (Kafka 3.9; read at apache/kafka
// 1eb7644, unchanged in 4.0):
//
//   - members sorted: static ones first by group.instance.id, then dynamic
//     ones by member id (Java String order);
//   - each topic on its own: P partitions over its S subscribers → P/S each,
//     the first P%S subscribers one more, in contiguous runs in member order.
//
// That is the client RangeAssignor without racks. It is not sticky: since
// KAFKA-16944 the current target (Member.Owned) is not read at all, and it
// never looks at racks.
type rangeServerAssignor struct{}

func (rangeServerAssignor) Name() string          { return "range-server" }
func (rangeServerAssignor) KafkaName() string     { return "range" }
func (rangeServerAssignor) Protocols() []Protocol { return []Protocol{Consumer} }

// rangeServerTopic is Kafka's RangeAssignor.TopicMetadata: one topic's quota
// and where its next run starts.
type rangeServerTopic struct {
	name        string
	partitions  int32
	numbers     []int32 // 0..partitions-1, sliced into the members' runs
	subscribers int32
	nextRange   int32
	extra       int32 // subscribers still due one more partition
	runs        []string
}

// Assign computes the target assignment.
func (rangeServerAssignor) Assign(g Group, ex *Explainer) Result {
	members := SortMembers(g.Members)
	if len(members) == 0 {
		ex.Addf("no members: nothing to assign")
		return Result{Assignment: NewAssignment(members), Explanation: ex.Lines()}
	}
	explainRangeServerOrder(ex, members, g)
	a := make(Assignment, len(members))
	topics := assignRangeServer(g, members, ex, func(k int, runs []rangeServerRun) {
		// Sized once: at 10,000 members of 1,000 topics, growing each
		// member's map to its fifty topics was most of the assignor's time.
		mine := make(map[string][]int32, len(runs))
		for _, r := range runs {
			mine[r.topic] = r.partitions
		}
		a[members[k].ID] = mine
	})
	explainRangeServerTopics(ex, topics)
	return Result{Assignment: a, Explanation: ex.Lines()}
}

// AssignEach is Assign without the Assignment (see EachAssigner): at
// 10,000 members on 1,000 topics the maps of the first 500 members, a
// thousand topics each, were most of a run's memory (issue 21).
func (rangeServerAssignor) AssignEach(g Group, kept func(member int), fn func(member int, topic string, partitions []int32)) {
	if len(g.Members) == 0 {
		return
	}
	order := MemberOrder(g.Members)
	members := make([]Member, len(order))
	for k, i := range order {
		members[k] = g.Members[i]
	}
	assignRangeServer(g, members, nil, func(k int, runs []rangeServerRun) {
		i := order[k]
		if len(runs) == 0 {
			return
		}
		if ownsRuns(g.Members[i].Owned, runs) {
			kept(i)
			return
		}
		for _, r := range runs {
			fn(i, r.topic, r.partitions)
		}
	})
}

// ownsRuns: owned lists exactly the runs, in their order.
func ownsRuns(owned []TopicPartition, runs []rangeServerRun) bool {
	k := 0
	for _, r := range runs {
		for _, p := range r.partitions {
			if k >= len(owned) || owned[k].Topic != r.topic || owned[k].Partition != p {
				return false
			}
			k++
		}
	}
	return k == len(owned)
}

// rangeServerRun is one member's share of one topic.
type rangeServerRun struct {
	topic      string
	partitions []int32
}

// assignRangeServer is the rule, once for Assign and AssignEach: each
// member in Kafka's order (members, sorted) gets its run of each topic it
// subscribes to, in topic order; each is handed each member's place in
// members and its non-empty runs (valid only during the call). It returns
// the topics, for the explanation.
func assignRangeServer(g Group, members []Member, ex *Explainer, each func(k int, runs []rangeServerRun)) []rangeServerTopic {
	topics, subs := newRangeServerTopics(g, members)
	var runs []rangeServerRun
	for i, m := range members {
		runs = runs[:0]
		for _, t := range subs[i] {
			ts := &topics[t]
			from, to := ts.take()
			if from < to {
				runs = append(runs, rangeServerRun{ts.name, ts.numbers[from:to:to]})
			}
			if ex.Enabled() && len(ts.runs) <= rangeServerShownRuns {
				ts.note(rangeServerRunText(m.ID, ts.numbers[from:to]))
			}
		}
		each(i, runs)
	}
	return topics
}

// newRangeServerTopics returns the group's topics in name order with their
// subscriber counts, and each member's subscription as topic indices.
func newRangeServerTopics(g Group, members []Member) ([]rangeServerTopic, [][]int32) {
	names := SortedTopics(g.Topics)
	index := make(map[string]int32, len(names))
	total := 0
	for t, n := range names {
		index[n] = int32(t)
		total += int(g.Topics[n])
	}
	subs := serverSubscriptionIndices(members, index)
	topics := make([]rangeServerTopic, len(names))
	for _, ts := range subs {
		for _, t := range ts {
			topics[t].subscribers++
		}
	}
	// All partition numbers in one array, topic after topic; every run is a
	// capped slice of it, so the million-partition case allocates once.
	numbers := make([]int32, 0, total)
	for t, n := range names {
		ts := &topics[t]
		ts.name, ts.partitions = n, g.Topics[n]
		for p := int32(0); p < ts.partitions; p++ {
			numbers = append(numbers, p)
		}
		ts.numbers = numbers[len(numbers)-int(ts.partitions):]
		if ts.subscribers > 0 {
			ts.extra = ts.partitions % ts.subscribers
		}
	}
	return topics, subs
}

// take returns the next subscriber's run [from, to) of the topic (Kafka's
// addPartitionsToAssignment): P/S partitions, one more while extras remain.
func (ts *rangeServerTopic) take() (from, to int32) {
	n := ts.partitions
	quota := n / ts.subscribers
	if ts.extra > 0 {
		quota++
		ts.extra--
	}
	from = ts.nextRange
	to = min(from+quota, n)
	ts.nextRange = to
	return from, to
}

// rangeServerShownRuns is how many members' runs a topic's explanation names.
const rangeServerShownRuns = 8

// note records a run for the explanation, up to rangeServerShownRuns.
func (ts *rangeServerTopic) note(run string) {
	switch {
	case len(ts.runs) < rangeServerShownRuns:
		ts.runs = append(ts.runs, run)
	case len(ts.runs) == rangeServerShownRuns:
		ts.runs = append(ts.runs, "…")
	}
}

// rangeServerRunText names a member's share of a topic: "c0 0–3", "c0 none".
func rangeServerRunText(id string, share []int32) string {
	if len(share) == 0 {
		return id + " none"
	}
	return id + " " + FormatPartitions(share)
}

func explainRangeServerOrder(ex *Explainer, members []Member, g Group) {
	if !ex.Enabled() {
		return
	}
	const show = 12
	ids := make([]string, 0, show+1)
	for i, m := range members {
		if i == show {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, m.ID)
	}
	ex.Addf("order: static members by instance id, then dynamic members by member id: %s", strings.Join(ids, ", "))
	for _, m := range g.Members {
		if len(m.Owned) > 0 {
			ex.Addf("current targets ignored: the server-side range assignor is not sticky since Kafka 3.9 (KAFKA-16944)")
			break
		}
	}
}

func explainRangeServerTopics(ex *Explainer, topics []rangeServerTopic) {
	for _, ts := range topics {
		if ts.subscribers == 0 {
			continue
		}
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		n := ts.partitions
		ex.Addf("%s: %s / %d members = %d rest %d → %s",
			ts.name, serverPlural(int(n)), ts.subscribers, n/ts.subscribers, n%ts.subscribers, strings.Join(ts.runs, ", "))
	}
}
