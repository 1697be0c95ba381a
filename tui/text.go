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

// fitPad makes a line exactly w cells: cut (ending in "…") if longer,
// padded if shorter, measuring it once (a box does this for every line of
// every frame).
func fitPad(s string, w int) string {
	n := textWidth(s)
	switch {
	case n > w:
		return fitPad(cut(s, w), w)
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// cutMark ends a line that was cut: a presenter's screen never shows half
// a word as if it were whole.
const cutMark = "…"

// fit cuts a line to w cells so nothing ever wraps; a cut line ends in "…".
func fit(s string, w int) string {
	if textWidth(s) <= w {
		return s
	}
	return cut(s, w)
}

// cut shortens s, known to be wider than w, to at most w cells ending in
// "…". When the cut falls inside a word it moves back to the space before
// it, if that is near: "at 63.046 s: The…" rather than "The coordina…".
func cut(s string, w int) string {
	if w < 1 {
		return ""
	}
	keep := w - 1 // cells before the mark
	plain := []rune(ansi.Strip(s))
	if len(plain) == textWidth(s) && keep < len(plain) && plain[keep] != ' ' {
		// one cell a rune: rune positions are cell positions
		for i := keep - 1; i > 0 && i >= keep-maxWordBack; i-- {
			if plain[i] == ' ' {
				keep = i
				break
			}
		}
	}
	return ansi.Truncate(s, keep, "") + cutMark
}

// maxWordBack is how far a cut moves back to end on a whole word.
const maxWordBack = 12
