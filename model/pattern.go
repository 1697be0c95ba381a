package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Pattern subscriptions on the client (issue 23). A classic member that
// subscribes to a pattern (KafkaConsumer.subscribe(Pattern)) asks for the
// metadata of every topic (ConsumerMetadata.newMetadataRequestBuilder:
// allTopics) and, whenever new metadata arrives, matches every topic name
// against the pattern (ConsumerCoordinator.maybeUpdateSubscriptionMetadata →
// updatePatternSubscription → SubscriptionState.subscribeFromPattern). A
// changed subscription makes rejoinNeededOrPending rejoin ("subscription
// has changed": joinedSubscription differs). New metadata comes with the
// periodic refresh (metadata.max.age.ms; kviz counts it from the process's
// start, as for the leader, classic_metadata.go), and before every rejoin:
// ConsumerCoordinator.poll fetches fresh metadata for a pattern
// subscription before ensureActiveGroup, so the JoinGroup carries what the
// pattern matches then (kviz: the fetch takes no time, as the leader's).
// A consumer-protocol member sends the pattern itself (SubscribedTopicRegex)
// and the coordinator resolves it (pattern_regex.go).

// setPattern compiles the member's pattern (scenario.CheckPattern took it).
func (c *client) setPattern(src string) {
	c.pattern = nil
	if src == "" {
		return
	}
	re, err := scenario.CompilePattern(src)
	if err != nil {
		c.w.fail("%s: pattern %q: %v", c.id, src, err)
		return
	}
	c.pattern = re
}

// dropPattern: subscribe(Collection) replaces the pattern.
func (c *client) dropPattern() {
	c.cfg.Pattern = ""
	c.pattern = nil
	c.w.clock.cancel(c.patternTimer)
	c.patternTimer = nil
}

// matched is what the pattern matches among the cluster's topics now.
func (c *client) matched() []string { return scenario.MatchTopics(c.pattern, c.w.topics) }

// startPattern starts a pattern member: a classic one matches with the
// metadata it fetches first; a consumer-protocol one sends the regex.
func (c *client) startPattern(kind string) string {
	if c.consumerProto {
		c.topics = []string{} // the coordinator resolves the regex; the client names no topic
		return fmt.Sprintf("%s starts (%s), subscribing to the pattern %q (RE2J): its heartbeat sends it as SubscribedTopicRegex, and the coordinator resolves it against its metadata.", c.id, kind, c.cfg.Pattern)
	}
	c.topics = c.matched()
	c.metaFetchedAt = c.w.clock.now
	return fmt.Sprintf("%s starts (%s), subscribing to the pattern %q (java.util.regex): its first metadata fetch lists every topic, and the pattern matches %v.", c.id, kind, c.cfg.Pattern, c.topics)
}

// subscribePattern is subscribe(Pattern) on a running member.
func (c *client) subscribePattern(src string) {
	old := c.cfg.Pattern
	c.cfg.Pattern = src
	c.setPattern(src)
	if !c.running {
		c.w.record(kafka.KindMemberStarted, c.id, "", false, fmt.Sprintf("%s is not running; it will subscribe to the pattern %q when it starts.", c.id, src))
		return
	}
	if old == src {
		c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf("%s subscribes to the pattern %q again: nothing changes.", c.id, src))
		return
	}
	c.changed()
	if c.consumerProto {
		c.topics = []string{}
		c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf(
			"%s subscribes to the pattern %q: no callback; its next heartbeat sends it as SubscribedTopicRegex.", c.id, src))
		return
	}
	was := c.topics
	c.topics = c.matched()
	c.metaFetchedAt = c.w.clock.now // subscribe() requests metadata for every topic
	c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf(
		"%s subscribes to the pattern %q, which matches %v (it subscribed to %v).", c.id, src, c.topics, was))
	c.requestRejoin("its subscription changed")
}

// rematchBeforeJoin is poll()'s fresh metadata before a pattern member
// rejoins: the JoinGroup carries what the pattern matches now.
func (c *client) rematchBeforeJoin() {
	if c.pattern == nil || c.consumerProto {
		return
	}
	c.metaFetchedAt = c.w.clock.now
	now := c.matched()
	if slices.Equal(now, c.topics) {
		return
	}
	c.w.record(kafka.KindSubscriptionChanged, c.id, "", false, fmt.Sprintf(
		"%s fetches fresh metadata before it rejoins (a pattern subscription does): %q now matches %v, not %v.", c.id, c.cfg.Pattern, now, c.topics))
	c.topics = now
	c.changed()
}

// schedulePatternRefresh arms the member's next periodic metadata refresh
// (metadata.max.age.ms after its start, and every period after), at which
// it matches its pattern again.
func (c *client) schedulePatternRefresh() {
	if c.pattern == nil || c.consumerProto || !c.running || c.patternTimer != nil {
		return
	}
	now := c.w.clock.now
	next := c.startedAt + ((now-c.startedAt)/metadataMaxAge+1)*metadataMaxAge
	inc := c.inc
	c.patternTimer = c.w.clock.after(next-now, false, func() {
		c.patternTimer = nil
		if c.inc != inc || c.pattern == nil {
			return
		}
		now := c.matched()
		if slices.Equal(now, c.topics) {
			return
		}
		c.w.record(kafka.KindMetadataRefreshed, c.id, "", false, fmt.Sprintf(
			"%s refreshes its metadata (metadata.max.age.ms %d ms): its pattern %q now matches %v, not %v; its subscription changes, so it rejoins (subscription has changed).",
			c.id, metadataMaxAge, c.cfg.Pattern, now, c.topics))
		c.topics = now
		c.patternAt = c.w.clock.now
		c.changed()
		c.requestRejoin("its pattern matches other topics")
	})
}

