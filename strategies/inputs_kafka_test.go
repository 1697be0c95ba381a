package strategies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kafka's own AbstractStickyAssignorTest cases (trunk 1eb7644; run there for
// both StickyAssignor and CooperativeStickyAssignor, here without racks)
// whose inputs a tidy group would not hold: a subscribed topic that no
// longer exists, owned partitions of a deleted or unsubscribed topic, a
// topic listed twice. Each test is named after the Kafka test it replays.

var stickyFamily = []string{"sticky", "cooperative-sticky"}

func assignNamed(t *testing.T, name string, g Group) Result {
	t.Helper()
	a, err := Lookup(name)
	require.NoError(t, err)
	require.NoError(t, g.CheckFor(a))
	return a.Assign(g, nil)
}

// owning returns m reporting what it got in a, at generation gen.
func owning(m Member, a Assignment, gen int32) Member {
	m.Owned, m.Generation = nil, gen
	for _, topic := range SortedTopics(a[m.ID]) {
		for _, p := range a[m.ID][topic] {
			m.Owned = append(m.Owned, TopicPartition{topic, p})
		}
	}
	return m
}

func partitionsOf(a Assignment, member string) []TopicPartition {
	var out []TopicPartition
	for _, topic := range SortedTopics(a[member]) {
		for _, p := range a[member][topic] {
			out = append(out, TopicPartition{topic, p})
		}
	}
	return out
}

// verifyValidityAndBalance is the Kafka test helper of that name: every
// member gets only partitions of topics it lists, no partition twice, and
// two members whose counts differ by more than one share no topic.
func verifyValidityAndBalance(t *testing.T, g Group, a Assignment) {
	t.Helper()
	require.Len(t, a, len(g.Members))
	members := slices.Clone(g.Members)
	slices.SortFunc(members, func(x, y Member) int { return JavaCompare(x.ID, y.ID) })
	seen := map[TopicPartition]string{}
	for i, m := range members {
		for topic, ps := range a[m.ID] {
			require.Contains(t, m.Topics, topic, "%s gets %s without subscribing to it", m.ID, topic)
			for _, p := range ps {
				tp := TopicPartition{topic, p}
				require.Empty(t, seen[tp], "%s assigned to %s and %s", tp, seen[tp], m.ID)
				seen[tp] = m.ID
			}
		}
		for _, o := range members[i+1:] {
			if d := a.Count(m.ID) - a.Count(o.ID); d >= -1 && d <= 1 {
				continue
			}
			for topic := range a[m.ID] {
				_, shared := a[o.ID][topic]
				require.False(t, shared, "%s (%d) and %s (%d) both hold %s: the less loaded could take one", m.ID, a.Count(m.ID), o.ID, a.Count(o.ID), topic)
			}
		}
	}
}

// verifyFor is verifyValidityAndBalance as each Kafka test class runs it.
// CooperativeStickyAssignorTest's override first checks no partition is
// revoked and handed out in one round, then runs the follow-up rebalances
// (at most four) while anything is revoked, and verifies the last.
func verifyFor(t *testing.T, name string, g Group, r Result) {
	t.Helper()
	for rebalances := 0; name == "cooperative-sticky"; rebalances++ {
		added, revoked := map[TopicPartition]bool{}, map[TopicPartition]bool{}
		for _, m := range g.Members {
			mine := partitionsOf(r.Assignment, m.ID)
			for _, tp := range m.Owned {
				if !slices.Contains(mine, tp) {
					revoked[tp] = true
				}
			}
			for _, tp := range mine {
				if !slices.Contains(m.Owned, tp) {
					added[tp] = true
				}
			}
		}
		for tp := range added {
			require.False(t, revoked[tp], "%s is revoked and assigned in one round", tp)
		}
		if len(revoked) == 0 {
			break
		}
		require.Less(t, rebalances, 4)
		next := make([]Member, len(g.Members))
		for i, m := range g.Members {
			next[i] = owning(m, r.Assignment, 1)
		}
		g.Members = next
		r = assignNamed(t, name, g)
	}
	verifyValidityAndBalance(t, g, r.Assignment)
}

