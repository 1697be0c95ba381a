package strategies

import (
	"fmt"
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

func init() {
	Register(rangeServerAssignor{}, "org.apache.kafka.coordinator.group.assignor.RangeAssignor")
}

func (rangeServerAssignor) Name() string          { return "range-server" }
func (rangeServerAssignor) KafkaName() string     { return "range" }
func (rangeServerAssignor) Protocols() []Protocol { return []Protocol{Consumer} }

// rangeServerTopic is Kafka's RangeAssignor.TopicMetadata: one topic's quota
// and where its next run starts.
type rangeServerTopic struct {
	subscribers int32
	nextRange   int32
	extra       int32 // subscribers still due one more partition
	runs        []string
}

// Assign computes the target assignment.
func (rangeServerAssignor) Assign(g Group, ex *Explainer) Result {
	members := SortMembers(g.Members)
	a := NewAssignment(members)
	if len(members) == 0 {
		ex.Addf("no members: nothing to assign")
		return Result{Assignment: a, Explanation: ex.Lines()}
	}
	explainRangeServerOrder(ex, members, g)
	topics := make(map[string]*rangeServerTopic, len(g.Topics))
	subs := make([][]string, len(members))
	for i, m := range members {
		subs[i] = distinctTopics(m.Topics, g.Topics)
		for _, t := range subs[i] {
			if topics[t] == nil {
				topics[t] = &rangeServerTopic{}
			}
			topics[t].subscribers++
		}
	}
	// One array of partition numbers per topic, sliced into runs: no per-member
	// allocation for the million-partition case.
	numbers := make(map[string][]int32, len(topics))
	for t, ts := range topics {
		n := g.Topics[t]
		ts.extra = n % ts.subscribers
		numbers[t] = iota32(n)
	}
	for i, m := range members {
		for _, t := range subs[i] {
			ts := topics[t]
			from, to := ts.take(g.Topics[t])
			if from < to {
				a[m.ID][t] = numbers[t][from:to:to]
			}
			if ex.Enabled() {
				ts.note(rangeServerRun(m.ID, from, to))
			}
		}
	}
	explainRangeServerTopics(ex, g, topics)
	return Result{Assignment: a, Explanation: ex.Lines()}
}

// take returns the next subscriber's run [from, to) of a topic with n
// partitions (Kafka's addPartitionsToAssignment).
func (ts *rangeServerTopic) take(n int32) (from, to int32) {
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

// distinctTopics returns the known topics of a subscription without
// repeats, in the order given (a Kafka subscription is a set).
func distinctTopics(names []string, known map[string]int32) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if _, ok := known[n]; ok && !containsString(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func iota32(n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

func rangeServerRun(id string, from, to int32) string {
	switch {
	case from >= to:
		return id + " none"
	case to-from == 1:
		return fmt.Sprintf("%s %d", id, from)
	default:
		return fmt.Sprintf("%s %d–%d", id, from, to-1)
	}
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

func explainRangeServerTopics(ex *Explainer, g Group, topics map[string]*rangeServerTopic) {
	for _, t := range SortedTopics(topics) {
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		ts := topics[t]
		n := g.Topics[t]
		ex.Addf("%s: %s / %d members = %d rest %d → %s",
			t, pluralParts(int(n)), ts.subscribers, n/ts.subscribers, n%ts.subscribers, strings.Join(ts.runs, ", "))
	}
}
