package live

import (
	"fmt"
	"maps"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A classic group read mid-rebalance (PreparingRebalance or
// CompletingRebalance): DescribeGroups answers with each member's ids but no
// subscription, assignment or assignor (Kafka describes members with their
// metadata only when the group is Stable). The import catches it
// mid-rebalance (scenario.ClassicStart) and takes what the read cannot show
// from the last settled read of the group, when there is one (the lab's,
// Carry), else from what the cluster shows around it (the committed
// offsets' topics), and says so.

// caughtPhase is the scenario's group.rebalance for the group's state: ""
// unless it is a classic group rebalancing.
func (g *Group) caughtPhase() string {
	if g.Type != Classic || len(g.Members) == 0 {
		return ""
	}
	switch g.State {
	case string(kafka.PreparingRebalance):
		return scenario.RebalancePreparing
	case string(kafka.CompletingRebalance):
		return scenario.RebalanceCompleting
	}
	return ""
}

// Carry gives a classic group read mid-rebalance the last settled read of
// the same group, whose subscriptions, assignments, assignor and generation
// the import takes for what the read cannot show. prev may be nil; a read
// that is not mid-rebalance ignores it.
func (g *Group) Carry(prev *Group) {
	if prev == nil || prev == g || prev.Group != g.Group || prev.Type != Classic || g.caughtPhase() == "" && !g.emptied() {
		return
	}
	if prev.prev != nil && prev.caughtPhase() != "" {
		prev = prev.prev // itself a carried read: the settled one behind it
	}
	g.prev = prev
}

// emptied: a classic group read Empty. When its last member left, the join
// phase completed with nobody (a new generation) and the group forgot its
// assignor, so DescribeGroups names none.
func (g *Group) emptied() bool {
	return g.Type == Classic && len(g.Members) == 0 && (g.State == "Empty" || g.State == "EMPTY")
}

// emptiedStart is the generation an emptied group starts at, after the
// carried read's: one more, as its last join phase completed with nobody.
func (g *Group) emptiedStart(sc *scenario.Scenario, notes []string) []string {
	if !g.emptied() || g.prev == nil || g.prev.Generation == nil {
		return notes
	}
	sc.Generation = *g.prev.Generation + 1
	return append(notes, fmt.Sprintf("the group emptied after the last settled read: it starts Empty at generation %d, one past that read's %d (a lower bound), with its assignor %s", sc.Generation, *g.prev.Generation, sc.Strategy))
}

// prevMember is the member in the carried read, or nil.
func (g *Group) prevMember(id string) *Member {
	if g.prev == nil {
		return nil
	}
	for i := range g.prev.Members {
		if g.prev.Members[i].MemberID == id {
			return &g.prev.Members[i]
		}
	}
	return nil
}

// caughtMember fills a member of a group caught mid-rebalance: its
// subscription and what it owns from the carried read, and whether it has
// rejoined. It returns the member as the import takes it and the notes.
func (g *Group) caughtMember(m Member, id string, spec *scenario.MemberSpec) (Member, []string) {
	var notes []string
	phase := g.caughtPhase()
	pm := g.prevMember(m.MemberID)
	switch {
	case pm != nil:
		m.Topics, m.Assignment, m.Rack = pm.Topics, pm.Assignment, pm.Rack
		if phase == scenario.RebalancePreparing {
			notes = append(notes, fmt.Sprintf("%s's subscription and partitions are the last settled read's; DescribeGroups does not show who has rejoined, so %s is taken as not yet rejoined (it rejoins at its next heartbeat)", id, id))
		} else {
			notes = append(notes, fmt.Sprintf("%s's subscription and partitions are the last settled read's", id))
		}
	case g.prev != nil:
		all := maps.Clone(g.Topics)
		maps.Copy(all, g.prev.Topics)
		m.Topics, m.Assignment = sortedTopicsOf(all), map[string][]int32{}
		spec.Rejoined = phase == scenario.RebalancePreparing
		notes = append(notes, fmt.Sprintf("%s is not in the last settled read: it joined, so it has sent its JoinGroup; its subscription is unknown while the group rebalances, taken as all the group's topics", id))
	default:
		m.Topics, m.Assignment = sortedTopicsOf(g.Topics), map[string][]int32{}
		notes = append(notes, fmt.Sprintf("%s's subscription is unknown while the group is %s: taken as all the group's topics (from its committed offsets), owning nothing", id, g.State))
	}
	return m, notes
}

// carriedTopics adds to topics those of the carried read that this read
// could not name (a group rebalancing shows no subscriptions), and says so.
func (g *Group) carriedTopics(topics map[string]int32) []string {
	if g.prev == nil {
		return nil
	}
	var added []string
	for _, t := range sortedTopicsOf(g.prev.Topics) {
		if _, ok := topics[t]; !ok {
			topics[t] = g.prev.Topics[t]
			added = append(added, t)
		}
	}
	if len(added) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("topics %s and their partition counts are the last settled read's", strings.Join(added, ", "))}
}

// caughtStart sets the scenario's caught rebalance and its generation, and
// drops what an eager member that has rejoined no longer owns.
func (g *Group) caughtStart(sc *scenario.Scenario, notes []string) []string {
	phase := g.caughtPhase()
	if phase == "" {
		return notes
	}
	sc.Classic.Rebalance = phase
	base := int32(0)
	if g.prev != nil && g.prev.Generation != nil {
		base = *g.prev.Generation
	}
	switch {
	case base > 0 && phase == scenario.RebalanceCompleting:
		sc.Generation = base + 1
		notes = append(notes, fmt.Sprintf("the generation is one past the last settled read's %d (itself a lower bound): the coordinator made it when the join phase completed", base))
	case base > 0:
		sc.Generation = base
		notes = append(notes, fmt.Sprintf("the generation is the last settled read's %d (a lower bound): the coordinator moves on from it when the join phase completes", base))
	default:
		sc.Generation = 1
		notes = append(notes, "no generation is known and there is no settled read to take one from: 1 assumed")
	}
	notes = append(notes, "the leader: DescribeGroups does not name it; the first member (by member id) is taken")
	for i := range sc.Members {
		m := &sc.Members[i]
		rejoined := m.Rejoined || phase == scenario.RebalanceCompleting
		if rejoined && sc.Protocol == string(kafka.ProtocolEager) {
			m.Owned = nil // it revoked everything before its JoinGroup
		}
		if phase == scenario.RebalanceCompleting && sc.Generation == 1 {
			m.Owned = nil
		}
	}
	return notes
}

func sortedTopicsOf(counts map[string]int32) []string {
	var ts []string
	for t := range counts {
		ts = append(ts, t)
	}
	return sortedUnique(ts)
}
