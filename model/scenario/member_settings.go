package scenario

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// MemberSettings is a consumer's own configuration, as a member entry or a
// join gives it: Kafka sends the session and rebalance timeouts in each
// JoinGroup, so they are per member, not group-wide. A zero value is the
// group's setting.
type MemberSettings struct {
	// SessionTimeoutMs, HeartbeatIntervalMs: session.timeout.ms and
	// heartbeat.interval.ms (classic protocol only: a consumer-protocol
	// client refuses them, the broker sets both).
	SessionTimeoutMs    int64
	HeartbeatIntervalMs int64
	// MaxPollIntervalMs is max.poll.interval.ms, also the member's
	// rebalance timeout (JoinGroup's, and KIP-848's RebalanceTimeoutMs).
	MaxPollIntervalMs int64
	// Protocol is the member's group.protocol: "" = the group's (classic
	// unless group.protocol is consumer), else classic or consumer. A
	// member whose protocol differs from the group's is the online
	// migration of KIP-848 (model/doc.go).
	Protocol string
	// Listener is how its ConsumerRebalanceListener behaves.
	Listener Listener
	// RejoinCommitMs, when set, models the auto-commit that
	// ConsumerCoordinator.onJoinPrepare sends and waits for before it
	// revokes and rejoins: the commit's answer takes this many ms beyond
	// the network round trip (a slow __consumer_offsets append). nil: not
	// modelled (kviz's group trace leaves commits to the data path).
	RejoinCommitMs *int64
	// Pattern is a pattern subscription (`pattern: "orders-.*"`, pattern.go):
	// a classic member's subscribe(java.util.regex.Pattern), matched by the
	// client; a consumer-protocol member's subscribe(SubscriptionPattern),
	// the SubscribedTopicRegex the coordinator resolves with RE2J. "" = the
	// member subscribes to its topics list.
	Pattern string
}

// Listener is a ConsumerRebalanceListener: how long each callback runs
// (the application thread is busy meanwhile: no poll, while the heartbeat
// thread goes on) and which throw.
type Listener struct {
	RevokedMs, AssignedMs, LostMs int64
	// Throws lists the callbacks that throw: "revoked", "assigned", "lost".
	Throws []string
}

// Callbacks a listener names.
const (
	CallbackRevoked  = "revoked"
	CallbackAssigned = "assigned"
	CallbackLost     = "lost"
)

var callbackNames = []string{CallbackRevoked, CallbackAssigned, CallbackLost}

// Member protocols (the client's group.protocol).
const (
	ProtocolClassic  = "classic"
	ProtocolConsumer = "consumer"
)

// IsZero reports whether the listener is Kafka's default: instant, never throws.
func (l Listener) IsZero() bool {
	return l.RevokedMs == 0 && l.AssignedMs == 0 && l.LostMs == 0 && len(l.Throws) == 0
}

// Ms is how long a callback runs.
func (l Listener) Ms(callback string) int64 {
	switch callback {
	case CallbackRevoked:
		return l.RevokedMs
	case CallbackAssigned:
		return l.AssignedMs
	case CallbackLost:
		return l.LostMs
	}
	return 0
}

// Throw reports whether a callback throws.
func (l Listener) Throw(callback string) bool { return slices.Contains(l.Throws, callback) }

// MemberProtocol is the group.protocol a member with these settings runs.
func (sc *Scenario) MemberProtocol(s MemberSettings) string {
	if s.Protocol != "" {
		return s.Protocol
	}
	if IsConsumer(sc) {
		return ProtocolConsumer
	}
	return ProtocolClassic
}

// SessionTimeout is a classic member's session.timeout.ms.
func (sc *Scenario) SessionTimeout(s MemberSettings) int64 {
	if s.SessionTimeoutMs > 0 {
		return s.SessionTimeoutMs
	}
	if IsConsumer(sc) && s.Protocol == ProtocolClassic {
		return 45000 // the client's default; the group's is the broker's KIP-848 one
	}
	return sc.SessionTimeoutMs
}