// createTopic is a topic created during the run (CreateTopics).
func (w *world) createTopic(topic string, count int32) {
	if _, ok := w.topics[topic]; ok {
		w.record(kafka.KindCreatePartitions, "", "", false, fmt.Sprintf("Topic %s already exists: CreateTopics answers TOPIC_ALREADY_EXISTS.", topic))
		return
	}
	w.topics[topic] = count
	again := w.newTopicID(topic)
	w.cluster.create(topic, count)
	w.topicLifecycle(topic, count)
	text := fmt.Sprintf("Topic %s is created with %d partitions.", topic, count)
	if again {
		text = fmt.Sprintf("Topic %s is created again with %d partitions: a new topic under the old name, with a new topic id. %s", topic, count, w.recreatedNote(topic))
	}
	w.record(kafka.KindTopicCreated, "", "", false, text)
	w.topicsChangedFor(topic, fmt.Sprintf("topic %s was created", topic))
}

// deleteTopic is a topic deleted during the run (DeleteTopics). Its
// partitions stay with their consumers until the group rebalances without
// them: the classic leader at its next metadata refresh (its
// assignmentSnapshot no longer matches), the KIP-848 coordinator at the
// next heartbeat (the subscribed topics' metadata changed). The owners then
// revoke them, as after any rebalance. The consumer coordinator keeps them
// under the deleted topic's id (topic_ids.go), so a topic created again
// under the name is another.
func (w *world) deleteTopic(topic string) {
	if _, ok := w.topics[topic]; !ok {
		w.record(kafka.KindTopicDeleted, "", "", false, fmt.Sprintf("There is no topic %s: DeleteTopics answers UNKNOWN_TOPIC_OR_PARTITION.", topic))
		return
	}
	delete(w.topics, topic)
	w.cluster.k.DeleteTopic(topic)
	w.topicIDDeleted(topic)
	w.topicLifecycle(topic, 0)
	w.record(kafka.KindTopicDeleted, "", "", false, fmt.Sprintf("Topic %s is deleted.", topic))
	w.topicsChangedFor(topic, fmt.Sprintf("subscribed topic %s was deleted", topic))
}

// topicLifecycle logs a creation (count) or deletion (0).
func (w *world) topicLifecycle(topic string, count int32) {
	w.topicGen++
	w.topicLog = append(w.topicLog, topicChange{w.clock.now, topic, count, true})
	if count > 0 {
		w.newTopicsImage = w.topicGen + 1
	}
	w.hist.topicsChanged()
}

// topicsChangedFor tells the group and the pattern members of a created
// or deleted topic. Only a group that subscribes to it hears of it
// (GroupMetadataManager.onNewMetadataImage: groupsSubscribedToTopic; a
// new topic reaches the regexes through the next refresh), and only the
// classic leader watches the group's topics (its next metadata refresh).
func (w *world) topicsChangedFor(topic, why string) {
	for _, c := range w.clients {
		c.schedulePatternRefresh()
	}
	if w.consumer {
		w.consumerGroup.topicChangedFor(topic, why)
	} else {
		w.classic.topicsChanged()
	}
}

// relevantSince reports whether the topic changes since gen touch the
// topics subs names: every partition count change does (as before), a
// creation or deletion only when it leaves a topic the group subscribes to
// with another partition count than at gen (none when absent). The
// leader's MetadataSnapshot covers the group's subscription only and holds
// partition counts by name (ConsumerCoordinator.MetadataSnapshot.matches;
// testRackAwareConsumerRebalanceWithNoMetadataChange), so a topic deleted
// and created again with as many partitions between two of its refreshes
// changes nothing it sees (topic_ids.go). Racks, with client.rack set, are
// the snapshot's other half (racks.go's rackSnapshot).
func (w *world) relevantSince(gen int, subs map[string]bool) bool {
	if gen < 0 {
		return true
	}
	since := w.topicLog[min(gen, len(w.topicLog)):]
	touched := false
	for _, ch := range since {
		if !ch.lifecycle {
			return true
		}
		touched = touched || subs[ch.topic]
	}
	if !touched {
		return false
	}
	then := w.countsAtGen(gen)
	for t := range subs {
		if then[t] != w.topics[t] {
			return true
		}
	}
	return false
}

// countsAtGen is the partition counts after the first gen topic changes (0: absent).
func (w *world) countsAtGen(gen int) map[string]int32 {
	counts := make(map[string]int32, len(w.sc.Topics))
	for topic, n := range w.sc.Topics {
		counts[topic] = n
	}
	for _, ch := range w.topicLog[:min(gen, len(w.topicLog))] {
		if ch.count == 0 {
			delete(counts, ch.topic)
		} else {
			counts[ch.topic] = ch.count
		}
	}
	return counts
}

// groupSubscription is the topics the members subscribe to, as a set.
func groupSubscription(members []strategies.Member) map[string]bool {
	out := map[string]bool{}
	eachSubscribedTopic(members, func(t string) bool { out[t] = true; return true })
	return out
}

// lifecycleSince says which of the group's topics were created or deleted
// since gen ("" when none: only partition counts changed).
func (w *world) lifecycleSince(gen int, subs map[string]bool) string {
	if gen < 0 || subs == nil {
		return ""
	}
	var parts []string
	for _, ch := range w.topicLog[min(gen, len(w.topicLog)):] {
		if ch.lifecycle && subs[ch.topic] {
			if ch.count == 0 {
				parts = append(parts, ch.topic+" deleted")
			} else {
				parts = append(parts, ch.topic+" created")
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "that the group's topics changed (" + strings.Join(parts, ", ") + ")"
}
