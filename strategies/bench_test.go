package strategies

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Benchmarks on Kafka's own scale cases (the ones its assignor tests time)
// and a workshop-size group, for every registered assignor and for
// franz-go's balancers on the same inputs. Inputs are built before the timer.
//
//	go test ./strategies/ -run '^$' -bench 'Scale' -benchtime 1x   (1M partitions: slow, run once)
//	go test ./strategies/ -run '^$' -bench 'Workshop'
//
// "fresh" is a group with no history; "again" is the next rebalance, where
// every member but the first owns what the same assignor gave it in the
// first round (generation 1) and the first one comes back with nothing.

// benchCase builds one input group.
type benchCase struct {
	name  string
	build func() Group
}

// scaleGroup: topics × partitions, members subscribed by subscribe(i).
func scaleGroup(topics int, partitions int32, members int, subscribe func(i int, all []string) []string) Group {
	g := Group{Topics: make(map[string]int32, topics)}
	all := make([]string, topics)
	for t := range topics {
		all[t] = fmt.Sprintf("topic-%04d", t)
		g.Topics[all[t]] = partitions
	}
	g.Members = make([]Member, members)
	for i := range members {
		g.Members[i] = Member{ID: fmt.Sprintf("consumer-%05d", i), Topics: subscribe(i, all), Generation: NoGeneration}
	}
	return g
}

func allTopics(_ int, all []string) []string { return all }

var scaleCases = []benchCase{
	// 500 topics × 2,000 partitions (1M), 2,000 members, all subscribed.
	{"1M-all", func() Group { return scaleGroup(500, 2000, 2000, allTopics) }},
	// The same, the last member subscribed to the first topic only.
	{"1M-last-on-first", func() Group {
		return scaleGroup(500, 2000, 2000, func(i int, all []string) []string {
			if i == 1999 {
				return all[:1]
			}
			return all
		})
	}},
	// 100 topics × 200 partitions, 500 members: every 4th takes the first
	// 50 topics, the others the last 50.
	{"20k-split", func() Group {
		return scaleGroup(100, 200, 500, func(i int, all []string) []string {
			if i%4 == 0 {
				return all[:50]
			}
			return all[50:]
		})
	}},
}

var workshopCase = benchCase{"workshop", func() Group { return scaleGroup(20, 50, 30, allTopics) }}

// againGroup returns g where every member but the first owns its share of
// first (generation 1).
func againGroup(g Group, first Assignment) Group {
	out := g
	out.Members = slices.Clone(g.Members)
	for i := range out.Members {
		if i == 0 {
			continue
		}
		m := &out.Members[i]
		for _, t := range SortedTopics(first[m.ID]) {
			for _, p := range first[m.ID][t] {
				m.Owned = append(m.Owned, TopicPartition{t, p})
			}
		}
		m.Generation = 1
	}
	return out
}

// franzBalancers are franz-go's group balancers, by the kviz name of the
// assignor each corresponds to.
var franzBalancers = []struct {
	name string
	bal  func() kgo.GroupBalancer
}{
	{"range", kgo.RangeBalancer},
	{"roundrobin", kgo.RoundRobinBalancer},
	{"sticky", kgo.StickyBalancer},
	{"cooperative-sticky", kgo.CooperativeStickyBalancer},
}

func BenchmarkScale(b *testing.B) {
	for _, c := range scaleCases {
		benchCaseAll(b, c)
	}
}

func BenchmarkWorkshop(b *testing.B) { benchCaseAll(b, workshopCase) }

// benchCaseAll times every registered kviz assignor and every franz-go
// balancer on c, fresh and again.
func benchCaseAll(b *testing.B, c benchCase) {
	g := c.build()
	for _, name := range Names() {
		a, _ := Lookup(name)
		b.Run(c.name+"/fresh/kviz="+name, func(b *testing.B) { benchKviz(b, a, g) })
		b.Run(c.name+"/again/kviz="+name, func(b *testing.B) {
			benchKviz(b, a, againGroup(g, a.Assign(g, nil).Assignment))
		})
	}
	for _, f := range franzBalancers {
		b.Run(c.name+"/fresh/franz="+f.name, func(b *testing.B) { benchFranz(b, f.bal(), g) })
		b.Run(c.name+"/again/franz="+f.name, func(b *testing.B) {
			first := franzBalance(b, f.bal(), franzMembers(f.bal(), g), franzTopics(g))
			benchFranz(b, f.bal(), againGroup(g, first))
		})
	}
}

func benchKviz(b *testing.B, a Assignor, g Group) {
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		a.Assign(g, nil)
	}
}

// benchFranz times what a franz-go leader does to balance: parse the
// members' metadata and compute the plan (not the SyncGroup encoding).
func benchFranz(b *testing.B, bal kgo.GroupBalancer, g Group) {
	members, topics := franzMembers(bal, g), franzTopics(g)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		franzPlan(b, bal, members, topics)
	}
}
