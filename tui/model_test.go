package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// The lab on the real model and the default demo. These assert structure
// rather than goldens, so that the model's wording can evolve; the
// goldens (golden_test.go) pin the screens on the scripted model.

func demoScenario(t testing.TB) *scenario.Scenario {
	t.Helper()
	name, data := demo.Default()
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	return sc
}

func demoApp(t testing.TB, w, h int) App {
	t.Helper()
	sim, err := model.Simulate(demoScenario(t))
	require.NoError(t, err)
	var m tea.Model = NewFromSim(sim)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m.(App)
}

// realDrive is drive for tests that also run under rapid.
func realDrive(a App, msgs ...tea.Msg) App {
	var m tea.Model = a
	var cmd tea.Cmd
	for _, msg := range msgs {
		before := requestsOf(m)
		m, cmd = m.Update(msg)
		m = settle(m, before, cmd)
	}
	return m.(App)
}

func TestDemoTellsItsStory(t *testing.T) {
	a := demoApp(t, 100, 30)
	assert.Contains(t, screen(a), "workshop")
	assert.Contains(t, screen(a), "__consumer_offsets-17", "abs(\"workshop\".hashCode()) % 50")
	states := map[kafka.GroupState]bool{}
	for i := 0; i < 400 && a.Step() < a.sim.Len()-1; i++ {
		a = realDrive(a, press("n"))
		require.False(t, a.sim.StepLine(a.Step()).Routine, "stepping lands on routine heartbeats")
		states[a.view().State] = true
		assertFits(t, a, 100, 30)
		assert.Contains(t, screen(a), firstWords(a.sim.StepLine(a.Step()).Text, 4))
	}
	assert.Equal(t, a.sim.Len()-1, a.Step(), "n reaches the end")
	for _, s := range kafka.GroupStates(kafka.ProtocolEager) {
		assert.True(t, states[s], "the story passes through %s", s)
	}
	assert.GreaterOrEqual(t, len(a.info.rebalances), 3, "join, crash and restart each show up")
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// The grid's moved marks agree with the model's count of moves.
func TestMovedMarksAgreeWithTheModel(t *testing.T) {
	a := demoApp(t, 100, 30)
	for i, r := range a.info.rebalances {
		assert.Len(t, a.info.moved[i], r.Moved, "rebalance %d", i+1)
	}
}

// Inserting an event at the cursor leaves every step up to it untouched,
// for any moment and any event key: stepping back then forward is exact.
func TestInsertKeepsThePastOnTheRealModel(t *testing.T) {
	base := demoApp(t, 100, 30)
	rapid.Check(t, func(t *rapid.T) {
		a := base
		for range rapid.IntRange(0, 60).Draw(t, "steps") {
			a = realDrive(a, press("n"))
		}
		for range rapid.IntRange(0, 3).Draw(t, "down") {
			a = realDrive(a, press("j"))
		}
		k := rapid.SampledFrom([]string{"a", "d", "x", "r", "t"}).Draw(t, "key")
		before, cursor := a.sim, a.Step()
		a = realDrive(a, press(k))
		if a.sim == before {
			return // the model refused the event (e.g. restart of a running member): shown as a status
		}
		for i := 0; i <= cursor; i++ {
			if !assert.ObjectsAreEqual(stepOf(before, i), stepOf(a.sim, i)) {
				t.Fatalf("key %q at step %d changed step %d:\n%+v\n%+v", k, cursor, i, stepOf(before, i), stepOf(a.sim, i))
			}
		}
		after := screen(realDrive(a, press("n")))
		again := screen(realDrive(a, press("n"), press("b"), press("n")))
		if after != again {
			t.Fatalf("stepping back then forward differs")
		}
	})
}

// s runs each strategy as a consumer configured with just that assignor
// does (its preferred protocol); e cycles the protocols the strategy
// supports without changing it. After each key the lab's scenario is the
// file edited the same way (the twin rule: kviz simulate --strategy,
// --protocol).
func TestStrategyAndProtocolOnTheRealModel(t *testing.T) {
	a := demoApp(t, 100, 30)
	base := a.Scenario()
	a = realDrive(a, press("]"), press("]"))
	now := a.view().TimeMs
	isFile := func(strategy, protocol string) {
		t.Helper()
		want, err := base.WithStrategy(strategy, protocol)
		require.NoError(t, err)
		wantYAML, err := scenario.Format(want)
		require.NoError(t, err)
		gotYAML, err := scenario.Format(a.Scenario())
		require.NoError(t, err)
		assert.Equal(t, string(wantYAML), string(gotYAML), "%s/%s", strategy, protocol)
	}
	a = realDrive(a, press("s"))
	assert.Equal(t, "roundrobin", a.Scenario().Strategy)
	assert.Equal(t, "eager", a.Scenario().Protocol)
	assert.LessOrEqual(t, a.view().TimeMs, now)
	isFile("roundrobin", "")
	a = realDrive(a, press("e"))
	assert.Equal(t, "roundrobin", a.Scenario().Strategy, "e keeps the strategy")
	assert.Contains(t, screen(a), "roundrobin runs under only the eager protocol")
	a = realDrive(a, press("s"), press("s"))
	assert.Equal(t, "cooperative-sticky", a.Scenario().Strategy)
	assert.Equal(t, "cooperative", a.Scenario().Protocol, "cooperative-sticky runs cooperatively")
	isFile("cooperative-sticky", "")
	a = realDrive(a, press("e"))
	assert.Equal(t, "cooperative-sticky", a.Scenario().Strategy)
	assert.Equal(t, "eager", a.Scenario().Protocol, "the upgrade case: cooperative-sticky under eager")
	isFile("cooperative-sticky", "eager")
	a = realDrive(a, press("e"))
	assert.Equal(t, "cooperative", a.Scenario().Protocol)
	a = realDrive(a, press("s"))
	assert.Equal(t, "uniform", a.Scenario().Strategy)
	assert.Equal(t, "consumer", a.Scenario().Protocol)
	isFile("uniform", "")
	assertFits(t, a, 100, 30)
}

func TestCompareOnTheRealModel(t *testing.T) {
	a := demoApp(t, 130, 30)
	a = realDrive(a, press("]"), press("]"), press("c"))
	require.Equal(t, modeCompare, a.mode)
	var names []string
	for _, r := range a.compare.Rows {
		names = append(names, r.Strategy+"/"+r.Protocol)
		assert.NoError(t, r.Err)
		assert.True(t, r.Found, r.Strategy)
	}
	assert.Equal(t, []string{"range/eager", "roundrobin/eager", "sticky/eager", "cooperative-sticky/cooperative", "uniform/consumer"}, names)
	assertFits(t, a, 130, 30)
}

func TestWhatIfOnTheRealModel(t *testing.T) {
	a := demoApp(t, 100, 30)
	a = realDrive(a, press("]"), press("]"))
	events := len(a.Scenario().Timeline)
	a = realDrive(a, press("w"))
	require.Equal(t, modeWhatIf, a.mode)
	for _, o := range a.whatIf.Outcomes {
		assert.Empty(t, o.Err)
		assert.True(t, o.Outcome.Rebalanced, o.Kind)
		assert.True(t, o.Outcome.Settled, o.Kind)
		for _, m := range o.Outcome.Moves {
			assert.NotEqual(t, m.From, m.To)
		}
	}
	assert.Len(t, a.Scenario().Timeline, events, "a preview commits nothing")
	a = realDrive(a, press("d"))
	assert.Len(t, a.Scenario().Timeline, events+1, "d commits the leave")
}

// A scenario that says lab: {open: compare} opens with compare computing the
// rebalance its first event sets off (seed example 7: sticky versus round
// robin after C1 leaves).
func TestScenarioOpensInCompare(t *testing.T) {
	data, ok := demo.Get("example-07-sticky-leave")
	require.True(t, ok)
	sc, err := scenario.Parse("example-07-sticky-leave.yaml", data)
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	require.Equal(t, modeCompare, a.mode)
	cmd := a.Init()
	require.NotNil(t, cmd)
	var done compareDoneMsg
	for _, msg := range results(cmd) {
		if m, ok := msg.(compareDoneMsg); ok {
			done = m
		}
	}
	require.NotNil(t, done.table, "Init computes the compare table")
	assert.Equal(t, int64(30000), done.table.AtMs)
	m, _ := a.Update(done)
	assert.Contains(t, ansi.Strip(m.(App).View().Content), "roundrobin")
}
