package strategies

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kafka's SimpleAssignorTest, branch by branch (4.0, 4.1, and 4.2 = 4.3 =
// 4.4, whose assignor files are identical), with its expected answers.
// Kafka's tests build the GroupSpec by hand: members in a HashMap of "A",
// "B", "C" (hash codes 65, 66, 67, so that order), subscriptions as
// LinkedHashSets in the order written, random topic ids (the expected
// answers hold for any). Here the same groups go through kviz's coordinator
// view, so each test first checks that view gives Kafka's test the orders
// it wrote.

var shareTestIDs = map[string]string{
	"topic1": "BVCRPWOJolzCvYje3c5gbg",
	"topic2": "VpeNSk57qU-5KpxgJ-xpZQ",
	"topic3": "nfwWvc6h-KGMhe96HRyPMg",
	"topic4": "Nqefm78WHoyzGIQ_qcg6MA",
}

// shareTestGroup is a group of the given topics (name: partitions) and
// members at a release, the topics carrying shareTestIDs.
func shareTestGroup(t *testing.T, version string, topics map[string]int32, members ...Member) Group {
	t.Helper()
	v, err := ParseClientVersion(version)
	require.NoError(t, err)
	g := Group{Topics: topics, Members: members, Version: v, TopicIDs: map[string]TopicID{}}
	for name := range topics {
		id, err := ParseTopicID(shareTestIDs[name])
		require.NoError(t, err)
		g.TopicIDs[name] = id
	}
	require.NoError(t, g.CheckFor(simpleAssignor{}))
	s := newShareSpec(g)
	for i, m := range s.members {
		require.Equal(t, members[i].ID, m.ID, "the member map iterates in Kafka's test order")
		require.Equal(t, dedupe(members[i].Topics), s.names[i], "%s's HashSet iterates its topics as the test's LinkedHashSet", m.ID)
	}
	return g
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	if out == nil {
		return []string{}
	}
	return out
}

func shareMember(id string, topics ...string) Member {
	return Member{ID: id, Topics: append([]string{}, topics...), Generation: NoGeneration}
}

// owning gives m a current target: "topic1:0,2" style entries.
func holding(m Member, holdings ...string) Member {
	for _, h := range holdings {
		topic, parts, _ := strings.Cut(h, ":")
		for _, p := range strings.Split(parts, ",") {
			var n int32
			fmt.Sscan(p, &n)
			m.Owned = append(m.Owned, TopicPartition{topic, n})
		}
	}
	return m
}

type shareWant map[string]map[string][]int32

func assignSimple(t *testing.T, g Group) Assignment {
	t.Helper()
	res := simpleAssignor{}.Assign(g, NewExplainer(0))
	require.NoError(t, res.Err)
	res.Assignment.Normalize()
	return res.Assignment
}

func requireShare(t *testing.T, want shareWant, got Assignment) {
	t.Helper()
	for id, topics := range want {
		if len(topics) == 0 {
			topics = map[string][]int32{}
		}
		assert.Equal(t, topics, map[string][]int32(got[id]), "member %s", id)
	}
	assert.Len(t, got, len(want))
}

// assertEveryPartitionGetsAssignment: the distinct partitions assigned.
func assignedPartitions(a Assignment) int {
	seen := map[TopicPartition]bool{}
	for _, topics := range a {
		for topic, ps := range topics {
			for _, p := range ps {
				seen[TopicPartition{topic, p}] = true
			}
		}
	}
	return len(seen)
}

