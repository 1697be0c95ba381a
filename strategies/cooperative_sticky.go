package strategies

import (
	"slices"
	"sort"
	"strings"
)

// CooperativeStickyAssignor is Kafka's cooperative-sticky assignor (KIP-429):
// the sticky assignment, minus every partition that moves between live
// owners this round. The owner revokes it, rejoins, and the follow-up
// rebalance hands it over.
type CooperativeStickyAssignor struct{}

func (CooperativeStickyAssignor) Name() string      { return "cooperative-sticky" }
func (CooperativeStickyAssignor) KafkaName() string { return "cooperative-sticky" }
func (CooperativeStickyAssignor) Protocols() []Protocol {
	return []Protocol{Eager, Cooperative}
}

// Assign runs AbstractStickyAssignor, then CooperativeStickyAssignor's
// adjustAssignment. Owned and Generation are the member's ownedPartitions
// and generationId (ConsumerProtocol v2+).
func (CooperativeStickyAssignor) Assign(g Group, ex *Explainer) Result {
	run := runSticky(g, ex)
	var withheld []Withheld
	if len(run.in.members) > 0 {
		withheld = run.withhold(ex)
	}
	return Result{Assignment: run.in.result(run.lists), Withheld: withheld, Explanation: ex.Lines()}
}

// withhold takes the partitions transferring ownership away from their new
// owners. The same-subscription algorithm tracks them as it goes; after the
// general algorithm Kafka recomputes them: assigned to a member that did not
// report owning it, and reported by some member that does not keep it.
func (r *stickyRun) withhold(ex *Explainer) []Withheld {
	in := r.in
	transfer := map[int32]int{}
	from := map[int32]string{}
	if r.constrained != nil {
		for pid, m := range r.constrained.transferring {
			transfer[pid] = m
			from[pid] = r.constrained.from(pid)
		}
	} else {
		transfer, from = r.generalTransfers()
	}
	pids := make([]int32, 0, len(transfer))
	for pid := range transfer {
		pids = append(pids, pid)
	}
	sort.Slice(pids, func(i, j int) bool { return pids[i] < pids[j] })
	out := make([]Withheld, 0, len(pids))
	for _, pid := range pids {
		to := transfer[pid]
		r.lists[to] = removeFirst(r.lists[to], pid)
		out = append(out, Withheld{TopicPartition: in.tp(pid), From: from[pid], To: in.ids[to]})
		if ex.Enabled() {
			ex.Addf("%s withheld from %s: %s must revoke it first", in.tp(pid), in.ids[to], from[pid])
		} else {
			ex.Skip()
		}
	}
	return out
}

// generalTransfers is computePartitionsTransferringOwnership, on the raw
// ownedPartitions each member reported: a partition transfers when its new
// owner did not report it and some other member did.
func (r *stickyRun) generalTransfers() (map[int32]int, map[int32]string) {
	in := r.in
	assignedTo := make([]int32, in.numP)
	for i := range assignedTo {
		assignedTo[i] = -1
	}
	for m, ps := range r.lists {
		for _, pid := range ps {
			assignedTo[pid] = int32(m)
		}
	}
	recipientOwns := make([]bool, in.numP)
	otherOwns := make([]bool, in.numP)
	for m, ps := range in.rawOwned {
		for _, pid := range ps {
			if assignedTo[pid] == int32(m) {
				recipientOwns[pid] = true
			} else {
				otherOwns[pid] = true
			}
		}
	}
	transfer := map[int32]int{}
	owners := map[int32][]string{}
	for pid, to := range assignedTo {
		if to >= 0 && otherOwns[pid] && !recipientOwns[pid] {
			transfer[int32(pid)] = int(to)
		}
	}
	for m, ps := range in.rawOwned {
		for _, pid := range ps {
			if _, ok := transfer[pid]; ok && !slices.Contains(owners[pid], in.ids[m]) {
				owners[pid] = append(owners[pid], in.ids[m])
			}
		}
	}
	from := make(map[int32]string, len(transfer))
	for pid, names := range owners {
		sort.Slice(names, func(i, j int) bool { return JavaLess(names[i], names[j]) })
		from[pid] = strings.Join(names, ",")
	}
	return transfer, from
}
