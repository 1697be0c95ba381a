package strategies

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Benchmarks of the server-side assignors on Kafka's scale cases (issue 2):
//
//	big:      500 topics × 2,000 partitions (1M), 2,000 members, all subscribed
//	big-last: the same, the last member subscribed to the first topic only
//	mixed:    100 topics × 200 partitions, 500 members; every 4th member
//	          subscribes to the first 50 topics, the others to the last 50
//	workshop: 20 topics × 50 partitions, 30 members (target < 2 ms)
//
// each fresh and "owned": every member but the last carrying its first-round
// assignment as its current target. Run with
//
//	go test ./strategies/ -run '^$' -bench 'Uniform|RangeServer' -benchmem

type serverBenchCase struct {
	name     string
	topics   int
	parts    int32
	members  int
	subsOf   func(member int, topics []string) []string
	owned    bool
	assignor string
}

func serverAllTopics(_ int, topics []string) []string { return topics }

func serverBigLast(members int) func(int, []string) []string {
	return func(m int, topics []string) []string {
		if m == members-1 {
			return topics[:1]
		}
		return topics
	}
}

func serverMixed(m int, topics []string) []string {
	if m%4 == 0 {
		return topics[:50]
	}
	return topics[len(topics)-50:]
}

var serverBenchGroups sync.Map // case key → Group

// serverBenchGroup builds (once) the input of a case: for "owned" cases it runs
// the same assignor once and feeds the result back to all members but the last.
func serverBenchGroup(c serverBenchCase) Group {
	key := fmt.Sprintf("%s/%s/%v", c.assignor, c.name, c.owned)
	if g, ok := serverBenchGroups.Load(key); ok {
		return g.(Group)
	}
	topics := make([]string, c.topics)
	g := Group{Topics: make(map[string]int32, c.topics)}
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%03d", i)
		g.Topics[topics[i]] = c.parts
	}
	for m := 0; m < c.members; m++ {
		g.Members = append(g.Members, Member{ID: fmt.Sprintf("member-%04d", m), Topics: c.subsOf(m, topics)})
	}
	if c.owned {
		a, _ := Lookup(c.assignor)
		first := a.Assign(g, nil).Assignment
		last := g.Members[len(g.Members)-1]
		g.Members = append(serverWithOwned(g.Members[:len(g.Members)-1], first), last)
	}
	serverBenchGroups.Store(key, g)
	return g
}

func serverBenchCases(assignor string) []serverBenchCase {
	var out []serverBenchCase
	for _, owned := range []bool{false, true} {
		out = append(out,
			serverBenchCase{name: "big", topics: 500, parts: 2000, members: 2000, subsOf: serverAllTopics, owned: owned, assignor: assignor},
			serverBenchCase{name: "big-last", topics: 500, parts: 2000, members: 2000, subsOf: serverBigLast(2000), owned: owned, assignor: assignor},
			serverBenchCase{name: "mixed", topics: 100, parts: 200, members: 500, subsOf: serverMixed, owned: owned, assignor: assignor},
			serverBenchCase{name: "workshop", topics: 20, parts: 50, members: 30, subsOf: serverAllTopics, owned: owned, assignor: assignor},
		)
	}
	return out
}

func serverRunBench(b *testing.B, assignor string) {
	a, err := Lookup(assignor)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range serverBenchCases(assignor) {
		name := c.name + "/fresh"
		if c.owned {
			name = c.name + "/owned"
		}
		b.Run(name, func(b *testing.B) {
			g := serverBenchGroup(c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				a.Assign(g, nil)
			}
		})
		// Let the next case run without this one's million-entry input on the heap.
		serverBenchGroups.Clear()
		runtime.GC()
	}
}

func BenchmarkUniform(b *testing.B)     { serverRunBench(b, "uniform") }
func BenchmarkRangeServer(b *testing.B) { serverRunBench(b, "range-server") }

// The lab explains every step it shows; the workshop group with an explainer.
func BenchmarkUniformWorkshopExplained(b *testing.B) {
	g := serverBenchGroup(serverBenchCase{name: "workshop", topics: 20, parts: 50, members: 30, subsOf: serverAllTopics, owned: true, assignor: "uniform"})
	b.ReportAllocs()
	for b.Loop() {
		uniformAssignor{}.Assign(g, NewExplainer(0))
	}
}

