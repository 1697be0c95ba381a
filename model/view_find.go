package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// What a lab needs to read a group of 10,000 members (issue 21): the
// members a step changed, to show them first, and a search by member or
// partition. Both cost what they find, not the group.

// Changed is the members whose view this step changed (a new member
// included), as indices into Members, ascending: what the history logged
// for the step.
func (v *GroupView) Changed() []int { return v.changed }

// ChangedFirst is every index into Members, the ones this step changed
// first (in start order), then the rest (in start order): the order a
// long member list reads best in.
func (v *GroupView) ChangedFirst() []int {
	out := make([]int, 0, len(v.Members))
	out = append(out, v.changed...)
	k := 0
	for i := range v.Members {
		if k < len(v.changed) && v.changed[k] == i {
			k++
			continue
		}
		out = append(out, i)
	}
	return out
}

// Find is the members a search names, as indices into Members in start
// order: a partition ("orders-3", "orders:3" or "orders 3") finds who
// consumes, revokes or waits for it; anything else finds the members whose
// client id, member id or instance id contains it (case-insensitively). An
// empty query finds nothing.
func (v *GroupView) Find(query string) []int {
	q := strings.TrimSpace(query)
	if q == "" {
		return nil
	}
	if topic, p, ok := v.partitionQuery(q); ok {
		var out []int
		for i, m := range v.Members {
			for _, set := range [][]kafka.TP{m.Owned, m.Revoking, m.Pending} {
				if slices.ContainsFunc(set, func(tp kafka.TP) bool { return tp.Topic == topic && tp.Partition == p }) {
					out = append(out, i)
					break
				}
			}
		}
		return out
	}
	lq := strings.ToLower(q)
	var out []int
	for i, m := range v.Members {
		if containsFold(m.ID, lq) || containsFold(m.MemberID, lq) || containsFold(m.InstanceID, lq) {
			out = append(out, i)
		}
	}
	return out
}

// partitionQuery reads "topic-N", "topic:N" or "topic N" naming a
// partition of one of the view's topics.
func (v *GroupView) partitionQuery(q string) (string, int32, bool) {
	cut := strings.LastIndexAny(q, "-: ")
	if cut <= 0 || cut == len(q)-1 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(q[cut+1:], 10, 32)
	if err != nil || n < 0 {
		return "", 0, false
	}
	topic := strings.TrimSpace(q[:cut])
	for _, t := range v.Topics {
		if t.Name == topic && int32(n) < t.Partitions {
			return topic, int32(n), true
		}
	}
	return "", 0, false
}

func containsFold(s, lower string) bool {
	return s != "" && strings.Contains(strings.ToLower(s), lower)
}
