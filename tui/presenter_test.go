package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// presenterSizes are the screens a trainer projects.
var presenterSizes = [][2]int{{80, 24}, {120, 40}}

// shippedDemoApp opens the lab on a shipped demo, as `kviz play demo:NAME`.
func shippedDemoApp(t testing.TB, name string, w, h int) App {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	var m tea.Model = a
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if a.mode == modeCompare && a.compare == nil { // the comparison a compare demo opens with (Init)
		m = deliver(m, a.compareRun(context.Background(), a.firstEventMs(), a.replies.awaited(replyCompare)))
	}
	return m.(App)
}

// Every shipped demo at both presenter sizes: its first rebalance under
// way and its last step, with the numbers pane (a tab away at 80 columns).
func TestGoldenDemos(t *testing.T) {
	for _, name := range demo.Names() {
		for _, size := range presenterSizes {
			for _, sc := range []struct {
				name string
				keys []string
			}{
				{"rebalance", []string{"]", "n", "n", "n"}},
				{"end", []string{"G"}},
				{"end_numbers", []string{"G", "tab", "tab"}},
			} {
				if sc.name == "end_numbers" && size[0] >= 120 {
					continue // side by side with the protocol pane already
				}
				t.Run(fmt.Sprintf("%s/%s/%dx%d", name, sc.name, size[0], size[1]), func(t *testing.T) {
					a := shippedDemoApp(t, name, size[0], size[1])
					a = realDrive(a, keys(sc.keys...)...)
					assertFits(t, a, size[0], size[1])
					golden.RequireEqual(t, screen(a))
				})
			}
		}
	}
}

// No line of any pane is cut inside a word without a mark: stepping
// through every shipped demo at both presenter sizes, with every pane in
// focus, the prompts, the help and the demo picker, a line that runs into its pane's
// edge (or the screen's) ends in "…" or in a whole word's end that the
// next cell shows to be one (a space, punctuation). What the screen cannot
// tell apart from a cut is a cut.
//
// go test ./... looks at every fifth step of each demo (a different fifth
// per demo, so the demos together cover every kind of step); .ci/run sets
// KVIZ_FULL_SWEEP=1 and looks at every one.
func TestNothingIsCutMidWord(t *testing.T) {
	every := 5
	if os.Getenv("KVIZ_FULL_SWEEP") != "" {
		every = 1
	}
	for d, name := range demo.Names() {
		for _, size := range presenterSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				a := shippedDemoApp(t, name, size[0], size[1])
				check := func(what string) {
					t.Helper()
					if cut := cutLine(screen(a), size[0]); cut != "" {
						t.Fatalf("%s, step %d: a line is cut mid-word:\n%s\n\n%s", what, a.Step()+1, cut, screen(a))
					}
				}
				for i := 0; i < 80; i++ {
					for p := 0; (i+d)%every == 0 && p < int(paneCount); p++ {
						check(fmt.Sprintf("pane %s", a.focus))
						a = realDrive(a, press("tab"))
					}
					before := a.Step()
					a = realDrive(a, press("n"))
					if a.Step() == before {
						break
					}
				}
				a = realDrive(a, press("a"))
				check("the a prompt")
				a = realDrive(a, press("enter"))
				check("the a prompt's topics")
				a = realDrive(a, press("esc"), press("t"))
				check("the t prompt")
				a = realDrive(a, press("esc"), press("?"))
				check("help")
				a = realDrive(a, press("esc"), press("o"))
				check("demo picker")
			})
		}
	}
}

// cutLine returns the first line of the screen that looks cut: a box
// row whose content touches the box's padding with a letter or digit, or
// a full-width line ending in one. "" when none.
func cutLine(screen string, width int) string {
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		for i := 2; i < len(r); i++ {
			// "x │" then the end of the line or the next box: content
			// filled the row up to the padding cell.
			edge := r[i] == '│' && r[i-1] == ' ' && (i == len(r)-1 || r[i+1] == '│' || r[i+1] == '╭')
			if edge && wordRune(r[i-2]) && textWidth(string(r[:i+1])) >= boxEdgeMin {
				// only a row as wide as its box: the inner cell before
				// the padding is the last one a line may use
				if innerFilled(r, i) {
					return l
				}
			}
		}
		if textWidth(l) == width && !strings.Contains(l, "│") && wordRune(r[len(r)-1]) {
			return l
		}
	}
	return ""
}

