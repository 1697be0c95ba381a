package tui

// rosterGlyphs are the characters of member labels: one each for the
// first 62 members of a run.
const rosterGlyphs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// rosterLabel is the label of the i-th of n members: one character while
// n ≤ 62, else every label is two (AA, AB, … 99: 3,844 members) or more,
// so a label never stands for two members of the same run.
func rosterLabel(i, n int) string {
	digits, span := 1, len(rosterGlyphs)
	for span < n {
		digits++
		span *= len(rosterGlyphs)
	}
	out := make([]byte, digits)
	for d := digits - 1; d >= 0; d-- {
		out[d] = rosterGlyphs[i%len(rosterGlyphs)]
		i /= len(rosterGlyphs)
	}
	return string(out)
}