// HeartbeatInterval is a classic member's heartbeat.interval.ms.
func (sc *Scenario) HeartbeatInterval(s MemberSettings) int64 {
	if s.HeartbeatIntervalMs > 0 {
		return s.HeartbeatIntervalMs
	}
	if IsConsumer(sc) && s.Protocol == ProtocolClassic {
		return 3000
	}
	if !IsConsumer(sc) && s.Protocol == ProtocolConsumer {
		return 5000 // group.consumer.heartbeat.interval.ms
	}
	return sc.HeartbeatIntervalMs
}

// ConsumerSessionTimeout is the broker's group.consumer.session.timeout.ms
// (a consumer-protocol member's session, whatever the member sets).
func (sc *Scenario) ConsumerSessionTimeout() int64 {
	if IsConsumer(sc) {
		return sc.SessionTimeoutMs
	}
	return 45000
}

// ConsumerHeartbeatInterval is the broker's group.consumer.heartbeat.interval.ms.
func (sc *Scenario) ConsumerHeartbeatInterval() int64 {
	if IsConsumer(sc) {
		return sc.HeartbeatIntervalMs
	}
	return 5000
}

// MaxPollInterval is a member's max.poll.interval.ms (its rebalance timeout).
func (sc *Scenario) MaxPollInterval(s MemberSettings) int64 {
	if s.MaxPollIntervalMs > 0 {
		return s.MaxPollIntervalMs
	}
	return sc.MaxPollIntervalMs
}

// Session timeout checks (group.session_timeout_check).
const (
	// SessionCheckParser refuses a scenario whose classic session timeout
	// the coordinator would refuse: the default.
	SessionCheckParser = ""
	// SessionCheckCoordinator lets the coordinator answer the JoinGroup
	// with INVALID_SESSION_TIMEOUT, as Kafka does.
	SessionCheckCoordinator = "coordinator"
)

// ValidSessionTimeout reports whether the coordinator takes a classic
// session timeout (group.min/max.session.timeout.ms: 6000 and 1800000
// unless a real cluster's configs said otherwise).
func (sc *Scenario) ValidSessionTimeout(ms int64) bool {
	lo, hi := sc.SessionBounds()
	return ms >= lo && ms <= hi
}

// Migration policies (group.consumer.migration.policy, Kafka 4.0:
// ConsumerGroupMigrationPolicy).
const (
	MigrationBidirectional = "bidirectional"
	MigrationUpgrade       = "upgrade"
	MigrationDowngrade     = "downgrade"
	MigrationDisabled      = "disabled"
)

var migrationPolicies = []string{MigrationBidirectional, MigrationUpgrade, MigrationDowngrade, MigrationDisabled}

// MigrationPolicy is group.consumer.migration.policy (Kafka 4.0's default:
// bidirectional).
func (sc *Scenario) MigrationPolicy() string {
	if sc.Migration == "" {
		return MigrationBidirectional
	}
	return sc.Migration
}

// UpgradeAllowed: a classic group may become a consumer group.
func (sc *Scenario) UpgradeAllowed() bool {
	p := sc.MigrationPolicy()
	return p == MigrationBidirectional || p == MigrationUpgrade
}

// DowngradeAllowed: a consumer group may become a classic group.
func (sc *Scenario) DowngradeAllowed() bool {
	p := sc.MigrationPolicy()
	return p == MigrationBidirectional || p == MigrationDowngrade
}

// Mixed reports whether any member runs a group.protocol other than the
// group's: the scenario shows the online migration.
func (sc *Scenario) Mixed() bool {
	if slices.ContainsFunc(sc.Members, func(m MemberSpec) bool { return m.Settings.Protocol != "" }) {
		return true
	}
	return slices.ContainsFunc(sc.Timeline, func(ev Event) bool { return ev.Settings.Protocol != "" })
}

