package live

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// reconciling carries a KIP-848 group caught mid-reconcile into the
// scenario, as ConsumerGroupDescribe shows it: the assignment epoch (when
// behind the group epoch the group is ASSIGNING), and per member its epoch
// and target where they differ from a settled member's. The scenario's
// parser keeps Kafka's invariants; what a describe shows that breaks them
// (a member epoch of -2 or 0, or partitions outside the target at the
// target's epoch) is imported as settled, and said.
func (g *Group) reconciling(sc *scenario.Scenario, notes []string) []string {
	if g.Type != Consumer {
		return notes
	}
	assign := sc.Generation
	if a := g.AssignmentEpoch; a != nil && *a >= 1 && *a < assign {
		assign = *a
		sc.AssignmentEpoch = assign
	}
	byID := map[string]*Member{}
	for i := range g.Members {
		byID[g.Members[i].MemberID] = &g.Members[i]
	}
	targeted := map[kafka.TP]string{}
	behind := false
	for i := range sc.Members {
		spec := &sc.Members[i]
		m := byID[spec.MemberID]
		if m == nil {
			continue
		}
		epoch := assign
		if m.MemberEpoch != nil {
			epoch = *m.MemberEpoch
		}
		if epoch < 1 || epoch > assign {
			notes = append(notes, fmt.Sprintf("%s is at member epoch %d (%s): imported at the assignment epoch %d", spec.ID, epoch, epochMeaning(epoch), assign))
			epoch = assign
		}
		var target []kafka.TP
		if m.Target != nil {
			target, notes = g.targetOf(spec, m.Target, sc, assign, targeted, notes)
		} else {
			target = spec.Owned
		}
		if epoch == assign && slices.ContainsFunc(spec.Owned, func(tp kafka.TP) bool { return !slices.Contains(target, tp) }) {
			notes = append(notes, fmt.Sprintf("%s owns partitions outside its target at the target's epoch %d, which Kafka's coordinator never holds: imported as reconciled on what it owns", spec.ID, epoch))
			target = spec.Owned
		}
		if epoch != assign {
			spec.MemberEpoch = epoch
			behind = true
		}
		if !slices.Equal(target, spec.Owned) {
			spec.Target = target
		}
	}
	if behind {
		notes = append(notes, "members behind the assignment epoch may still be revoking partitions, which ConsumerGroupDescribe does not show (the coordinator keeps them apart from the assignment, as pending revocation): kviz takes them as released")
	}
	return notes
}

// targetOf is a member's target as the scenario may hold it: partitions of
// existing topics in range, each in one member's target, and while no new
// target is pending (group epoch = assignment epoch) of subscribed topics.
func (g *Group) targetOf(spec *scenario.MemberSpec, a map[string][]int32, sc *scenario.Scenario, assign int32, targeted map[kafka.TP]string, notes []string) ([]kafka.TP, []string) {
	out := []kafka.TP{}
	for _, t := range strategies.SortedTopics(a) {
		n, ok := sc.Topics[t]
		if !ok {
			notes = append(notes, fmt.Sprintf("%s's target names %s, which does not exist (left out)", spec.ID, t))
			continue
		}
		if !slices.Contains(spec.Topics, t) && assign == sc.Generation {
			notes = append(notes, fmt.Sprintf("%s's target names %s, which it does not subscribe to (left out)", spec.ID, t))
			continue
		}
		for _, p := range a[t] {
			tp := kafka.TP{Topic: t, Partition: p}
			if other, dup := targeted[tp]; dup || p < 0 || p >= n {
				notes = append(notes, fmt.Sprintf("%s's target names %s, %s (left out)", spec.ID, tp, targetFault(other, n)))
				continue
			}
			targeted[tp] = spec.ID
			out = append(out, tp)
		}
	}
	slices.SortFunc(out, kafka.CompareTPs)
	return out, notes
}

func targetFault(other string, count int32) string {
	if other != "" {
		return "which is in " + other + "'s target too"
	}
	return fmt.Sprintf("outside the topic's %d partitions", count)
}

// epochMeaning says what a member epoch outside 1..assignment epoch means.
func epochMeaning(e int32) string {
	switch {
	case e == -2:
		return "a static member away until its session expires"
	case e == 0:
		return "joining: no target for it yet"
	case e < 0:
		return "leaving"
	}
	return "ahead of the assignment epoch"
}
