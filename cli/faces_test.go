package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/tui"
)

// labAt opens the lab on a demo at 140×40 and presses keys, running every
// command a key returns (compare and what-if compute in commands).
func labAt(t *testing.T, demoName string, keys ...string) string {
	t.Helper()
	sc, err := loadScenario("demo:" + demoName)
	require.NoError(t, err)
	app, err := tui.New(sc)
	require.NoError(t, err)
	var m tea.Model = app
	m, _ = m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.Update(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
		for _, msg := range cmdResults(cmd) {
			m, _ = m.Update(msg)
		}
	}
	return ansi.Strip(m.View().Content)
}

// cmdResults runs a key's command: a batch's (the work and the lab's
// spinner) one by one. The commands those messages return are not run:
// here they are only the spinner's next frames.
func cmdResults(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	b, ok := msg.(tea.BatchMsg)
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range b {
		out = append(out, cmdResults(c)...)
	}
	return out
}

func secsOf(t *testing.T, screen, pattern string) int64 {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(screen)
	require.NotNil(t, m, "no %q on the screen:\n%s", pattern, screen)
	s, _ := strconv.Atoi(m[1])
	ms, _ := strconv.Atoi(m[2])
	return int64(s*1000 + ms)
}

// The lab's compare mode shows the numbers kviz compare prints for the same
// scenario and moment: one model, two faces.
func TestLabCompareEqualsTheTwin(t *testing.T) {
	screen := labAt(t, "lab", "]", "]", "c")
	at := secsOf(t, screen, `first rebalance at or after (\d+)\.(\d{3}) s`)
	var c compareOut
	runJSON(t, &c, "compare", "demo:lab", "--at-ms", fmt.Sprint(at))
	require.Len(t, c.Strategies, 5)
	for _, s := range c.Strategies {
		row := compareRow(t, screen, s.Strategy, s.Protocol)
		fields := strings.Fields(strings.Trim(row, "│ ▸"))
		tail := fields[len(fields)-9:] // moved rounds worst(2) Σ(2) min–max settled(2)
		require.Equal(t, fmt.Sprint(s.Moved), tail[0], row)
		require.Equal(t, fmt.Sprint(s.Rounds), tail[1], row)
		require.Equal(t, model.FormatMs(s.SettledMs), tail[7]+" "+tail[8], row)
	}
}

// The lab's what-if panel shows what kviz whatif prints for the same event.
func TestLabWhatIfEqualsTheTwin(t *testing.T) {
	screen := labAt(t, "lab", "]", "]", "j", "w")
	at := secsOf(t, screen, `What if \S+ leaves or crashes now \((\d+)\.(\d{3}) s\)`)
	who := regexp.MustCompile(`What if (\S+) leaves`).FindStringSubmatch(screen)[1]
	for _, kind := range []string{"leave", "crash"} {
		var o outcomeOut
		runJSON(t, &o, "whatif", "demo:lab", "--at-ms", fmt.Sprint(at), "--"+kind, who)
		require.True(t, o.Settled)
		flat := strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
		require.Contains(t, flat, fmt.Sprintf("%d round", o.Rounds), kind)
		require.Contains(t, flat, "settled at "+model.FormatMs(o.SettledMs), kind)
		for _, m := range o.Moves {
			require.Contains(t, flat, fmt.Sprintf("%s-%d", m.Topic, m.Partition), kind)
		}
	}
}

// compareRow is the lab's compare row of a strategy under a protocol.
func compareRow(t *testing.T, screen, strategy, protocol string) string {
	t.Helper()
	row := regexp.MustCompile(`(?m)^│ [ ▸]` + regexp.QuoteMeta(strategy) + ` +` + protocol + ` .*$`).FindString(screen)
	require.NotEmpty(t, row, "no row for %s:\n%s", strategy, screen)
	return row
}
