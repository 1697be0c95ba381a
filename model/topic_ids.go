package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
)

// Topic ids (issue 23). Kafka gives every topic a Uuid at its creation; a
// topic deleted and created again under the same name is another topic
// with a new id. What a member "owns" depends on who keeps the books:
//
//   - Classic protocol: the coordinator never reads assignments, and the
//     client's TopicPartition is a name and a number. A member holding t1-0
//     holds whatever t1-0 is now: after t1 is deleted and created again its
//     fetches go to the new topic's partition (Metadata resets the leader
//     epoch when the topic id changes, nothing else). The leader rejoins only
//     when its MetadataSnapshot of the group's topics (partition counts per
//     name; racks too with client.rack) differs from the one it assigned
//     with (ConsumerCoordinator.rejoinNeededOrPending; testRebalanceWithMetadataChange,
//     testRackAwareConsumerRebalanceWithNoMetadataChange): a deletion and
//     creation between two of its refreshes that leave the count as it was
//     go unnoticed, and a rebalance that does follow sees the old t1-0 as
//     owned, by name. kviz keeps names (relevantSince, pattern.go).
//   - Consumer protocol (KIP-848): the coordinator keeps assignments, targets
//     and partition epochs by topic id (CurrentAssignmentBuilder,
//     ConsumerGroup.currentPartitionEpoch), and the client sends what it
//     owns by id (ConsumerHeartbeatRequestManager: its LocalAssignment). So
//     a member still holding the deleted t1's partition 0 holds another
//     partition than the new t1-0: the old one is revoked like any partition
//     that left the target (the new target cannot name a deleted id), and
//     the new one is free, assignable at once, to the same member once it
//     has revoked the old one (it stays UNREVOKED_PARTITIONS meanwhile) or
//     to any other at once. Its client, which keeps names
//     (AbstractMembershipManager.maybeReconcile: revoked = owned − assigned,
//     by name), calls onPartitionsRevoked([t1-0]) and then
//     onPartitionsAssigned([t1-0]).
//
// kviz keys the coordinator by name, so a deleted topic's partitions that
// members still hold are renamed, inside the consumer coordinator only, to
// a name no topic can have (ghostTopic: Kafka's topic names take letters,
// digits, '.', '_' and '-'), which is what keying by id amounts to. The
// target drops them at once: the coordinator describes a member's target by
// resolving its ids in the metadata image, which no longer has the topic
// (ConsumerGroupDescribe), and a member's reconciliation only reads the
// target's partitions of its subscribed topics; the next target is
// computed without them anyway. Requests and answers cross the boundary
// by name, as the client resolves ids: what it reports owning of a name the
// member holds a deleted id of is that id's (the client reports what it was
// given), and an answer names a deleted id's partitions only to a client
// that still holds that topic (its assignedTopicNamesCache), else leaves
// them out (unresolvable). A classic member of a consumer group reports
// names, which the coordinator resolves in its metadata image
// (Utils.toTopicPartitions: a name is the current id), and is answered by
// name with deleted ids left out (toConsumerProtocolAssignment).

// newTopicID gives a topic created during the run its id, and reports
// whether the name had a topic before.
func (w *world) newTopicID(topic string) bool {
	if w.topicIDs == nil {
		w.topicIDs = map[string]int{}
	}
	_, had := w.topicIDs[topic]
	if _, given := w.sc.Topics[topic]; had || given {
		w.topicIDs[topic]++ // a new id
		return true
	}
	w.topicIDs[topic] = 0
	return false
}

// recreatedNote says what a topic created again means to the group.
func (w *world) recreatedNote(topic string) string {
	if w.consumer {
		return fmt.Sprintf("The consumer coordinator keys partitions by topic id: what members still hold of the deleted %s is revoked, and the new %s's partitions are free at once.", topic, topic)
	}
	return fmt.Sprintf("Classic consumers name partitions by topic, not id: one still holding a partition of %s goes on with the new %s's partition of that number, and the leader rebalances only when a metadata refresh shows it other partition counts than it assigned with.", topic, topic)
}

// topicIDDeleted: the consumer coordinator's holdings of the deleted topic
// now belong to an id no topic has any more.
func (w *world) topicIDDeleted(topic string) {
	w.consumerGroup.topicDeleted(topic, ghostTopic(topic, w.topicIDs[topic]))
}

// ghostTopic is the name kviz's consumer coordinator keeps a deleted topic's
// partitions under: its id, spelt as no topic name can be.
func ghostTopic(topic string, id int) string { return topic + "#" + strconv.Itoa(id) }

// plainTopic is the topic name behind a ghost name, and whether it was one.
func plainTopic(t string) (string, bool) {
	if i := strings.IndexByte(t, '#'); i >= 0 {
		return t[:i], true
	}
	return t, false
}

func hasGhost(tps []kafka.TP) bool {
	for _, tp := range tps {
		if _, ghost := plainTopic(tp.Topic); ghost {
			return true
		}
	}
	return false
}

