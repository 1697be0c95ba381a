package model

import (
	"github.com/kvizlab/kviz/strategies"
	"slices"
)

// The classic leader assigns with the metadata it has, not the cluster's
// (ConsumerCoordinator.onLeaderElected → updateGroupSubscription): it
// fetches fresh metadata first only when the group subscribes to a topic
// it does not subscribe to itself (SubscriptionState.groupSubscribe, then
// ensureFreshMetadata), else it uses what its last refresh brought. It keeps
// that as assignmentSnapshot; when a later refresh (metadata.max.age.ms)
// brings other partition counts, rejoinNeededOrPending sends it back to
// rejoin (scheduleMetadataRefresh). So partitions added while a rebalance is
// in progress wait for the leader's next refresh, unless the group's
// subscription is wider than the leader's.

// topicChange is one partition count change, as add_partitions made it.
type topicChange struct {
	at    int64
	topic string
	count int32 // 0: the topic was deleted
	// lifecycle: a create_topic or delete_topic (pattern.go), not a count change
	lifecycle bool
}

// topicsAsOf returns the partition counts as they were at time t, and the
// topicGen they had then. The result is shared when nothing changed: read only.
func (w *world) topicsAsOf(t int64) (map[string]int32, int) {
	gen := 0
	for gen < len(w.topicLog) && w.topicLog[gen].at <= t {
		gen++
	}
	if gen == len(w.topicLog) {
		return w.topics, w.topicGen
	}
	counts := make(map[string]int32, len(w.sc.Topics))
	for topic, n := range w.sc.Topics {
		counts[topic] = n
	}
	for _, ch := range w.topicLog[:gen] {
		if ch.count == 0 {
			delete(counts, ch.topic)
		} else {
			counts[ch.topic] = ch.count
		}
	}
	return counts, gen
}

// leaderMetadata is what the leader assigns with: the partition counts of
// its last metadata fetch, fetched afresh now if the group subscribes to
// topics it does not (which resets its metadata age too).
func (c *client) leaderMetadata(members []strategies.Member) (map[string]int32, int) {
	now := c.w.clock.now
	if widerThan(members, c.topics) {
		c.metaFetchedAt = now
	}
	periodic := c.startedAt + (now-c.startedAt)/metadataMaxAge*metadataMaxAge
	return c.w.topicsAsOf(max(periodic, c.metaFetchedAt))
}

// widerThan reports whether some member subscribes to a topic own lacks.
func widerThan(members []strategies.Member, own []string) bool {
	wider := false
	eachSubscribedTopic(members, func(t string) bool {
		wider = !slices.Contains(own, t)
		return !wider
	})
	return wider
}
