package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// removeMembers is an administrator's Admin.removeMembersFromConsumerGroup:
// a LeaveGroup (v3, KIP-345) naming members by group.instance.id, or, for
// all, the members a DescribeGroups lists, each by member id and instance
// id (KIP-571). It goes to the coordinator from an admin client; the
// consumers removed keep running and learn of it from their next answer.
func (w *world) removeMembers(ev scenario.Event) {
	if w.cluster.coordinator() < 0 {
		w.record(kafka.KindLeaveGroupRequest, "", "COORDINATOR_NOT_AVAILABLE", false,
			"An administrator's LeaveGroup finds no coordinator (COORDINATOR_NOT_AVAILABLE): nobody is removed.")
		return
	}
	who := "every member"
	if !ev.All {
		who = "group.instance.id " + strings.Join(ev.Instances, ", ")
	}
	w.clock.after(netMs, false, func() {
		if w.consumer {
			w.consumerGroup.adminLeave(ev.All, ev.Instances, who)
		} else {
			w.classic.adminLeave(ev.All, ev.Instances, who)
		}
	})
}

// adminTargets resolves an administrator's LeaveGroup: the member ids to
// remove (all: ids, in the group's order) and the instance ids the group
// does not hold.
func adminTargets(all bool, instances []string, ids []string, byInstance map[string]string) ([]string, []string) {
	if all {
		return ids, nil
	}
	var out, unknown []string
	for _, inst := range instances {
		if id, ok := byInstance[inst]; ok && !slices.Contains(out, id) {
			out = append(out, id)
		} else if !ok {
			unknown = append(unknown, inst)
		}
	}
	return out, unknown
}

// recordAdminLeave tells of an administrator's LeaveGroup: what it named,
// whom the coordinator removes (or fences), which instances it did not hold.
func (w *world) recordAdminLeave(all bool, who, verb string, names, unknown []string) {
	text := fmt.Sprintf("An administrator removes %s (Admin.removeMembersFromConsumerGroup: LeaveGroup by instance id): ", who)
	if all {
		text = "An administrator removes every member (Admin.removeMembersFromConsumerGroup with no members: LeaveGroup for each member DescribeGroups lists): "
	}
	if len(names) == 0 {
		text += "the group holds none of them"
	} else {
		text += "the coordinator " + verb + " " + strings.Join(names, ", ")
	}
	errName := ""
	if len(unknown) > 0 {
		text += fmt.Sprintf("; %s: UNKNOWN_MEMBER_ID", strings.Join(unknown, ", "))
		if len(names) == 0 {
			errName = "UNKNOWN_MEMBER_ID"
		}
	}
	w.record(kafka.KindLeaveGroupRequest, "", errName, false, text+".")
}

// adminLeave removes the members an administrator names
// (classicGroupLeaveToClassicGroup): each static one by its instance id
// (UNKNOWN_MEMBER_ID for an instance the group does not hold), or, for
// all, every member. A parked JoinGroup is answered UNKNOWN_MEMBER_ID
// first (removeCurrentMemberFromClassicGroup); then one rebalance.
func (g *classicGroup) adminLeave(all bool, instances []string, who string) {
	ids, unknown := adminTargets(all, instances, g.order.Keys(), g.instances)
	var names []string
	for _, id := range ids {
		names = append(names, g.clientOf(id))
	}
	g.w.recordAdminLeave(all, who, "removes", names, unknown)
	if len(ids) == 0 {
		return
	}
	for _, id := range ids {
		g.members[id].answerJoin(joinResponse{err: "UNKNOWN_MEMBER_ID"})
		g.remove(id)
	}
	switch g.state {
	case kafka.Stable, kafka.CompletingRebalance:
		g.prepareRebalance(fmt.Sprintf("an administrator removed %s", strings.Join(names, ", ")))
	case kafka.PreparingRebalance:
		g.maybeCompleteJoinPhase()
	}
}

// adminLeave fences the members an administrator names
// (classicGroupLeaveToConsumerGroup): one group epoch bump for all of them
// (consumerGroupFenceMembers).
func (g *consumerGroup) adminLeave(all bool, instances []string, who string) {
	order := make([]string, len(g.order))
	for i, m := range g.order {
		order[i] = m.id
	}
	ids, unknown := adminTargets(all, instances, order, g.instances)
	var names []string
	for _, id := range ids {
		names = append(names, g.displayName(id))
	}
	g.w.recordAdminLeave(all, who, "fences", names, unknown)
	if len(ids) == 0 {
		return
	}
	g.fenceAll(ids, fmt.Sprintf("an administrator removed %s", strings.Join(names, ", ")))
}