func TestSimpleKafka40(t *testing.T) {
	assert.Equal(t, "simple", simpleAssignor{}.Name())
	two := map[string]int32{"topic1": 3, "topic3": 2}
	three := map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2}

	t.Run("EmptyMembers", func(t *testing.T) {
		assert.Empty(t, simpleAssignor{}.Assign(Group{Topics: two, Version: ClientVersion{4, 0, 0}}, nil).Assignment)
	})
	t.Run("NoSubscribedTopic", func(t *testing.T) {
		g := shareTestGroup(t, "4.0", map[string]int32{"topic1": 3}, shareMember("A"))
		requireShare(t, shareWant{"A": nil}, assignSimple(t, g))
	})
	// Kafka throws when the assignor is handed a topic id the metadata does
	// not know; the coordinator never hands it one (TopicIds resolves names
	// against the image and skips the rest), so the member gets nothing.
	t.Run("SubscribedToNonExistentTopic", func(t *testing.T) {
		g := shareTestGroup(t, "4.0", map[string]int32{"topic1": 3}, shareMember("A", "topic2"))
		requireShare(t, shareWant{"A": nil}, assignSimple(t, g))
		assert.Contains(t, InputNotes(simpleAssignor{}, g)[0], `A subscribes to "topic2", which does not exist`)
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneous", func(t *testing.T) {
		g := shareTestGroup(t, "4.0", two, shareMember("A", "topic1", "topic3"), shareMember("B", "topic1", "topic3"))
		all := map[string][]int32{"topic1": {0, 1, 2}, "topic3": {0, 1}}
		requireShare(t, shareWant{"A": all, "B": all}, assignSimple(t, g))
	})
	t.Run("ThreeMembersThreeTopicsHeterogeneous", func(t *testing.T) {
		g := shareTestGroup(t, "4.0", three, shareMember("A", "topic1", "topic2"), shareMember("B", "topic3"), shareMember("C", "topic2", "topic3"))
		requireShare(t, shareWant{
			"A": {"topic1": {0, 1, 2}, "topic2": {0, 1, 2}},
			"B": {"topic3": {0, 1}},
			"C": {"topic2": {0, 1, 2}, "topic3": {0, 1}},
		}, assignSimple(t, g))
	})
	t.Run("OneMemberNoAssignedTopicHeterogeneous", func(t *testing.T) {
		g := shareTestGroup(t, "4.0", map[string]int32{"topic1": 3, "topic2": 2}, shareMember("A", "topic1", "topic2"), shareMember("B"))
		requireShare(t, shareWant{"A": {"topic1": {0, 1, 2}, "topic2": {0, 1}}, "B": nil}, assignSimple(t, g))
	})
}

