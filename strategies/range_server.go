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
	topics, subs := newRangeServerTopics(g, members)
	a := make(Assignment, len(members))
	var got [][]int32 // this member's runs, with their topics in gotTopic
	var gotTopic []int32
	for i, m := range members {
		got, gotTopic = got[:0], gotTopic[:0]
		for _, t := range subs[i] {
			ts := &topics[t]
			from, to := ts.take()
			if from < to {
				got, gotTopic = append(got, ts.numbers[from:to:to]), append(gotTopic, t)
			}
			if ex.Enabled() && len(ts.runs) <= rangeServerShownRuns {
				ts.note(rangeServerRun(m.ID, ts.numbers[from:to]))
			}
		}
		// Sized once: at 10,000 members of 1,000 topics, growing each
		// member's map to its fifty topics was most of the assignor's time.
		mine := make(map[string][]int32, len(got))
		for j, run := range got {
			mine[topics[gotTopic[j]].name] = run
		}
		a[m.ID] = mine
	}
	explainRangeServerTopics(ex, topics)
	return Result{Assignment: a, Explanation: ex.Lines()}
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

// rangeServerRun names a member's share of a topic: "c0 0–3", "c0 none".
func rangeServerRun(id string, share []int32) string {
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
