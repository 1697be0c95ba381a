package tui

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// textWidth is the number of terminal cells s takes. The lab's own text is
// ASCII, Latin and single-cell symbols (box drawing, blocks, arrows), which
// it measures directly, skipping escape sequences; anything else (a CJK
// member id, an emoji) goes to ansi.StringWidth. Grapheme segmentation of
// every styled line was most of a frame's cost on a 1,000-partition grid.
func textWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < utf8.RuneSelf:
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !singleCell(r) {
			return ansi.StringWidth(s)
		}
		n++
		i += size
	}
	return n
}

// singleCell reports runes known to take one cell and to stand alone
// (no combining marks, no East Asian wide forms).
func singleCell(r rune) bool {
	switch {
	case r >= 0xa0 && r < 0x300, r >= 0x370 && r < 0x400: // Latin, Greek
		return true
	case r >= 0x2010 && r <= 0x2027: // dashes, quotes, bullets, ellipsis
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2500 && r <= 0x25ff: // box drawing, blocks, geometric shapes
		return true
	case r == 0x00d7 || r == 0x2713 || r == 0x2717 || r == 0x275a: // × ✓ ✗ ❚
		return true
	}
	return false
}

// skipEscape returns the index after the escape sequence starting at i:
// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ST), or a 2-byte escape.
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		return min(j+1, len(s))
	case ']', 'P', '_':
		j := i + 2
		for j < len(s) {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			j++
		}
		return len(s)
	}
	return i + 2
}
