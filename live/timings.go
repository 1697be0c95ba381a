package live

import (
	"fmt"
	"time"

	"github.com/kvizlab/kviz/model/scenario"
)

// ImportOptions are what the user tells about the group's members that no
// API shows: a classic member's timeouts are in its JoinGroup only, and the
// library it runs in none. Zero values are not given.
type ImportOptions struct {
	SessionTimeout    time.Duration // session.timeout.ms
	HeartbeatInterval time.Duration // heartbeat.interval.ms
	MaxPollInterval   time.Duration // max.poll.interval.ms (the rebalance timeout)
	Client            string        // the members' client library (scenario.Clients); "" = java
}

// WithOptions gives the read the user's options; it returns g.
func (g *Group) WithOptions(o ImportOptions) *Group {
	g.opts = o
	return g
}

// timing is one scenario timing and where its value comes from.
type timing struct {
	key    string
	ms     int64
	source string
}

// timings are the scenario's timings as the cluster and the flags tell
// them, each with its source: under KIP-848 the coordinator's (the group's
// own configs first, then the broker's group.consumer.*), under the classic
// protocol the broker's initial rebalance delay; a member's own timeouts
// from the flags. What neither tells stays Kafka's default, which
// scenario.Timings says.
func (g *Group) timings() ([]timing, []string) {
	var out []timing
	var notes []string
	read := func(key string, names ...string) bool {
		for _, n := range names {
			if v, src, ok := g.configMs(n); ok {
				out = append(out, timing{key, v, src})
				return true
			}
		}
		return false
	}
	flag := func(key, name string, d time.Duration) {
		if d > 0 {
			out = append(out, timing{key, d.Milliseconds(), "flag --" + name})
		}
	}
	if g.Type == Consumer {
		read("session_timeout_ms", "consumer.session.timeout.ms", "group.consumer.session.timeout.ms")
		read("heartbeat_interval_ms", "consumer.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms")
		read("assignment_interval_ms", "consumer.assignment.interval.ms", "group.consumer.assignment.interval.ms")
		for name, d := range map[string]time.Duration{"session-timeout": g.opts.SessionTimeout, "heartbeat-interval": g.opts.HeartbeatInterval} {
			if d > 0 {
				notes = append(notes, fmt.Sprintf("--%s is a classic member's setting: under KIP-848 the coordinator's group.consumer.* applies", name))
			}
		}
	} else {
		read("initial_rebalance_delay_ms", "group.initial.rebalance.delay.ms")
		flag("session_timeout_ms", "session-timeout", g.opts.SessionTimeout)
		flag("heartbeat_interval_ms", "heartbeat-interval", g.opts.HeartbeatInterval)
	}
	flag("max_poll_interval_ms", "max-poll-interval", g.opts.MaxPollInterval)
	return out, notes
}

// applyTimings sets the timings on the scenario before its group is
// derived, with the cluster's session bounds, and the members' client.
func (g *Group) applyTimings(sc *scenario.Scenario) ([]string, error) {
	ts, notes := g.timings()
	for _, t := range ts {
		if err := sc.SetTiming(t.key, t.ms, t.source); err != nil {
			return nil, err
		}
	}
	if g.Type == Classic {
		lo, _, _ := g.configMs("group.min.session.timeout.ms")
		hi, _, _ := g.configMs("group.max.session.timeout.ms")
		if s := g.opts.SessionTimeout.Milliseconds(); s > 0 && (lo > 0 && s < lo || hi > 0 && s > hi) {
			// the coordinator accepted the members' session timeout: its
			// bounds are wider than what it says
			notes = append(notes, fmt.Sprintf("--session-timeout %s is outside the group.min/max.session.timeout.ms the cluster reports (%d..%d ms); the coordinator accepted the members' own, so the bounds are taken to include it", g.opts.SessionTimeout, lo, hi))
			lo, hi = min(lo, s), max(hi, s)
		}
		sc.SetSessionBounds(lo, hi)
	}
	if g.opts.Client != "" && g.opts.Client != scenario.ClientJava {
		sc.Client = g.opts.Client
	}
	return notes, nil
}
