package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
)

type kRequest struct {
	memberID, instance string
	epoch              int32
	topics             []string // nil = unchanged
	owned              []kafka.TP
	rebalanceTimeout   int64   // max.poll.interval.ms, in a full request (a join)
	regex              *string // SubscribedTopicRegex; nil = unchanged (pattern_regex.go)
}

type kResponse struct {
	err         string
	epoch       int32
	assigned    []kafka.TP
	memberState kafka.MemberState // view only
	why         string            // view only: what a fatal error means
}

// heartbeat is the coordinator handling a ConsumerGroupHeartbeat
// (GroupMetadataManager.consumerGroupHeartbeat).
func (g *consumerGroup) heartbeat(c *client, req kRequest) (kResponse, bool) {
	if max := g.w.sc.MaxSize; max > 0 && int32(len(g.members)) >= max && g.members[req.memberID] == nil {
		// throwIfConsumerGroupIsFull
		g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
			"%s sends ConsumerGroupHeartbeat (epoch %d); the group already has group.consumer.max.size (%d) members.", c.id, req.epoch, max))
		return kResponse{err: "GROUP_MAX_SIZE_REACHED", why: ": the group already has the configured maximum number of members"}, false
	}
	switch req.epoch {
	case leaveEpoch, staticLeaveEpoch:
		return g.leave(c, req), false
	case joinEpoch:
		if r, ok := g.join(c, req); !ok {
			return r, false
		}
	}
	m := g.members[req.memberID]
	if m == nil {
		g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf("%s heartbeats as %s, which the group does not know.", c.id, req.memberID))
		return kResponse{err: "UNKNOWN_MEMBER_ID"}, false
	}
	shown := req                          // the text names what the client holds
	req.owned = g.ownedByID(m, req.owned) // the client reports by topic id (topic_ids.go)
	if req.epoch != joinEpoch && req.epoch != m.epoch && !(req.epoch == m.prevEpoch && len(kafka.MinusTPs(req.owned, m.assigned)) == 0) {
		g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf("%s heartbeats with epoch %d; the coordinator has it at %d.", c.id, req.epoch, m.epoch))
		return kResponse{err: "FENCED_MEMBER_EPOCH"}, false
	}
	g.touchSession(m)
	before := [3]int{m.version, int(g.groupEpoch), int(g.assignEpoch)}
	reqStep := -1
	if req.epoch != joinEpoch {
		reqStep = g.w.hist.len()
		id, byID, owned := c.id, req.owned, listText(&c.ownedFmt, shown.owned)
		g.w.recordLazy(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", true, func() string {
			return requestText(id, shown, owned) + deletedIDNote(byID)
		})
	}
	if m.unwritten {
		g.writeJoin(m, req.owned)
	} else {
		subscribed := req.topics != nil && !sameNames(req.topics, m.topics) && !regexAfter(m, req.regex)
		if subscribed {
			m.topics = req.topics
		}
		g.heartbeatRegex(m, req.regex)
		g.bumpAndReconcile(m, c.id, subscribed, req.owned)
	}
	g.updateState()
	changed := before != [3]int{m.version, int(g.groupEpoch), int(g.assignEpoch)}
	if changed && reqStep >= 0 {
		g.w.hist.changed(reqStep)
	}
	return kResponse{err: "NONE", epoch: m.epoch, assigned: g.namedFor(c, m.assigned), memberState: m.state}, !changed
}

func requestText(client string, req kRequest, owned *tpsText) string {
	if req.topics != nil { // a changed subscription rides a heartbeat
		return fmt.Sprintf("%s sends ConsumerGroupHeartbeat (epoch %d, owns %s, subscribing to %v).", client, req.epoch, owned, req.topics)
	}
	return fmt.Sprintf("%s sends ConsumerGroupHeartbeat (epoch %d, owns %s).", client, req.epoch, owned)
}

