package live

import "slices"

// topicSet gathers topic names, each once: a group of 10,000 members that
// each subscribe to the same 1,000 topics names 10 million, which sorting
// all of them first (sortedUnique) made seconds of a read (issue 21).
type topicSet map[string]struct{}

func (s topicSet) add(ts ...string) {
	for _, t := range ts {
		s[t] = struct{}{}
	}
}

// sorted is sortedUnique of everything added.
func (s topicSet) sorted() []string {
	out := make([]string, 0, len(s))
	for t := range s {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
