package model_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// c1 is alone for 20 s; c2, c3 and c4 join 300 ms apart.
const batchingSrc = `topics: {t0: 6}
group: {id: g, strategy: uniform, %s}
members:
  - {id: c1}
timeline:
  - {at_ms: 20000, join: {id: c2}}
  - {at_ms: 20300, join: {id: c3}}
  - {at_ms: 20600, join: {id: c4}}
`

// computedFrom lists the AssignmentComputed steps at or after ms.
func computedFrom(sim *model.Sim, ms int64) []model.Step {
	var out []model.Step
	for _, st := range steps(sim, kafka.KindAssignmentComputed, "") {
		if st.TimeMs >= ms {
			out = append(out, st)
		}
	}
	return out
}

// Under Kafka 4.3 c3 and c4, joining inside the interval c2's target
// opened, get one target computation between them (KAFKA-20291); 4.1
// computes one per bump. c2's own join finds the last target long past and
// computes at once, as Kafka does.
func TestAssignmentBatchingTwoJoinersOneTarget(t *testing.T) {
	needStrategy(t, "uniform")
	old := computedFrom(simYAML(t, "b.yaml", fmt.Sprintf(batchingSrc, `kafka_version: "4.1"`)), 20000)
	require.Len(t, old, 3, "4.1: a target per group-epoch bump")
	for i, st := range old {
		assert.Equal(t, int32(2+i), st.AssignmentEpoch)
	}

	sim := simYAML(t, "b.yaml", fmt.Sprintf(batchingSrc, `kafka_version: "4.3"`))
	got := computedFrom(sim, 20000)
	require.Len(t, got, 2, "4.3: c3 and c4 share one target")
	assert.Equal(t, int32(3), got[0].AssignmentEpoch, "c2's join computes at once (a 4.3 group starts at epoch 1: c1 got epoch 2)")
	assert.Equal(t, int32(5), got[1].AssignmentEpoch, "one target for the bumps of c3 (4) and c4 (5)")
	assert.GreaterOrEqual(t, got[1].TimeMs, got[0].TimeMs+1000, "not before consumer.assignment.interval.ms has passed")

	// The joiners inside the interval reconcile to the old target, at its
	// epoch with nothing, while the group is ASSIGNING; a step says why.
	for _, id := range []string{"c3", "c4"} {
		answer := steps(sim, kafka.KindConsumerGroupHeartbeatResponse, id)[0]
		assert.Contains(t, answer.Text, "member epoch 3, STABLE, assignment []", id)
		assert.Equal(t, kafka.KAssigning, answer.GroupState, id)
	}
	delayed := steps(sim, kafka.KindRebalanceDelayed, "")
	require.Len(t, delayed, 2, "one note per deferred group epoch")
	assert.Contains(t, delayed[0].Text, "consumer.assignment.interval.ms (1000 ms)")
	assert.Equal(t, kafka.KAssigning, delayed[0].GroupState)
	assert.Equal(t, kafka.KStable, last(sim).GroupState)
}

// A 4.3 group starts EMPTY at group and assignment epoch 1 (KAFKA-20268);
// the first target is epoch 2. Before 4.3 both start at 0.
func TestGroupEpochStartsAtOneFrom43(t *testing.T) {
	needStrategy(t, "uniform")
	for v, first := range map[string]int32{"4.1": 1, "4.3": 2} {
		sim := simYAML(t, "b.yaml", fmt.Sprintf(batchingSrc, `kafka_version: "`+v+`"`))
		assert.Equal(t, first-1, sim.Step(0).Generation, v)
		assert.Equal(t, first-1, sim.Step(0).AssignmentEpoch, v)
		assert.Equal(t, first, steps(sim, kafka.KindAssignmentComputed, "")[0].AssignmentEpoch, v)
	}
}

// assignment_interval_ms: 0 turns batching off: a target per bump again.
func TestAssignmentIntervalZero(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "b.yaml", fmt.Sprintf(batchingSrc, `kafka_version: "4.3", assignment_interval_ms: 0`))
	assert.Len(t, computedFrom(sim, 20000), 3)
	assert.Empty(t, steps(sim, kafka.KindRebalanceDelayed, ""))
	// A longer interval holds the target longer: the first heartbeat at or
	// after 20.006 + 15 s.
	sim = simYAML(t, "b.yaml", fmt.Sprintf(batchingSrc, `kafka_version: "4.3", assignment_interval_ms: 15000`))
	got := computedFrom(sim, 20000)
	require.Len(t, got, 2)
	assert.GreaterOrEqual(t, got[1].TimeMs, got[0].TimeMs+15000)
}