// join handles epoch 0: a new member, or a static member taking back its slot.
func (g *consumerGroup) join(c *client, req kRequest) (kResponse, bool) {
	if req.instance != "" {
		if old, ok := g.instances[req.instance]; ok {
			om := g.members[old]
			// A classic member's slot may always be taken
			// (getOrMaybeSubscribeStaticConsumerGroupMember).
			if om.epoch != staticLeaveEpoch && om.classic == nil {
				g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
					"%s joins with group.instance.id %s, still held by an active member.", c.id, req.instance))
				return kResponse{err: "UNRELEASED_INSTANCE_ID"}, false
			}
			g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
				"%s rejoins with group.instance.id %s (epoch 0): it takes over %s's slot, assignment and target, with no new group epoch.", c.id, req.instance, old))
			// A copy under the new member id, at epoch 0
			// (getOrMaybeSubscribeStaticConsumerGroupMember); its
			// reconciliation brings it to the target epoch.
			nm := *om
			nm.id, nm.client, nm.session, nm.revokeTimer = req.memberID, c.id, nil, nil
			nm.epoch, nm.prevEpoch = joinEpoch, joinEpoch
			if req.rebalanceTimeout > 0 {
				nm.rebalanceTimeout = req.rebalanceTimeout
			}
			nm.unwritten = true
			g.unwritten = &nm
			nm.assignedAt = maps.Clone(om.assignedAt) // the old member's is dropped with it
			nm.classic = nil                          // it runs the consumer protocol
			assigned, revoking := om.assigned, om.revoking
			target := g.target[old]
			g.remove(old)
			g.add(&nm)
			g.setTarget(nm.id, target)
			g.setHeld(&nm, assigned, revoking)
			bump := ""
			if req.topics != nil && !slices.Equal(req.topics, nm.topics) && !regexAfter(&nm, req.regex) {
				nm.topics = req.topics
				g.filterTargets = true
				bump = fmt.Sprintf("%s subscribes to %v", c.id, req.topics)
			}
			// The joining heartbeat carries its SubscribedTopicRegex too
			// (maybeUpdateRegularExpressions runs for every member).
			g.heartbeatRegex(&nm, req.regex)
			if g.regexWhy != "" {
				bump, g.regexWhy = g.regexWhy, ""
			}
			if bump != "" {
				g.groupEpoch++ // one bump, told with the member's write (writeJoin)
				g.pendingBump = bump
			}
			g.touchSession(&nm)
			return kResponse{}, true
		}
	}
	if g.members[req.memberID] != nil {
		g.remove(req.memberID)
	}
	g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
		"%s sends ConsumerGroupHeartbeat with epoch 0 (join) as %s, subscribing to %v.", c.id, req.memberID, req.topics))
	m := &kMember{id: req.memberID, client: c.id, instance: req.instance, topics: req.topics, state: kafka.MStable, unwritten: true,
		rebalanceTimeout: req.rebalanceTimeout}
	g.unwritten = m
	g.add(m)
	g.heartbeatRegex(m, req.regex)
	g.regexWhy = "" // the join bumps the epoch anyway
	g.touchSession(m)
	g.groupEpoch++ // told with the member's write (writeJoin)
	g.pendingBump = fmt.Sprintf("%s joined", c.id)
	return kResponse{}, true
}

// bumpAndReconcile is the rest of a known member's heartbeat (or classic
// JoinGroup): one group epoch bump at most, for a changed subscription and
// a changed partition count alike (consumerGroupHeartbeat: bumpGroupEpoch ||
// hasMetadataExpired), the target if it is due, and the member's
// reconciliation.
func (g *consumerGroup) bumpAndReconcile(m *kMember, client string, subscribed bool, owned []kafka.TP) {
	var why []string
	if subscribed {
		g.filterTargets = true
		why = append(why, fmt.Sprintf("%s subscribes to %v", client, m.topics))
	}
	if g.regexWhy != "" {
		why = append(why, g.regexWhy)
		g.regexWhy = ""
	}
	if g.metaStale {
		g.metaStale = false
		why = append(why, g.metaText())
	}
	if len(why) > 0 {
		g.bumpEpoch(strings.Join(why, "; "))
	}
	g.computeTarget(nil)
	g.reconcile(m, owned)
}