// memberSetting reads one of the member and join keys of issues 23
// (session_timeout_ms, heartbeat_interval_ms, max_poll_interval_ms,
// protocol, listener, rejoin_commit_ms, pattern) into s.
func (p *parser) memberSetting(s *MemberSettings, key, what string, v *yaml.Node) error {
	var err error
	switch key {
	case "session_timeout_ms":
		s.SessionTimeoutMs, err = p.int64(v, what+"."+key, 1, 24*3600*1000)
	case "heartbeat_interval_ms":
		s.HeartbeatIntervalMs, err = p.int64(v, what+"."+key, 1, 24*3600*1000)
	case "max_poll_interval_ms":
		s.MaxPollIntervalMs, err = p.int64(v, what+"."+key, 1, 24*3600*1000)
	case "protocol":
		s.Protocol, err = p.oneOf(v, what+".protocol (the member's group.protocol)", []string{ProtocolClassic, ProtocolConsumer})
	case "rejoin_commit_ms":
		var ms int64
		ms, err = p.int64(v, what+"."+key, 0, 24*3600*1000)
		s.RejoinCommitMs = &ms
	case "listener":
		err = p.listener(&s.Listener, what+".listener", v)
	case "pattern":
		s.Pattern, err = p.str(v, what+".pattern")
	}
	return err
}

func (p *parser) listener(l *Listener, what string, n *yaml.Node) error {
	return p.fields(n, what, []string{"revoked_ms", "assigned_ms", "lost_ms", "throws"}, func(key string, _, v *yaml.Node) error {
		var err error
		switch key {
		case "revoked_ms":
			l.RevokedMs, err = p.int64(v, what+"."+key, 0, MaxTimelineMs)
		case "assigned_ms":
			l.AssignedMs, err = p.int64(v, what+"."+key, 0, MaxTimelineMs)
		case "lost_ms":
			l.LostMs, err = p.int64(v, what+"."+key, 0, MaxTimelineMs)
		default:
			var names []string
			if names, err = p.strList(v, what+".throws"); err != nil {
				return err
			}
			for _, name := range names {
				if !slices.Contains(callbackNames, name) {
					return p.errf(v, "%s.throws: unknown callback %q (revoked, assigned or lost)%s", what, name, Suggest(name, callbackNames))
				}
				if !slices.Contains(l.Throws, name) {
					l.Throws = append(l.Throws, name)
				}
			}
			slices.SortFunc(l.Throws, func(a, b string) int { return slices.Index(callbackNames, a) - slices.Index(callbackNames, b) })
		}
		return err
	})
}

// CheckSettings is the rule for a member's settings, given the scenario:
// the parser checks every member and join with it (node names the line),
// Scenario.WithStrategy every variation.
func CheckSettings(sc *Scenario, id string, s MemberSettings) error {
	proto := sc.MemberProtocol(s)
	if s.Pattern != "" {
		syntax := PatternSyntax(proto)
		if why := CheckPattern(s.Pattern, syntax); why != "" {
			return &PatternError{Member: id, Pattern: s.Pattern, Syntax: syntax, Why: why}
		}
	}
	if proto == ProtocolConsumer {
		for _, bad := range []struct {
			key string
			v   int64
		}{{"session_timeout_ms", s.SessionTimeoutMs}, {"heartbeat_interval_ms", s.HeartbeatIntervalMs}} {
			if bad.v != 0 {
				return fmt.Errorf("%s: %s is not supported with group.protocol=consumer (the broker's group.consumer.* settings apply; Kafka's ConsumerConfig refuses it)", id, bad.key)
			}
		}
		if s.RejoinCommitMs != nil {
			return fmt.Errorf("%s: rejoin_commit_ms models the classic ConsumerCoordinator.onJoinPrepare; a consumer-protocol member does not rejoin", id)
		}
	}
	if proto == ProtocolClassic {
		session := sc.SessionTimeout(s)
		if lo, hi := sc.SessionBounds(); !sc.ValidSessionTimeout(session) && sc.SessionCheck != SessionCheckCoordinator && s.SessionTimeoutMs != 0 {
			return fmt.Errorf("%s: session_timeout_ms %d is outside group.min.session.timeout.ms %d .. group.max.session.timeout.ms %d: the coordinator would answer INVALID_SESSION_TIMEOUT (set group.session_timeout_check: coordinator to see it do so)",
				id, session, lo, hi)
		}
		if hb := sc.HeartbeatInterval(s); hb >= session && (s.SessionTimeoutMs != 0 || s.HeartbeatIntervalMs != 0) {
			return fmt.Errorf("%s: heartbeat_interval_ms (%d) must be lower than session_timeout_ms (%d)", id, hb, session)
		}
	}
	return nil
}

