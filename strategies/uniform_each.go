package strategies

// EachAssigner is an assignor that can hand out its assignment member by
// member instead of building an Assignment. The KIP-848 model runs the
// uniform assignor on every epoch bump and converts each member's topic ->
// partitions map to a sorted list at once; for a thousand members the maps
// cost more than the assignment itself (issue 3).
type EachAssigner interface {
	// AssignEach computes exactly what Assign(g, nil) computes and calls fn
	// for each member that gets partitions, once per topic: member is an
	// index into g.Members, a member's calls are consecutive, its topics come
	// in Java String order and its partitions ascending. partitions is valid
	// only during the call.
	AssignEach(g Group, fn func(member int, topic string, partitions []int32))
}

// AssignEach is Assign without the Assignment (see EachAssigner).
func (uniformAssignor) AssignEach(g Group, fn func(member int, topic string, partitions []int32)) {
	if len(g.Members) == 0 {
		return
	}
	sc := getUniformScratch()
	defer putUniformScratch(sc)
	order, _ := sc.memberOrder(g.Members)
	s := newServerSpecIn(g, order, sc)
	var owner []int32
	if s.homogeneous() {
		owner = assignUniformHomogeneous(s, nil)
	} else {
		owner = assignUniformHeterogeneous(s, nil)
	}
	s.emitEach(owner, order, fn)
}
