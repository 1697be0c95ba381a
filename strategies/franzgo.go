package strategies

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A franz-go leader computes the classic assignment with franz-go's own
// balancers (kgo.RangeBalancer, RoundRobinBalancer, StickyBalancer,
// CooperativeStickyBalancer), not Java's: its sticky family is its own
// algorithm. FranzGo runs them as a franz-go leader does
// (groupConsumer.balanceGroup): every member's JoinGroup metadata as the
// balancer itself writes it (its subscription, what it last owned and the
// generation it owned it at), the members sorted as franz-go sorts them,
// MemberBalancer, Balance over the partition counts of the subscribed
// topics, and the SyncGroup assignments parsed back. franz-go balances by
// rack only with kgo.BalanceRacks, which is off by default, so racks are
// not used. It is a pure function of the group.

// FranzGoBalancer is franz-go's balancer of the classic assignor name
// (Kafka's protocol name), or false when franz-go has none.
func FranzGoBalancer(kafkaName string) (kgo.GroupBalancer, bool) {
	switch kafkaName {
	case "range":
		return kgo.RangeBalancer(), true
	case "roundrobin":
		return kgo.RoundRobinBalancer(), true
	case "sticky":
		return kgo.StickyBalancer(), true
	case "cooperative-sticky":
		return kgo.CooperativeStickyBalancer(), true
	}
	return nil, false
}

// FranzGoRuns is how many times FranzGo runs a sticky balancer on a group
// of ordinary size: franz-go's sticky balancing iterates Go maps, whose
// order Go randomizes, so one group may get different (equally sticky and
// balanced) answers from one run to the next. kviz's engine is
// deterministic, so it takes the answers of several runs and keeps one by
// a fixed rule. A large group gets fewer runs (franzRuns): one franz-go
// sticky run over a million partitions takes seconds.
const FranzGoRuns = 16

// franzRuns is how many sticky runs a group gets, by its size (partitions
// times members): FranzGoRuns up to 200,000, 4 up to 20 million, then 1.
func franzRuns(g Group) int {
	parts := 0
	for _, n := range g.Topics {
		parts += int(n)
	}
	switch work := parts * max(len(g.Members), 1); {
	case work <= 200_000:
		return FranzGoRuns
	case work <= 20_000_000:
		return 4
	}
	return 1
}

// FranzGo computes the assignment a franz-go leader running the classic
// assignor kafkaName makes for g. Range and roundrobin answer one way;
// franz-go's sticky balancers may answer several ways: of the answers of
// FranzGoRuns runs (fewer for a large group), FranzGo keeps the one that
// moves the fewest owned partitions, then the first in member, topic and
// partition order, and its Explanation says how many answers there were. Under
// cooperative-sticky, a partition moving between two live members is left
// out of this round (franz-go's BalancePlan.AdjustCooperative): it is
// Withheld from its owner, with To unknown ("") because franz-go's plan
// does not say where it will go; the follow-up rebalance places it.
func FranzGo(kafkaName string, g Group) (Result, error) {
	bal, ok := FranzGoBalancer(kafkaName)
	if !ok {
		return Result{}, fmt.Errorf("franz-go has no %s balancer", kafkaName)
	}
	runs := 1
	if kafkaName == "sticky" || kafkaName == "cooperative-sticky" {
		runs = franzRuns(g)
	}
	outcomes, err := FranzGoOutcomes(kafkaName, g, runs)
	if err != nil {
		return Result{}, err
	}
	a := outcomes[0]
	res := Result{Assignment: a}
	if bal.IsCooperative() {
		res.Withheld = franzWithheld(g, a)
	}
	res.Explanation = []string{fmt.Sprintf("franz-go's %s balancer (kgo), as a franz-go leader runs it", kafkaName)}
	if len(outcomes) > 1 {
		res.Explanation = append(res.Explanation, fmt.Sprintf(
			"franz-go answered %d different ways in %d runs (its sticky balancing iterates Go maps, in random order): kviz keeps the one moving the fewest owned partitions", len(outcomes), runs))
	}
	return res, nil
}

// FranzGoOutcomes runs franz-go's balancer runs times and returns the
// distinct assignments it made, the one FranzGo keeps first, then in the
// same order (fewest owned partitions moved, then member, topic and
// partition order).
func FranzGoOutcomes(kafkaName string, g Group, runs int) ([]Assignment, error) {
	bal, ok := FranzGoBalancer(kafkaName)
	if !ok {
		return nil, fmt.Errorf("franz-go has no %s balancer", kafkaName)
	}
	members, topics := FranzGoMembers(bal, g), FranzGoTopics(g)
	seen := map[string]bool{}
	type outcome struct {
		a     Assignment
		key   string
		moved int
	}
	var out []outcome
	for range max(runs, 1) {
		into, err := FranzGoPlan(bal, members, topics)
		if err != nil {
			return nil, err
		}
		a, err := FranzGoAssignment(bal, into)
		if err != nil {
			return nil, err
		}
		for _, m := range g.Members {
			if a[m.ID] == nil {
				a[m.ID] = map[string][]int32{}
			}
		}
		key := assignmentKey(a)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, outcome{a, key, ownedMoved(g, a)})
	}
	slices.SortFunc(out, func(x, y outcome) int {
		if x.moved != y.moved {
			return x.moved - y.moved
		}
		return strings.Compare(x.key, y.key)
	})
	as := make([]Assignment, len(out))
	for i, o := range out {
		as[i] = o.a
	}
	return as, nil
}

