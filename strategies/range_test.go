package strategies

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// kafkaRackCase rebuilds one verifyRackAssignment call of Kafka's
// RangeAssignorTest: brokers 0..n-1 with brokerRacks[i], partition i of the
// k-th topic (in the map's insertion order) on brokers (i+j+offset) % n for
// j < rf, where offset counts the partitions of the topics before it;
// consumers "consumer0".. with the given racks ("" = none) and topics.
type kafkaRackCase struct {
	topics         []string // insertion order matters: it places replicas
	counts         []int32
	rf             int
	brokerRacks    []string
	consumerRacks  []string
	consumerTopics [][]string
	want           []string // Kafka's expected "t1-0, t1-3, ..." per consumer
}

func (c kafkaRackCase) group() Group {
	g := Group{Topics: map[string]int32{}, PartitionRacks: map[string][][]string{}}
	offset := 0
	for ti, topic := range c.topics {
		n := c.counts[ti]
		g.Topics[topic] = n
		racks := make([][]string, n)
		for p := range int(n) {
			for j := range c.rf {
				racks[p] = append(racks[p], c.brokerRacks[(p+j+offset)%len(c.brokerRacks)])
			}
		}
		g.PartitionRacks[topic] = racks
		offset += int(n)
	}
	for i, topics := range c.consumerTopics {
		g.Members = append(g.Members, Member{
			ID: fmt.Sprintf("consumer%d", i), Rack: c.consumerRacks[i], Topics: topics, Generation: NoGeneration,
		})
	}
	return g
}

