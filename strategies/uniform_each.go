package strategies

// EachAssigner is an assignor that can hand out its assignment member by
// member instead of building an Assignment. The KIP-848 model runs the
// uniform assignor on every epoch bump and converts each member's topic ->
// partitions map to a sorted list at once; for a thousand members the maps
// cost more than the assignment itself (issue 3).
type EachAssigner interface {
	// AssignEach computes exactly what Assign(g, nil) computes and reports it
	// member by member, each member's reports together: kept(member) when
	// the member's assignment is exactly its Owned partitions (the usual
	// case for most members, which then need no comparing), otherwise fn
	// once per topic it gets, topics in Java String order and partitions
	// ascending (valid only during the call). A member reported neither way
	// gets nothing. member is an index into g.Members.
	AssignEach(g Group, kept func(member int), fn func(member int, topic string, partitions []int32))
}

// AssignEach is Assign without the Assignment (see EachAssigner).
func (uniformAssignor) AssignEach(g Group, kept func(member int), fn func(member int, topic string, partitions []int32)) {
	if len(g.Members) == 0 {
		return
	}
	sc := getUniformScratch()
	defer putUniformScratch(sc)
	order, _ := sc.memberOrder(g.Members)
	s := newServerSpecIn(g, order, sc)
	var owner []int32
	if s.homogeneous() && !g.release().AtLeast(4, 1, 0) {
		owner = assignUniformHomogeneousKafka40(s, nil)
	} else if s.homogeneous() {
		owner = assignUniformHomogeneous(s, nil)
	} else {
		owner = assignUniformHeterogeneous(s, nil)
	}
	flat, start := s.layoutByMember(owner, &sc.eachBuf)
	for m := range s.members {
		list := flat[start[m]:start[m+1]]
		if s.keepsOwned(m, list) {
			kept(order[m])
			continue
		}
		for _, seg := range s.topicSegments(list) {
			fn(order[m], s.topics[seg.topic], list[seg.from:seg.to:seg.to])
		}
	}
}

// keepsOwned reports whether member m's assignment, list (flat, ascending),
// is exactly its Owned partitions: every one of them became a claim (none
// dropped, listed twice or claimed by another) and the claims are list.
func (s *serverSpec) keepsOwned(m int, list []int32) bool {
	claims := s.claims[m]
	if len(claims) != len(s.members[m].Owned) || len(claims) != len(list) {
		return false
	}
	for k, f := range claims {
		if int(list[k]) != f {
			return false
		}
	}
	return true
}
