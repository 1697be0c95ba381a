package model

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// KIP-848's server-side regular expressions (issue 23), as Kafka 4.x's
// GroupMetadataManager runs them. A member subscribing to a pattern
// (subscribe(SubscriptionPattern)) sends it as SubscribedTopicRegex; its
// topics are what the coordinator resolved the regex to. Every heartbeat
// runs maybeUpdateRegularExpressions: a regex new to the group is
// validated and must be resolved; one other members already have, if
// resolved, bumps the group epoch; a member dropping the last use of a
// regex deletes its resolution (and, from 4.1, a member dropping its regex
// bumps the epoch). A resolution (refreshRegularExpressions) is scheduled,
// at most one at a time, when the group subscribes to a regex, the last
// one is older than REGEX_BATCH_REFRESH_MIN_INTERVAL_MS (10 s), and a
// regex is unresolved, or a topic was created since the last
// (lastMetadataImageWithNewTopics: deletions do not count; a deleted
// topic leaves the subscription through the metadata and stays in the
// resolution until the next refresh), or (4.1 on) the last is older than
// group.consumer.regex.refresh.interval.ms (10 minutes). It runs on the
// coordinator's executor against the metadata image of the heartbeat that
// scheduled it; its result (handleRegularExpressionsResult) bumps the
// group epoch when a resolved set changed, and the next heartbeat computes
// the target. kviz runs the executor at the heartbeat's millisecond, after
// its write. A refresh that changes no resolution runs too and moves the
// refresh's time and version on, so a topic deleted after a creation that no
// regex matches stays in the resolution until the next creation or the
// periodic refresh (the subscription drops it through the metadata at
// once). Quiet stretches jump no heartbeat that could schedule a refresh
// (armRegexDue, regexRefreshDue).

const (
	regexMinIntervalMs     = 10_000          // REGEX_BATCH_REFRESH_MIN_INTERVAL_MS
	regexRefreshIntervalMs = 10 * 60 * 1_000 // group.consumer.regex.refresh.interval.ms (4.1 on)
)

// regexState is the group's resolved regular expressions.
type regexState struct {
	resolved  map[string][]string // regex -> the topics it matched at the last refresh
	at        int64               // the last refresh (lastResolvedRegularExpressionRefreshTimeMs)
	version   int                 // the metadata image it read (lastResolvedRegularExpressionVersion)
	scheduled bool                // a refresh runs on the executor
	used      bool                // some member ever subscribed to a regex: the checks are worth making
	compiled  map[string]*regexp.Regexp
	due       *event // armRegexDue's mark
}

// regex is the SubscribedTopicRegex the client sends ("" = none).
func (c *client) regex() string {
	if c.consumerProto && c.pattern != nil {
		return c.cfg.Pattern
	}
	return ""
}

// regexUsers counts the members other than skip subscribed to regex.
func (g *consumerGroup) regexUsers(regex string, skip *kMember) int {
	n := 0
	for _, m := range g.order {
		if m != skip && m.regex == regex {
			n++
		}
	}
	return n
}

// subscribedRegexes is the regexes the members subscribe to, sorted.
func (g *consumerGroup) subscribedRegexes() []string {
	var out []string
	for _, m := range g.order {
		if m.regex != "" && !slices.Contains(out, m.regex) {
			out = append(out, m.regex)
		}
	}
	slices.Sort(out)
	return out
}

// lastRefresh is lastResolvedRegularExpressionRefreshTimeMs.
func (g *consumerGroup) lastRefresh() int64 {
	if len(g.regex.resolved) == 0 {
		return math.MinInt64
	}
	return g.regex.at
}

func (g *consumerGroup) resolvedVersion() int {
	if len(g.regex.resolved) == 0 {
		return 0
	}
	return g.regex.version
}