// franz-go has no KIP-848 server assignors, but its RangeBalancer computes
// the same answer as range-server (client range without racks): on the same
// inputs, the ratio says how kviz compares with a Go implementation built for
// production. Timed: franz-go's MemberBalancer (decoding the members'
// metadata) and Balance; kviz's Assign.
func BenchmarkRangeServerVersusFranzRange(b *testing.B) {
	for _, c := range serverBenchCases("range-server") {
		if c.owned {
			continue // neither reads owned partitions
		}
		g := serverBenchGroup(c)
		b.Run(c.name+"/kviz", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rangeServerAssignor{}.Assign(g, nil)
			}
		})
		members, topics := serverFranzInput(kgo.RangeBalancer(), g)
		b.Run(c.name+"/franz-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				mb, _, err := kgo.RangeBalancer().MemberBalancer(members)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(topics); err != nil {
					b.Fatal(err)
				}
			}
		})
		serverBenchGroups.Clear()
		runtime.GC()
	}
}

// serverFranzInput is what a franz-go group leader holds before balancing: the
// JoinGroup members with the metadata bal encodes, and the subscribed topics.
func serverFranzInput(bal kgo.GroupBalancer, g Group) ([]kmsg.JoinGroupResponseMember, map[string]int32) {
	topics := map[string]int32{}
	members := make([]kmsg.JoinGroupResponseMember, len(g.Members))
	for i, m := range g.Members {
		jm := kmsg.NewJoinGroupResponseMember()
		jm.MemberID = m.ID
		if m.InstanceID != "" {
			jm.InstanceID = kmsg.StringPtr(m.InstanceID)
		}
		jm.ProtocolMetadata = bal.JoinGroupMetadata(slices.Sorted(slices.Values(m.Topics)), nil, m.Generation)
		members[i] = jm
		for _, t := range m.Topics {
			topics[t] = g.Topics[t]
		}
	}
	return members, topics
}

// The model's KIP-848 case (issue 3): one topic of 10,000 partitions, every
// member holding its target from the last round, and one more member joining,
// so every member gives up a partition or two. The model makes such a call on
// each heartbeat that bumps the group epoch, for 1 to 1,000 members.
func BenchmarkUniformJoin(b *testing.B) {
	for _, members := range []int{100, 1000} {
		b.Run(fmt.Sprintf("%dx10000", members), func(b *testing.B) {
			g := Group{Topics: map[string]int32{"orders": 10000}}
			for m := 0; m < members; m++ {
				g.Members = append(g.Members, Member{ID: fmt.Sprintf("consumer-%d", m), Topics: []string{"orders"}})
			}
			g.Members = serverWithOwned(g.Members, uniformAssignor{}.Assign(g, nil).Assignment)
			g.Members = append(g.Members, Member{ID: "consumer-joining", Topics: []string{"orders"}})
			b.ReportAllocs()
			for b.Loop() {
				uniformAssignor{}.Assign(g, nil)
			}
		})
	}
}

// BenchmarkUniformJoinSequence is the assignor's share of the model's
// 1,000 × 10,000 benchmark (issue 3): members join one by one and each call
// gets every member's last target as Owned, through AssignEach as the model
// calls it.
func BenchmarkUniformJoinSequence(b *testing.B) {
	const members, partitions = 1000, 10000
	var bufs [2][]TopicPartition // this call's targets and the last call's
	b.ReportAllocs()
	for b.Loop() {
		g := Group{Topics: map[string]int32{"orders": partitions}}
		for m := 0; m < members; m++ {
			g.Members = append(g.Members, Member{ID: fmt.Sprintf("consumer-%08x", m*2654435761), Topics: []string{"orders"}})
			buf := bufs[m%2][:0]
			from, to := make([]int, len(g.Members)), make([]int, len(g.Members))
			uniformAssignor{}.AssignEach(g, func(i int) {
				// Copied: the buffer it lives in is the next call's.
				from[i] = len(buf)
				buf = append(buf, g.Members[i].Owned...)
				to[i] = len(buf)
			}, func(i int, topic string, ps []int32) {
				if to[i] == 0 {
					from[i] = len(buf)
				}
				for _, p := range ps {
					buf = append(buf, TopicPartition{topic, p})
				}
				to[i] = len(buf)
			})
			for i := range g.Members {
				g.Members[i].Owned = buf[from[i]:to[i]]
			}
			bufs[m%2] = buf
		}
	}
}
