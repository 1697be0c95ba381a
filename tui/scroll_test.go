package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

// example16App opens example 16 (the partitioners) at w × h, at its end.
func example16App(t *testing.T, w, h int) App {
	t.Helper()
	name := "example-16-partitioners"
	data, ok := demo.Get(name)
	require.True(t, ok, "example 16 ships")
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	a, err := New(sc)
	require.NoError(t, err)
	return realDrive(a, tea.WindowSizeMsg{Width: w, Height: h}, press("G"))
}

// Issue 19 item 4: at 120×40 and 80×24 every partition row of example 16,
// the murmur2 breakdown and every replica line are on screen at some
// scroll of the producer pane's keys; none asks for a taller terminal.
func TestExample16ScrollsToEverything(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := example16App(t, size[0], size[1])
			require.Equal(t, paneFlow, a.focus)
			f := a.view().Flow()
			seen := map[string]bool{}
			for range 40 {
				s := screen(a)
				assertFits(t, a, size[0], size[1])
				assert.NotContains(t, s, "taller")
				for _, l := range strings.Split(s, "\n") {
					seen[strings.TrimSpace(strings.Trim(l, "│"))] = true
				}
				a = realDrive(a, press("down"))
			}
			all := strings.Join(seenLines(seen), "\n")
			assert.Contains(t, all, "murmur2(key)")
			assert.Contains(t, all, "→ partition")
			for _, tp := range f.Topics {
				assert.Contains(t, all, tp.Name+" · records")
				for _, p := range tp.Partitions {
					assert.Regexp(t, fmt.Sprintf(`(?m)^.?p%d\s`, p.Partition), all)
					if size[0] >= brokerPaneMinWidth {
						assert.Contains(t, all, fmt.Sprintf("%s-%d ", tp.Name, p.Partition), "the brokers pane scrolls too")
					}
				}
			}
			assert.Contains(t, all, "coordinator", "the coordinator keeps its word")
			// back up: the first line returns
			top := realDrive(a, tea.KeyPressMsg{Code: tea.KeyPgUp}, tea.KeyPressMsg{Code: tea.KeyPgUp}, tea.KeyPressMsg{Code: tea.KeyPgUp}, tea.KeyPressMsg{Code: tea.KeyPgUp}, tea.KeyPressMsg{Code: tea.KeyPgUp})
			assert.Equal(t, 0, top.flowScroll)
		})
	}
}

func seenLines(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Goldens of example 16 at its end, scrolled to the top and by a page.
func TestGoldenExample16Scroll(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, pages := range []int{0, 1} {
			t.Run(fmt.Sprintf("%dx%d/page%d", size[0], size[1], pages), func(t *testing.T) {
				a := example16App(t, size[0], size[1])
				for range pages {
					a = realDrive(a, benchKey("pgdown"))
				}
				golden.RequireEqual(t, ansi.Strip(a.View().Content))
			})
		}
	}
}