// heartbeatRegex is maybeUpdateRegularExpressions for m's heartbeat (rx:
// the regex it sent, nil = unchanged). A bump it asks for is in regexWhy.
func (g *consumerGroup) heartbeatRegex(m *kMember, rx *string) {
	newer := m.regex
	if rx != nil {
		newer = *rx
	}
	if newer == m.regex && !g.regex.used {
		return // no regex in the group: nothing to check (a join of a large group stays linear)
	}
	old := m.regex
	requireRefresh := false
	if old != newer {
		if old == "" && len(m.topics) > 0 {
			// SubscribedTopicNames goes empty: hasMemberSubscriptionChanged bumps.
			g.regexWhy = fmt.Sprintf("%s drops its topic names for the regex %q", g.displayName(m.id), newer)
		}
		g.regex.used = true
		if old != "" && g.regexUsers(old, m) == 0 {
			delete(g.regex.resolved, old) // the last member of it: its resolution is deleted
		}
		m.regex = newer
		if newer != "" {
			if g.regexUsers(newer, m) == 0 {
				requireRefresh = true // throwIfRegularExpressionIsInvalid: the parser checked it
				g.setRegexTopics(m, nil)
			} else if ts, ok := g.regex.resolved[newer]; ok {
				g.setRegexTopics(m, ts)
				g.filterTargets = true
				g.regexWhy = fmt.Sprintf("%s subscribes to the regex %q, resolved to %v", g.displayName(m.id), newer, ts)
			} else {
				g.setRegexTopics(m, nil)
			}
		} else if old != "" && g.w.sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0) {
			g.regexWhy = fmt.Sprintf("%s no longer subscribes to the regex %q", g.displayName(m.id), old)
		}
	}
	if old != newer {
		defer g.armRegexDue()
	}
	regexes := g.subscribedRegexes()
	if !requireRefresh && len(regexes) == 0 || g.regex.scheduled {
		return
	}
	now := g.w.clock.now
	if now <= g.lastRefresh()+regexMinIntervalMs {
		return
	}
	if (requireRefresh || g.refreshWanted(regexes, now)) && len(regexes) > 0 {
		g.scheduleRegexRefresh(regexes)
	}
}

// refreshWanted is maybeUpdateRegularExpressions' conditions 2 and 3 for a
// heartbeat at now: the last refresh is older than the 10 s minimum, and a
// regex is unresolved, a topic was created since, or (4.1 on) the periodic
// interval has passed.
func (g *consumerGroup) refreshWanted(regexes []string, now int64) bool {
	last := g.lastRefresh()
	if now <= last+regexMinIntervalMs {
		return false
	}
	return len(regexes) != len(g.regex.resolved) || g.resolvedVersion() < g.w.newTopicsImage ||
		g.w.sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0) && now > last+regexRefreshIntervalMs
}

// regexRefreshDue: the next heartbeat of a member would schedule a refresh,
// which moves the refresh's time and version on even when it changes no
// resolution. No quiet stretch (quiet.go) may jump that heartbeat: from
// armRegexDue's mark until the refresh runs, the group is not quiet.
func (g *consumerGroup) regexRefreshDue() bool {
	if !g.regex.used || g.regex.scheduled {
		return false
	}
	regexes := g.subscribedRegexes()
	return len(regexes) > 0 && g.refreshWanted(regexes, g.w.clock.now)
}

// scheduleRegexRefresh runs refreshRegularExpressions on the executor
// against the metadata image of now.
//
// A refresh that changes nothing still runs: it moves the refresh's time
// and version on (handleRegularExpressionsResult writes every regex's
// record), which decides when the next one may come.
func (g *consumerGroup) scheduleRegexRefresh(regexes []string) {
	result := make(map[string][]string, len(regexes))
	for _, rx := range regexes {
		re, err := g.compiled(rx)
		if err != nil {
			g.w.fail("regex %q: %v", rx, err)
			return
		}
		result[rx] = scenario.MatchTopics(re, g.w.topics)
	}
	g.regex.scheduled = true
	version, at := g.w.topicGen+1, g.w.clock.now
	g.w.clock.after(0, false, func() { g.regexResult(result, version, at) })
}

// compiled is the regex compiled once.
func (g *consumerGroup) compiled(rx string) (*regexp.Regexp, error) {
	if re, ok := g.regex.compiled[rx]; ok {
		return re, nil
	}
	re, err := scenario.CompilePattern(rx)
	if err == nil {
		if g.regex.compiled == nil {
			g.regex.compiled = map[string]*regexp.Regexp{}
		}
		g.regex.compiled[rx] = re
	}
	return re, err
}

// regexResult is handleRegularExpressionsResult.
func (g *consumerGroup) regexResult(result map[string][]string, version int, at int64) {
	g.regex.scheduled = false
	if g.regex.resolved == nil {
		g.regex.resolved = map[string][]string{}
	}
	var parts []string
	bump, first := false, false
	for _, rx := range slices.Sorted(maps.Keys(result)) {
		if g.regexUsers(rx, nil) == 0 {
			continue // no member subscribes to it any more
		}
		ts := result[rx]
		old, ok := g.regex.resolved[rx]
		if !ok {
			first = true
		}
		if !slices.Equal(old, ts) {
			bump = true
		}
		g.regex.resolved[rx] = ts
		parts = append(parts, fmt.Sprintf("%q matches %v", rx, ts))
		for _, m := range g.order {
			if m.regex == rx {
				g.setRegexTopics(m, ts)
			}
		}
	}
	g.regex.at, g.regex.version = at, version
	defer g.armRegexDue()
	if !bump && !first {
		return
	}
	text := fmt.Sprintf("The coordinator resolves the group's regular expressions against its metadata (refreshRegularExpressions, on its executor): %s.", strings.Join(parts, "; "))
	if !bump {
		g.w.record(kafka.KindRegexResolved, "", "", false, text+" Nothing changed, so the group epoch stays.")
		return
	}
	g.w.record(kafka.KindRegexResolved, "", "", false, text)
	g.filterTargets = true
	why := "the topics a subscribed regex matches changed"
	if g.metaStale {
		// The new epoch carries the metadata hash of now: the pending
		// partition change needs no bump of its own.
		g.metaStale, g.metaWhy = false, ""
		why += "; " + "the subscribed topics' metadata changed"
	}
	g.bumpEpoch(why)
	g.updateState()
}

