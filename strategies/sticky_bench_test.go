package strategies

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Sticky-family benchmarks on Kafka's scale cases, with franz-go's sticky
// balancer on the same input for the ratio. Run:
//   go test ./strategies/ -run '^$' -bench 'StickyFamily' -benchtime 3x

type stickyBenchCase struct {
	name       string
	topics     int
	partitions int32
	members    int
	subscribe  func(i, members int, all []string) []string
	withOwned  bool // every member but one owns its first-round assignment
}

func stickyBenchGroup(c stickyBenchCase) Group {
	g := Group{Topics: map[string]int32{}}
	all := make([]string, c.topics)
	for i := range all {
		all[i] = fmt.Sprintf("topic-%04d", i)
		g.Topics[all[i]] = c.partitions
	}
	for i := 0; i < c.members; i++ {
		g.Members = append(g.Members, Member{ID: fmt.Sprintf("consumer-%05d", i), Topics: c.subscribe(i, c.members, all), Generation: NoGeneration})
	}
	if c.withOwned {
		first := StickyAssignor{}.Assign(g, nil).Assignment
		for i := range g.Members[1:] {
			m := &g.Members[i+1]
			m.Generation = 1
			for _, t := range SortedTopics(first[m.ID]) {
				for _, p := range first[m.ID][t] {
					m.Owned = append(m.Owned, TopicPartition{t, p})
				}
			}
		}
	}
	return g
}

func stickyAllTopics(_, _ int, all []string) []string { return all }

var stickyBenchCases = []stickyBenchCase{
	{name: "workshop-20x50-30m", topics: 20, partitions: 50, members: 30, subscribe: stickyAllTopics},
	{name: "workshop-20x50-30m-owned", topics: 20, partitions: 50, members: 30, subscribe: stickyAllTopics, withOwned: true},
	{name: "mixed-100x200-500m", topics: 100, partitions: 200, members: 500, subscribe: stickyQuarterFirstHalf},
	{name: "mixed-100x200-500m-owned", topics: 100, partitions: 200, members: 500, subscribe: stickyQuarterFirstHalf, withOwned: true},
	{name: "1M-500x2000-2000m", topics: 500, partitions: 2000, members: 2000, subscribe: stickyAllTopics},
	{name: "1M-500x2000-2000m-owned", topics: 500, partitions: 2000, members: 2000, subscribe: stickyAllTopics, withOwned: true},
	{name: "1M-lastOnFirstTopic", topics: 500, partitions: 2000, members: 2000, subscribe: stickyLastOnFirstTopic},
	{name: "1M-lastOnFirstTopic-owned", topics: 500, partitions: 2000, members: 2000, subscribe: stickyLastOnFirstTopic, withOwned: true},
}

// quarterFirstHalf: every 4th member takes the first 50 topics, the others
// the last 50 (Kafka's AbstractStickyAssignorTest large-scale case).
func stickyQuarterFirstHalf(i, _ int, all []string) []string {
	if i%4 == 0 {
		return all[:len(all)/2]
	}
	return all[len(all)/2:]
}

func stickyLastOnFirstTopic(i, members int, all []string) []string {
	if i == members-1 {
		return all[:1]
	}
	return all
}

func BenchmarkStickyFamily(b *testing.B) {
	for _, c := range stickyBenchCases {
		// The group is built inside the case's own Run, so -bench filters
		// skip building groups they do not time.
		b.Run(c.name, func(b *testing.B) {
			g := stickyBenchGroup(c)
			for _, name := range []string{"sticky", "cooperative-sticky"} {
				a, _ := Lookup(name)
				b.Run("kviz-"+name, func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						a.Assign(g, nil)
					}
				})
			}
			b.Run("franz-go-sticky", func(b *testing.B) { benchFranzSticky(b, g) })
		})
	}
}

func benchFranzSticky(b *testing.B, g Group) {
	bal := kgo.StickyBalancer()
	members := stickyFranzMembers(bal, g)
	topics := map[string]int32{}
	for _, m := range g.Members {
		for _, t := range m.Topics {
			topics[t] = g.Topics[t]
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mb, _, err := bal.MemberBalancer(members)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(topics); err != nil {
			b.Fatal(err)
		}
	}
}

func stickyFranzMembers(bal kgo.GroupBalancer, g Group) []kmsg.JoinGroupResponseMember {
	out := make([]kmsg.JoinGroupResponseMember, len(g.Members))
	for i, m := range g.Members {
		owned := map[string][]int32{}
		for _, tp := range m.Owned {
			owned[tp.Topic] = append(owned[tp.Topic], tp.Partition)
		}
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.ID
		jm.ProtocolMetadata = bal.JoinGroupMetadata(slices.Sorted(slices.Values(m.Topics)), owned, m.Generation)
		out[i] = jm
	}
	return out
}

// The workshop size explained, as the lab runs it.
func BenchmarkStickyWorkshopExplained(b *testing.B) {
	g := stickyBenchGroup(stickyBenchCases[1])
	for i := 0; i < b.N; i++ {
		CooperativeStickyAssignor{}.Assign(g, NewExplainer(0))
	}
}
