package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A mixed given start (issue 23 item 6): a consumer group caught in the
// middle of KIP-848's online migration, holding classic members beside
// consumer-protocol ones, as Kafka's GroupMetadataManager runs it (a
// ConsumerGroup whose ConsumerGroupMembers carry classicMemberMetadata).
// The file says it as a consumer-protocol given start (group.protocol
// consumer, group.group_epoch) whose classic members carry
// `protocol: classic`:
//
//	group: {protocol: consumer, strategy: uniform, group_epoch: 7}
//	members:
//	  - {id: c1, protocol: classic, owned: {t0: [0, 1]}}
//	  - {id: c2, owned: {t0: [2, 3]}}
//
// A classic member of a consumer group holds its member epoch as its
// generation (a JoinGroup answered by the consumer coordinator gives the
// member epoch), has no leader, and heartbeats with its own
// session.timeout.ms and heartbeat.interval.ms. A classic group cannot
// hold a consumer-protocol member: the first one converts it (migration.go
// in model), so a classic given start with one is refused.

// DefaultClassicAssignors is a classic member's
// partition.assignment.strategy when it names none in a consumer-protocol
// scenario: Kafka's default (ConsumerConfig), range then cooperative-sticky.
var DefaultClassicAssignors = []string{"range", "cooperative-sticky"}

// givenProtocol remembers a given member's own protocol: key, judged once
// the start is known (mixedStart).
func (p *parser) givenProtocol(m *MemberSpec, gn givenNodes) {
	if gn.protocol == nil || m.Settings.Protocol == "" {
		return
	}
	if p.given.protocols == nil {
		p.given.protocols = map[string]*yaml.Node{}
	}
	p.given.protocols[m.ID] = gn.protocol
}

// classicReconciling refuses a KIP-848 mid-reconcile key other than
// member_epoch on a classic member of a mixed start: such a member
// reconciles by rejoining (REBALANCE_IN_PROGRESS, a JoinGroup, a
// SyncGroup), and a given start holds it reconciled at its epoch.
func (p *parser) classicReconciling(m *MemberSpec, gn givenNodes) error {
	if m.Settings.Protocol != ProtocolClassic {
		return nil
	}
	for _, k := range []struct {
		n   *yaml.Node
		key string
	}{{gn.target, "target"}, {gn.revoking, "revoking"}} {
		if k.n != nil {
			return p.errf(k.n, "members.%s: %s runs the classic protocol, which reconciles by rejoining (REBALANCE_IN_PROGRESS, JoinGroup, SyncGroup); a given start holds a classic member with what it owns at its member epoch (owned, member_epoch)", k.key, m.ID)
		}
	}
	return nil
}

// mixedStart judges the members' own protocols once the given start is
// settled: a classic given start holds classic members only; in a consumer
// group, the classic members must share an assignor, as a classic joiner
// must (ConsumerGroup.supportsClassicProtocols: INCONSISTENT_GROUP_PROTOCOL).
func (p *parser) mixedStart(sc *Scenario, at *yaml.Node) error {
	g := &p.given
	if !sc.GivenStart() || len(g.protocols) == 0 {
		return nil
	}
	var classic []MemberSpec
	for _, m := range sc.Members {
		n := g.protocols[m.ID]
		switch {
		case n != nil && m.Settings.Protocol == ProtocolConsumer && !IsConsumer(sc):
			return p.errf(n, "members: %s runs the consumer protocol, but the given group is a classic group, which holds classic members only: the first consumer-protocol member converts it into a consumer group (KIP-848's online migration). Give a group mid-migration as a consumer group (group.protocol consumer, group.group_epoch) whose classic members say protocol: classic", m.ID)
		case IsConsumer(sc) && sc.MemberProtocol(m.Settings) == ProtocolClassic:
			classic = append(classic, m)
		}
	}
	if len(classic) < 2 {
		return nil
	}
	assignors := func(m MemberSpec) []string {
		if m.Strategies != nil {
			return m.Strategies
		}
		return DefaultClassicAssignors
	}
	for _, name := range assignors(classic[0]) {
		if !slices.ContainsFunc(classic[1:], func(m MemberSpec) bool { return !slices.Contains(assignors(m), name) }) {
			return nil
		}
	}
	return p.errf(orNode(g.protocols[classic[len(classic)-1].ID], at), "members: the classic members of the group share no assignor, so the consumer coordinator could not have let them all join (INCONSISTENT_GROUP_PROTOCOL)")
}

// ClassicMembers counts the members of a consumer-protocol given start
// that run the classic protocol (a group mid-migration).
func ClassicMembers(sc *Scenario) int {
	if !IsConsumer(sc) {
		return 0
	}
	n := 0
	for _, m := range sc.Members {
		if sc.MemberProtocol(m.Settings) == ProtocolClassic {
			n++
		}
	}
	return n
}

// mixedText is GivenText's word on a group mid-migration ("" for none).
func mixedText(sc *Scenario) string {
	n := ClassicMembers(sc)
	if n == 0 {
		return ""
	}
	var ids []string
	for _, m := range sc.Members {
		if sc.MemberProtocol(m.Settings) == ProtocolClassic {
			ids = append(ids, m.ID)
		}
	}
	return fmt.Sprintf(", %d of them (%s) on the classic protocol mid-migration (KIP-848: a classic member's generation is its member epoch, the consumer coordinator answers its JoinGroup, SyncGroup and Heartbeat)", n, strings.Join(ids, ", "))
}