func TestSimpleKafka41(t *testing.T) {
	two := map[string]int32{"topic1": 3, "topic3": 2}
	three := map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2}
	homogeneous := func(t *testing.T) Group {
		return shareTestGroup(t, "4.1", two, shareMember("A", "topic1", "topic3"), shareMember("B", "topic1", "topic3"))
	}
	heterogeneous := func(t *testing.T) Group {
		return shareTestGroup(t, "4.1", three, shareMember("A", "topic1", "topic2"), shareMember("B", "topic3"), shareMember("C", "topic2", "topic3"))
	}

	t.Run("EmptyMembers", func(t *testing.T) {
		assert.Empty(t, simpleAssignor{}.Assign(Group{Topics: two, Version: ClientVersion{4, 1, 0}}, nil).Assignment)
	})
	t.Run("NoSubscribedTopic", func(t *testing.T) {
		requireShare(t, shareWant{"A": nil}, assignSimple(t, shareTestGroup(t, "4.1", map[string]int32{"topic1": 3}, shareMember("A"))))
	})
	t.Run("SubscribedToNonExistentTopic", func(t *testing.T) {
		requireShare(t, shareWant{"A": nil}, assignSimple(t, shareTestGroup(t, "4.1", map[string]int32{"topic1": 3}, shareMember("A", "topic2"))))
	})
	// A (65) hashes to index 0, topic1-0; B (66) to topic1-1; round-robin
	// deals topic1-2, topic3-0, topic3-1 to A, B, A.
	want := shareWant{"A": {"topic1": {0, 2}, "topic3": {1}}, "B": {"topic1": {1}, "topic3": {0}}}
	t.Run("TwoMembersAndTwoTopicsHomogeneous", func(t *testing.T) {
		a := assignSimple(t, homogeneous(t))
		requireShare(t, want, a)
		assert.Equal(t, 5, assignedPartitions(a))
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneousWithAllowedMap", func(t *testing.T) {
		g := homogeneous(t)
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}, "topic3": {0, 1}}
		requireShare(t, want, assignSimple(t, g))
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneousWithNonAssignableTopic", func(t *testing.T) {
		g := homogeneous(t)
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}}
		a := assignSimple(t, g)
		requireShare(t, shareWant{"A": {"topic1": {1, 2}}, "B": {"topic1": {0}}}, a)
		assert.Equal(t, 3, assignedPartitions(a))
	})
	// A's 6 partitions: 65 % 6 = 5, topic2-2; B's 2: 66 % 2 = 0, topic3-0;
	// C's 5: 67 % 5 = 2, topic2-2. Round-robin per topic among its
	// subscribers: topic1 all to A; topic2-0, topic2-1 to A, C; topic3-1 to B.
	heteroWant := shareWant{
		"A": {"topic1": {0, 1, 2}, "topic2": {0, 2}},
		"B": {"topic3": {0, 1}},
		"C": {"topic2": {1, 2}},
	}
	t.Run("ThreeMembersThreeTopicsHeterogeneous", func(t *testing.T) {
		a := assignSimple(t, heterogeneous(t))
		requireShare(t, heteroWant, a)
		assert.Equal(t, 8, assignedPartitions(a))
	})
	t.Run("ThreeMembersThreeTopicsHeterogeneousWithAllowedMap", func(t *testing.T) {
		g := heterogeneous(t)
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}, "topic2": {0, 1, 2}, "topic3": {0, 1}}
		requireShare(t, heteroWant, assignSimple(t, g))
	})
	kafkaSharedCases(t, "4.1", heterogeneous)
	t.Run("MemberHashAssignment", func(t *testing.T) {
		// hashCodes 948881623..948881626, and -540425984 for AaAaAaAa.
		got := map[int][]string{}
		for _, id := range []string{"member1", "member2", "member3", "member4", "AaAaAaAa"} {
			got[shareHashIndex(id, 3)] = append(got[shareHashIndex(id, 3)], id)
		}
		assert.Equal(t, map[int][]string{0: {"member3"}, 1: {"member1", "member4"}, 2: {"member2", "AaAaAaAa"}}, got)
	})
	// roundRobinAssignment: the next member in the rotation, restarting.
	t.Run("RoundRobinAssignment", func(t *testing.T) {
		held := []shareHeld{{0: true}, {}}
		shareRoundRobin([]int{0, 1}, []int32{1, 2, 3}, held)
		assert.Equal(t, []shareHeld{{0: true, 1: true, 3: true}, {2: true}}, held)
	})
	// roundRobinAssignmentWithCount: member1 and member2 hold partition1;
	// with a count of 2 each may reach 3. (Kafka's test hands the function
	// the list [member1, member2]; a HashMap iterates member2 first, so
	// here A and B play them.)
	withCount := func(t *testing.T, partitions []int32) ([]shareHeld, error) {
		g := shareTestGroup(t, "4.1", map[string]int32{"topic4": 6}, shareMember("A", "topic4"), shareMember("B", "topic4"))
		s := newShareSpec(g)
		held := []shareHeld{{0: true}, {0: true}}
		return held, s.roundRobinWithCount(partitions, held, 2, nil)
	}
	t.Run("RoundRobinAssignmentWithCount", func(t *testing.T) {
		held, err := withCount(t, []int32{1, 2, 3})
		require.NoError(t, err)
		assert.Equal(t, []shareHeld{{0: true, 1: true, 3: true}, {0: true, 2: true}}, held)
	})
	t.Run("RoundRobinAssignmentWithCountTooManyPartitions", func(t *testing.T) {
		_, err := withCount(t, []int32{1, 2, 3, 4, 5})
		assert.ErrorContains(t, err, "PartitionAssignorException")
	})
	t.Run("CurrentAssignmentHomogeneous", func(t *testing.T) {
		g := shareTestGroup(t, "4.1", map[string]int32{"topic1": 3, "topic2": 2}, shareMember("A", "topic1", "topic2"), shareMember("B", "topic1", "topic2"))
		first := assignSimple(t, g)
		requireShare(t, shareWant{"A": {"topic1": {0, 2}, "topic2": {1}}, "B": {"topic1": {1}, "topic2": {0}}}, first)
		// Three members on topic2 and topic3: A (65 % 5 = 0) topic2-0, B
		// topic2-1, C topic3-0 by hash; round-robin topic3-1, topic3-2 to A,
		// B; A's topic2-1 and B's topic2-0 are hashed elsewhere already.
		g = shareTestGroup(t, "4.1", map[string]int32{"topic2": 2, "topic3": 3},
			holding(shareMember("A", "topic2", "topic3"), "topic1:0,2", "topic2:1"),
			holding(shareMember("B", "topic2", "topic3"), "topic1:1", "topic2:0"),
			shareMember("C", "topic2", "topic3"))
		a := assignSimple(t, g)
		requireShare(t, shareWant{"A": {"topic2": {0}, "topic3": {1}}, "B": {"topic2": {1}, "topic3": {2}}, "C": {"topic3": {0}}}, a)
		assert.Equal(t, 5, assignedPartitions(a))
	})
	t.Run("CurrentAssignmentHeterogeneous", func(t *testing.T) {
		requireShare(t, heteroWant, assignSimple(t, heterogeneous(t)))
		// A: topic1, topic2, topic3, 8 partitions: 65 % 8 = 1, topic1-1;
		// B: topic3, topic4 (3: 66 % 3 = 0, topic3-0). Round-robin topic2-1
		// to A, topic4-0 to B; A keeps topic1-0, topic1-2, topic2-0,
		// topic2-2, B keeps topic3-1.
		g := shareTestGroup(t, "4.1", map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2, "topic4": 1},
			holding(shareMember("A", "topic1", "topic2", "topic3"), "topic1:0,1,2", "topic2:0,2"),
			holding(shareMember("B", "topic3", "topic4"), "topic3:0,1"))
		a := assignSimple(t, g)
		requireShare(t, shareWant{"A": {"topic1": {0, 1, 2}, "topic2": {0, 1, 2}}, "B": {"topic3": {0, 1}, "topic4": {0}}}, a)
		assert.Equal(t, 9, assignedPartitions(a))
	})
}