// settingsFields writes the set ones of s into n (format.go).
func settingsFields(n *yaml.Node, s MemberSettings) {
	for _, kv := range []struct {
		key string
		v   int64
	}{{"session_timeout_ms", s.SessionTimeoutMs}, {"heartbeat_interval_ms", s.HeartbeatIntervalMs}, {"max_poll_interval_ms", s.MaxPollIntervalMs}} {
		if kv.v != 0 {
			put(n, kv.key, fInt(kv.v))
		}
	}
	if s.Protocol != "" {
		put(n, "protocol", fStr(s.Protocol))
	}
	if s.Pattern != "" {
		put(n, "pattern", fStr(s.Pattern))
	}
	if s.RejoinCommitMs != nil {
		put(n, "rejoin_commit_ms", fInt(*s.RejoinCommitMs))
	}
	if l := s.Listener; !l.IsZero() {
		ln := fMap(true)
		for _, kv := range []struct {
			key string
			v   int64
		}{{"revoked_ms", l.RevokedMs}, {"assigned_ms", l.AssignedMs}, {"lost_ms", l.LostMs}} {
			if kv.v != 0 {
				put(ln, kv.key, fInt(kv.v))
			}
		}
		if len(l.Throws) > 0 {
			put(ln, "throws", fStrs(l.Throws))
		}
		put(n, "listener", ln)
	}
}

// checkRestartProtocol: a restart that changes the member's group.protocol
// keeps its other settings; a consumer-protocol process refuses the
// classic-only ones and has no assignor list.
func checkRestartProtocol(sc *Scenario, ev Event) error {
	s, strats := settingsBy(sc, ev.Member, ev.AtMs)
	s.Protocol = ev.Settings.Protocol
	if s.Protocol == ProtocolConsumer && strats != nil {
		return fmt.Errorf("restart of %s with protocol consumer: %s, and %s has an assignor list", ev.Member, noMemberAssignors, ev.Member)
	}
	return CheckSettings(sc, ev.Member, s)
}

// settingsBy is the member's settings and assignor list as its last start
// (a member entry or a join, at or before ms) gave them.
func settingsBy(sc *Scenario, id string, ms int64) (MemberSettings, []string) {
	var s MemberSettings
	var strats []string
	for _, m := range sc.Members {
		if m.ID == id {
			s, strats = m.Settings, m.Strategies
		}
	}
	for _, ev := range sc.Timeline {
		if ev.AtMs > ms {
			break
		}
		if ev.Member == id {
			switch {
			case ev.Kind == "join":
				s, strats = ev.Settings, ev.Strategies
			case ev.Kind == "restart" && ev.Settings.Protocol != "" && ev.AtMs < ms:
				s.Protocol = ev.Settings.Protocol
			case ev.Kind == "subscribe" && ev.AtMs < ms:
				s.Pattern = ev.Settings.Pattern // subscribe(Collection) drops a pattern
			}
		}
	}
	return s, strats
}
