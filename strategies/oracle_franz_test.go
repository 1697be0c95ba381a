package strategies

import (
	"slices"
	"sort"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"
)

// franz-go's balancers as an independent oracle. Its range and roundrobin
// claim to equal Java's; kviz's must equal them exactly (without racks:
// franz-go's rack balancing is its own, by leader rack, not KIP-881's).

// franzMembers builds the JoinGroup response members a franz-go leader sees,
// each with the metadata bal itself would send, sorted as franz-go's client
// sorts them before balancing (static by instance id, then member id).
func franzMembers(bal kgo.GroupBalancer, g Group) []kmsg.JoinGroupResponseMember {
	out := make([]kmsg.JoinGroupResponseMember, len(g.Members))
	for i, m := range g.Members {
		owned := map[string][]int32{}
		for _, tp := range m.Owned {
			owned[tp.Topic] = append(owned[tp.Topic], tp.Partition)
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

// fataler is what both *testing.B and *rapid.T offer.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// franzTopics is what franz-go's leader passes: partition counts of the
// topics some member subscribes to.
func franzTopics(g Group) map[string]int32 {
	out := map[string]int32{}
	for _, m := range g.Members {
		for _, t := range m.Topics {
			out[t] = g.Topics[t]
		}
	}
	return out
}

// franzBalance runs bal the way franz-go's groupConsumer does and returns
// the plan it would send in SyncGroup, decoded.
func franzBalance(tb fataler, bal kgo.GroupBalancer, members []kmsg.JoinGroupResponseMember, topics map[string]int32) Assignment {
	tb.Helper()
	into := franzPlan(tb, bal, members, topics)
	out := Assignment{}
	for _, sa := range into.IntoSyncAssignment() {
		parsed, err := bal.ParseSyncAssignment(sa.MemberAssignment)
		if err != nil {
			tb.Fatalf("franz-go plan for %s does not parse: %v", sa.MemberID, err)
		}
		topics := map[string][]int32{}
		for t, ps := range parsed {
			if len(ps) > 0 {
				topics[t] = ps
			}
		}
		out[sa.MemberID] = topics
	}
	return out
}

// franzPlan is the balancing step alone (what the benchmarks time).
func franzPlan(tb fataler, bal kgo.GroupBalancer, members []kmsg.JoinGroupResponseMember, topics map[string]int32) kgo.IntoSyncAssignment {
	mb, _, err := bal.MemberBalancer(members)
	if err != nil {
		tb.Fatalf("franz-go member balancer: %v", err)
	}
	if withErr, ok := mb.(kgo.GroupMemberBalancerOrError); ok {
		into, err := withErr.BalanceOrError(topics)
		if err != nil {
			tb.Fatalf("franz-go balance: %v", err)
		}
		return into
	}
	return mb.Balance(topics)
}

func TestRangeEqualsFranzGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, false)
		want := franzBalance(t, kgo.RangeBalancer(), franzMembers(kgo.RangeBalancer(), g), franzTopics(g))
		got := rangeAssignor{}.Assign(g, nil).Assignment
		if !equalAssignments(got, want) {
			t.Fatalf("kviz range %v\nfranz-go   %v", got, want)
		}
	})
}

func TestRoundRobinEqualsFranzGo(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, false)
		want := franzBalance(t, kgo.RoundRobinBalancer(), franzMembers(kgo.RoundRobinBalancer(), g), franzTopics(g))
		got := roundRobinAssignor{}.Assign(g, nil).Assignment
		if !equalAssignments(got, want) {
			t.Fatalf("kviz roundrobin %v\nfranz-go        %v", got, want)
		}
	})
}

// equalAssignments compares member → topic → partitions, treating a missing
// topic and an empty list alike.
func equalAssignments(a, b Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for m, ta := range a {
		tb, ok := b[m]
		if !ok {
			return false
		}
		for _, pair := range [][2]map[string][]int32{{ta, tb}, {tb, ta}} {
			for t, ps := range pair[0] {
				if !slices.Equal(ps, pair[1][t]) {
					return false
				}
			}
		}
	}
	return true
}
