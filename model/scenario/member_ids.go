package scenario

import (
	"strconv"
	"strings"
)

// NextMemberID is the id a new member gets when the lab adds one: the next
// free name in the group's own style, so that C0, C1, C2 are followed by
// C3, c1..c3 by c4, c0001..c0200 by c0201 and a, b, c by d. The style is
// the prefix most ids share (ties go to the latest to join); an empty group
// starts at c1.
func NextMemberID(sc *Scenario) string {
	ids := memberIDs(sc)
	used := make(map[string]bool, len(ids))
	for _, id := range ids {
		used[id] = true
	}
	prefix, next, width, ok := numberedStyle(ids)
	if !ok {
		if id, ok := nextLetter(ids, used); ok {
			return id
		}
		prefix, next, width = "c", 1, 1
	}
	for {
		id := prefix + leftPad(strconv.Itoa(next), width)
		if !used[id] {
			return id
		}
		next++
	}
}

// memberIDs are the group's members in order of appearance: those present
// at time 0, then those joining.
func memberIDs(sc *Scenario) []string {
	var ids []string
	for _, m := range sc.Members {
		ids = append(ids, m.ID)
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" {
			ids = append(ids, ev.Member)
		}
	}
	return ids
}

// numberedStyle finds the commonest prefix of ids ending in a number, one
// past its highest number, and the digit count when the numbers are
// zero-padded (else 1).
func numberedStyle(ids []string) (prefix string, next, width int, ok bool) {
	count := map[string]int{}
	best := -1
	for _, id := range ids {
		p, digits := splitNumber(id)
		if digits == "" {
			continue
		}
		count[p]++
		if count[p] >= best {
			prefix, best = p, count[p]
		}
	}
	if best < 0 {
		return "", 0, 0, false
	}
	width = 1
	for _, id := range ids {
		p, digits := splitNumber(id)
		if p != prefix || digits == "" {
			continue
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			continue // longer than an int: not a counter
		}
		next = max(next, n+1)
		if len(digits) > 1 && digits[0] == '0' {
			width = max(width, len(digits))
		}
	}
	return prefix, next, width, true
}

// splitNumber splits "consumer-12" into "consumer-" and "12".
func splitNumber(id string) (prefix, digits string) {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	return id[:i], id[i:]
}

// nextLetter continues a group named a, b, c (or A, B, C): the first
// unused letter after the highest one.
func nextLetter(ids []string, used map[string]bool) (string, bool) {
	if len(ids) == 0 {
		return "", false
	}
	lower := strings.ToLower(ids[0]) == ids[0]
	var top byte
	for _, id := range ids {
		if len(id) != 1 || !isLetter(id[0]) || (strings.ToLower(id) == id) != lower {
			return "", false
		}
		top = max(top, id[0])
	}
	last := byte('z')
	if !lower {
		last = 'Z'
	}
	for c := top + 1; c <= last; c++ {
		if !used[string(c)] {
			return string(c), true
		}
	}
	return "", false // past z: fall back to numbered names
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func leftPad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat("0", width-len(s)) + s
}
