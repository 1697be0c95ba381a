package strategies

import (
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"
)

// franz-go's balancers as an independent oracle. Its range and roundrobin
// claim to equal Java's; kviz's must equal them exactly (without racks:
// franz-go's rack balancing is its own, by leader rack, not KIP-881's).

// The franz-go helpers of the oracle tests and benchmarks run franz-go's
// balancers exactly as FranzGo does (franzgo.go).

// fataler is what both *testing.B and *rapid.T offer.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func franzMembers(bal kgo.GroupBalancer, g Group) []kmsg.JoinGroupResponseMember {
	return FranzGoMembers(bal, g)
}

func franzTopics(g Group) map[string]int32 { return FranzGoTopics(g) }

// franzBalance runs bal the way franz-go's groupConsumer does and returns
// the plan it would send in SyncGroup, decoded.
func franzBalance(tb fataler, bal kgo.GroupBalancer, members []kmsg.JoinGroupResponseMember, topics map[string]int32) Assignment {
	tb.Helper()
	a, err := FranzGoAssignment(bal, franzPlan(tb, bal, members, topics))
	if err != nil {
		tb.Fatalf("%v", err)
	}
	return a
}

// franzPlan is the balancing step alone (what the benchmarks time).
func franzPlan(tb fataler, bal kgo.GroupBalancer, members []kmsg.JoinGroupResponseMember, topics map[string]int32) kgo.IntoSyncAssignment {
	tb.Helper()
	into, err := FranzGoPlan(bal, members, topics)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	return into
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
