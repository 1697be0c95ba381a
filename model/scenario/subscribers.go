package scenario

import "slices"

// Subscribers answers "does this member subscribe to topic t?" for one
// member after another. The members of a group mostly share one
// subscription, so the set of the last long list is kept while the next
// member's list holds the same names: 10,000 members on 1,000 topics build
// one set, where a scan per partition a member holds cost 500 million
// string comparisons (issue 21). The zero value is ready; a nil
// *Subscribers keeps nothing.
type Subscribers struct {
	last []string // a copy: a caller's list may change after Of
	set  map[string]bool
}

// scanned is the list length up to which a scan beats a set.
const scanned = 16

// Of is the lookup for a member subscribed to topics.
func (s *Subscribers) Of(topics []string) func(string) bool {
	if len(topics) <= scanned {
		return func(t string) bool { return slices.Contains(topics, t) }
	}
	if s == nil || !slices.Equal(s.last, topics) {
		set := make(map[string]bool, len(topics))
		for _, t := range topics {
			set[t] = true
		}
		if s == nil {
			return func(t string) bool { return set[t] }
		}
		s.last, s.set = slices.Clone(topics), set
	}
	set := s.set
	return func(t string) bool { return set[t] }
}