func isFullyBalanced(a Assignment) bool {
	lo, hi := -1, 0
	for m := range a {
		n := a.Count(m)
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return hi-lo <= 1
}

func TestKafka_testNoExceptionThrownWhenOnlySubscribedTopicDeleted(t *testing.T) {
	for _, name := range stickyFamily {
		c := Member{ID: "consumer", Topics: []string{"topic"}, Generation: NoGeneration}
		r := assignNamed(t, name, Group{Topics: map[string]int32{"topic": 3}, Members: []Member{c}})
		require.Equal(t, 3, r.Assignment.Count("consumer"))
		// The topic is deleted; the consumer still subscribes to it and owns its partitions.
		r = assignNamed(t, name, Group{Topics: map[string]int32{}, Members: []Member{owning(c, r.Assignment, 1)}})
		assert.Equal(t, Assignment{"consumer": {}}, r.Assignment, name)
		assert.Empty(t, r.Withheld, name)
	}
}

func TestKafka_testAssignmentUpdatedForDeletedTopic(t *testing.T) {
	for _, name := range stickyFamily {
		g := Group{Topics: map[string]int32{"topic1": 1, "topic3": 100}, Members: []Member{
			{ID: "consumer", Topics: []string{"topic1", "topic2", "topic3"}, Generation: NoGeneration},
		}}
		r := assignNamed(t, name, g)
		assert.Equal(t, 101, r.Assignment.Count("consumer"), name)
		assert.Len(t, r.Assignment, 1)
		assert.Empty(t, r.Withheld, name)
	}
}

func TestKafka_testOnlyAssignsPartitionsFromSubscribedTopics(t *testing.T) {
	for _, name := range stickyFamily {
		g := Group{Topics: map[string]int32{"topic": 2}, Members: []Member{{
			ID: "consumer", Topics: []string{"topic"}, Generation: 1,
			Owned: []TopicPartition{{"topic", 0}, {"topic", 1}, {"other", 0}, {"other", 1}},
		}}}
		r := assignNamed(t, name, g)
		assert.Equal(t, []TopicPartition{{"topic", 0}, {"topic", 1}}, partitionsOf(r.Assignment, "consumer"), name)
		assert.Empty(t, r.Withheld, name)
		verifyValidityAndBalance(t, g, r.Assignment)
	}
}

func TestKafka_testAddRemoveTopicTwoConsumers(t *testing.T) {
	for _, name := range stickyFamily {
		topics := map[string]int32{"topic": 3}
		c1 := Member{ID: "consumer1", Topics: []string{"topic"}, Generation: NoGeneration}
		c2 := Member{ID: "consumer2", Topics: []string{"topic"}, Generation: NoGeneration}
		r := assignNamed(t, name, Group{Topics: topics, Members: []Member{c1, c2}})
		first := r.Assignment
		assert.True(t, isFullyBalanced(first))

		topics = map[string]int32{"topic": 3, "topic2": 3}
		c1.Topics, c2.Topics = []string{"topic", "topic2"}, []string{"topic", "topic2"}
		g := Group{Topics: topics, Members: []Member{owning(c1, first, 1), owning(c2, first, 1)}}
		r = assignNamed(t, name, g)
		second := r.Assignment
		verifyValidityAndBalance(t, g, second)
		assert.Empty(t, r.Withheld, name)
		for _, m := range []string{"consumer1", "consumer2"} {
			assert.Equal(t, 3, second.Count(m))
			assert.Subset(t, partitionsOf(second, m), partitionsOf(first, m), "%s: %s keeps what it had", name, m)
		}

		// topic is deleted; both still own some of its partitions.
		topics = map[string]int32{"topic2": 3}
		c1.Topics, c2.Topics = []string{"topic2"}, []string{"topic2"}
		g = Group{Topics: topics, Members: []Member{owning(c1, second, 1), owning(c2, second, 1)}}
		r = assignNamed(t, name, g)
		verifyValidityAndBalance(t, g, r.Assignment)
		assert.True(t, isFullyBalanced(r.Assignment))
		assert.Empty(t, r.Withheld, name)
		for _, m := range []string{"consumer1", "consumer2"} {
			assert.Subset(t, partitionsOf(second, m), partitionsOf(r.Assignment, m), "%s: %s keeps its topic2 partitions", name, m)
		}
	}
}

// getRandomSublist is the Kafka test's: a random number of topics removed
// from a copy of the list, then sorted.
func getRandomSublist(rng *rand.Rand, topics []string) []string {
	out := slices.Clone(topics)
	for n := rng.IntN(len(out)); n > 0; n-- {
		i := rng.IntN(len(out))
		out = append(out[:i], out[i+1:]...)
	}
	slices.SortFunc(out, JavaCompare)
	return out
}

func TestKafka_testReassignmentWithRandomSubscriptionsAndChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 3))
	rounds := 100
	if testing.Short() {
		rounds = 10
	}
	for round := 1; round <= rounds; round++ {
		numTopics := 10 + rng.IntN(10)
		topics := map[string]int32{}
		var names []string
		for i := range numTopics {
			n := fmt.Sprintf("t%02d", i)
			names = append(names, n)
			topics[n] = int32(i + 1)
		}
		members := make([]Member, 20+rng.IntN(20))
		for i := range members {
			members[i] = Member{ID: fmt.Sprintf("c%02d", i), Topics: getRandomSublist(rng, names), Generation: NoGeneration}
		}
		for _, name := range stickyFamily {
			g := Group{Topics: topics, Members: members}
			r := assignNamed(t, name, g)
			verifyFor(t, name, g, r)
			// New subscriptions; each member owns what it got, some of it now of topics it left.
			next := make([]Member, len(members))
			for i, m := range members {
				m.Topics = getRandomSublist(rng, names)
				next[i] = owning(m, r.Assignment, 1)
			}
			g = Group{Topics: topics, Members: next}
			verifyFor(t, name, g, assignNamed(t, name, g))
		}
	}
}

