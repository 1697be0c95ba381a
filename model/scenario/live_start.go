package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
)

// What a real group read from a cluster brings to a scenario, beyond a
// Stable given start (parse_given.go): a classic group caught
// mid-rebalance, its leader, the client library each member runs, and
// where the group's timeouts came from.
//
//	group:
//	  generation: 7
//	  rebalance: preparing      # or completing
//	  leader: c2                # the member the coordinator made leader
//	  client: franz-go          # every member's and join's library (default java)
//	  timings_from: {session_timeout_ms: "flag --session-timeout"}
//	members:
//	  - {id: c1, rejoined: true, client: librdkafka}

// Rebalance phases a classic given start may be caught in
// (group.rebalance), as DescribeGroups names the group's state.
const (
	// RebalancePreparing: PreparingRebalance. The coordinator started a
	// join phase after generation Generation; the members marked
	// rejoined have sent their JoinGroup, the others learn of the
	// rebalance from their next heartbeat.
	RebalancePreparing = "preparing"
	// RebalanceCompleting: CompletingRebalance. Every member has rejoined
	// and the coordinator has made generation Generation; the leader is
	// computing the assignment, the members wait in SyncGroup.
	RebalanceCompleting = "completing"
)

// ClassicStart is a classic given start's leader and, when the group was
// caught mid-rebalance, the phase.
type ClassicStart struct {
	Rebalance string // "" (Stable), RebalancePreparing or RebalanceCompleting
	// Leader is the scenario id of the member leading the group ("" = the
	// first member, as the coordinator makes the first joiner leader).
	Leader string
}

// Client libraries a member may run (members[].client, group.client). The
// classic protocol's assignment is computed by the leader's library.
const (
	ClientJava       = "java" // Apache Kafka's own client: the default
	ClientFranzGo    = "franz-go"
	ClientLibrdkafka = "librdkafka"
)

// Clients lists the client libraries kviz models.
var Clients = []string{ClientJava, ClientFranzGo, ClientLibrdkafka}

// ClientOf is the library a member runs: its own client:, else the
// group's, else Java's.
func (sc *Scenario) ClientOf(member string) string {
	for _, m := range sc.Members {
		if m.ID == member && m.Client != "" {
			return m.Client
		}
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" && ev.Member == member && ev.Client != "" {
			return ev.Client
		}
	}
	if sc.Client != "" {
		return sc.Client
	}
	return ClientJava
}

// LeaderSpec is the member leading a classic given start.
func (sc *Scenario) LeaderSpec() (MemberSpec, bool) {
	if len(sc.Members) == 0 {
		return MemberSpec{}, false
	}
	for _, m := range sc.Members {
		if m.ID == sc.Classic.Leader {
			return m, true
		}
	}
	return sc.Members[0], true
}

// The brokers' bounds on a classic member's session timeout, when a cluster
// sets them (group.min.session.timeout.ms, group.max.session.timeout.ms):
// group.min_session_timeout_ms and group.max_session_timeout_ms.
const (
	minSessionKey = "min_session_timeout_ms"
	maxSessionKey = "max_session_timeout_ms"
)

// SessionBounds are the session timeouts the coordinator accepts
// (group.min.session.timeout.ms and group.max.session.timeout.ms).
func (sc *Scenario) SessionBounds() (int64, int64) {
	lo, hi := int64(minSessionMs), int64(maxSessionMs)
	if v, ok := sc.groupSet[minSessionKey]; ok {
		lo = v
	}
	if v, ok := sc.groupSet[maxSessionKey]; ok {
		hi = v
	}
	return lo, hi
}

// SetSessionBounds gives the brokers' bounds on session timeouts, as
// group.min_session_timeout_ms and group.max_session_timeout_ms would; 0
// leaves one at Kafka's default. The caller re-derives the group.
func (sc *Scenario) SetSessionBounds(lo, hi int64) {
	if sc.groupSet == nil {
		sc.groupSet = map[string]int64{}
	}
	if lo > 0 {
		sc.groupSet[minSessionKey] = lo
	}
	if hi > 0 {
		sc.groupSet[maxSessionKey] = hi
	}
}

// liveParse collects the keys of this file while the scenario is read.
type liveParse struct {
	rebalance, leader *yaml.Node
	rejoined          []*yaml.Node // the members' rejoined: keys, in member order (nil where not given)
}

// liveGroupKey reads group.rebalance, leader, client and timings_from.
func (p *parser) liveGroupKey(key string, v *yaml.Node, sc *Scenario) error {
	var err error
	switch key {
	case "rebalance":
		p.live.rebalance = v
		sc.Classic.Rebalance, err = p.oneOf(v, "group.rebalance", []string{RebalancePreparing, RebalanceCompleting})
	case "leader":
		p.live.leader = v
		sc.Classic.Leader, err = p.str(v, "group.leader")
	case "client":
		sc.Client, err = p.oneOf(v, "group.client", Clients)
	case "timings_from":
		sc.TimingSources, err = p.timingSources(v)
	}
	return err
}

