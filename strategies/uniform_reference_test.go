package strategies

import "slices"

// Reference definitions the assignor's fast paths are checked against.

// serverMemberOrder returns the indices of members in the order Kafka's group
// coordinator iterates them (uniform_order.go says why), and the table size it assumed.
func serverMemberOrder(members []Member) ([]int, int) {
	return new(uniformScratch).memberOrder(members)
}

// javaHashSetOrder returns flat partitions (ascending) reordered, topic by
// topic, into the iteration order of the HashSet<Integer> Kafka holds them in.
// Within a topic the partitions come ascending, so HashSet order — by bucket,
// then list order — is the order of the keys bucket<<32 | partition. The
// assignor needs only the tail of it (javaHashSetTrimInto); this whole order
// is the definition that tail is checked against.
func (s *serverSpec) javaHashSetOrder(flat []int) []int {
	res, keys := make([]int, len(flat)), make([]uint64, len(flat))
	for start := 0; start < len(flat); {
		t := s.topicOf(flat[start])
		end := start
		for end < len(flat) && flat[end] < s.base[t]+int(s.parts[t]) {
			end++
		}
		s.hashSetKeys(flat[start:end], t, keys[start:end])
		slices.Sort(keys[start:end])
		s.fromHashSetKeys(keys[start:end], t, res[start:end])
		start = end
	}
	return res
}

// newServerSpec builds the spec for g (which passed Validate), with members
// in the given order.
func newServerSpec(g Group, order []int) *serverSpec {
	return newServerSpecIn(g, order, new(uniformScratch))
}
