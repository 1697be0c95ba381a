package model_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

var timeKey = regexp.MustCompile(`\b(at_ms|ms): (\d+)`)

// stretch multiplies a generated timeline's times by at and its stalls by
// stall, so the random groups get quiet stretches of minutes to hours
// between events, and stalls that outlast them.
func stretch(src string, at, stall int64) string {
	return timeKey.ReplaceAllStringFunc(src, func(m string) string {
		g := timeKey.FindStringSubmatch(m)
		n, _ := strconv.ParseInt(g[2], 10, 64)
		if g[1] == "ms" {
			return fmt.Sprintf("ms: %d", n*stall)
		}
		return fmt.Sprintf("at_ms: %d", n*at)
	})
}

// changes is every step that is not a routine heartbeat, without its index
// (jumping a stretch drops routine steps before it).
func changes(sim *model.Sim) []model.Step {
	var out []model.Step
	for i := 0; i < sim.Len(); i++ {
		if st := sim.Step(i); !st.Routine {
			st.Index = 0
			out = append(out, st)
		}
	}
	return out
}

// TestQuietStretchesAreExact runs random scenarios with long quiet
// stretches twice, jumping them and running every heartbeat, and checks
// that every step that changes something is the same, at the same time,
// with the same state after it.
func TestQuietStretchesAreExact(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		src := genScenario(t, rapid.SampledFrom(available).Draw(t, "setup"))
		src = stretch(src, rapid.Int64Range(1, 120).Draw(t, "stretch"), rapid.Int64Range(1, 20).Draw(t, "stall stretch"))
		sc, err := scenario.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("generated scenario does not parse: %v\n%s", err, src)
		}
		jumped, err := model.Simulate(sc)
		if kafkaLivelock(err, sc) {
			t.Skipf("Kafka loops on this scenario (kafkaLivelock): %v", err)
		}
		if err != nil {
			t.Fatalf("simulate: %v\n%s", err, src)
		}
		every := *sc
		every.EveryHeartbeat = true
		full, err := model.Simulate(&every)
		if err != nil {
			t.Fatalf("simulate every heartbeat: %v\n%s", err, src)
		}
		sameChanges(t, jumped, full, src)
		if full.Len() < jumped.Len() {
			t.Fatalf("jumping made the trace longer: %d > %d steps\n%s", jumped.Len(), full.Len(), src)
		}
	})
}

// TestThirtyDaysIsOneStretch: a crash after 30 quiet days runs as one
// QuietStretch step and the rebalance it sets off, on its exact millisecond.
func TestThirtyDaysIsOneStretch(t *testing.T) {
	const at = 30 * 24 * 3600 * 1000
	src := fmt.Sprintf(`topics: {t0: 6}
group: {id: g, strategy: range}
members: [{id: c1}, {id: c2}, {id: c3}]
timeline: [{at_ms: %d, crash: c1}]
`, at)
	sim := simYAML(t, "d30.yaml", src)
	if sim.Len() > 1000 {
		t.Fatalf("%d steps: the quiet month was not jumped", sim.Len())
	}
	var quiet, crash *model.Step
	for i := 0; i < sim.Len(); i++ {
		st := sim.StepLine(i)
		switch st.Kind {
		case kafka.KindQuietStretch:
			quiet = &st
		case kafka.KindMemberCrashed:
			crash = &st
		}
	}
	if quiet == nil || !quiet.Routine {
		t.Fatalf("no routine QuietStretch step")
	}
	if crash == nil || crash.TimeMs != at {
		t.Fatalf("crash step %+v, want one at %d ms", crash, at)
	}
	last := sim.StepLine(sim.Len() - 1)
	if last.GroupState != kafka.Stable || last.Generation != 2 {
		t.Fatalf("ends %s gen %d, want Stable gen 2", last.GroupState, last.Generation)
	}
}