// liveMemberKey reads a member's (or a join's) rejoined and client.
func (p *parser) liveMemberKey(m *MemberSpec, key string, v *yaml.Node, what string) (*yaml.Node, error) {
	var err error
	switch key {
	case "client":
		m.Client, err = p.oneOf(v, what+".client", Clients)
	case "rejoined":
		if what != "members" {
			return nil, p.errf(v, "%s.rejoined describes a member of a group caught mid-rebalance (group.rebalance); a join sends its JoinGroup when it happens", what)
		}
		if v.Kind != yaml.ScalarNode || (v.Value != "true" && v.Value != "false") {
			return nil, p.errf(v, "%s.rejoined must be true or false, got %q", what, v.Value)
		}
		m.Rejoined = v.Value == "true"
		return v, nil
	}
	return nil, err
}

// timingSources reads timings_from: {key: where the value came from}.
func (p *parser) timingSources(n *yaml.Node) (map[string]string, error) {
	out := map[string]string{}
	keys := TimingKeys()
	err := p.fields(n, "group.timings_from", keys, func(key string, _, v *yaml.Node) error {
		s, err := p.str(v, "group.timings_from."+key)
		if err == nil && strings.TrimSpace(s) == "" {
			err = p.errf(v, "group.timings_from.%s: say where the value came from", key)
		}
		out[key] = s
		return err
	})
	return out, err
}

// finishLive checks a caught rebalance and the leader once the members are
// read, with Kafka's invariants: only a classic group with members
// rebalances so (KIP-848 groups have their own mid-reconcile start); an
// eager member gives up everything before it sends JoinGroup
// (onJoinPrepare), so one that has rejoined owns nothing; a group completing
// generation 1 came from Empty, so nobody owns anything yet.
func (p *parser) finishLive(sc *Scenario, at *yaml.Node) error {
	lp := p.live
	if lp.leader != nil {
		if !sc.GivenStart() || IsConsumer(sc) || len(sc.Members) == 0 {
			return p.errf(lp.leader, "group.leader names the leader of a classic group given at time 0 (group.generation and members); the consumer protocol has no leader")
		}
		if !slices.ContainsFunc(sc.Members, func(m MemberSpec) bool { return m.ID == sc.Classic.Leader }) {
			return p.errf(lp.leader, "group.leader: %q is not one of the members%s", sc.Classic.Leader, Suggest(sc.Classic.Leader, memberIDs(sc)))
		}
	}
	if sc.Classic.Rebalance == "" {
		for i, n := range lp.rejoined {
			if n != nil && sc.Members[i].Rejoined {
				return p.errf(n, "members.rejoined: %s has rejoined a rebalance, but the group is not caught in one (group.rebalance: preparing)", sc.Members[i].ID)
			}
		}
		return nil
	}
	if !sc.GivenStart() || IsConsumer(sc) || len(sc.Members) == 0 {
		return p.errf(lp.rebalance, "group.rebalance catches a classic group mid-rebalance: it needs group.generation and members (a KIP-848 group gives group.assignment_epoch and member targets instead)")
	}
	for i, m := range sc.Members {
		if sc.Classic.Rebalance == RebalanceCompleting && lp.rejoined[i] != nil {
			return p.errf(lp.rejoined[i], "members.rejoined: under group.rebalance: completing every member has rejoined; leave rejoined out")
		}
		rejoined := m.Rejoined || sc.Classic.Rebalance == RebalanceCompleting
		if rejoined && len(m.Owned) > 0 && memberEager(sc, m) {
			return p.errf(orNode(lp.rejoined[i], at), "members.owned: %s runs the eager protocol and has rejoined: it revoked everything before its JoinGroup, so it owns nothing", m.ID)
		}
		if sc.Classic.Rebalance == RebalanceCompleting && sc.Generation == 1 && len(m.Owned) > 0 {
			return p.errf(at, "members.owned: %s owns partitions, but a group completing generation 1 came from Empty: nobody has been assigned anything yet", m.ID)
		}
	}
	return nil
}

// memberEager: the member's assignor list runs the eager protocol.
func memberEager(sc *Scenario, m MemberSpec) bool {
	if m.Strategies == nil {
		return sc.Protocol == "eager"
	}
	return slices.ContainsFunc(m.Strategies, func(name string) bool { return !kafka.Supports(name, kafka.ProtocolCooperative) })
}

// formatLive writes group.rebalance, leader, client and timings_from.
func formatLive(g *yaml.Node, sc *Scenario) error {
	if sc.Classic.Rebalance != "" {
		put(g, "rebalance", fStr(sc.Classic.Rebalance))
	}
	if sc.Classic.Leader != "" {
		put(g, "leader", fStr(sc.Classic.Leader))
	}
	if sc.Client != "" {
		put(g, "client", fStr(sc.Client))
	}
	for _, k := range []string{minSessionKey, maxSessionKey} {
		if v, ok := sc.groupSet[k]; ok {
			put(g, k, fInt(v))
		}
	}
	if len(sc.TimingSources) > 0 {
		n := fMap(true)
		for _, k := range TimingKeys() {
			if s, ok := sc.TimingSources[k]; ok {
				put(n, k, fStr(s))
			}
		}
		if len(n.Content) != 2*len(sc.TimingSources) {
			return fmt.Errorf("format: group.timings_from names a setting that is not a timing (%v)", sc.TimingSources)
		}
		put(g, "timings_from", n)
	}
	return nil
}

// formatLiveMember writes a member's (or join's) client and rejoined.
func formatLiveMember(n *yaml.Node, client string, rejoined bool) {
	if client != "" {
		put(n, "client", fStr(client))
	}
	if rejoined {
		put(n, "rejoined", fBool(true))
	}
}
