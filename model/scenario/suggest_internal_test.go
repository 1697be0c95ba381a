package scenario

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// levenshtein is the full table, to check editDistance's band against.
func levenshtein(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

// editDistance with a bound is the distance below it, else the bound:
// random words over a small alphabet, so that near misses are common.
func TestEditDistanceBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		n := r.IntN(9)
		var b strings.Builder
		for range n {
			b.WriteByte("abc"[r.IntN(3)])
		}
		return b.String()
	}
	for range 20000 {
		a, b := word(), word()
		if r.IntN(2) == 0 { // b a small edit of a
			b = a
			for range r.IntN(4) {
				i := r.IntN(len(b) + 1)
				switch r.IntN(3) {
				case 0:
					b = b[:i] + "c" + b[i:]
				case 1:
					if i < len(b) {
						b = b[:i] + b[i+1:]
					}
				default:
					if i < len(b) {
						b = b[:i] + "a" + b[i+1:]
					}
				}
			}
		}
		full := levenshtein(a, b)
		for bound := 1; bound <= 4; bound++ {
			if got, want := editDistance(a, b, bound), min(full, bound); got != want {
				t.Fatalf("editDistance(%q, %q, %d) = %d, want %d (distance %d)", a, b, bound, got, want, full)
			}
		}
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"members", "timeline", "topics"}
	for got, want := range map[string]string{
		"timelime":                ` (did you mean "timeline"?)`,
		"topcs":                   ` (did you mean "topics"?)`,
		"membrs":                  ` (did you mean "members"?)`,
		"topics":                  "",
		"group":                   "",
		strings.Repeat("x", 5000): "",
	} {
		if s := Suggest(got, known); s != want {
			t.Errorf("Suggest(%.20q) = %q, want %q", got, s, want)
		}
	}
}
