package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The grid never wraps and never overflows, from 1 partition to thousands,
// and the selected member is always on screen.
func TestGridAlwaysFits(t *testing.T) {
	st := NewStyles(true)
	rapid.Check(t, func(t *rapid.T) {
		members := rapid.IntRange(1, 60).Draw(t, "members")
		parts := rapid.SliceOfN(rapid.IntRange(1, 600), 1, 4).Draw(t, "partitions")
		g := fixtureGrid(members, parts...)
		g.Selected = rapid.IntRange(0, members-1).Draw(t, "selected")
		for i := range g.Members {
			for ti, n := range parts {
				for p := range n {
					if rapid.IntRange(0, 20).Draw(t, "noise") == 0 {
						g.Members[i].setCell(ti, p, cellState(rapid.IntRange(0, 4).Draw(t, "state")))
					}
				}
			}
		}
		w := rapid.IntRange(40, 250).Draw(t, "width")
		h := rapid.IntRange(5, 60).Draw(t, "height")
		out := renderGrid(g, &st, w, h)
		lines := strings.Split(out, "\n")
		if len(lines) > h {
			t.Fatalf("%d lines for height %d", len(lines), h)
		}
		for i, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("line %d is %d wide for width %d: %q", i, ansi.StringWidth(l), w, ansi.Strip(l))
			}
		}
		if !strings.Contains(ansi.Strip(out), selMarker+" "+g.Members[g.Selected].Letter) {
			t.Fatalf("selected member %d is not on screen", g.Selected)
		}
	})
}

func TestGridLayoutCondensesOnlyWhenNeeded(t *testing.T) {
	small := layoutGrid(fixtureGrid(3, 6), 76)
	assert.Equal(t, 1, small.PerCol)
	assert.GreaterOrEqual(t, small.CellW, 3, "six partitions get roomy cells")

	big := layoutGrid(fixtureGrid(50, 1000), 156)
	assert.Greater(t, big.PerCol, 1, "1,000 partitions cannot get a column each on 156 cells")
	assert.LessOrEqual(t, big.LabelW+big.GridW+big.TagW+big.CountW, 156)
	covered := 0
	for _, c := range big.Cols {
		covered += c.Hi - c.Lo
	}
	assert.Equal(t, 1000, covered, "condensed columns cover every partition once")
}

func TestCellsSayTheirStateWithoutColour(t *testing.T) {
	st := NewStyles(true)
	g := fixtureGrid(3, 6)
	g.Members[0].setCell(0, 0, cellRevoking)
	g.Members[1].setCell(0, 1, cellNew)
	g.Members[2].setCell(0, 2, cellPending)
	g.Topics[0].Unowned[4] = true
	g.Topics[0].Moved[1] = true
	out := ansi.Strip(renderGrid(g, &st, 76, 10))
	row := func(prefix string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " ▸"), prefix) {
				return l
			}
		}
		t.Fatalf("no row %q in\n%s", prefix, out)
		return ""
	}
	assert.Contains(t, row("A consumer-0"), "-A", "revoking")
	assert.Contains(t, row("B consumer-1"), "+B", "newly assigned")
	assert.Contains(t, row("C consumer-2"), "~C", "waiting")
	assert.Contains(t, row("status"), "*", "moved marker")
	assert.Contains(t, row("status"), "!", "unowned marker")
	assert.Contains(t, row("A  held"), "revoking", "the legend explains the glyphs")
}

func TestCondensedCellShades(t *testing.T) {
	st := NewStyles(true)
	b := &st.brushes
	cases := []struct {
		states []cellState
		want   string
	}{
		{[]cellState{0, 0, 0, 0}, "·"},
		{[]cellState{1, 0, 0, 0}, "░"},
		{[]cellState{1, 1, 0, 0}, "▒"},
		{[]cellState{1, 1, 1, 0}, "▓"},
		{[]cellState{1, 1, 1, 1}, "█"},
		{[]cellState{1, 2, 1, 1}, "+"},
		{[]cellState{1, 2, 3, 1}, "-"},
		{[]cellState{4, 2, 3, 1}, "~"},
	}
	for _, c := range cases {
		var m gridMember
		for p, st := range c.states {
			if st != cellEmpty {
				m.setCell(0, p, st)
			}
		}
		_, got := condensedCell(m.cellsIn(0, 0, len(c.states)), len(c.states), b, 0)
		assert.Equal(t, c.want, got, "%v", c.states)
	}
}