// kafkaSharedCases are the two tests 4.1's and 4.2's SimpleAssignorTest
// expect the same answer of, by different routes.
func kafkaSharedCases(t *testing.T, version string, heterogeneous func(*testing.T) Group) {
	t.Run("ThreeMembersThreeTopicsHeterogeneousWithNonAssignableTopic", func(t *testing.T) {
		g := heterogeneous(t)
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}, "topic2": {0, 1, 2}}
		a := assignSimple(t, g)
		requireShare(t, shareWant{"A": {"topic1": {0, 1, 2}, "topic2": {0, 2}}, "B": nil, "C": {"topic2": {1}}}, a)
		assert.Equal(t, 6, assignedPartitions(a))
	})
	t.Run("OneMemberNoAssignedTopicHeterogeneous", func(t *testing.T) {
		g := shareTestGroup(t, version, map[string]int32{"topic1": 3, "topic2": 2}, shareMember("A", "topic1", "topic2"), shareMember("B"))
		requireShare(t, shareWant{"A": {"topic1": {0, 1, 2}, "topic2": {0, 1}}, "B": nil}, assignSimple(t, g))
	})
}

func TestSimpleKafka42(t *testing.T) {
	for _, version := range []string{"4.2", "4.3"} {
		t.Run(version, func(t *testing.T) { simpleKafka42(t, version) })
	}
}