func TestAssignmentIntervalKeyErrors(t *testing.T) {
	const src = "topics: {t0: 6}\ngroup: {id: g, %s}\nmembers:\n  - {id: c1}\n"
	for group, want := range map[string]string{
		`strategy: uniform, kafka_version: "4.3", assignment_interval_ms: 20000`: `b.yaml:2: group.assignment_interval_ms (between group.consumer.min.assignment.interval.ms and group.consumer.max.assignment.interval.ms) must be between 0 and 15000, got 20000`,
		`strategy: uniform, kafka_version: "4.3", assignment_interval_ms: soon`:  `b.yaml:2: group.assignment_interval_ms (between`,
		`strategy: uniform, assignment_interval_ms: 500`:                         `b.yaml:2: group.assignment_interval_ms: Kafka 4.1.0 computes a target on every group-epoch bump; consumer.assignment.interval.ms exists from Kafka 4.3 (KAFKA-20291)`,
		`strategy: range, kafka_version: "4.3", assignment_interval_ms: 500`:     `b.yaml:2: group.assignment_interval_ms is the consumer protocol's consumer.assignment.interval.ms; the eager protocol has no assignment interval`,
	} {
		_, err := scenario.Parse("b.yaml", []byte(fmt.Sprintf(src, group)))
		assert.ErrorContains(t, err, want, group)
	}
	sc, err := scenario.Parse("b.yaml", []byte(fmt.Sprintf(src, `strategy: uniform, kafka_version: "4.3"`)))
	require.NoError(t, err)
	assert.Equal(t, int64(1000), sc.AssignmentIntervalMs(), "Kafka's default")
	sc, err = scenario.Parse("b.yaml", []byte(fmt.Sprintf(src, `strategy: uniform`)))
	require.NoError(t, err)
	assert.Equal(t, int64(0), sc.AssignmentIntervalMs(), "4.1: every bump")
}

// scenario.Format writes group.kafka_version and a given
// assignment_interval_ms, and its output reads back the same.
func TestFormatAssignmentInterval(t *testing.T) {
	src := fmt.Sprintf(batchingSrc, `kafka_version: "4.3", assignment_interval_ms: 2500`)
	sc, err := scenario.Parse("b.yaml", []byte(src))
	require.NoError(t, err)
	out, err := scenario.Format(sc)
	require.NoError(t, err)
	assert.Contains(t, string(out), "kafka_version: 4.3.0")
	assert.Contains(t, string(out), "assignment_interval_ms: 2500")
	back, err := scenario.Parse("f.yaml", out)
	require.NoError(t, err, string(out))
	assert.Equal(t, sc.KafkaVersion, back.KafkaVersion)
	assert.Equal(t, int64(2500), back.AssignmentIntervalMs())
}

// Random KIP-848 groups and timelines under Kafka 4.3 with a random
// assignment interval: the state rule and the protocol rules hold on every
// step (checkKIP848Trace), no two targets are computed closer than the
// interval, jumping quiet stretches changes no step that every heartbeat
// would not, and the group still settles with every subscribed partition
// consumed; under uniform with one subscription, balanced (counts within 1).
func TestKIP848BatchingRandomEventSequences(t *testing.T) {
	needStrategy(t, "uniform")
	rapid.Check(t, func(t *rapid.T) {
		setup := rapid.SampledFrom([][2]string{{"uniform", "consumer"}, {"range-server", "consumer"}}).Draw(t, "setup")
		interval := rapid.SampledFrom([]int64{1000, 3000, 15000}).Draw(t, "interval")
		// A heartbeat interval well under the assignment interval: a
		// deferred target then spans whole heartbeat cycles.
		heartbeat := rapid.SampledFrom([]int64{1000, 5000}).Draw(t, "heartbeat")
		src := genScenario(t, setup)
		src = strings.Replace(src, "protocol: consumer}", fmt.Sprintf("protocol: consumer, kafka_version: \"4.3\", assignment_interval_ms: %d, heartbeat_interval_ms: %d}", interval, heartbeat), 1)
		src = stretch(src, rapid.SampledFrom([]int64{1, 1, 30}).Draw(t, "stretch"), 1)
		sim := simGenerated(t, src)
		checkKIP848Trace(t.Fatalf, sim, jsonSteps(t, sim), src)
		// A deferred target is no quiet stretch: jumping them changes
		// nothing that every heartbeat would not.
		every := *sim.Scenario()
		every.EveryHeartbeat = true
		full, err := model.Simulate(&every)
		if err != nil {
			t.Fatalf("simulate every heartbeat: %v\n%s", err, src)
		}
		if a, b := changes(sim), changes(full); !reflect.DeepEqual(a, b) {
			t.Fatalf("jumping quiet stretches changed the trace (%d vs %d changing steps)\n%s", len(a), len(b), src)
		}
		// The coordinator's targets (a classic leader's assignment, after a
		// migration, is the leader's own).
		computed := slices.DeleteFunc(steps(sim, kafka.KindAssignmentComputed, ""), func(st model.Step) bool { return st.Member != "" })
		converted := steps(sim, kafka.KindGroupConverted, "")
		for i := 1; i < len(computed); i++ {
			// A group made anew by a migration has computed no target yet.
			anew := slices.ContainsFunc(converted, func(c model.Step) bool { return c.Index > computed[i-1].Index && c.Index < computed[i].Index })
			if gap := computed[i].TimeMs - computed[i-1].TimeMs; gap < interval && !anew {
				t.Fatalf("targets at %d and %d ms, %d ms apart, under a %d ms interval\n%s", computed[i-1].TimeMs, computed[i].TimeMs, gap, interval, src)
			}
		}
		checkSettled(t, sim, src)
		if setup[0] == "uniform" {
			checkBalanced(t, sim, src)
		}
	})
}

