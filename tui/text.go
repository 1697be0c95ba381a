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

// wrapAll word-wraps each line to w.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, w)...)
	}
	return out
}

// wrap splits text into lines of at most w cells, breaking at spaces only:
// ansi.Wordwrap also breaks after hyphens, which turns "t0-1779" into
// "t0-" and "1779". Spacing inside a line is kept (indents, columns of
// moves); the spaces where a line breaks go. A word wider than a line is
// split hard.
func wrap(text string, w int) []string {
	if w < 1 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line, lineW := "", 0
		for i, tok := range spacedWords(para) {
			word := strings.TrimLeft(tok, " ")
			gap := len(tok) - len(word)
			ww := textWidth(word)
			if i == 0 || lineW+gap+ww <= w {
				line, lineW = line+tok, lineW+gap+ww
				if lineW <= w {
					continue
				}
				// a first word wider than the line: split below
				line, lineW, word, ww = "", 0, tok, textWidth(tok)
			} else {
				out = append(out, line)
			}
			for ww > w { // a word that no line can hold
				out = append(out, ansi.Truncate(word, w, ""))
				word = ansi.TruncateLeft(word, w, "")
				ww = textWidth(word)
			}
			line, lineW = word, ww
		}
		out = append(out, line)
	}
	return out
}

// spacedWords splits s into words, each with the spaces before it.
func spacedWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == ' ' && s[i-1] != ' ' {
			out = append(out, s[start:i])
			start = i
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// wrapN is wrap to at most n lines; when text is left over, the last line
// ends in "…".
func wrapN(text string, w, n int) []string {
	lines := wrap(text, w)
	if len(lines) <= n {
		return lines
	}
	lines = lines[:n]
	lines[n-1] = cut(lines[n-1], w) // more follows: the mark, even where the line would fit
	return lines
}