func simpleKafka42(t *testing.T, version string) {
	three := map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2}
	heterogeneous := func(t *testing.T) Group {
		return shareTestGroup(t, version, three, shareMember("A", "topic1", "topic2"), shareMember("B", "topic3"), shareMember("C", "topic2", "topic3"))
	}
	v, _ := ParseClientVersion(version)
	t.Run("EmptyMembers", func(t *testing.T) {
		assert.Empty(t, simpleAssignor{}.Assign(Group{Topics: three, Version: v}, nil).Assignment)
	})
	t.Run("NoSubscribedTopic", func(t *testing.T) {
		requireShare(t, shareWant{"A": nil}, assignSimple(t, shareTestGroup(t, version, map[string]int32{"topic1": 3}, shareMember("A"))))
	})
	t.Run("SubscribedToNonExistentTopic", func(t *testing.T) {
		requireShare(t, shareWant{"A": nil}, assignSimple(t, shareTestGroup(t, version, map[string]int32{"topic1": 3}, shareMember("A", "topic2"))))
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneous", func(t *testing.T) {
		g := shareTestGroup(t, version, map[string]int32{"topic1": 3, "topic3": 2}, shareMember("A", "topic1", "topic3"), shareMember("B", "topic1", "topic3"))
		assert.Equal(t, 5, assignedPartitions(assignSimple(t, g)))
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneousWithAllowedMap", func(t *testing.T) {
		g := shareTestGroup(t, version, map[string]int32{"topic1": 3, "topic3": 3}, shareMember("A", "topic1", "topic3"), shareMember("B", "topic1", "topic3"))
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}, "topic3": {0, 1}}
		assert.Equal(t, 5, assignedPartitions(assignSimple(t, g)))
	})
	t.Run("TwoMembersAndTwoTopicsHomogeneousWithNonAssignableTopic", func(t *testing.T) {
		g := shareTestGroup(t, version, map[string]int32{"topic1": 3, "topic3": 2}, shareMember("A", "topic1", "topic3"), shareMember("B", "topic1", "topic3"))
		g.Assignable = map[string][]int32{"topic1": {0, 1, 2}}
		assert.Equal(t, 3, assignedPartitions(assignSimple(t, g)))
	})
	t.Run("ThreeMembersThreeTopicsHeterogeneous", func(t *testing.T) {
		assert.Equal(t, 8, assignedPartitions(assignSimple(t, heterogeneous(t))))
	})
	t.Run("ThreeMembersThreeTopicsHeterogeneousWithAllowedMap", func(t *testing.T) {
		g := heterogeneous(t)
		g.Assignable = map[string][]int32{"topic1": {0, 1}, "topic2": {0, 2}, "topic3": {1}}
		assert.Equal(t, 5, assignedPartitions(assignSimple(t, g)))
	})
	// topic1: A alone, quota 3. topic2: A and C, one member per partition,
	// x = 1.5: quotas 2 and 1; partitions 0, 1, 2 go to A, C, then A again.
	kafkaSharedCases(t, version, heterogeneous)
	t.Run("CurrentAssignmentHeterogeneous", func(t *testing.T) {
		assert.Equal(t, 8, assignedPartitions(assignSimple(t, heterogeneous(t))))
		g := shareTestGroup(t, version, map[string]int32{"topic1": 3, "topic2": 3, "topic3": 2, "topic4": 1},
			holding(shareMember("A", "topic1", "topic2", "topic3"), "topic1:0,1,2", "topic2:0,2"),
			holding(shareMember("B", "topic3", "topic4"), "topic3:0,1"))
		assert.Equal(t, 9, assignedPartitions(assignSimple(t, g)))
	})

	// The incremental tests: 101 members join one at a time (then leave),
	// each round starting from the last round's answer.
	subscriptions := map[bool][][]string{
		true:  {{"topic1"}},
		false: {{"topic1", "topic2", "topic3"}, {"topic2"}, {"topic3"}, {"topic1", "topic2"}},
	}
	for _, homogeneous := range []bool{true, false} {
		topics := map[string]int32{"topic1": 24}
		if !homogeneous {
			topics = map[string]int32{"topic1": 12, "topic2": 8, "topic3": 4}
		}
		subs := subscriptions[homogeneous]
		member := func(k int, prev Assignment) Member {
			m := shareMember(fmt.Sprintf("M%d", k), subs[k%len(subs)]...)
			for _, topic := range SortedTopics(prev[m.ID]) {
				for _, p := range prev[m.ID][topic] {
					m.Owned = append(m.Owned, TopicPartition{topic, p})
				}
			}
			return m
		}
		round := func(t *testing.T, n int, prev Assignment) Assignment {
			var members []Member
			for k := range n {
				members = append(members, member(k, prev))
			}
			a := assignSimple(t, Group{Topics: topics, Members: members, Version: v})
			require.Equal(t, 24, assignedPartitions(a), "%d members", n)
			return a
		}
		t.Run(fmt.Sprintf("IncrementalAssignmentIncreasingMembers/homogeneous=%v", homogeneous), func(t *testing.T) {
			var prev Assignment
			for n := 1; n <= 101; n++ {
				prev = round(t, n, prev)
			}
		})
		t.Run(fmt.Sprintf("IncrementalAssignmentDecreasingMembers/homogeneous=%v", homogeneous), func(t *testing.T) {
			prev := round(t, 101, nil)
			for n := 100; n >= 1; n-- {
				prev = round(t, n, prev)
			}
		})
	}
}

