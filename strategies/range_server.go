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
	if len(members) == 0 {
		ex.Addf("no members: nothing to assign")
		return Result{Assignment: NewAssignment(members), Explanation: ex.Lines()}
	}
	explainRangeServerOrder(ex, members, g)
	names := SortedTopics(g.Topics)
	index := make(map[string]int32, len(names))
	for t, n := range names {
		index[n] = int32(t)
	}
	subs := subscriptionIndices(members, index)
	topics := make([]rangeServerTopic, len(names))
	for _, ts := range subs {
		for _, t := range ts {
			topics[t].subscribers++
		}
	}
	// All partition numbers in one array, topic after topic; every run is a
	// capped slice of it, so the million-partition case allocates once.
	base := make([]int, len(names)+1)
	for t, n := range names {
		base[t+1] = base[t] + int(g.Topics[n])
		if topics[t].subscribers > 0 {
			topics[t].extra = g.Topics[n] % topics[t].subscribers
		}
	}
	numbers := make([]int32, base[len(names)])
	for t := range names {
		for p := base[t]; p < base[t+1]; p++ {
			numbers[p] = int32(p - base[t])
		}
	}
	a := make(Assignment, len(members))
	for i, m := range members {
		mine := make(map[string][]int32, len(subs[i]))
		a[m.ID] = mine
		for _, t := range subs[i] {
			from, to := topics[t].take(g.Topics[names[t]])
			if from < to {
				mine[names[t]] = numbers[base[t]+int(from) : base[t]+int(to) : base[t]+int(to)]
			}
			if ex.Enabled() {
				topics[t].note(rangeServerRun(m.ID, from, to))
			}
		}
	}
	explainRangeServerTopics(ex, g, names, topics)
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

func explainRangeServerTopics(ex *Explainer, g Group, names []string, topics []rangeServerTopic) {
	for t, name := range names {
		ts := topics[t]
		if ts.subscribers == 0 {
			continue
		}
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		n := g.Topics[name]
		ex.Addf("%s: %s / %d members = %d rest %d → %s",
			name, pluralParts(int(n)), ts.subscribers, n/ts.subscribers, n%ts.subscribers, strings.Join(ts.runs, ", "))
	}
}
