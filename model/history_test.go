package model_test

import (
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// Every step keeps its own state: stepping back shows the past, and views
// of unchanged steps are shared rather than rebuilt.
func TestHistoryStepsBack(t *testing.T) {
	sim := simDemo(t, "lab")
	join := firstAt(sim, 20000)
	before, after := sim.View(join-1), sim.View(sim.Len()-1)
	if len(before.Members) != 3 || len(after.Members) != 4 {
		t.Fatalf("members before c4 joined: %d, at the end: %d", len(before.Members), len(after.Members))
	}
	if before.Generation != 1 || after.Generation != 3 {
		t.Errorf("generations %d and %d, want 1 and 3", before.Generation, after.Generation)
	}
	if sim.View(join-1) != before {
		t.Error("View(i) should return the same shared view twice")
	}
	for _, m := range before.Members {
		if m.Status != kafka.StatusActive || len(m.Owned) != 2 {
			t.Errorf("before c4 joined, %s is %s owning %v", m.ID, m.Status, m.Owned)
		}
	}
	crashed := 0
	for _, m := range after.Members {
		if m.ID == "c2" && m.Status == kafka.StatusCrashed {
			crashed++
		}
		if m.IsLeader != (m.ID == after.Leader) {
			t.Errorf("%s IsLeader=%v, leader %s", m.ID, m.IsLeader, after.Leader)
		}
	}
	if crashed != 1 {
		t.Error("c2 should show as crashed at the end")
	}
	if after.CoordinatorBroker < 0 || after.Topics[0].Name != "orders" || after.Topics[0].Partitions != 6 {
		t.Errorf("view: coordinator %d, topics %v", after.CoordinatorBroker, after.Topics)
	}
}

// Insert forks the timeline: the original is unchanged, the fork differs
// from the inserted event on, and is identical before it.
func TestInsertForks(t *testing.T) {
	sim := simDemo(t, "lab")
	fork, err := sim.Insert(scenario.Event{AtMs: 60000, Kind: "crash", Member: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	at := firstAt(sim, 60000)
	for i := 0; i < at; i++ {
		if a, b := sim.Step(i), fork.Step(i); a.Text != b.Text || a.TimeMs != b.TimeMs {
			t.Fatalf("step %d differs before the inserted event: %q vs %q", i, a.Text, b.Text)
		}
	}
	if st := fork.Step(at); st.Kind != "MemberCrashed" || st.Member != "c1" {
		t.Errorf("the fork's step at 60 s is %s %s, want c1's crash", st.Kind, st.Member)
	}
	if len(steps(sim, "MemberCrashed", "c1")) != 0 {
		t.Error("the original must not change")
	}
	if _, ok := last(fork).Owned["c1"]; ok {
		t.Error("c1 crashed in the fork and should own nothing")
	}
	for _, bad := range []scenario.Event{{AtMs: -1, Kind: "crash", Member: "c1"}, {AtMs: 5, Kind: "crsh", Member: "c1"},
		{AtMs: 5, Kind: "fail_broker", Broker: 9}, {AtMs: 5, Kind: "add_partitions", Topic: "nope", Count: 3}, {AtMs: 5, Kind: "leave"}} {
		if _, err := sim.Insert(bad); err == nil {
			t.Errorf("Insert(%+v) should fail", bad)
		}
	}
}

// Rebalances: the lab story has three join phases (the first, c4's join,
// c2's removal); c2's silent death and c3's static restart are outages, not
// rebalances: the coordinator starts no join phase until c2's session
// expires, and none at all for c3.
func TestRebalances(t *testing.T) {
	sim := simDemo(t, "lab")
	rbs := sim.Rebalances()
	if len(rbs) != 3 {
		t.Fatalf("%d rebalances, want 3: %+v", len(rbs), rbs)
	}
	join := rbs[1]
	if join.StartMs < 20000 || join.EndMs > 25000 || join.Generation != 2 {
		t.Errorf("c4's join: %+v", join)
	}
	if join.Moved != 1 {
		t.Errorf("range moved %d partitions for c4's join, want 1 (orders-5 from c2 to c4)", join.Moved)
	}
	for tp, ms := range join.UnownedMs.All() {
		if ms <= 0 {
			t.Errorf("eager: %v should be unowned for a while, got %d ms", tp, ms)
		}
	}
	crash := rbs[2]
	expired := steps(sim, "SessionExpired", "c2")
	if len(expired) != 1 || crash.StartMs != expired[0].TimeMs || crash.Generation != 3 {
		t.Errorf("c2's removal should start at its session expiry %+v: %+v", expired, crash)
	}
	outs := sim.Outages()
	if len(outs) != 2 {
		t.Fatalf("%d outages, want 2 (c2 dead until its session expires, c3 restarting): %+v", len(outs), outs)
	}
	dead := outs[0]
	if dead.StartMs != 45000 || dead.EndMs != crash.StartMs || dead.EndStep != crash.StartStep {
		t.Errorf("c2's outage should run from its crash to the rebalance: %+v", dead)
	}
	if ms := dead.UnownedMs.Of(kafka.TP{Topic: "orders", Partition: 4}); ms != crash.StartMs-45000 {
		t.Errorf("orders-4 was c2's: unowned %d ms before the rebalance, want %d", ms, crash.StartMs-45000)
	}
	back := outs[1]
	if back.StartMs != 120000 || back.EndMs < 130000 || back.UnownedMs.Len() != 2 {
		t.Errorf("c3's restart: %+v", back)
	}
}

// StepLine is Step without its maps, and clamps like it.
func TestStepLineAgreesWithStep(t *testing.T) {
	for _, name := range []string{"lab", "kip848-join", "producers"} {
		sim := simDemo(t, name)
		for i := -1; i <= sim.Len(); i++ {
			line, st := sim.StepLine(i), sim.Step(i)
			st.Owned, st.MemberEpochs, st.MemberStates, st.Target, st.Lag = nil, nil, nil, nil, nil
			if !reflect.DeepEqual(line, st) {
				t.Fatalf("%s step %d: StepLine %+v, Step %+v", name, i, line, st)
			}
		}
	}
}
