package demo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/scenario"
)

// Resolve finds the demo a person means by ref: its full name, the number
// of a worked example ("10", "example-10", "example 10": every demo of
// that example), or a prefix of a name. One demo is an answer; several are
// an error listing them; none is an error with the closest names.
func Resolve(ref string) (string, error) {
	ref = strings.TrimSpace(strings.TrimSuffix(ref, ".yaml"))
	names := Names()
	for _, n := range names {
		if n == ref {
			return n, nil
		}
	}
	var found []string
	if n, ok := exampleNumber(ref); ok {
		if found = byExample(names, n); len(found) == 0 {
			return "", fmt.Errorf("no demo shows example %d (kviz demos lists them)", n)
		}
	} else {
		for _, n := range names {
			if ref != "" && strings.HasPrefix(n, ref) {
				found = append(found, n)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("no demo %q%s (kviz demos lists them)", ref, closest(ref, names))
	}
	return "", fmt.Errorf("demo %q is ambiguous: %s", ref, strings.Join(found, ", "))
}

// ExampleDemos lists the demos of worked example n, by name.
func ExampleDemos(n int) []string { return byExample(Names(), n) }

// byExample is the demos whose name says they show example n
// ("example-07-…": the catalogue's naming rule, checked by a test).
func byExample(names []string, n int) []string {
	var out []string
	prefix := fmt.Sprintf("example-%02d-", n)
	for _, name := range names {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	return out
}

// exampleNumber reads "10", "example-10", "example 10" or "example10".
func exampleNumber(ref string) (int, bool) {
	s := strings.ToLower(ref)
	if rest, ok := strings.CutPrefix(s, "example"); ok {
		s = strings.TrimLeft(rest, "- ")
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// closest is ` (did you mean "x"?)` for the name, or the start of a name,
// nearest ref when one is near enough to be a typo; the start is itself a
// ref Resolve takes.
func closest(ref string, names []string) string {
	if s := scenario.Suggest(ref, names); s != "" || len(ref) < 4 {
		return s
	}
	starts := make([]string, 0, len(names))
	for _, n := range names {
		starts = append(starts, n[:min(len(n), len(ref))])
	}
	return scenario.Suggest(ref, starts)
}
