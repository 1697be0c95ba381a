package tui

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// The big group of issue 13: 200 members subscribed to 10 topics of 200
// partitions each (2,000 partitions), with a join, a crash and a leave on
// its timeline, so that there are rebalances to jump between. It is a real
// scenario file (scenario.Parse reads it), simulated by the real
// model: the lab's keys are measured on what a user would open.

const (
	bigMembers         = 200
	bigTopics          = 10
	bigTopicPartitions = 200
)

// bigGroupStrategies are the three the issue measures: a classic eager
// assignor, the cooperative one, and KIP-848's server-side one.
var bigGroupStrategies = []string{"range", "cooperative-sticky", "uniform"}

// bigGroupYAML is the scenario file of the big group under strategy (each
// runs under its preferred protocol). A strategy named "NAME-long" is NAME
// with the leave 20 minutes in: a quiet stretch of 160,000 heartbeat steps.
func bigGroupYAML(strategy string) string {
	leaveAt := 200000
	if s, ok := strings.CutSuffix(strategy, "-long"); ok {
		strategy, leaveAt = s, 1200000
	}
	var b strings.Builder
	fmt.Fprintf(&b, "name: big-%s\ntitle: \"%d members × %d partitions (%s)\"\nseed: 13\n",
		strategy, bigMembers, bigTopics*bigTopicPartitions, strategy)
	b.WriteString("topics: {")
	for t := range bigTopics {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "t%d: %d", t, bigTopicPartitions)
	}
	fmt.Fprintf(&b, "}\ngroup: {id: big, strategy: %s}\nmembers:\n", strategy)
	for i := range bigMembers {
		fmt.Fprintf(&b, "  - {id: c%03d}\n", i)
	}
	b.WriteString("timeline:\n")
	fmt.Fprintf(&b, "  - {at_ms: 30000, join: {id: c%03d}}\n", bigMembers)
	b.WriteString("  - {at_ms: 90000, crash: c007}\n")
	fmt.Fprintf(&b, "  - {at_ms: %d, leave: c042}\n", leaveAt)
	return b.String()
}

var (
	bigSims   = map[string]*model.Sim{}
	bigSimsMu sync.Mutex
)

// bigGroupSim is the big group simulated under strategy, once per test
// binary (a few hundred milliseconds each).
func bigGroupSim(t testing.TB, strategy string) *model.Sim {
	t.Helper()
	bigSimsMu.Lock()
	defer bigSimsMu.Unlock()
	if s, ok := bigSims[strategy]; ok {
		return s
	}
	sc, err := scenario.Parse("big-"+strategy+".yaml", []byte(bigGroupYAML(strategy)))
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	bigSims[strategy] = sim
	return sim
}

// bigGroupApp is the lab on the big group at w × h, at its first step.
func bigGroupApp(t testing.TB, strategy string, w, h int) App {
	t.Helper()
	return realDrive(NewFromSim(bigGroupSim(t, strategy)), tea.WindowSizeMsg{Width: w, Height: h})
}

var bigFixtureOut = flag.String("big-fixture", "", "write the big group's scenario (range) to this file, for trying it in the lab")

// TestBigGroupFixture checks the fixture is what it says: every member
// holds partitions, and the timeline sets off rebalances. With
// -big-fixture FILE it also writes the scenario for a manual test
// (kviz play FILE).
func TestBigGroupFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates a 200-member group")
	}
	sim := bigGroupSim(t, "range")
	last := sim.View(sim.Len() - 1)
	require.Len(t, last.Topics, bigTopics)
	held := 0
	for _, m := range last.Members {
		held += len(m.Owned)
	}
	require.Equal(t, bigTopics*bigTopicPartitions, held, "the group ends with every partition consumed")
	require.GreaterOrEqual(t, len(sim.Rebalances()), 3, "the first join, c200's join, c007's crash")
	if *bigFixtureOut != "" {
		for _, s := range bigGroupStrategies {
			name := strings.Replace(*bigFixtureOut, ".yaml", "-"+s+".yaml", 1)
			require.NoError(t, os.WriteFile(name, []byte(bigGroupYAML(s)), 0o644))
		}
	}
}
