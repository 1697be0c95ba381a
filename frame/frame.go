// Package frame turns one screen of the lab (the styled text its View
// draws) into a grid of terminal cells, and writes that grid as plain text,
// as SVG for slides, or as frames of an asciicast recording. It parses the
// screen with ultraviolet's cell buffer, the same decoder Bubble Tea's
// renderer uses, so a frame is what a terminal of that size would show.
package frame

import (
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Grid is a screen as width × height cells.
type Grid struct {
	Width, Height int
	buf           uv.ScreenBuffer
}

// Parse lays content (lines of text with SGR escape codes) on a
// width × height screen. Lines beyond the height and cells beyond the
// width are cut, as a terminal in the alt screen would cut them.
func Parse(content string, width, height int) *Grid {
	width, height = max(width, 1), max(height, 1)
	buf := uv.NewScreenBuffer(width, height)
	buf.Method = ansi.GraphemeWidth // lipgloss measures with it, so the layout fits
	ss := uv.NewStyledString(content)
	ss.Draw(buf, buf.Bounds())
	return &Grid{Width: width, Height: height, buf: buf}
}

// Cell is the cell at column x, row y; nil outside the grid. The second
// column of a wide character is a cell of width 0.
func (g *Grid) Cell(x, y int) *uv.Cell { return g.buf.CellAt(x, y) }

// Rows are the grid's lines of text: each cell's content in column order
// (a wide character once), trailing blanks kept, so row y has exactly
// Width columns.
func (g *Grid) Rows() []string {
	rows := make([]string, g.Height)
	var b strings.Builder
	for y := range g.Height {
		b.Reset()
		for x := 0; x < g.Width; x++ {
			c := g.Cell(x, y)
			switch {
			case c == nil || c.Width == 0:
				// the tail of a wide character: drawn by its head
			case c.Content == "":
				b.WriteByte(' ')
			default:
				b.WriteString(c.Content)
			}
		}
		rows[y] = b.String()
	}
	return rows
}

// Text is the frame without escape codes: one line per row, trailing
// blanks trimmed, each line ended by a newline.
func (g *Grid) Text() string {
	var b strings.Builder
	for _, r := range g.Rows() {
		b.WriteString(strings.TrimRight(r, " "))
		b.WriteByte('\n')
	}
	return b.String()
}
