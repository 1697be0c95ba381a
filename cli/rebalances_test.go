package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/tui"
)

// kviz rebalances prints what the lab's numbers pane shows, at every step
// of every shipped demo: one model answer, two faces.
func TestRebalancesEqualsTheNumbersPaneEveryStep(t *testing.T) {
	for _, name := range demo.Names() {
		sc, err := loadScenario("demo:" + name)
		require.NoError(t, err)
		lab, err := tui.New(sc)
		require.NoError(t, err)
		for i := range lab.Steps() {
			var got rebalancesJSON
			runJSON(t, &got, "rebalances", "demo:"+name, "--at-step", fmt.Sprint(i))
			n := lab.AtStep(i).Numbers()
			where := fmt.Sprintf("%s step %d", name, i)
			require.Equal(t, n.Step, got.Step, where)
			require.Equal(t, lab.Steps(), got.Steps, where)
			require.Equal(t, n.TimeMs, got.TimeMs, where)
			require.Equal(t, numbersNowOut{balanceJSON{n.Balance.Min, n.Balance.Max}, n.Consumed, n.Partitions}, got.Now, where)
			if n.Focus < 0 {
				require.Nil(t, got.Focus, where)
			} else {
				require.NotNil(t, got.Focus, where)
				require.Equal(t, n.Rebalances[n.Focus].Number, *got.Focus, where)
			}
			require.Len(t, got.Rebalances, len(n.Rebalances), where)
			for k, r := range n.Rebalances {
				g := got.Rebalances[k]
				require.Equal(t, []any{r.Number, r.Generation, r.StartMs, r.EndMs, r.Moved, r.WorstGapMs, r.TotalGapMs, balanceJSON{r.Balance.Min, r.Balance.Max}, len(r.Rounds)},
					[]any{g.Number, g.Generation, g.StartMs, g.EndMs, g.Moved, g.WorstGapMs, g.TotalGapMs, g.Balance, len(g.Rounds)}, where)
			}
			require.Len(t, got.Outages, len(n.Outages), where)
			for k, o := range n.Outages {
				require.Equal(t, []int64{o.StartMs, o.EndMs, o.WorstGapMs}, []int64{got.Outages[k].StartMs, got.Outages[k].EndMs, got.Outages[k].WorstGapMs}, where)
			}
		}
	}
}

// The pane draws those numbers: the table's focused row has the CLI's
// figures.
func TestNumbersPaneDrawsTheTwinsRow(t *testing.T) {
	screen := labAt(t, "example-09-cooperative-join", "G")
	var got rebalancesJSON
	runJSON(t, &got, "rebalances", "demo:example-09-cooperative-join")
	require.NotNil(t, got.Focus)
	r := got.Rebalances[*got.Focus-1]
	flat := strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
	assert.Contains(t, flat, fmt.Sprintf("▸%d %d %s %d–%d %d %s", r.Number, r.Generation, model.FormatSpan(r.StartMs, r.EndMs),
		r.Balance.Min, r.Balance.Max, r.Moved, model.FormatDur(r.WorstGapMs)))
	assert.Contains(t, flat, fmt.Sprintf("now %d–%d partitions per live member · %d/%d consumed",
		got.Now.Balance.Min, got.Now.Balance.Max, got.Now.Consumed, got.Now.Partitions))
	for k, rd := range r.Rounds {
		assert.Contains(t, flat, model.Round{Generation: rd.Generation, StartMs: rd.StartMs, EndMs: rd.EndMs}.Text(k))
	}
}

func TestRebalancesTable(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, Execute([]string{"rebalances", "demo:example-09-cooperative-join", "--format", "table"}, nil, &out, &errOut), errOut.String())
	got := out.String()
	assert.Contains(t, got, "▸1  3    10.0–15.0 s")
	assert.Contains(t, got, "round 1: generation 2, 10.0–12.0 s")
	assert.Contains(t, got, "round 2: generation 3, 12.0–15.0 s")
	assert.Contains(t, got, "#1: moves t0-1 c1→c3")
	assert.Contains(t, got, "no consumer during #1:\n      3.0 s  t0:1")
}

func TestRebalancesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rebalances", "demo:lab", "--at-step", "-1"}, "--at-step must not be negative, got -1"},
		{[]string{"rebalances", "demo:lab", "--at-step", "9999"}, "--at-step 9999: lab.yaml has steps 0..346"},
		{[]string{"rebalances", "demo:lab", "--format", "xml"}, `--format must be json or table, got "xml"`},
		{[]string{"compare", "demo:lab", "--at-step", "3", "--at-ms", "5"}, "--at-ms and --at-step both pick the moment: give one"},
		{[]string{"compare", "demo:lab", "--at-step", "9999"}, "--at-step 9999: lab.yaml has steps 0..346"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(c.args, nil, &out, &errOut)
		assert.Equal(t, 2, code, c.args)
		assert.Equal(t, "kviz: "+c.want+"\n", errOut.String(), c.args)
	}
}

// kviz compare --at-step N reads the lab's moment at step N: the lab's c at
// that step and the command compare the same rebalance under every
// strategy, with the same numbers. Steps: one inside each rebalance of
// each demo (example 10's second one is set off by c2's crash at 80 s,
// after c1's crash and return: every row is c2's rebalance), and one
// outside any.
func TestLabCompareAtStepEqualsTheTwin(t *testing.T) {
	for _, name := range []string{"example-09-cooperative-join", "example-10-static-restart", "kip848-static-crash", "lab"} {
		sc, err := loadScenario("demo:" + name)
		require.NoError(t, err)
		sim, err := model.Simulate(sc)
		require.NoError(t, err)
		var steps []int
		for _, r := range sim.Rebalances() {
			steps = append(steps, (r.StartStep+r.EndStep)/2)
		}
		steps = append(steps, sim.Len()-1)
		for _, i := range steps {
			screen := labCompareAt(t, name, i)
			at := secsOf(t, screen, `first rebalance at or after (\d+)\.(\d{3}) s`)
			var c struct {
				AtMs   int64 `json:"at_ms"`
				AtStep *int  `json:"at_step"`
				compareOut
			}
			runJSON(t, &c, "compare", "demo:"+name, "--at-step", fmt.Sprint(i))
			where := fmt.Sprintf("%s step %d", name, i)
			require.Equal(t, at, c.AtMs, where)
			require.NotNil(t, c.AtStep, where)
			require.Equal(t, i, *c.AtStep, where)
			for _, s := range c.Strategies {
				row := compareRow(t, screen, s.Strategy, s.Protocol)
				if s.Error != nil {
					assert.Contains(t, row, "cannot run", where)
					continue
				}
				if !s.Found {
					assert.Contains(t, row, "no rebalance starts then", where)
					continue
				}
				fields := strings.Fields(strings.Trim(row, "│ ▸"))
				tail := fields[len(fields)-9:] // moved rounds worst(2) Σ(2) min–max settled(2)
				require.Equal(t, []string{fmt.Sprint(s.Moved), fmt.Sprint(s.Rounds), model.FormatMs(s.SettledMs)},
					[]string{tail[0], tail[1], tail[7] + " " + tail[8]}, "%s %s: %s", where, s.Strategy, row)
			}
		}
	}
}

// labCompareAt is the lab at step i of a demo with compare open (140×40).
func labCompareAt(t *testing.T, demoName string, i int) string {
	t.Helper()
	sc, err := loadScenario("demo:" + demoName)
	require.NoError(t, err)
	app, err := tui.New(sc)
	require.NoError(t, err)
	var m tea.Model = app.Sized(140, 40).AtStep(i)
	var cmd tea.Cmd
	m, cmd = m.Update(tea.KeyPressMsg{Code: 'c', Text: "c"})
	for _, msg := range cmdResults(cmd) {
		m, _ = m.Update(msg)
	}
	return ansi.Strip(m.View().Content)
}
