package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// pad fills s with spaces to w cells (on the left if right is given).
func pad(s string, w int, right ...bool) string {
	n := textWidth(s)
	if n >= w {
		return s
	}
	if len(right) > 0 && right[0] {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}

// fitPad makes a line exactly w cells: cut if longer, padded if shorter,
// measuring it once (a box does this for every line of every frame).
func fitPad(s string, w int) string {
	n := textWidth(s)
	switch {
	case n > w:
		return ansi.Truncate(s, w, "")
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// fit cuts a line to w cells so nothing ever wraps.
func fit(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "")
}