// setRegexTopics gives a regex member the topics its regex resolves to;
// its client's view shows them.
func (g *consumerGroup) setRegexTopics(m *kMember, ts []string) {
	m.topics = ts
	if c := g.w.byID[m.client]; c != nil {
		c.changed()
	}
}

// regexAfter reports whether m subscribes to a regex once req is handled:
// its topic names then do not count (the client sends none).
func regexAfter(m *kMember, rx *string) bool {
	if rx != nil {
		return *rx != ""
	}
	return m.regex != ""
}

// armRegexDue marks on the clock the first moment a heartbeat could
// schedule a refresh, one that changes nothing included, so that no quiet
// stretch (quiet.go) jumps over it: heartbeats are jumped only up to the
// next event that is not routine, and from the mark until the refresh
// runs regexRefreshDue holds the jumps off.
func (g *consumerGroup) armRegexDue() {
	g.w.clock.cancel(g.regex.due)
	g.regex.due = nil
	regexes := g.subscribedRegexes()
	if !g.regex.used || g.regex.scheduled || len(regexes) == 0 {
		return
	}
	last := g.lastRefresh()
	due := last + regexMinIntervalMs + 1
	if last == math.MinInt64 {
		due = g.w.clock.now
	}
	stale := len(regexes) != len(g.regex.resolved) || g.resolvedVersion() < g.w.newTopicsImage
	if !stale {
		if !g.w.sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0) {
			return // Kafka 4.0 refreshes only for a new regex or a new topic
		}
		due = max(due, last+regexRefreshIntervalMs+1) // 4.1's periodic refresh
	}
	if due > g.w.clock.now {
		g.regex.due = g.w.clock.after(due-g.w.clock.now, false, func() { g.regex.due = nil })
	}
}

// regexMemberGone: a member leaving takes its regex's resolution with it
// when it was the last to use it (maybeDeleteResolvedRegularExpressions).
func (g *consumerGroup) regexMemberGone(m *kMember) {
	if m.regex != "" && g.regexUsers(m.regex, m) == 0 {
		delete(g.regex.resolved, m.regex)
	}
}

// regexUnsettled: a regex refresh is under way or will come and change
// what a regex matches, so the group is not quiet yet.
func (g *consumerGroup) regexUnsettled() bool {
	if !g.regex.used {
		return false
	}
	if g.regex.scheduled {
		return true
	}
	periodic := g.w.sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0)
	for _, rx := range g.subscribedRegexes() {
		ts, ok := g.regex.resolved[rx]
		if !ok {
			return true
		}
		if !periodic && g.resolvedVersion() >= g.w.newTopicsImage {
			continue // no refresh will come
		}
		re, err := g.compiled(rx)
		if err == nil && !slices.Equal(ts, scenario.MatchTopics(re, g.w.topics)) {
			return true
		}
	}
	return false
}

// topicChangedFor: a topic was created or deleted. A group subscribed to
// it (by name, or through a resolved regex) refreshes its subscription
// metadata at the next heartbeat (onNewMetadataImage: requestMetadataRefresh);
// a regex picks up a new topic at its next refresh (heartbeatRegex).
func (g *consumerGroup) topicChangedFor(topic, why string) {
	defer g.armRegexDue()
	for _, m := range g.order {
		if slices.Contains(m.topics, topic) {
			g.metaStale, g.filterTargets = true, true
			if g.metaWhy == "" {
				g.metaWhy = why
			} else if !strings.Contains(g.metaWhy, why) {
				g.metaWhy += "; " + why
			}
			return
		}
	}
}

// metaText says why a metadata refresh bumps the epoch, and forgets it.
func (g *consumerGroup) metaText() string {
	why := g.metaWhy
	g.metaWhy = ""
	if why == "" {
		return "a subscribed topic's partition count changed"
	}
	return why
}
