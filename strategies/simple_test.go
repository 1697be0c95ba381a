package strategies

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The share assignor is kviz assign's until the engine simulates share
// groups: scenarios, the lab, compare and quiz (Lookup, Names) do not see
// it, and say why when named.
func TestSimpleIsForKvizAssignOnly(t *testing.T) {
	_, err := Lookup("simple")
	assert.ErrorContains(t, err, `strategy "simple" is the share protocol's assignor, which scenarios and the lab do not simulate yet; kviz assign --strategy simple computes its assignments`)
	a, err := LookupAny("org.apache.kafka.coordinator.group.assignor.SimpleAssignor")
	require.NoError(t, err)
	assert.Equal(t, "simple", a.Name())
	assert.NotContains(t, Names(), "simple")
	assert.Equal(t, "simple", AllNames()[len(AllNames())-1])
	assert.Equal(t, Names(), AllNames()[:len(AllNames())-1])
	for _, p := range Protocols() {
		assert.NotEqual(t, "simple", StrategyFor(p))
	}
	assert.ErrorContains(t, CheckRelease(a, ClientVersion{3, 9, 0}), "share groups (KIP-932) and their simple assignor appear in Kafka 4.0")
	assert.NoError(t, CheckRelease(a, ClientVersion{4, 0, 0}))
	for _, s := range []string{"KAFKA-18757", "KAFKA-19362", "share groups (KIP-932) in early access"} {
		assert.Contains(t, strings.Join(strings.Fields(VersionHelp()), " "), s)
	}
}

func TestTopicIDIsKafkasUuid(t *testing.T) {
	id, err := ParseTopicID("MkZ0Wr0bTXqCW3qLP7Ye4Q")
	require.NoError(t, err)
	assert.Equal(t, "MkZ0Wr0bTXqCW3qLP7Ye4Q", id.String())
	padded, err := ParseTopicID("MkZ0Wr0bTXqCW3qLP7Ye4Q==")
	require.NoError(t, err)
	assert.Equal(t, id, padded)
	// Uuid.hashCode: (int) (x >> 32) ^ (int) x, x = msb ^ lsb.
	x := id.MSB ^ id.LSB
	assert.Equal(t, int32(uint32(x>>32)^uint32(x)), id.HashCode())
	// java.util.UUID.nameUUIDFromBytes, checked on OpenJDK 17.
	assert.Equal(t, "Ta3X7r16P8i5ART59aqotg", NameTopicID("topic1").String())
	assert.Equal(t, int32(-1132702615), NameTopicID("topic1").HashCode())
	assert.Equal(t, "EsUA7Qt4ORCftGrw8ka-hw", NameTopicID("orders").String())
	for _, bad := range []string{"", "short", "MkZ0Wr0bTXqCW3qLP7Ye4Q=", "MkZ0Wr0bTXqCW3qLP7Ye4*", "AAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAQ"} {
		_, err := ParseTopicID(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, int32(31*7+2), topicPartitionHash(7, 2))
}

// The member order is the coordinator's HashMap of ids, not input order:
// consumer-3 comes first (KAFKA.md §4), and 4.1 deals round-robin in it.
func TestSimpleFollowsTheCoordinatorsMemberOrder(t *testing.T) {
	g := Group{Topics: map[string]int32{"t": 4}, Version: ClientVersion{4, 1, 0}}
	for _, id := range []string{"consumer-1", "consumer-2", "consumer-3"} {
		g.Members = append(g.Members, Member{ID: id, Topics: []string{"t"}})
	}
	s := newShareSpec(g)
	assert.Equal(t, []string{"consumer-3", "consumer-2", "consumer-1"}, []string{s.members[0].ID, s.members[1].ID, s.members[2].ID})
	ex := NewExplainer(0)
	res := simpleAssignor{}.Assign(g, ex)
	require.NoError(t, res.Err)
	lines := strings.Join(ex.Lines(), "\n")
	assert.Contains(t, lines, "consumer-3 (")
	assert.Contains(t, lines, "at most ⌈4/3⌉ = 2 each")
	total := 0
	for _, m := range g.Members {
		total += res.Assignment.Count(m.ID)
	}
	assert.Equal(t, 4, total, "4.1 gives each partition one member here")
}

// The quota arithmetic of KAFKA-19362: 5 members on 2 partitions share
// each among 3; x = 6/5 = 1.2 gives quotas 2, 1, 1, 1, 1.
func TestShareQuotas(t *testing.T) {
	sharing, x, quota := shareQuotas(5, 2)
	assert.Equal(t, 3, sharing)
	assert.InDelta(t, 1.2, x, 1e-12)
	var qs []int
	for k := range 5 {
		qs = append(qs, quota(k))
	}
	assert.Equal(t, []int{2, 1, 1, 1, 1}, qs)
	sharing, _, quota = shareQuotas(3, 7)
	assert.Equal(t, 1, sharing)
	assert.Equal(t, []int{3, 2, 2}, []int{quota(0), quota(1), quota(2)})
	assert.Equal(t, 6, kafkaNewHashMapArg(3), "(int) ((3 + 1) / 0.75f + 1)")
	assert.Equal(t, 2, kafkaNewHashMapArg(0))
}

func BenchmarkSimple(b *testing.B) {
	for _, c := range []struct{ members, partitions int }{{200, 1000}, {1000, 100}, {50, 100000}} {
		g := Group{Topics: map[string]int32{"a": int32(c.partitions / 2), "b": int32(c.partitions - c.partitions/2)}}
		for i := range c.members {
			g.Members = append(g.Members, Member{ID: fmt.Sprintf("member-%04d", i), Topics: []string{"a", "b"}})
		}
		for _, v := range []ClientVersion{{4, 1, 0}, {4, 2, 0}} {
			g.Version = v
			first := simpleAssignor{}.Assign(g, nil).Assignment
			again := g
			again.Members = nil
			for _, m := range g.Members {
				for _, topic := range SortedTopics(first[m.ID]) {
					for _, p := range first[m.ID][topic] {
						m.Owned = append(m.Owned, TopicPartition{topic, p})
					}
				}
				again.Members = append(again.Members, m)
			}
			for name, group := range map[string]Group{"fresh": g, "again": again} {
				b.Run(fmt.Sprintf("%s/%dx%d/%s", v, c.members, c.partitions, name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						simpleAssignor{}.Assign(group, nil)
					}
				})
			}
		}
	}
}