// boxEdgeMin skips the grid's own "│" between topics.
const boxEdgeMin = 10

// innerFilled: the row's content, from the box's left border to the
// padding before its right border at i, has no trailing blank: the
// content reached the last cell it could use.
func innerFilled(r []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		if r[j] == '│' && j+1 < len(r) && r[j+1] == ' ' {
			return j < i-2 && r[i-2] != ' '
		}
	}
	return false
}

func wordRune(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

// "↑ 13 more" shares its line with the topic names: it must leave a
// blank cell before them, however many rows are above.
func TestScrollMarkLeavesTheTopicHeader(t *testing.T) {
	st := NewStyles(true)
	for _, sel := range []int{40, 150, 199} {
		g := fixtureGrid(200, 2000)
		for i := range g.Members {
			g.Members[i].ID = fmt.Sprintf("c%d", i) // short names: the narrowest label column
		}
		g.Selected = sel
		lines := strings.Split(ansi.Strip(renderGrid(g, &st, 116, 30)), "\n")
		require.Contains(t, lines[0], "↑")
		i := strings.Index(lines[0], "topic0")
		require.Positive(t, i, "the topic name is on the line: %q", lines[0])
		assert.Equal(t, " ", lines[0][i-1:i], "a blank before the topic name: %q", lines[0])
		if sel < 199 {
			assert.Contains(t, lines[len(lines)-2]+lines[len(lines)-1], "↓", "and a mark below")
		}
	}
}

// The header keeps its order and long labels at 120 columns whatever the
// strategy's name (s used to flip it to the 80-column form).
func TestHeaderKeepsItsFormAt120(t *testing.T) {
	a := demoApp(t, 120, 40)
	for range 4 {
		a = realDrive(a, press("s"))
		lines := strings.Split(screen(a), "\n")
		l1, l2 := lines[0], lines[1]
		v := a.view()
		order := []string{"kviz", v.GroupID, "broker", v.Strategy}
		at := -1
		for _, w := range order {
			i := strings.Index(l1, w)
			require.Greater(t, i, at, "%q out of order in %q", w, l1)
			at = i
		}
		label := "generation"
		if a.Scenario().Protocol == "consumer" {
			label = "group epoch"
		}
		assert.Contains(t, l2, label, "long labels at 120 columns: %q", l2)
		assert.Less(t, strings.Index(l2, "t "), strings.Index(l2, "step"), "time before step, as on wide screens")
	}
}

func TestWhatIfHintLeavesWithThePreview(t *testing.T) {
	for _, closeKey := range []string{"w", "esc", "n"} {
		a := fakeApp(t, 80, 24)
		a, _ = drive(t, a, keys("n", "n", "n", "j", "w")...)
		require.Contains(t, screen(a), "d commits the leave")
		a, _ = drive(t, a, press(closeKey))
		assert.NotContains(t, screen(a), "d commits the leave", "closed with %s", closeKey)
	}
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "j", "w", "d")...)
	assert.Contains(t, screen(a), "c2 leaves", "committing says what it did")
}

// A crashed member's last callback is history: only running members are
// listed.
func TestCallbacksOfRunningMembersOnly(t *testing.T) {
	a := demoApp(t, 120, 40)
	a = realDrive(a, press("G"))
	var crashed string
	for _, m := range a.view().Members {
		if !m.Live() && m.LastCallback != "" {
			crashed = m.ID
		}
	}
	require.NotEmpty(t, crashed, "the demo ends with a stopped member that had callbacks")
	for _, l := range a.protocolPane().Render(66, 36) {
		if strings.Contains(l, "callbacks:") {
			assert.NotContains(t, ansi.Strip(l), " "+crashed+" on", "%s is not running", crashed)
			return
		}
	}
	t.Fatal("no callbacks line")
}
