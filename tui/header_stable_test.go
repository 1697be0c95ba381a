package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// separators are the columns of a header line's "│" separators.
func separators(line string) []int {
	var out []int
	for i, r := range []rune(ansi.Strip(line)) {
		if r == '│' {
			out = append(out, i)
		}
	}
	return out
}

// Issue 19 item 17: stepping through the workshop demo never moves the
// second header line's separators nor drops the step count, at 80 and
// 120 columns, for a follower in a room too.
func TestHeaderKeepsItsLayout(t *testing.T) {
	for _, w := range []int{80, 120} {
		for _, follower := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/follower=%v", w, follower), func(t *testing.T) {
				trainer := demoApp(t, w, 30)
				a := trainer
				if follower { // it takes each of the trainer's steps
					a = realDrive(demoApp(t, w, 30).Follower(), trainer.RoomState())
				}
				want := separators(a.headerLines()[1])
				require.NotEmpty(t, want)
				for i := 0; i < 60 && a.Step() < a.sim.Len()-1; i++ {
					trainer = realDrive(trainer, press("n"))
					if follower {
						a = realDrive(a, trainer.RoomState())
					} else {
						a = trainer
					}
					line := ansi.Strip(a.headerLines()[1])
					assert.Equal(t, want, separators(line), "step %d: %q", a.Step(), line)
					assert.Contains(t, line, fmt.Sprintf("%d/%d", a.Step(), a.sim.Len()-1), "the step count stays")
					assert.LessOrEqual(t, textWidth(line), w)
					assert.False(t, strings.HasSuffix(strings.TrimSpace(line), "…"), "cut: %q", line)
				}
			})
		}
	}
}