func TestVisibleRowsFollowTheSelection(t *testing.T) {
	f, l := visibleRows(50, 10, 0)
	assert.Equal(t, [2]int{0, 10}, [2]int{f, l})
	f, l = visibleRows(50, 10, 25)
	assert.True(t, f <= 25 && 25 < l)
	assert.Equal(t, 10, l-f)
	f, l = visibleRows(5, 10, 3)
	assert.Equal(t, [2]int{0, 5}, [2]int{f, l})
}

func TestScrolledGridSaysWhatIsHidden(t *testing.T) {
	st := NewStyles(true)
	g := fixtureGrid(30, 12)
	g.Selected = 20
	out := ansi.Strip(renderGrid(g, &st, 100, 12))
	assert.Contains(t, out, "↑ 12 more")
	assert.Contains(t, out, "↓ 9 more")
	assert.Contains(t, out, "▸ U consumer-20")
}

func TestRunsText(t *testing.T) {
	g := fixtureGrid(1, 8, 3)
	for ti, row := range [][]cellState{
		{1, 1, 1, 0, 2, 0, 3, 3},
		{0, 4, 0}, // waiting for it: not held
	} {
		for p, st := range row {
			g.Members[0].setCell(ti, p, st)
		}
	}
	assert.Equal(t, "topic0:0–2,4,6–7", runsText(g, &g.Members[0]))
}

func TestBoxIsExactlyItsSize(t *testing.T) {
	st := NewStyles(false)
	for _, wh := range [][2]int{{10, 3}, {40, 8}, {80, 2}} {
		out := box(&st, "A very long title that will not fit", []string{"x", strings.Repeat("y", 200)}, wh[0], wh[1], true)
		lines := strings.Split(out, "\n")
		assert.Len(t, lines, wh[1])
		for _, l := range lines {
			assert.Equal(t, wh[0], ansi.StringWidth(l), fmt.Sprintf("%q", ansi.Strip(l)))
		}
	}
}

// Partition labels keep a regular step and are never cut short at a topic's
// edge (a cut "440" would read "44").
func TestNumberHeaderLabelsAreWhole(t *testing.T) {
	st := NewStyles(true)
	for _, w := range []int{100, 156, 200} {
		g := fixtureGrid(5, 600, 400)
		lines := strings.Split(ansi.Strip(renderGrid(g, &st, w, 12)), "\n")
		var nums []int
		for _, f := range strings.Fields(lines[1]) {
			var n int
			if _, err := fmt.Sscanf(f, "%d", &n); err == nil {
				nums = append(nums, n)
			}
		}
		require.GreaterOrEqual(t, len(nums), 4, "width %d: %q", w, lines[1])
		step := 0
		for _, n := range nums {
			if n > 0 && (step == 0 || n < step) {
				step = n
			}
		}
		for _, n := range nums {
			assert.Zero(t, n%step, "width %d: label %d is off the step %d in %q", w, n, step, lines[1])
		}
	}
}

// Past 62 members every label has two characters, and no two members of
// a run share one.
func TestRosterLabelsStayUnique(t *testing.T) {
	for _, n := range []int{1, 62, 63, 200, 3844, 3845} {
		seen := map[string]bool{}
		width := len(rosterLabel(0, n))
		for i := range n {
			l := rosterLabel(i, n)
			if seen[l] {
				t.Fatalf("%d members: label %q twice", n, l)
			}
			if len(l) != width {
				t.Fatalf("%d members: label %q is not %d wide like the first", n, l, width)
			}
			seen[l] = true
		}
	}
	if rosterLabel(61, 62) != "9" || rosterLabel(62, 63) != "BA" {
		t.Fatalf("labels: %q %q", rosterLabel(61, 62), rosterLabel(62, 63))
	}
}

func TestCellGlyphFitsItsCell(t *testing.T) {
	for _, label := range []string{"A", "AB"} {
		for _, glyph := range []string{"", "+"} {
			for w := 1; w <= 7; w++ {
				c := cellGlyph(w, glyph, label)
				if len(c) != w {
					t.Errorf("cellGlyph(%d, %q, %q) = %q: %d wide", w, glyph, label, c, len(c))
				}
				if w > len(label) && !strings.Contains(c, label) {
					t.Errorf("cellGlyph(%d, %q, %q) = %q lost the label", w, glyph, label, c)
				}
				if w > len(label) && glyph != "" && w > 1 && !strings.Contains(c, glyph+label) {
					t.Errorf("cellGlyph(%d, %q, %q) = %q: the glyph goes right before the label", w, glyph, label, c)
				}
			}
		}
	}
}