// checkBalanced: when a coordinator runs and every active member subscribes
// to the same topics, their partition counts differ by at most one.
func checkBalanced(t *rapid.T, sim *model.Sim, src string) {
	v := sim.View(sim.Len() - 1)
	if v.CoordinatorBroker < 0 {
		return // no broker coordinates the group: it cannot rebalance
	}
	st := last(sim)
	if !st.GroupState.Consumer() {
		// Downgraded to a classic group: the classic leader's assignor
		// (range, say) decides, and range gives one member the only
		// partition of every topic (static members first: MemberInfo's
		// order).
		return
	}
	var subs string
	lo, hi := -1, -1
	for _, m := range v.Members {
		if m.Status != kafka.StatusActive {
			continue
		}
		s := strings.Join(m.Topics, ",")
		if subs != "" && s != subs {
			return // mixed subscriptions: balance is per topic set
		}
		subs = s
		n := 0
		for _, ps := range st.Owned[m.ID] {
			n += len(ps)
		}
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if hi-lo > 1 {
		t.Fatalf("the group ends unbalanced (%d to %d partitions per member): %v\n%s", lo, hi, st.Owned, src)
	}
}

// Kafka's ConsumerGroupHeartbeatRequestTest.testCommitAcceptedForPartitionRevokedOnUnsubscribe
// (interval 5000 ms there, 15000 here so the subscription's heartbeat lands
// inside it): M unsubscribes from bar while the next target must wait; the
// group epoch goes up, the target stays, M revokes bar-0 at its epoch
// (UNREVOKED_PARTITIONS, answer {foo-0}) and stays at that epoch, STABLE,
// once it reports {foo-0}; N, joining for bar, gets bar-0 only from the
// target a heartbeat after the interval computes.
func TestUnsubscribeInsideTheInterval(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "u.yaml", `topics: {foo: 1, bar: 1}
group: {strategy: uniform, kafka_version: "4.3", assignment_interval_ms: 15000}
members:
  - {id: m, topics: [foo, bar]}
timeline:
  - {at_ms: 1000, subscribe: {id: m, topics: [foo]}}
  - {at_ms: 8000, join: {id: n, topics: [bar]}}
`)
	var revoke, stable *model.Step
	for _, st := range steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "m") {
		switch {
		case revoke == nil && strings.Contains(st.Text, "UNREVOKED_PARTITIONS"):
			revoke = &st
		case revoke != nil && stable == nil:
			stable = &st
		}
	}
	require.NotNil(t, revoke, "m must be asked to revoke bar-0")
	assert.Contains(t, revoke.Text, "member epoch 2, UNREVOKED_PARTITIONS, assignment [foo-0]")
	assert.Equal(t, int32(3), revoke.Generation)
	assert.Equal(t, int32(2), revoke.AssignmentEpoch, "the target stays")
	require.NotNil(t, stable)
	assert.Contains(t, stable.Text, "member epoch 2, STABLE, assignment [foo-0]")
	assert.Less(t, stable.TimeMs, int64(15006), "before the next target")
	n := steps(sim, kafka.KindConsumerGroupHeartbeatResponse, "n")
	assert.Contains(t, n[0].Text, "member epoch 2, STABLE, assignment []")
	computed := computedFrom(sim, 1000)
	require.Len(t, computed, 1)
	assert.GreaterOrEqual(t, computed[0].TimeMs, int64(15006))
	assert.Equal(t, map[string][]int32{"bar": {0}}, last(sim).Owned["n"])
}

// A member that revoked for one subscription change and must revoke again
// for the next, both while Kafka 4.3 defers the target, stays at its
// epoch: Kafka moves it to the next epoch only up to the target's
// (CurrentAssignmentBuilder, UNREVOKED_PARTITIONS). It once went to
// epoch 3 beside a target of epoch 2 (found by
// TestKIP848BatchingRandomEventSequences).
func TestASecondRevocationWaitsForTheTarget(t *testing.T) {
	src := `seed: 0
topics: {t0: 1, t1: 1}
group: {id: g0, strategy: uniform, protocol: consumer, kafka_version: "4.3", assignment_interval_ms: 1000, heartbeat_interval_ms: 1000}
members:
  - {id: c1, topics: [t0, t1], instance: ic1}
  - {id: c2, topics: [t0, t1], instance: ic2}
timeline:
  - {at_ms: 7, subscribe: {id: c1, topics: [t0]}}
  - {at_ms: 9, subscribe: {id: c1, topics: [t1]}}
`
	sim := simYAML(t, "twice.yaml", src)
	checkKIP848Trace(t.Fatalf, sim, jsonSteps(t, sim), src)
	revoked := steps(sim, kafka.KindPartitionsRevoked, "c1")
	if len(revoked) != 2 {
		t.Fatalf("want c1 to revoke twice, got %d revocations", len(revoked))
	}
}
