package scenario

import (
	"fmt"
)

// Suggest returns ` (did you mean "x"?)` when a known word is close to got.
func Suggest(got string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := editDistance(got, k, bestDist); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" || best == got {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance, in bytes (enough for keys),
// when it is below bound, else bound. Only cells less than bound off the
// diagonal can stay below bound, so it costs len(a) times 2*bound rather
// than len(a)*len(b): a long word against many long names stays linear in
// their length.
func editDistance(a, b string, bound int) int {
	if d := len(a) - len(b); d >= bound || -d >= bound {
		return bound
	}
	w := bound - 1
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := 0; j <= min(len(b), w); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-w), min(len(b), i+w)
		left, rowMin := bound, bound // cur[lo-1], outside the band unless lo is 1
		if lo == 1 {
			cur[0] = min(i, bound)
			left, rowMin = cur[0], cur[0]
		}
		for j := lo; j <= hi; j++ {
			up := bound // prev[j], in the previous row's band up to i-1+w
			if j <= i-1+w {
				up = prev[j]
			}
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(up+1, left+1, prev[j-1]+cost, bound)
			cur[j], left = v, v
			rowMin = min(rowMin, v)
		}
		if rowMin >= bound {
			return bound
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], bound)
}
