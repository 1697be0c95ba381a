package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 19 item 9: while a question is open, no pane shows what answers
// it. Every question of every shipped demo, at 80×24 and 120×40: the
// numbers pane lists no rebalance that starts later and no outcome of the
// one under way (its end, its later rounds and generations), the timeline
// draws no rebalance past the cursor, and a replicas question's partitions
// are not in the brokers pane. Once revealed, the numbers are whole again.
func TestQuizHidesItsAnswer(t *testing.T) {
	entries, err := demo.Demos()
	require.NoError(t, err)
	kinds := map[model.QuizKind]bool{}
	for _, e := range entries {
		data, _ := demo.Get(e.Name)
		sc, err := scenario.Parse(e.Name+".yaml", data)
		require.NoError(t, err)
		sim, err := model.Simulate(sc)
		require.NoError(t, err)
		rebs := sim.Rebalances()
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			a, _ := drive(t, NewFromSim(sim), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			a = pressZ(t, a)
			_ = screen(a) // the whole run's numbers drawn first, as a lab opens
			for {
				a, _ = drive(t, a, keys("G")...)
				q, ok := a.QuizQuestion()
				if !ok {
					break
				}
				kinds[q.Kind] = true
				where := fmt.Sprintf("%s %dx%d step %d (%s)", e.Name, sz[0], sz[1], q.Step, q.Kind)
				assert.Equal(t, q.Step, q.Hides.Through, where)
				scr := screen(a)
				require.NotContains(t, scr, "could not draw", where)
				n := a.numbersPane().n
				for k, r := range rebs {
					switch {
					case r.StartStep > q.Step:
						assert.Len(t, n.Rebalances, min(k, len(n.Rebalances)), "%s: rebalance %d starts later but is listed", where, k+1)
					case r.EndStep > q.Step:
						row := n.Rebalances[k]
						assert.True(t, row.UnderWay, where)
						assert.NotContains(t, withoutRounds(scr), model.FormatSpan(r.StartMs, r.EndMs), "%s: the end of the rebalance asked about", where)
						for j, rd := range r.Rounds {
							if rd.StartStep > q.Step {
								assert.NotContains(t, scr, rd.Text(j), "%s: a round not started yet", where)
								assert.NotEqual(t, rd.Generation, row.Generation, "%s: the generation it ends at", where)
							}
						}
					}
				}
				for _, o := range n.Outages {
					assert.LessOrEqual(t, o.EndStep, q.Step, "%s: an outage not over yet", where)
				}
				if line := a.timelineLine(a.width); line != "" {
					cursor := strings.Index(line, "●")
					assert.NotContains(t, line[cursor:], "━", "%s: a rebalance on the timeline past the cursor", where)
				}
				if q.Kind == model.QuizReplicas && sz[1] == 40 {
					assert.NotContains(t, scr, q.Partition+"  ", "%s: the brokers pane shows the replicas asked about", where)
					assert.Contains(t, scr, "replicas: ?", where)
				}
				a, _ = drive(t, a, keys(answerKey(q.Answer))...)
				assert.Equal(t, a.Numbers(), a.numbersPane().n, "%s: after the reveal the pane is whole", where)
			}
		}
	}
	for _, k := range []model.QuizKind{model.QuizOwner, model.QuizRevoke, model.QuizRounds, model.QuizRestart, model.QuizCount,
		model.QuizTakeover, model.QuizKeyPartition, model.QuizBatch, model.QuizReplicas, model.QuizRead} {
		assert.True(t, kinds[k], "no shipped demo asks a %s question", k)
	}
}

// withoutRounds drops the numbers pane's round lines: a round that has
// ended may share its span with the rebalance (a one-step second round).
func withoutRounds(scr string) string {
	var keep []string
	for _, l := range strings.Split(scr, "\n") {
		if !strings.Contains(l, "round ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
