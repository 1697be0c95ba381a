package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// memberPalette holds the member colours as (light, dark) pairs. They are
// chosen to stay apart when a terminal falls back to 256 colours, and each
// is paired with a letter, so no state depends on hue alone.
var memberPalette = [][2]string{
	{"#1f6feb", "#58a6ff"}, // blue
	{"#bf3989", "#ff7eb6"}, // pink
	{"#1a7f37", "#56d364"}, // green
	{"#9a6700", "#e3b341"}, // amber
	{"#8250df", "#bc8cff"}, // violet
	{"#0e7490", "#39c5cf"}, // teal
	{"#bc4c00", "#ffa657"}, // orange
	{"#4d2d00", "#d2a679"}, // brown
	{"#cf222e", "#ff7b72"}, // red
	{"#3b5b00", "#a5d64c"}, // lime
	{"#0550ae", "#79c0ff"}, // sky
	{"#6e40c9", "#d2a8ff"}, // lilac
}

// Styles is every look of the lab, by meaning. Build it with NewStyles; the
// app rebuilds it when the terminal reports its background colour.
type Styles struct {
	IsDark  bool
	NoColor bool // the output drops colour (NO_COLOR, dumb terminals): lean on glyphs and reverse video

	Title       lipgloss.Style
	Accent      lipgloss.Style
	Label       lipgloss.Style
	Value       lipgloss.Style
	Faint       lipgloss.Style
	Bold        lipgloss.Style
	Good        lipgloss.Style
	Warn        lipgloss.Style
	Bad         lipgloss.Style
	Narration   lipgloss.Style
	Pane        lipgloss.Style
	PaneFocused lipgloss.Style
	PaneTitle   lipgloss.Style
	StateLit    lipgloss.Style
	StateDim    lipgloss.Style
	Selected    lipgloss.Style
	Empty       lipgloss.Style // a partition this member does not hold
	Unowned     lipgloss.Style // marker: a partition with no owner now
	Moved       lipgloss.Style // marker: a partition that moved in the last rebalance
	Small       lipgloss.Style // the "make the terminal larger" message

	memberFg   []lipgloss.Style
	memberCell []lipgloss.Style
	memberNew  []lipgloss.Style
	memberOut  []lipgloss.Style

	brushes brushes // the grid's styles as raw escape pairs, rebuilt with the styles
}

// brushes are the grid's hot-path styles, precomputed.
type brushes struct {
	fg, cell, new, out         []brush
	empty, unowned, moved      brush
	faint, selected, warn, bad brush
	accent, title              brush
}

// NewStyles builds the lab's styles for a dark or light background.
func NewStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5a3fc0"), lipgloss.Color("#b4a1ff"))
	dim := ld(lipgloss.Color("#6e7781"), lipgloss.Color("#7d8590"))
	text := ld(lipgloss.Color("#1f2328"), lipgloss.Color("#e6edf3"))
	onCell := lipgloss.Color("#0d1117")
	if !isDark {
		onCell = lipgloss.Color("#ffffff")
	}
	s := Styles{
		IsDark:      isDark,
		Title:       lipgloss.NewStyle().Bold(true).Foreground(accent),
		Accent:      lipgloss.NewStyle().Foreground(accent),
		Label:       lipgloss.NewStyle().Foreground(dim),
		Value:       lipgloss.NewStyle().Foreground(text).Bold(true),
		Faint:       lipgloss.NewStyle().Foreground(dim),
		Bold:        lipgloss.NewStyle().Bold(true),
		Good:        lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#1a7f37"), lipgloss.Color("#56d364"))).Bold(true),
		Warn:        lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341"))).Bold(true),
		Bad:         lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#cf222e"), lipgloss.Color("#ff7b72"))).Bold(true),
		Narration:   lipgloss.NewStyle().Foreground(text).Italic(true),
		Pane:        lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(dim).Padding(0, 1),
		PaneFocused: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1),
		PaneTitle:   lipgloss.NewStyle().Bold(true).Foreground(accent),
		StateLit:    lipgloss.NewStyle().Bold(true).Reverse(true).Foreground(accent),
		StateDim:    lipgloss.NewStyle().Foreground(dim),
		Selected:    lipgloss.NewStyle().Bold(true).Foreground(accent),
		Empty:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#d0d7de"), lipgloss.Color("#30363d"))),
		Unowned:     lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#cf222e"), lipgloss.Color("#ff7b72"))).Bold(true),
		Moved:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341"))).Bold(true),
		Small:       lipgloss.NewStyle().Bold(true).Foreground(accent),
	}
	for _, pair := range memberPalette {
		c := ld(lipgloss.Color(pair[0]), lipgloss.Color(pair[1]))
		s.memberFg = append(s.memberFg, lipgloss.NewStyle().Foreground(c).Bold(true))
		s.memberCell = append(s.memberCell, lipgloss.NewStyle().Background(c).Foreground(onCell).Bold(true))
		s.memberNew = append(s.memberNew, lipgloss.NewStyle().Background(c).Foreground(onCell).Bold(true).Underline(true))
		s.memberOut = append(s.memberOut, lipgloss.NewStyle().Foreground(c).Strikethrough(true))
	}
	s.brushes = s.makeBrushes()
	return s
}

func (s Styles) makeBrushes() brushes {
	var b brushes
	for i := range s.memberFg {
		b.fg = append(b.fg, newBrush(s.memberFg[i]))
		b.cell = append(b.cell, newBrush(s.memberCell[i]))
		b.new = append(b.new, newBrush(s.memberNew[i]))
		b.out = append(b.out, newBrush(s.memberOut[i]))
	}
	b.empty, b.unowned, b.moved = newBrush(s.Empty), newBrush(s.Unowned), newBrush(s.Moved)
	b.faint, b.selected = newBrush(s.Faint), newBrush(s.Selected)
	b.warn, b.bad = newBrush(s.Warn), newBrush(s.Bad)
	b.accent, b.title = newBrush(s.Accent), newBrush(s.PaneTitle)
	return b
}

// WithNoColor adapts the styles to an output without colour: owned cells
// use reverse video so a held partition still reads as a solid bar.
func (s Styles) WithNoColor(noColor bool) Styles {
	s.NoColor = noColor
	if !noColor {
		return s
	}
	// Copy before editing: the slices are shared with the original value.
	s.memberCell = append([]lipgloss.Style(nil), s.memberCell...)
	s.memberNew = append([]lipgloss.Style(nil), s.memberNew...)
	for i := range s.memberCell {
		s.memberCell[i] = lipgloss.NewStyle().Reverse(true).Bold(true)
		s.memberNew[i] = lipgloss.NewStyle().Reverse(true).Bold(true).Underline(true)
	}
	s.brushes = s.makeBrushes()
	return s
}

// MemberFg is a member's colour as text (its name, its letter).
func (s Styles) MemberFg(i int) lipgloss.Style { return s.memberFg[i%len(s.memberFg)] }

// brush is a style split into its opening and closing escape sequences, so
// that painting thousands of grid cells costs a string concatenation each
// rather than a full lipgloss.Render.
type brush struct{ pre, post string }

func newBrush(st lipgloss.Style) brush {
	const mark = "X"
	out := st.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return brush{}
	}
	return brush{pre: out[:i], post: out[i+len(mark):]}
}

func (b brush) paint(s string) string {
	if b.pre == "" {
		return s
	}
	return b.pre + s + b.post
}