// The Kafka test draws subscriptions with repeats (rand.nextInt(topicCount)
// per slot, the loop bound drawn afresh each time): AbstractStickyAssignor
// reads those lists as given.
func TestKafka_testLargeAssignmentWithMultipleConsumersLeavingAndRandomSubscription(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 6))
	const topicCount, consumerCount = 40, 200
	topics := map[string]int32{}
	for i := range topicCount {
		topics[fmt.Sprintf("t%02d", i)] = int32(rng.IntN(10) + 1)
	}
	members := make([]Member, consumerCount)
	repeats := 0
	for i := range members {
		var ts []string
		for j := 0; j < rng.IntN(20); j++ {
			n := fmt.Sprintf("t%02d", rng.IntN(topicCount))
			if slices.Contains(ts, n) {
				repeats++
			}
			ts = append(ts, n)
		}
		members[i] = Member{ID: fmt.Sprintf("c%03d", i), Topics: ts, Generation: NoGeneration}
	}
	require.Positive(t, repeats, "the draw repeats topics, as Kafka's does")
	for _, name := range stickyFamily {
		g := Group{Topics: topics, Members: members}
		r := assignNamed(t, name, g)
		verifyFor(t, name, g, r)
		var left []Member
		gone := map[int]bool{}
		for range 50 {
			gone[rng.IntN(consumerCount)] = true
		}
		for i, m := range members {
			if i > 0 { // as in Kafka's test, the first member reports nothing
				m = owning(m, r.Assignment, 1)
			}
			if !gone[i] {
				left = append(left, m)
			}
		}
		g = Group{Topics: topics, Members: left}
		verifyFor(t, name, g, assignNamed(t, name, g))
	}
}

