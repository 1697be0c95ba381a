package tui

import "github.com/kvizlab/kviz/model/kafka"

// movesLines lists moves as "t0-2 B c2→A c1", members with their letters,
// packed into lines of w cells; a move is never split across lines.
func (a App) movesLines(ms []kafka.Move, w int) []string {
	if len(ms) == 0 {
		return []string{a.styles.Faint.Render("no partition changes owner")}
	}
	name := func(id string) string {
		if id == "" {
			return a.styles.Unowned.Render("nobody")
		}
		letter, color := a.info.letter(id)
		return a.styles.MemberFg(color).Render(letter + " " + id)
	}
	const sep = "   "
	var out []string
	line := ""
	for _, m := range ms {
		item := m.Text(name)
		if line != "" && textWidth(line)+len(sep)+textWidth(item) > w {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += sep
		}
		line += item
	}
	return append(out, line)
}
