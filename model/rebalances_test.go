package model_test

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// eagerStall: c2 is stuck in processing when c3 joins, so the join phase
// waits for it; c1 has revoked and sits in it for seconds.
const eagerStall = `name: eager-stall
seed: 3
topics: {t0: 4}
group: {id: g, strategy: range}
members:
  - {id: c1}
  - {id: c2}
timeline:
  - {at_ms: 30000, stall: {id: c2, ms: 10000}}
  - {at_ms: 31000, join: {id: c3}}
`

// Eager: ConsumerCoordinator.onJoinPrepare clears the assignment as soon as
// onPartitionsRevoked returns, before the JoinGroup goes out. From the
// revocation on, c1 owns nothing, however long its JoinGroup waits.
func TestEagerRevocationUnownsAtOnce(t *testing.T) {
	sim := simYAML(t, "eager-stall.yaml", eagerStall)
	revoked, answered, assigned := -1, -1, -1
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.Member != "c1" || st.TimeMs < 31000 {
			continue
		}
		switch {
		case st.Kind == "PartitionsRevoked" && revoked < 0:
			revoked = i
		case st.Kind == "JoinGroupResponse" && revoked >= 0 && answered < 0:
			answered = i
		case st.Kind == "PartitionsAssigned" && answered >= 0 && assigned < 0:
			assigned = i
		}
	}
	if revoked < 0 || answered < 0 || assigned < 0 {
		t.Fatalf("c1 should revoke, be answered and be assigned after c3 joins (steps %d, %d, %d)", revoked, answered, assigned)
	}
	wait := sim.Step(answered).TimeMs - sim.Step(revoked).TimeMs
	if wait < 5000 {
		t.Fatalf("the join phase should wait for the stalled c2 (c1 waited %d ms)", wait)
	}
	for i := revoked + 1; i <= answered; i++ {
		if st := sim.Step(i); len(st.Owned["c1"]) != 0 {
			t.Fatalf("step %d (%s at %d ms): c1 still owns %v after revoking", i, st.Kind, st.TimeMs, st.Owned["c1"])
		}
	}
	rbs := sim.Rebalances()
	last := rbs[len(rbs)-1]
	want := sim.Step(assigned).TimeMs - sim.Step(revoked).TimeMs
	if got := last.UnownedMs.Of(kafka.TP{Topic: "t0", Partition: 0}); got != want {
		t.Errorf("t0-0 was unowned %d ms; from c1's revocation to its new assignment is %d ms", got, want)
	}
}

// Example 9, cooperative: each join is one rebalance over both rounds (two
// generations), moving one partition; only that partition goes unconsumed.
func TestCooperativeDanceIsOneRebalance(t *testing.T) {
	needStrategy(t, "cooperative-sticky")
	sim := simDemo(t, "example-09-cooperative-join")
	rbs := sim.Rebalances()
	if len(rbs) != 1 {
		t.Fatalf("%d rebalances, want 1 (the group starts Stable; c3 joins): %+v", len(rbs), rbs)
	}
	c3, startGen := rbs[0], sim.Step(0).Generation
	if c3.Generation-startGen != 2 {
		t.Errorf("c3's join spans generations %d..%d, want two rounds", startGen+1, c3.Generation)
	}
	if c3.StartMs < 10000 || c3.Moved != 1 {
		t.Errorf("c3's join: %+v, want it to start after 10 s and move one partition", c3)
	}
	assigned := steps(sim, "PartitionsAssigned", "c3")
	if end := assigned[len(assigned)-1]; c3.EndMs < end.TimeMs {
		t.Errorf("the rebalance ends at %d ms, before round 2 gives c3 its partition at %d ms", c3.EndMs, end.TimeMs)
	}
	for tp, ms := range c3.UnownedMs.All() {
		if (tp == kafka.TP{Topic: "t0", Partition: 1}) != (ms > 0) {
			t.Errorf("%v unowned %d ms; only t0-1 moves", tp, ms)
		}
	}
}

// Example 10: a static restart within the session timeout starts no join
// phase: no rebalance, an outage for the restarting member's partitions.
func TestStaticRestartIsAnOutage(t *testing.T) {
	sim := simDemo(t, "example-10-static-restart")
	for _, r := range sim.Rebalances() {
		if r.StartMs < 79000 && r.EndMs > 30000 {
			t.Errorf("a rebalance during the quick restart: %+v", r)
		}
	}
	outs := sim.Outages()
	if len(outs) == 0 || outs[0].StartMs != 30000 || outs[0].UnownedMs.Len() == 0 {
		t.Fatalf("the restart at 30 s should be an outage: %+v", outs)
	}
}

// KIP-848: a static member's temporary leave (epoch -2) bumps no group
// epoch: no rebalance. Every rebalance ends with the group STABLE.
func TestConsumerRebalancesFollowTheGroupEpoch(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simDemo(t, "kip848-join")
	rbs := sim.Rebalances()
	if len(rbs) < 2 {
		t.Fatalf("%d rebalances: %+v", len(rbs), rbs)
	}
	for _, r := range rbs {
		if st := sim.Step(r.EndStep); st.GroupState != kafka.KStable {
			t.Errorf("rebalance %+v ends %s", r, st.GroupState)
		}
		if r.StartMs >= 90000 {
			t.Errorf("c2's temporary leave is no rebalance: %+v", r)
		}
	}
	if outs := sim.Outages(); len(outs) != 1 || outs[0].StartMs != 90000 {
		t.Errorf("c2's absence should be one outage from 90 s: %+v", outs)
	}
}