// allSubscriptionsEqual compares the first member's topics, as a set, with
// each other member's list: size and containsAll. A list with a repeat can
// so "equal" a larger set, and the constrained algorithm then hands that
// member a topic it does not list (read from AbstractStickyAssignor at
// 1eb7644; c0 comes first in Kafka's HashMap of member ids).
func TestStickyReadsASubscriptionWithARepeatAsAList(t *testing.T) {
	topics := map[string]int32{"a": 1, "b": 1}
	r := assignNamed(t, "sticky", Group{Topics: topics, Members: []Member{
		{ID: "c0", Topics: []string{"a", "b"}, Generation: NoGeneration},
		{ID: "c1", Topics: []string{"a", "a"}, Generation: NoGeneration},
	}})
	assert.Equal(t, Assignment{"c0": {"a": {0}}, "c1": {"b": {0}}}, r.Assignment)

	// [a, a] against {a}: two entries, one topic: not equal, so the general
	// algorithm runs, and it keeps to the lists.
	ex := NewExplainer(0)
	a, _ := Lookup("sticky")
	r = a.Assign(Group{Topics: topics, Members: []Member{
		{ID: "c0", Topics: []string{"a"}, Generation: NoGeneration},
		{ID: "c1", Topics: []string{"a", "a"}, Generation: NoGeneration},
	}}, ex)
	assert.Contains(t, r.Explanation, "members subscribe to different topics: Kafka's general sticky algorithm")
	assert.Equal(t, 1, r.Assignment.Count("c0")+r.Assignment.Count("c1"))
}

// The coordinator counts subscribed names, existing or not, when it picks
// the homogeneous or heterogeneous uniform builder (ModernGroup.subscriptionType).
func TestUniformCountsAMissingTopicWhenItJudgesSubscriptionsAlike(t *testing.T) {
	a, _ := Lookup("uniform")
	explain := func(second []string) []string {
		ex := NewExplainer(0)
		a.Assign(Group{Topics: map[string]int32{"t0": 3}, Members: []Member{
			{ID: "c0", Topics: []string{"t0", "gone"}}, {ID: "c1", Topics: second},
		}}, ex)
		return ex.Lines()
	}
	assert.Contains(t, strings.Join(explain([]string{"t0"}), "\n"), "heterogeneous builder")
	assert.Contains(t, strings.Join(explain([]string{"gone", "t0", "t0"}), "\n"), "homogeneous builder")
}

func TestInputNotesNameEachOddityOnce(t *testing.T) {
	g := Group{Topics: map[string]int32{"t0": 2}, Members: []Member{
		{ID: "c0", Topics: []string{"t0", "gone", "t0", "t0"}, Owned: []TopicPartition{{"old", 0}, {"old", 1}, {"t0", 1}}},
		{ID: "c1", Topics: []string{"t0"}, Owned: []TopicPartition{{"t0", 7}}},
	}}
	for _, name := range Names() {
		a, _ := Lookup(name)
		notes := InputNotes(a, g)
		want := 3 // c0: gone, t0 twice, old-0/old-1
		if !ReadsOwned(a) {
			want = 4 // and c1's t0-7, which it does not read
			assert.NoError(t, g.CheckFor(a), name)
		} else {
			assert.ErrorContains(t, g.CheckFor(a), `members[1] (c1): owns t0-7, but "t0" has partitions 0..1`, name)
		}
		require.Len(t, notes, want, "%s: %q", name, notes)
		assert.Contains(t, notes[0], `c0 subscribes to "gone", which does not exist`)
		assert.Contains(t, notes[1], `c0 lists "t0" twice`)
		assert.Contains(t, notes[2], "c0 owns old-0, old-1, which do not exist")
	}
	assert.Empty(t, InputNotes(StickyAssignor{}, Group{Topics: map[string]int32{"t0": 1}, Members: []Member{{ID: "c", Topics: []string{"t0"}}}}))
}
