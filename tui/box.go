package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// besides joins two blocks of equal height line by line. Boxes are exact
// rectangles, so this needs none of lipgloss.JoinHorizontal's measuring.
func besides(left, right string) string {
	l, r := strings.Split(left, "\n"), strings.Split(right, "\n")
	out := make([]string, max(len(l), len(r)))
	for i := range out {
		if i < len(l) {
			out[i] = l[i]
		}
		if i < len(r) {
			out[i] += r[i]
		}
	}
	return strings.Join(out, "\n")
}

// box draws content in a rounded frame of exactly w × h cells with the title
// set in the top edge. Lines are cut or padded to fit, so a pane can never
// push the layout around.
func box(st *Styles, title string, lines []string, w, h int, focused bool) string {
	if w < 4 || h < 2 {
		return ""
	}
	border := st.brushes.faint
	titleB := st.brushes.faint
	if focused {
		border, titleB = st.brushes.accent, st.brushes.title
	}
	inner := w - 4
	var sb strings.Builder
	sb.Grow(h * (w + 64))
	top := "─"
	if title != "" {
		t := ansi.Truncate(title, max(w-6, 0), "…")
		top += " " + titleB.paint(t) + border.pre + " "
		sb.WriteString(border.paint("╭") + border.pre + top + strings.Repeat("─", max(w-3-textWidth(t)-2, 0)) + "╮" + border.post)
	} else {
		sb.WriteString(border.paint("╭" + strings.Repeat("─", w-2) + "╮"))
	}
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		sb.WriteString("\n" + border.paint("│") + " " + fitPad(line, inner) + " " + border.paint("│"))
	}
	sb.WriteString("\n" + border.paint("╰"+strings.Repeat("─", w-2)+"╯"))
	return sb.String()
}