// dropGhosts leaves out partitions of deleted topic ids (a classic
// member's assignment, by name: toConsumerProtocolAssignment).
func dropGhosts(tps []kafka.TP) []kafka.TP {
	if !hasGhost(tps) {
		return tps
	}
	var out []kafka.TP
	for _, tp := range tps {
		if _, ghost := plainTopic(tp.Topic); !ghost {
			out = append(out, tp)
		}
	}
	return out
}

// plainTPs names a deleted id's partitions by their topic's name, for the
// narration.
func plainTPs(tps []kafka.TP) []kafka.TP {
	if !hasGhost(tps) {
		return tps
	}
	out := make([]kafka.TP, len(tps))
	for i, tp := range tps {
		out[i] = tp
		out[i].Topic, _ = plainTopic(tp.Topic)
	}
	return kafka.SortTPs(out)
}

// renameTopic is tps with topic's partitions under name instead (a new
// sorted slice), and whether any was.
func renameTopic(tps []kafka.TP, topic, name string) ([]kafka.TP, bool) {
	found := false
	for _, tp := range tps {
		if tp.Topic == topic {
			found = true
			break
		}
	}
	if !found {
		return tps, false
	}
	out := make([]kafka.TP, len(tps))
	for i, tp := range tps {
		out[i] = tp
		if tp.Topic == topic {
			out[i].Topic = name
		}
	}
	return kafka.SortTPs(out), true
}

// topicDeleted moves what the members hold of topic to its deleted id
// (ghost), and drops topic from the target.
func (g *consumerGroup) topicDeleted(topic, ghost string) {
	for _, m := range g.order {
		assigned, a := renameTopic(m.assigned, topic, ghost)
		revoking, r := renameTopic(m.revoking, topic, ghost)
		if !a && !r {
			continue
		}
		g.ghosts = true
		for tp, at := range m.assignedAt { // KIP-1251's epochs go with the id
			if tp.Topic == topic {
				delete(m.assignedAt, tp)
				m.assignedAt[kafka.TP{Topic: ghost, Partition: tp.Partition}] = at
			}
		}
		g.setHeld(m, assigned, revoking)
	}
	var next map[string][]kafka.TP
	for id, tps := range g.target {
		if !onTopic(tps, topic) {
			continue
		}
		if next == nil {
			next = make(map[string][]kafka.TP, len(g.target))
			for k, v := range g.target {
				next[k] = v
			}
		}
		next[id] = withoutTopic(tps, topic)
	}
	if next != nil {
		g.target = next // snapshots share the old map
		g.filterTargets = true
	}
}

func onTopic(tps []kafka.TP, topic string) bool {
	for _, tp := range tps {
		if tp.Topic == topic {
			return true
		}
	}
	return false
}

func withoutTopic(tps []kafka.TP, topic string) []kafka.TP {
	var out []kafka.TP
	for _, tp := range tps {
		if tp.Topic != topic {
			out = append(out, tp)
		}
	}
	return out
}

// ownedByID is what m's client reports owning, by id: a name m holds a
// deleted id of means that id (the client reports what it was given).
func (g *consumerGroup) ownedByID(m *kMember, owned []kafka.TP) []kafka.TP {
	if !g.ghosts || len(owned) == 0 {
		return owned
	}
	var ids map[string]string // topic name -> the deleted id m holds
	for _, set := range [][]kafka.TP{m.assigned, m.revoking} {
		for _, tp := range set {
			if name, ghost := plainTopic(tp.Topic); ghost {
				if ids == nil {
					ids = map[string]string{}
				}
				ids[name] = tp.Topic
			}
		}
	}
	if ids == nil {
		return owned
	}
	out := make([]kafka.TP, len(owned))
	for i, tp := range owned {
		out[i] = tp
		if id, ok := ids[tp.Topic]; ok {
			out[i].Topic = id
		}
	}
	return kafka.SortTPs(out)
}

// namedFor is an assignment as client c resolves it: a deleted id's
// partitions under the topic's name while it still holds that topic (its
// cache of assigned topic names), else left out.
func (g *consumerGroup) namedFor(c *client, tps []kafka.TP) []kafka.TP {
	if !g.ghosts || !hasGhost(tps) {
		return tps
	}
	var last []kafka.TP
	if c.consumer != nil {
		last = c.consumer.assigned
	}
	out := make([]kafka.TP, 0, len(tps))
	for _, tp := range tps {
		name, ghost := plainTopic(tp.Topic)
		if ghost && !onTopic(last, name) {
			continue
		}
		out = append(out, kafka.TP{Topic: name, Partition: tp.Partition})
	}
	return kafka.SortTPs(out)
}

// deletedIDNote tells which owned partitions are a deleted topic's ("" when none).
func deletedIDNote(owned []kafka.TP) string {
	var old []kafka.TP
	for _, tp := range owned {
		if _, ghost := plainTopic(tp.Topic); ghost {
			old = append(old, tp)
		}
	}
	if len(old) == 0 {
		return ""
	}
	return fmt.Sprintf(" It reports them by topic id: %s are partitions of a deleted topic's id, not of any topic created since under that name.", kafka.FormatTPs(plainTPs(old)))
}