// TestMonthWithoutCoordinator: a one-broker cluster down for a month runs
// its clients' FindCoordinator retries as one stretch, and the group comes
// back at its stored generation when the broker does.
func TestMonthWithoutCoordinator(t *testing.T) {
	const at = 30 * 24 * 3600 * 1000
	src := fmt.Sprintf(`cluster: {brokers: 1}
topics: {t0: 6}
group: {id: g, strategy: range}
members: [{id: c1}, {id: c2}, {id: c3}]
timeline:
  - {at_ms: 10000, fail_broker: 0}
  - {at_ms: %d, recover_broker: 0}
`, at)
	sim := simYAML(t, "outage.yaml", src)
	if sim.Len() > 1000 {
		t.Fatalf("%d steps: the month without a coordinator was not jumped", sim.Len())
	}
	stretches, recovered := 0, false
	for i := 0; i < sim.Len(); i++ {
		st := sim.StepLine(i)
		switch {
		case st.Kind == kafka.KindQuietStretch:
			stretches++
		case st.Kind == kafka.KindBrokerRecovered && st.TimeMs == at:
			recovered = true
		}
	}
	if stretches == 0 || !recovered {
		t.Fatalf("%d stretches, recovered at %d ms: %v", stretches, at, recovered)
	}
	if last := sim.StepLine(sim.Len() - 1); last.GroupState != kafka.Stable || last.Generation != 1 {
		t.Fatalf("ends %s gen %d, want Stable gen 1", last.GroupState, last.Generation)
	}
}

// A run whose context is done gives up with its error: the lab cancels a
// recompute a newer key made useless.
func TestSimulateContextGivesUp(t *testing.T) {
	sc, err := scenario.Parse("big.yaml", []byte(bigGroupYAML(200, 2000, "range")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := model.SimulateContext(ctx, sc); !errors.Is(err, context.Canceled) {
		t.Fatalf("SimulateContext on a cancelled context: %v", err)
	}
	for _, row := range model.CompareContext(ctx, sc, 0, nil, []model.Variant{{Strategy: "range"}, {Strategy: "sticky"}}) {
		if !errors.Is(row.Err, context.Canceled) {
			t.Fatalf("compare row %s: %v", row.Strategy, row.Err)
		}
	}
	if _, err := model.SimulateContext(context.Background(), sc); err != nil {
		t.Fatal(err)
	}
}

// TestReplayedCyclesAreTheHeartbeats runs random scenarios with short
// quiet stretches (the ones too short to jump, where cycles are replayed)
// with and without replayed cycles, and checks that every step, routine
// heartbeats included, is the same: time, kind, member, sentence and the
// state after it.
func TestReplayedCyclesAreTheHeartbeats(t *testing.T) {
	available := registeredSetups()
	before := model.Replays()
	rapid.Check(t, func(t *rapid.T) {
		src := genScenario(t, rapid.SampledFrom(available).Draw(t, "setup"))
		src = stretch(src, rapid.Int64Range(1, 15).Draw(t, "stretch"), rapid.Int64Range(1, 20).Draw(t, "stall stretch"))
		sc, err := scenario.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("generated scenario does not parse: %v\n%s", err, src)
		}
		sameRuns(t, sc, src)
	})
	if model.Replays() == before {
		t.Fatal("no random scenario replayed a cycle")
	}
}

// A crash in a large group waits out the session timeout through nine
// heartbeat cycles: most are replayed, and the trace is the heartbeats'.
func TestACrashSessionTimeoutIsReplayed(t *testing.T) {
	for _, s := range []modeltest.Scale{
		{Members: 60, Partitions: 600, Topics: 12, Strategy: "uniform", Given: true, Crash: true},
		{Members: 40, Partitions: 400, Topics: 4, Strategy: "cooperative-sticky", Given: true, Crash: true},
	} {
		y, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(s.Name()+".yaml", []byte(y))
		if err != nil {
			t.Fatal(err)
		}
		before := model.Replays()
		sameRuns(t, sc, s.Name())
		if model.Replays() == before {
			t.Fatalf("%s: the crash's session timeout replayed no cycle", s.Name())
		}
	}
}

// sameRuns simulates sc with and without replayed cycles and compares
// every step.
func sameRuns(t interface{ Fatalf(string, ...any) }, sc *scenario.Scenario, what string) {
	replayed, err := model.Simulate(sc)
	if err != nil {
		t.Fatalf("simulate: %v\n%s", err, what)
	}
	restore := model.SetReplayCycles(false)
	ran, err := model.Simulate(sc)
	restore()
	if err != nil {
		t.Fatalf("simulate without replays: %v\n%s", err, what)
	}
	if replayed.Len() != ran.Len() {
		t.Fatalf("%d steps replayed, %d run\n%s", replayed.Len(), ran.Len(), what)
	}
	for i := 0; i < ran.Len(); i++ {
		if a, b := replayed.Step(i), ran.Step(i); !reflect.DeepEqual(a, b) {
			t.Fatalf("step %d differs:\nreplayed %+v\nrun      %+v\n%s", i, a, b, what)
		}
	}
}
