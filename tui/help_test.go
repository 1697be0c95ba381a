package tui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastLine is the frame's last line: the footer.
func lastLine(a App) string {
	lines := strings.Split(screen(a), "\n")
	return lines[len(lines)-1]
}

// The help follows what has the keys: a screen that takes typed keys (the
// picker, a prompt) shows its own in the footer, where q is a letter.
func TestFooterFollowsTheScreenInFront(t *testing.T) {
	a := fakeApp(t, 80, 24)
	lab := lastLine(a)
	assert.Contains(t, lab, "→/n/space next step")
	assert.Contains(t, lab, "q quit")

	picker, _ := drive(t, a, press("o"))
	require.Equal(t, modePicker, picker.mode)
	foot := lastLine(picker)
	assert.Contains(t, foot, "enter open it")
	assert.Contains(t, foot, "esc back")
	assert.Contains(t, foot, "ctrl+c quit")
	assert.NotContains(t, foot, "next step", "lab keys are letters in the picker's filter")

	prompt, _ := drive(t, a, press("a"))
	require.NotNil(t, prompt.prompt)
	foot = lastLine(prompt)
	assert.Contains(t, foot, "enter accept")
	assert.Contains(t, foot, "esc cancel")
	assert.NotContains(t, foot, "q quit")

	back, _ := drive(t, prompt, press("esc"))
	assert.Equal(t, lab, lastLine(back), "the lab's footer again")
	compare, _ := drive(t, a, keys("n", "n", "n", "c")...)
	assert.Equal(t, lab, lastLine(compare), "compare keeps the lab's footer: every lab key works there")
}

// The ? screen lists the mode's own keys first, then the lab's that still
// mean the same there; a key is never listed with two meanings.
func TestFullHelpFollowsTheMode(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
		own  []string
		gone []string
	}{
		{"compare", []string{"n", "n", "n", "c", "?"}, []string{"row up", "row down", "switch to the row", "close compare"}, []string{"member up", "compare mode"}},
		{"what-if", []string{"n", "n", "n", "j", "w", "?"}, []string{"commit the leave", "commit the crash", "close the preview"}, []string{"member leaves", "member crashes"}},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			a := fakeApp(t, size[0], size[1])
			a, _ = drive(t, a, keys(c.keys...)...)
			require.True(t, a.help.ShowAll, c.name)
			got := keysBox(screen(a))
			for _, s := range c.own {
				assert.Contains(t, got, s, "%s %v", c.name, size)
			}
			for _, s := range c.gone {
				assert.NotContains(t, got, s, "%s %v", c.name, size)
			}
			assert.Contains(t, got, "next step", "%s %v: the lab's time keys still work", c.name, size)
			assertFits(t, a, size[0], size[1])
		}
	}
	lab, _ := drive(t, fakeApp(t, 80, 24), press("?"))
	assert.Contains(t, keysBox(screen(lab)), "member up", "the lab's own ? screen")
}

// keysBox is the ? screen's list of keys, above the grid's legend.
func keysBox(s string) string {
	from := strings.Index(s, "Keys · ")
	to := strings.Index(s, "Reading the grid")
	if from < 0 || to < from {
		return ""
	}
	return s[from:to]
}
