package strategies

import (
	"fmt"
	"strings"
)

// uniformAssignor is the KIP-848 server-side assignor "uniform"
// (org.apache.kafka.coordinator.group.assignor.UniformAssignor), the group
// coordinator's default since Kafka 4.0. It computes the group's new target
// assignment from the old one: Member.Owned carries each member's current
// target. Balance comes first, stickiness second.
//
// Homogeneous subscriptions use the quota builder (uniform_homogeneous.go),
// heterogeneous ones the keep-then-balance builder of KAFKA-17710
// (uniform_heterogeneous.go). Neither looks at racks: KAFKA-16694 (May 2024)
// removed rack awareness from the server assignors, and Kafka 4.0 and trunk
// (2025) have none, so Member.Rack and Group.PartitionRacks are ignored.
type uniformAssignor struct{}

func (uniformAssignor) Name() string          { return "uniform" }
func (uniformAssignor) KafkaName() string     { return "uniform" }
func (uniformAssignor) Protocols() []Protocol { return []Protocol{Consumer} }

// Assign computes the target assignment.
func (uniformAssignor) Assign(g Group, ex *Explainer) Result {
	if len(g.Members) == 0 {
		ex.Addf("no members: nothing to assign")
		return Result{Assignment: Assignment{}, Explanation: ex.Lines()}
	}
	sc := getUniformScratch()
	defer putUniformScratch(sc)
	return assignUniformIn(g, ex, sc)
}

// assignUniformIn is Assign (for a group with members) working in sc's
// memory; the Result shares none of it.
func assignUniformIn(g Group, ex *Explainer, sc *uniformScratch) Result {
	order, buckets := sc.memberOrder(g.Members)
	s := newServerSpecIn(g, order, sc)
	explainServerOrder(ex, s, buckets)
	explainConflicts(ex, s)
	var owner []int32
	if s.homogeneous() && !g.release().AtLeast(4, 1, 0) {
		ex.Addf("all members subscribe to the same topics: homogeneous builder as in Kafka %s (keep targets up to quota, then fill; before KAFKA-18688 the first members in order take the extra partitions)", g.release())
		owner = assignUniformHomogeneousKafka40(s, ex)
	} else if s.homogeneous() {
		ex.Addf("all members subscribe to the same topics: homogeneous builder (keep targets up to quota, then fill; KAFKA-18688: any member may keep its extra partition)")
		owner = assignUniformHomogeneous(s, ex)
	} else {
		ex.Addf("members subscribe to different topics: heterogeneous builder (keep targets, hand out the rest to the least loaded, then balance; KAFKA-17710)")
		owner = assignUniformHeterogeneous(s, ex)
	}
	explainRacksIgnored(ex, g)
	return Result{Assignment: s.assignment(owner), Explanation: ex.Lines()}
}

// explainServerOrder states the member and topic order, and why it is not
// simply alphabetical.
func explainServerOrder(ex *Explainer, s *serverSpec, buckets int) {
	if !ex.Enabled() {
		return
	}
	const show = 12
	ids := make([]string, 0, show+1)
	for i, m := range s.members {
		if i == show {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, fmt.Sprintf("%s (%d)", m.ID, javaHashMapBucket(m.ID, buckets)))
	}
	ex.Addf("order: members as Kafka's HashMap of member ids iterates them, by bucket of String.hashCode among %d (same bucket: by id): %s", buckets, strings.Join(ids, ", "))
	if len(s.topics) > 1 {
		ex.Addf("order: topics by name; Kafka's own order follows random topic UUIDs, so a real cluster may order them differently")
	}
}

func explainConflicts(ex *Explainer, s *serverSpec) {
	for _, c := range s.conflicts {
		if !ex.Enabled() {
			ex.Skip()
			continue
		}
		ex.Addf("%s is in the targets of both %s and %s; a real target never is: %s keeps it (first in order)", c.tp, c.keeper, c.loser, c.keeper)
	}
}

func explainRacksIgnored(ex *Explainer, g Group) {
	if len(g.PartitionRacks) == 0 {
		return
	}
	for _, m := range g.Members {
		if m.Rack != "" {
			ex.Addf("racks ignored: Kafka's server-side assignors are not rack-aware (removed by KAFKA-16694)")
			return
		}
	}
}