// testdata/simple-kafka.jsonl.gz: groups run through Kafka's own
// SimpleAssignor classes of 4.0, 4.1 and 4.3 (4.2's are the same files),
// compiled from the confluentinc/kafka release branches and handed each
// group as TargetAssignmentBuilder does (see simple.go), with their answers
// or the exception they threw: random and edge-case groups, sharing,
// heterogeneous subscriptions, partitions not initialised, current
// assignments, member ids with colliding hash codes, deleted topics.
type shareCorpusCase struct {
	KafkaVersion string `json:"kafka_version"`
	Group        struct {
		Topics     map[string]int32   `json:"topics"`
		TopicIDs   map[string]string  `json:"topic_ids"`
		Assignable map[string][]int32 `json:"assignable"`
		Members    []struct {
			ID     string             `json:"id"`
			Topics *[]string          `json:"topics"`
			Owned  map[string][]int32 `json:"owned"`
		} `json:"members"`
	} `json:"group"`
	Kafka map[string]map[string][]int32 `json:"kafka"`
	Error string                        `json:"error"`
}

// group is the case as kviz assign reads it: a member without topics
// subscribes to all, owned partitions by topic in name order.
func (c shareCorpusCase) group(t *testing.T) Group {
	v, err := ParseClientVersion(c.KafkaVersion)
	require.NoError(t, err)
	g := Group{Topics: c.Group.Topics, Assignable: c.Group.Assignable, Version: v, TopicIDs: map[string]TopicID{}}
	for name, s := range c.Group.TopicIDs {
		g.TopicIDs[name], err = ParseTopicID(s)
		require.NoError(t, err)
	}
	for _, m := range c.Group.Members {
		mem := Member{ID: m.ID, Topics: SortedTopics(g.Topics), Generation: NoGeneration}
		if m.Topics != nil {
			mem.Topics = *m.Topics
		}
		for _, topic := range SortedTopics(m.Owned) {
			for _, p := range m.Owned[topic] {
				mem.Owned = append(mem.Owned, TopicPartition{topic, p})
			}
		}
		g.Members = append(g.Members, mem)
	}
	require.NoError(t, g.CheckFor(simpleAssignor{}))
	return g
}

func TestSimpleMatchesKafkaClasses(t *testing.T) {
	f, err := os.Open("testdata/simple-kafka.jsonl.gz")
	require.NoError(t, err)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	require.NoError(t, err)
	sc := bufio.NewScanner(gz)
	sc.Buffer(nil, 1<<22)
	cases, throws := 0, 0
	for line := 1; sc.Scan(); line++ {
		var c shareCorpusCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", line)
		res := simpleAssignor{}.Assign(c.group(t), nil)
		cases++
		if c.Error != "" {
			if !assert.Error(t, res.Err, "line %d (Kafka %s): Kafka throws %s", line, c.KafkaVersion, c.Error) {
				continue
			}
			assert.Contains(t, res.Err.Error(), c.Error, "line %d", line)
			throws++
			continue
		}
		require.NoError(t, res.Err, "line %d", line)
		res.Assignment.Normalize()
		for id, want := range c.Kafka {
			if want == nil {
				want = map[string][]int32{}
			}
			assert.Equal(t, want, map[string][]int32(res.Assignment[id]), "line %d (Kafka %s): member %s", line, c.KafkaVersion, id)
		}
	}
	require.NoError(t, sc.Err())
	assert.GreaterOrEqual(t, cases, 400)
	assert.Positive(t, throws, "the corpus holds groups on which Kafka throws")
}
