package frame

import (
	"bytes"
	"fmt"
	"image/color"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// The SVG's terminal grid, in pixels: a cell is CellWidth × CellHeight and
// the screen sits Padding from the picture's edge. Each run of text is
// stretched to exactly its cells (textLength), so box drawing lines up
// whatever monospace font the viewer picks.
const (
	CellWidth  = 8.8
	CellHeight = 17.0
	Padding    = 10.0
	fontSize   = 14.6
)

// The screen's own colours, where a cell has none: a dark terminal, the
// lab's default theme.
var (
	defaultFg = color.RGBA{0xc9, 0xd1, 0xd9, 0xff}
	defaultBg = color.RGBA{0x0d, 0x11, 0x17, 0xff}
)

// SVG draws the grid: a rectangle per run of background colour and a text
// element per run of text in one style, at its cell's column.
func (g *Grid) SVG() []byte {
	var b bytes.Buffer
	w := 2*Padding + float64(g.Width)*CellWidth
	h := 2*Padding + float64(g.Height)*CellHeight
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n", num(w), num(h), num(w), num(h))
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" rx="6" fill="%s"/>`+"\n", hex(defaultBg))
	b.WriteString(`<g shape-rendering="crispEdges">` + "\n")
	for y := range g.Height {
		g.eachRun(y, func(x, n int, text string, st uv.Style) {
			if _, bg := colours(st); bg != hex(defaultBg) {
				fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n",
					num(colX(x)), num(Padding+float64(y)*CellHeight), num(float64(n)*CellWidth), num(CellHeight), bg)
			}
		})
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<g font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="%s" xml:space="preserve">`+"\n", num(fontSize))
	for y := range g.Height {
		g.eachRun(y, func(x, n int, text string, st uv.Style) {
			if isBlank(text) {
				return // a background rectangle, or nothing, already says it
			}
			fg, _ := colours(st)
			fmt.Fprintf(&b, `<text x="%s" y="%s" textLength="%s" lengthAdjust="spacingAndGlyphs" fill="%s"%s>`,
				num(colX(x)), num(Padding+float64(y)*CellHeight+CellHeight*0.78), num(float64(n)*CellWidth), fg, attrs(st))
			escapeText(&b, text)
			b.WriteString("</text>\n")
		})
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes()
}

// escapeText writes text as XML character data, escaped as encoding/xml's
// EscapeText does it (frame_test holds the two to each other): the five
// markup characters, tab, newline and carriage return as references, and
// what XML cannot hold (invalid UTF-8, control characters) as U+FFFD. By
// hand because encoding/xml builds its HTML entity tables when kviz starts,
// and the SVG needs only this.
func escapeText(b *bytes.Buffer, text string) {
	last := 0
	for i := 0; i < len(text); {
		r, width := utf8.DecodeRuneInString(text[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if xmlChar(r) && (r != utf8.RuneError || width > 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(text[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(text[last:])
}

// xmlChar reports whether XML 1.0 can hold r (its Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// eachRun calls fn for each run of cells in row y that share a style: its
// first column, its width in cells, its text.
func (g *Grid) eachRun(y int, fn func(x, n int, text string, st uv.Style)) {
	start, text := 0, []byte(nil)
	var style uv.Style
	flush := func(end int) {
		if end > start {
			fn(start, end-start, string(text), style)
		}
	}
	for x := 0; x < g.Width; x++ {
		c := g.Cell(x, y)
		if c == nil || c.Width == 0 {
			continue // the tail of a wide character belongs to its head's run
		}
		if x > start && !c.Style.Equal(&style) {
			flush(x)
			start, text = x, text[:0]
		}
		style = c.Style
		if c.Content == "" {
			text = append(text, ' ')
		} else {
			text = append(text, c.Content...)
		}
	}
	flush(g.Width)
}

// colours are a style's foreground and background as the eye sees them:
// the screen's defaults where unset, swapped by reverse video.
func colours(st uv.Style) (fg, bg string) {
	f, b := color.Color(defaultFg), color.Color(defaultBg)
	if st.Fg != nil {
		f = st.Fg
	}
	if st.Bg != nil {
		b = st.Bg
	}
	if st.Attrs&uv.AttrReverse != 0 {
		f, b = b, f
	}
	return hex(f), hex(b)
}

// attrs are the SVG attributes for bold, faint, italic, underline and
// strikethrough.
func attrs(st uv.Style) string {
	s := ""
	if st.Attrs&uv.AttrBold != 0 {
		s += ` font-weight="bold"`
	}
	if st.Attrs&uv.AttrFaint != 0 {
		s += ` fill-opacity="0.6"`
	}
	if st.Attrs&uv.AttrItalic != 0 {
		s += ` font-style="italic"`
	}
	switch {
	case st.Underline != uv.UnderlineNone && st.Attrs&uv.AttrStrikethrough != 0:
		s += ` text-decoration="underline line-through"`
	case st.Underline != uv.UnderlineNone:
		s += ` text-decoration="underline"`
	case st.Attrs&uv.AttrStrikethrough != 0:
		s += ` text-decoration="line-through"`
	}
	return s
}

func isBlank(s string) bool {
	for i := range len(s) {
		if s[i] != ' ' {
			return false
		}
	}
	return true
}

// colX is the left edge of column x.
func colX(x int) float64 { return Padding + float64(x)*CellWidth }

// ColumnAt is the column whose left edge is at px (for readers of the SVG).
func ColumnAt(px float64) int { return int((px-Padding)/CellWidth + 0.5) }

func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// num prints a length with at most two decimals and no trailing zeros.
func num(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return trimDot(s)
}

func trimDot(s string) string {
	if s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}