// assignmentKey writes an assignment in member, topic, partition order.
func assignmentKey(a Assignment) string {
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(a)) {
		b.WriteString(id)
		for _, t := range SortedTopics(a[id]) {
			fmt.Fprintf(&b, " %s%v", t, a[id][t])
		}
		b.WriteString(";")
	}
	return b.String()
}

// ownedMoved counts the owned partitions an assignment takes from their
// owner.
func ownedMoved(g Group, a Assignment) int {
	n := 0
	for _, m := range g.Members {
		for _, tp := range m.Owned {
			if !slices.Contains(a[m.ID][tp.Topic], tp.Partition) {
				n++
			}
		}
	}
	return n
}

// FranzGoMembers are the JoinGroup response members a franz-go leader sees,
// each with the metadata bal writes, sorted as franz-go sorts them before
// balancing (static by instance id first, then by member id).
func FranzGoMembers(bal kgo.GroupBalancer, g Group) []kmsg.JoinGroupResponseMember {
	out := make([]kmsg.JoinGroupResponseMember, len(g.Members))
	for i, m := range g.Members {
		owned := map[string][]int32{}
		for _, tp := range m.Owned {
			owned[tp.Topic] = append(owned[tp.Topic], tp.Partition)
		}
		for t := range owned {
			slices.Sort(owned[t])
		}
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.ID
		if m.InstanceID != "" {
			jm.InstanceID = kmsg.StringPtr(m.InstanceID)
		}
		jm.ProtocolMetadata = bal.JoinGroupMetadata(slices.Sorted(slices.Values(m.Topics)), owned, m.Generation)
		out[i] = jm
	}
	sort.SliceStable(out, func(i, j int) bool {
		l, r := out[i], out[j]
		switch {
		case l.InstanceID != nil && r.InstanceID != nil:
			return *l.InstanceID < *r.InstanceID
		case l.InstanceID != nil:
			return true
		case r.InstanceID != nil:
			return false
		}
		return l.MemberID < r.MemberID
	})
	return out
}

// FranzGoTopics is what franz-go's leader balances over: the partition
// counts of the topics some member subscribes to that exist.
func FranzGoTopics(g Group) map[string]int32 {
	out := map[string]int32{}
	for _, m := range g.Members {
		for _, t := range m.Topics {
			if n, ok := g.Topics[t]; ok {
				out[t] = n
			}
		}
	}
	return out
}

// FranzGoPlan is the balancing step alone: MemberBalancer, then Balance
// (BalanceOrError where the balancer has it).
func FranzGoPlan(bal kgo.GroupBalancer, members []kmsg.JoinGroupResponseMember, topics map[string]int32) (kgo.IntoSyncAssignment, error) {
	mb, _, err := bal.MemberBalancer(members)
	if err != nil {
		return nil, fmt.Errorf("franz-go %s: %v", bal.ProtocolName(), err)
	}
	if withErr, ok := mb.(kgo.GroupMemberBalancerOrError); ok {
		into, err := withErr.BalanceOrError(topics)
		if err != nil {
			return nil, fmt.Errorf("franz-go %s: %v", bal.ProtocolName(), err)
		}
		return into, nil
	}
	return mb.Balance(topics), nil
}

// FranzGoAssignment decodes the SyncGroup assignments of a plan.
func FranzGoAssignment(bal kgo.GroupBalancer, into kgo.IntoSyncAssignment) (Assignment, error) {
	out := Assignment{}
	for _, sa := range into.IntoSyncAssignment() {
		parsed, err := bal.ParseSyncAssignment(sa.MemberAssignment)
		if err != nil {
			return nil, fmt.Errorf("franz-go %s: the plan for %s does not parse: %v", bal.ProtocolName(), sa.MemberID, err)
		}
		topics := map[string][]int32{}
		for t, ps := range parsed {
			if len(ps) > 0 {
				topics[t] = slices.Sorted(slices.Values(ps))
			}
		}
		out[sa.MemberID] = topics
	}
	return out, nil
}

// franzWithheld: partitions a member owns, of a topic it still subscribes
// to, that the plan gives to nobody (AdjustCooperative took them out).
func franzWithheld(g Group, a Assignment) []Withheld {
	assigned := map[TopicPartition]bool{}
	for _, ts := range a {
		for t, ps := range ts {
			for _, p := range ps {
				assigned[TopicPartition{t, p}] = true
			}
		}
	}
	var out []Withheld
	for _, m := range g.Members {
		for _, tp := range m.Owned {
			if n, ok := g.Topics[tp.Topic]; ok && tp.Partition < n && slices.Contains(m.Topics, tp.Topic) && !assigned[tp] {
				out = append(out, Withheld{TopicPartition: tp, From: m.ID})
			}
		}
	}
	slices.SortFunc(out, func(x, y Withheld) int { return CompareTopicPartitions(x.TopicPartition, y.TopicPartition) })
	return out
}
