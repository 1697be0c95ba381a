package strategies

// The sticky family: Kafka's StickyAssignor ("sticky", eager) and
// CooperativeStickyAssignor ("cooperative-sticky"), both built on
// AbstractStickyAssignor (Kafka 3.9 / trunk 1eb7644). The rules live in:
//   sticky_input.go       the group in int-indexed form, partitionsPerTopic
//   sticky_claims.go      allSubscriptionsEqual: equality, conflicting claims
//   sticky_constrained.go the same-subscription algorithm (KAFKA-9987)
//   sticky_general.go     the general algorithm for mixed subscriptions
//   sticky_balance.go     its reassignment loop and isBalanced
//   sticky_movements.go   PartitionMovements (which partition moves back)
//   sticky_racks.go       KIP-881 rack awareness
//   javahashmap.go        Java HashMap/HashSet iteration order
//   cooperative_sticky.go the cooperative adjustment

// StickyAssignor is Kafka's eager sticky assignor.
type StickyAssignor struct{}

func (StickyAssignor) Name() string          { return "sticky" }
func (StickyAssignor) KafkaName() string     { return "sticky" }
func (StickyAssignor) Protocols() []Protocol { return []Protocol{Eager} }

// Assign runs AbstractStickyAssignor. Owned and Generation come from each
// member's userData (previous_assignment, generation).
func (StickyAssignor) Assign(g Group, ex *Explainer) Result {
	run := runSticky(g, ex)
	return Result{Assignment: run.in.result(run.lists), Explanation: ex.Lines()}
}

// stickyRun is one run of AbstractStickyAssignor.assignPartitions.
type stickyRun struct {
	in          *stickyInput
	claims      stickyClaims
	lists       [][]int32 // per member, the partitions it gets
	constrained *constrainedBuilder
}

func runSticky(g Group, ex *Explainer) *stickyRun {
	g = g.racksAsOf(ex)
	in := newStickyInput(g)
	run := &stickyRun{in: in}
	run.claims = resolveClaims(in, ex)
	if len(in.members) == 0 {
		return run
	}
	if run.claims.allEqual {
		b := newConstrainedBuilder(in, &run.claims, ex)
		run.lists = b.build()
		run.constrained = b
	} else {
		run.lists = newGeneralBuilder(in, &run.claims, ex).build()
	}
	if run.lists == nil {
		run.lists = make([][]int32, len(in.members))
	}
	return run
}
