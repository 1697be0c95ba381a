package tui

import "github.com/kvizlab/kviz/model/kafka"

// roster names members as the lab draws them: each in its letter and
// colour, for the panes that list moves (compare, what-if).
type roster struct {
	info *simInfo
	st   *Styles
}

func (a App) roster() roster { return roster{info: a.info, st: &a.styles} }

// name is "B c2" in c2's colour, or "nobody".
func (r roster) name(id string) string {
	if id == "" {
		return r.st.Unowned.Render("nobody")
	}
	letter, color := r.info.letter(id)
	return r.st.MemberFg(color).Render(letter + " " + id)
}

// moves lists moves as "t0-2 B c2→A c1" (kafka.Move's text with the
// members named), packed into lines of w cells; a move is never split
// across lines.
func (r roster) moves(ms []kafka.Move, w int) []string {
	if len(ms) == 0 {
		return []string{r.st.Faint.Render("no partition changes owner")}
	}
	const sep = "   "
	var out []string
	line := ""
	for _, m := range ms {
		item := m.Text(r.name)
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