// writeJoin handles the rest of a joining heartbeat as Kafka does, in one
// batch of records: the group epoch bump (one, for the join and any
// changed partition count), the target, and the joiner's epoch and state,
// which CurrentAssignmentBuilder decides against the new target before
// anything is written. The steps still tell the bump and then the target,
// but both show what that one write leaves: the new assignment epoch and
// the joiner at the epoch and state its reconciliation gives, never at
// epoch 0 with a state the coordinator never holds. Only a target that
// waits (4.3 batching) leaves the group ASSIGNING, the joiner reconciled
// to the last target.
func (g *consumerGroup) writeJoin(m *kMember, owned []kafka.TP) {
	bump := g.pendingBump
	g.pendingBump = ""
	if g.metaStale {
		g.metaStale = false
		if bump == "" {
			g.groupEpoch++
			bump = g.metaText()
		} else {
			bump += "; " + g.metaText()
		}
	}
	settle := func() {
		g.reconcile(m, owned)
		g.write(m)
	}
	tell := func() {
		if bump != "" {
			g.w.record(kafka.KindGroupStateChanged, "", "", false, fmt.Sprintf("Group epoch %d: %s.", g.groupEpoch, bump))
			bump = ""
		}
	}
	if g.groupEpoch > g.assignEpoch && g.targetWaits() {
		// The target waits (4.3 batching): the joiner reconciles to the
		// last one, and the wait is told after the bump.
		settle()
		tell()
	}
	g.computeTarget(func() {
		settle()
		tell()
	})
	settle()
	tell()
}

func (g *consumerGroup) leave(c *client, req kRequest) kResponse {
	m := g.members[req.memberID]
	if m == nil {
		g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf("%s leaves as %s, unknown to the group.", c.id, req.memberID))
		return kResponse{err: "UNKNOWN_MEMBER_ID", epoch: req.epoch}
	}
	if req.epoch == staticLeaveEpoch {
		g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf(
			"%s leaves temporarily (epoch -2, static): the coordinator keeps its slot and assignment until its session expires.", c.id))
		// consumerGroupStaticMemberGroupLeave: epoch -2 and no partitions
		// pending revocation, so whoever waits for them gets them. Its
		// rebalance timeout can no longer fence it (the epoch moved on).
		m.epoch = staticLeaveEpoch
		g.setHeld(m, m.assigned, nil)
		g.w.clock.cancel(m.revokeTimer)
		m.revokeTimer = nil
		g.touch(m)
		g.updateState()
		return kResponse{err: "NONE", epoch: staticLeaveEpoch}
	}
	g.w.record(kafka.KindConsumerGroupHeartbeatRequest, c.id, "", false, fmt.Sprintf("%s sends ConsumerGroupHeartbeat with epoch -1: it leaves the group.", c.id))
	g.fence(req.memberID, fmt.Sprintf("%s left", c.id))
	return kResponse{err: "NONE", epoch: leaveEpoch}
}

// tpsText is the text of a partition list (kafka.FormatTPs), written once
// when first read: a published list is never changed in place, so a client
// keeps one per list it names (listText) and every routine heartbeat's
// sentence that names the very same list shares it. Steps' sentences are
// read from any goroutine, hence the Once.
type tpsText struct {
	tps  []kafka.TP
	once sync.Once
	s    string
}

func (t *tpsText) String() string {
	t.once.Do(func() { t.s = kafka.FormatTPs(t.tps) })
	return t.s
}

// listText is the shared text of tps, kept in *slot while the list is the same.
func listText(slot **tpsText, tps []kafka.TP) *tpsText {
	if *slot == nil || !sameSlice((*slot).tps, tps) {
		*slot = &tpsText{tps: tps}
	}
	return *slot
}
