package tui

import "strconv"

// plural is a count with its noun: "1 member", "3 members".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