// kafkaString writes a member's partitions the way Kafka's test does:
// "topic-partition" strings sorted as strings, joined by ", ".
func kafkaString(ps map[string][]int32) string {
	var out []string
	for t, list := range ps {
		for _, p := range list {
			out = append(out, fmt.Sprintf("%s-%d", t, p))
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

func (c kafkaRackCase) check(t *testing.T, name string) {
	t.Helper()
	g := c.group()
	require.NoError(t, g.Validate(), name)
	a := rangeAssignor{}.Assign(g, nil).Assignment
	for i := range c.consumerTopics {
		id := fmt.Sprintf("consumer%d", i)
		assert.Equal(t, c.want[i], kafkaString(a[id]), "%s: %s", name, id)
	}
}

var (
	racks3     = []string{"a", "b", "c"}
	racks2     = []string{"a", "b"}
	racks4     = []string{"a", "b", "c", "d"}
	nullRacks3 = []string{"", "", ""}
)

// Kafka's RangeAssignorTest rack-aware cases (trunk 1eb7644), without the
// ones that set the test-only preferRackAwareLogic switch.
func TestRangeRackAwareMatchesKafkaTests(t *testing.T) {
	t1t2t3 := []string{"t1", "t2", "t3"}

	// testRackAwareAssignmentWithUniformSubscription
	uniform := kafkaRackCase{topics: t1t2t3, counts: []int32{6, 7, 2}, consumerTopics: [][]string{t1t2t3, t1t2t3, t1t2t3}}
	checkNonRackAware(t, "uniform subscription", uniform,
		[]string{"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"})
	uniform.rf, uniform.brokerRacks, uniform.consumerRacks = 1, racks3, racks3
	uniform.want = []string{"t1-0, t1-3, t2-0, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t3-0", "t1-2, t1-5, t2-2, t2-5, t3-1"}
	uniform.check(t, "uniform subscription rf1")
	uniform.rf = 2
	uniform.want = []string{"t1-0, t1-2, t2-0, t2-2, t2-3, t3-1", "t1-1, t1-3, t2-1, t2-4, t3-0", "t1-4, t1-5, t2-5, t2-6"}
	uniform.check(t, "uniform subscription rf2")
	uniform.rf, uniform.brokerRacks = 3, racks2
	uniform.want = []string{"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0", "t1-2, t1-3, t2-3, t2-4, t3-1", "t1-4, t1-5, t2-5, t2-6"}
	uniform.check(t, "uniform subscription, one consumer on a rack with no partitions")

	// testRackAwareAssignmentWithNonEqualSubscription
	nonEqual := kafkaRackCase{topics: t1t2t3, counts: []int32{6, 7, 2},
		consumerTopics: [][]string{t1t2t3, t1t2t3, {"t1", "t3"}}}
	checkNonRackAware(t, "non-equal subscription", nonEqual,
		[]string{"t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1", "t1-4, t1-5"})
	nonEqual.rf, nonEqual.brokerRacks, nonEqual.consumerRacks = 1, racks3, racks3
	nonEqual.want = []string{"t1-0, t1-3, t2-0, t2-2, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t2-5, t3-0", "t1-2, t1-5, t3-1"}
	nonEqual.check(t, "non-equal subscription rf1")
	nonEqual.rf = 2
	nonEqual.want = []string{"t1-0, t1-2, t2-0, t2-2, t2-3, t2-5, t3-1", "t1-1, t1-3, t2-1, t2-4, t2-6, t3-0", "t1-4, t1-5"}
	nonEqual.check(t, "non-equal subscription rf2")
	nonEqual.rf, nonEqual.brokerRacks = 3, racks2
	nonEqual.want = []string{"t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0", "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1", "t1-4, t1-5"}
	nonEqual.check(t, "non-equal subscription, one consumer on a rack with no partitions")

	// testRackAwareAssignmentWithUniformPartitions: co-partitioning beats racks.
	same := kafkaRackCase{topics: t1t2t3, counts: []int32{5, 5, 5}, consumerTopics: [][]string{t1t2t3, t1t2t3, t1t2t3}}
	plain := []string{"t1-0, t1-1, t2-0, t2-1, t3-0, t3-1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3", "t1-4, t2-4, t3-4"}
	checkNonRackAware(t, "uniform partitions", same, plain)
	same.brokerRacks, same.consumerRacks, same.want = racks3, racks3, plain
	for _, rf := range []int{1, 2} {
		same.rf = rf
		same.check(t, fmt.Sprintf("uniform partitions rf%d", rf))
	}
	same.rf, same.brokerRacks = 3, racks2
	same.check(t, "uniform partitions, one consumer on a rack with no partitions")

	// testRackAwareAssignmentWithUniformPartitionsNonEqualSubscription
	mixed := kafkaRackCase{topics: t1t2t3, counts: []int32{5, 5, 5},
		consumerTopics: [][]string{t1t2t3, t1t2t3, {"t1", "t3"}}}
	checkNonRackAware(t, "uniform partitions, non-equal subscription", mixed,
		[]string{"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3", "t1-4, t3-4"})
	mixed.rf, mixed.brokerRacks, mixed.consumerRacks = 1, racks3, racks3
	mixed.want = []string{"t1-0, t1-1, t2-0, t2-1, t2-4, t3-0, t3-1", "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3", "t1-4, t3-4"}
	mixed.check(t, "uniform partitions, non-equal subscription rf1")
	mixed.rf = 2
	mixed.want = []string{"t1-2, t2-0, t2-1, t2-3, t3-2", "t1-0, t1-3, t2-2, t2-4, t3-0, t3-3", "t1-1, t1-4, t3-1, t3-4"}
	mixed.check(t, "uniform partitions, non-equal subscription rf2")
	mixed.rf, mixed.brokerRacks = 3, racks2
	mixed.want = []string{"t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1", "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3", "t1-4, t3-4"}
	mixed.check(t, "uniform partitions, non-equal subscription, one consumer on a rack with no partitions")

	// testRackAwareAssignmentWithCoPartitioning
	t1t2, t3t4 := []string{"t1", "t2"}, []string{"t3", "t4"}
	all4 := []string{"t1", "t2", "t3", "t4"}
	co := kafkaRackCase{topics: all4, counts: []int32{6, 6, 2, 2}, brokerRacks: racks2,
		consumerRacks: []string{"a", "b", "b", "a"}, consumerTopics: [][]string{t1t2, t1t2, t3t4, t3t4}}
	co.want = []string{"t1-0, t1-1, t1-2, t2-0, t2-1, t2-2", "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5", "t3-0, t4-0", "t3-1, t4-1"}
	for _, rf := range []int{3, 2} {
		co.rf = rf
		co.check(t, fmt.Sprintf("co-partitioning rf%d", rf))
	}
	co.rf = 1
	co.want = []string{"t1-0, t1-2, t1-4, t2-0, t2-2, t2-4", "t1-1, t1-3, t1-5, t2-1, t2-3, t2-5", "t3-1, t4-1", "t3-0, t4-0"}
	co.check(t, "co-partitioning rf1")

	co.consumerTopics = [][]string{all4, all4, all4, all4}
	co.want = []string{"t1-0, t1-1, t2-0, t2-1, t3-0, t4-0", "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1", "t1-4, t2-4", "t1-5, t2-5"}
	for _, rf := range []int{3, 2} {
		co.rf = rf
		co.check(t, fmt.Sprintf("co-partitioning, all subscribed, rf%d", rf))
	}
	co.rf = 1
	co.want = []string{"t1-0, t1-2, t2-0, t2-2, t3-0, t4-0", "t1-1, t1-3, t2-1, t2-3, t3-1, t4-1", "t1-5, t2-5", "t1-4, t2-4"}
	co.check(t, "co-partitioning, all subscribed, rf1")
	co.brokerRacks = racks3
	co.want = []string{"t1-0, t1-3, t2-0, t2-3, t3-0, t4-0", "t1-1, t1-4, t2-1, t2-4, t3-1, t4-1", "t1-2, t2-2", "t1-5, t2-5"}
	co.check(t, "co-partitioning, all subscribed, rf1, three racks")

	// testCoPartitionedAssignmentWithSameSubscription (the part without
	// preferRackAwareLogic; Kafka's t7–t9 have no metadata, so they are left out).
	six := []string{"t1", "t2", "t3", "t4", "t5", "t6"}
	cps := kafkaRackCase{topics: six, counts: []int32{6, 6, 2, 2, 4, 4}, rf: 3, brokerRacks: nullRacks3,
		consumerRacks: racks3, consumerTopics: [][]string{six, six, six}}
	cps.want = []string{
		"t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1",
		"t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2",
		"t1-4, t1-5, t2-4, t2-5, t5-3, t6-3",
	}
	cps.check(t, "co-partitioned, same subscription, no broker racks")
}

// checkNonRackAware is Kafka's verifyNonRackAwareAssignment: every rack
// configuration under which rack matching must not change plain range.
func checkNonRackAware(t *testing.T, name string, c kafkaRackCase, want []string) {
	t.Helper()
	c.want = want
	configs := []struct {
		rf                 int
		brokers, consumers []string
		label              string
	}{
		{3, nullRacks3, racks3, "no broker racks"},
		{3, racks3, nullRacks3, "no consumer racks"},
		{3, racks3, racks3, "every partition on every rack"},
		{4, racks4, racks3, "rf4 on four racks"},
		{3, racks3, []string{"d", "e", "f"}, "consumer racks hold no partition"},
		{3, racks3, []string{"", "e", "f"}, "one consumer without rack, others elsewhere"},
	}
	for _, cfg := range configs {
		c.rf, c.brokerRacks, c.consumerRacks = cfg.rf, cfg.brokers, cfg.consumers
		c.check(t, name+": "+cfg.label)
	}
}

// A Kafka quirk worth pinning: once some topic turns rack matching on,
// co-partitioned topics are matched too, even topics without partition
// racks, where only members without a rack match. Here t1/t2 have no racks,
// so c1 (no rack) takes their first partitions before c0 (rack a) is
// considered; plain range would have given c0 the first ones.
func TestRangeRackMatchingReachesCoPartitionedTopicsWithoutRacks(t *testing.T) {
	both := []string{"t1", "t2", "t3"}
	g := Group{
		Topics:         map[string]int32{"t1": 4, "t2": 4, "t3": 2},
		PartitionRacks: map[string][][]string{"t3": {{"a"}, {"b"}}},
		Members: []Member{
			{ID: "c0", Rack: "a", Topics: both},
			{ID: "c1", Topics: both},
		},
	}
	require.NoError(t, g.Validate())
	a := rangeAssignor{}.Assign(g, nil).Assignment
	assert.Equal(t, Assignment{
		"c0": {"t1": {2, 3}, "t2": {2, 3}, "t3": {0}},
		"c1": {"t1": {0, 1}, "t2": {0, 1}, "t3": {1}},
	}, a)
}

// rapidGroup draws a random group: up to 6 topics with 0–12 partitions, up
// to 7 members with ASCII ids (so Java and Go order agree), some static,
// random subscriptions, racks on some members and partitions when withRacks.
func rapidGroup(t *rapid.T, withRacks bool) Group {
	nTopics := rapid.IntRange(1, 6).Draw(t, "topics")
	g := Group{Topics: map[string]int32{}, PartitionRacks: map[string][][]string{}}
	var names []string
	rackNames := []string{"a", "b", "c"}
	for i := range nTopics {
		name := fmt.Sprintf("t%d", i)
		names = append(names, name)
		n := rapid.Int32Range(0, 12).Draw(t, "partitions-"+name)
		g.Topics[name] = n
		if withRacks && rapid.Bool().Draw(t, "racked-"+name) {
			racks := make([][]string, n)
			for p := range racks {
				racks[p] = rapid.SliceOfNDistinct(rapid.SampledFrom(rackNames), 0, 3, rapid.ID[string]).Draw(t, "replicas")
			}
			g.PartitionRacks[name] = racks
		}
	}
	nMembers := rapid.IntRange(1, 7).Draw(t, "members")
	ids := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-e][0-9]`), nMembers, nMembers, rapid.ID[string]).Draw(t, "ids")
	instances := rapid.Permutation([]string{"i0", "i1", "i2", "i3", "i4", "i5", "i6"}).Draw(t, "instances")
	for i, id := range ids {
		m := Member{ID: id, Generation: NoGeneration}
		if rapid.Bool().Draw(t, "static") {
			m.InstanceID = instances[i]
		}
		if withRacks && rapid.Bool().Draw(t, "member-rack") {
			m.Rack = rapid.SampledFrom(rackNames).Draw(t, "rack")
		}
		m.Topics = rapid.SliceOfDistinct(rapid.SampledFrom(names), rapid.ID[string]).Draw(t, "subscription")
		g.Members = append(g.Members, m)
	}
	return g
}

// checkValidAssignment: every member has an entry, lists ascending, every
// partition of a subscribed topic is assigned exactly once and only to a
// subscriber, nothing else is assigned.
func checkValidAssignment(t *rapid.T, g Group, a Assignment) {
	subscribed := map[string]map[string]bool{}
	for _, m := range g.Members {
		if _, ok := a[m.ID]; !ok {
			t.Fatalf("member %s has no entry", m.ID)
		}
		for _, topic := range m.Topics {
			if subscribed[topic] == nil {
				subscribed[topic] = map[string]bool{}
			}
			subscribed[topic][m.ID] = true
		}
	}
	if len(a) != len(g.Members) {
		t.Fatalf("assignment has %d entries for %d members", len(a), len(g.Members))
	}
	seen := map[TopicPartition]string{}
	for id, topics := range a {
		for topic, ps := range topics {
			if len(ps) == 0 {
				t.Fatalf("%s has an empty list for %s", id, topic)
			}
			if !slices.IsSorted(ps) {
				t.Fatalf("%s's %s partitions are not ascending: %v", id, topic, ps)
			}
			if !subscribed[topic][id] {
				t.Fatalf("%s got %s without subscribing", id, topic)
			}
			for _, p := range ps {
				tp := TopicPartition{topic, p}
				if p < 0 || p >= g.Topics[topic] {
					t.Fatalf("%s got %s, which does not exist", id, tp)
				}
				if other, dup := seen[tp]; dup {
					t.Fatalf("%s assigned to both %s and %s", tp, other, id)
				}
				seen[tp] = id
			}
		}
	}
	for topic := range subscribed {
		for p := int32(0); p < g.Topics[topic]; p++ {
			if _, ok := seen[TopicPartition{topic, p}]; !ok {
				t.Fatalf("%s-%d is subscribed but unassigned", topic, p)
			}
		}
	}
}

// Range, with or without racks: valid, and per topic the subscribers'
// counts differ by at most one (KIP-881 never trades balance for racks).
func TestRangePropertiesValidAndBalancedPerTopic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, rapid.Bool().Draw(t, "racks"))
		a := rangeAssignor{}.Assign(g, NewExplainer(0)).Assignment
		checkValidAssignment(t, g, a)
		for topic := range g.Topics {
			lo, hi, found := int(^uint(0)>>1), -1, false
			for _, m := range g.Members {
				if slices.Contains(m.Topics, topic) {
					n := len(a[m.ID][topic])
					lo, hi, found = min(lo, n), max(hi, n), true
				}
			}
			if found && hi-lo > 1 {
				t.Fatalf("%s: subscriber counts range %d..%d", topic, lo, hi)
			}
		}
	})
}

// Topics Kafka co-partitions (same subscribers, same partition count) get
// the very same partition numbers per member, racks or not.
func TestRangePropertyCoPartitionedTopicsStayAligned(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, true)
		a := rangeAssignor{}.Assign(g, nil).Assignment
		subs := func(topic string) string {
			var ids []string
			for _, m := range SortMembers(g.Members) {
				if slices.Contains(m.Topics, topic) {
					ids = append(ids, m.ID)
				}
			}
			return strings.Join(ids, ",")
		}
		for x := range g.Topics {
			for y := range g.Topics {
				if x >= y || g.Topics[x] != g.Topics[y] || subs(x) != subs(y) || subs(x) == "" {
					continue
				}
				for _, m := range g.Members {
					if !slices.Equal(a[m.ID][x], a[m.ID][y]) {
						t.Fatalf("%s and %s are co-partitioned but %s got %v and %v", x, y, m.ID, a[m.ID][x], a[m.ID][y])
					}
				}
			}
		}
	})
}

// Without rack matching the answer is Kafka's formula: subscriber i of C
// takes the run starting at i*(P/C) + min(i, P%C), of length P/C (+1 for the
// first P%C). Racks on every partition's every rack change nothing.
func TestRangePropertyWithoutRackNeedIsPlainRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, false)
		if rapid.Bool().Draw(t, "all-racks") {
			for topic, n := range g.Topics {
				racks := make([][]string, n)
				for p := range racks {
					racks[p] = []string{"a", "b"}
				}
				g.PartitionRacks[topic] = racks
			}
			for i := range g.Members {
				g.Members[i].Rack = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "rack")
			}
		}
		a := rangeAssignor{}.Assign(g, nil).Assignment
		sorted := SortMembers(g.Members)
		for topic, n := range g.Topics {
			var subs []string
			for _, m := range sorted {
				if slices.Contains(m.Topics, topic) {
					subs = append(subs, m.ID)
				}
			}
			c := int32(len(subs))
			for i, id := range subs {
				i := int32(i)
				start := i*(n/c) + min(i, n%c)
				length := n / c
				if i < n%c {
					length++
				}
				var want []int32
				for p := start; p < start+length; p++ {
					want = append(want, p)
				}
				if !slices.Equal(want, a[id][topic]) {
					t.Fatalf("%s: %s got %v, want %v", topic, id, a[id][topic], want)
				}
			}
		}
	})
}

func TestFormatPartitionsFoldsRuns(t *testing.T) {
	assert.Equal(t, "0–3,7,9–10", FormatPartitions([]int32{0, 1, 2, 3, 7, 9, 10}))
	assert.Equal(t, "", FormatPartitions(nil))
	assert.Equal(t, "5", FormatPartitions([]int32{5}))
	var many []int32
	for p := int32(0); p < 40; p += 2 {
		many = append(many, p)
	}
	assert.Equal(t, "0,2,4,6,8,10,12,14 … (20 partitions in all)", FormatPartitions(many))
}

// Assign expects a validated group, but a bad one must not crash the lab:
// unknown topics, rack lists of the wrong length, negative counts.
func TestRangeAndRoundRobinSurviveUnvalidatedGroups(t *testing.T) {
	g := Group{
		Topics:         map[string]int32{"t0": 3, "neg": -2},
		PartitionRacks: map[string][][]string{"t0": {{"a"}}, "ghost": {{"b"}}},
		Members: []Member{
			{ID: "c0", Rack: "a", Topics: []string{"t0", "nope", "neg"}, Owned: []TopicPartition{{"t0", 9}}},
			{ID: "c1", Rack: "b", Topics: []string{"t0", "t0"}},
		},
	}
	require.Error(t, g.Validate())
	for _, a := range []Assignor{rangeAssignor{}, roundRobinAssignor{}} {
		assert.NotPanics(t, func() { a.Assign(g, NewExplainer(0)) }, a.Name())
	}
}