// Random groups: the scan agrees with a step-by-step recount; rebalances
// and outages never overlap and generations only go up between rebalances.
func TestRebalancesAgreeWithRecount(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		src := genScenario(t, rapid.SampledFrom(available).Draw(t, "setup"))
		sc, err := scenario.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		sim, _ := model.Simulate(sc)
		rbs, outs := sim.Rebalances(), sim.Outages()
		spans := make([][2]int, 0, len(rbs)+len(outs))
		converted := steps(sim, kafka.KindGroupConverted, "")
		for i, r := range rbs {
			// An empty group of one kind made anew as the other (KIP-848's
			// migration) starts its generations again.
			anew := i > 0 && slices.ContainsFunc(converted, func(c model.Step) bool { return c.Index > rbs[i-1].EndStep && c.Index <= r.EndStep })
			if i > 0 && r.Generation <= rbs[i-1].Generation && !anew {
				t.Fatalf("rebalance %d ends at generation %d, not after %d\n%s", i, r.Generation, rbs[i-1].Generation, src)
			}
			checkRecount(t, sim, r.StartStep, r.EndStep, r.UnownedMs.Map(), src)
			spans = append(spans, [2]int{r.StartStep, r.EndStep})
		}
		for _, o := range outs {
			checkRecount(t, sim, o.StartStep, o.EndStep, o.UnownedMs.Map(), src)
			spans = append(spans, [2]int{o.StartStep, o.EndStep})
		}
		for i, a := range spans {
			for _, b := range spans[i+1:] {
				if a[0] < b[1] && b[0] < a[1] {
					t.Fatalf("steps %v and %v overlap\n%s", a, b, src)
				}
			}
		}
	})
}

// checkRecount adds up, step by step, how long each subscribed partition
// went without a consumer between two steps, from the views.
func checkRecount(t *rapid.T, sim *model.Sim, from, to int, got map[kafka.TP]int64, src string) {
	want := map[kafka.TP]int64{}
	for i := from; i < to; i++ {
		v := sim.View(i)
		dt := sim.View(i+1).TimeMs - v.TimeMs
		if dt == 0 {
			continue
		}
		for tp := range unconsumed(v) {
			want[tp] += dt
		}
	}
	for tp, ms := range want {
		if got[tp] != ms {
			t.Fatalf("steps %d..%d: %v unowned %d ms, recount says %d\n%s", from, to, tp, got[tp], ms, src)
		}
	}
	for tp, ms := range got {
		if ms != want[tp] {
			t.Fatalf("steps %d..%d: %v unowned %d ms, recount says %d\n%s", from, to, tp, ms, want[tp], src)
		}
	}
}

// unconsumed lists the partitions some running member subscribes to that no
// member consumes (held and not inside its revoke or lost callback).
func unconsumed(v *model.GroupView) map[kafka.TP]bool {
	wanted := map[string]bool{}
	held := map[kafka.TP]bool{}
	for _, m := range v.Members {
		switch m.Status {
		case kafka.StatusCrashed, kafka.StatusLeft, kafka.StatusFenced:
			continue
		}
		for _, t := range m.Topics {
			wanted[t] = true
		}
		giving := map[kafka.TP]bool{}
		for _, tp := range m.Revoking {
			giving[tp] = true
		}
		for _, tp := range m.Owned {
			if !giving[tp] {
				held[tp] = true
			}
		}
	}
	out := map[kafka.TP]bool{}
	for _, t := range v.Topics {
		if !wanted[t.Name] {
			continue
		}
		for p := int32(0); p < t.Partitions; p++ {
			if tp := (kafka.TP{Topic: t.Name, Partition: p}); !held[tp] {
				out[tp] = true
			}
		}
	}
	return out
}

// KIP-848: a static member that closes revokes its partitions and leaves
// with epoch -2, which bumps no group epoch: no rebalance until its
// session expires, however its status reads after a stall.
func TestConsumerStaticCloseIsNoRebalance(t *testing.T) {
	needStrategy(t, "uniform")
	sim := simYAML(t, "static-close.yaml", `seed: 0
cluster: {brokers: 1}
topics: {t0: 1, t1: 1}
group: {id: g0, strategy: uniform, protocol: consumer}
members:
  - {id: c2, topics: [t0, t1], instance: ic2}
  - {id: c3, topics: [t0, t1]}
timeline:
  - {at_ms: 1457, stall: {id: c2, ms: 1000}}
  - {at_ms: 5015, leave: c2}
`)
	expired := steps(sim, "SessionExpired", "c2")
	if len(expired) != 1 {
		t.Fatalf("c2's session should expire once: %+v", expired)
	}
	for _, r := range sim.Rebalances() {
		if r.StartMs >= 5015 && r.StartMs < expired[0].TimeMs {
			t.Errorf("c2's temporary leave started a rebalance: %+v", r)
		}
	}
}
