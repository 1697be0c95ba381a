package model

import (
	"fmt"
	"strconv"

	"github.com/kvizlab/kviz/strategies"
	"go.yaml.in/yaml/v3"
)

// A given start: `group: {generation: 5}` (classic) or `group:
// {group_epoch: 5}` (KIP-848) and members with `owned: {t0: [0, 1]}` (and,
// to reproduce a real group, `member_id: ...`) describe a group that is
// already Stable at time 0. Owned partitions without a generation start at
// generation (group epoch) 1.

// maxStartEpoch bounds a given generation well below int32's end, so the
// rebalances that follow cannot overflow it.
const maxStartEpoch = 1_000_000_000

// givenParse collects a given start while the scenario is parsed.
type givenParse struct {
	epochKey  string // "generation" or "group_epoch"; "" = not given
	epochNode *yaml.Node
	owners    map[TP]string // partition -> the member owning it
	memberIDs map[string]string
	// firstNode is the first owned: or member_id: seen, for a member list
	// that needs a given start.
	firstNode *yaml.Node
}

// startEpoch reads group.generation or group.group_epoch once the protocol
// is known: each belongs to one protocol family.
func (p *parser) startEpoch(sc *Scenario) error {
	g := &p.given
	if g.epochNode == nil {
		return nil
	}
	if msg := epochKeyError(g.epochKey, sc); msg != "" {
		return p.errf(g.epochNode, "%s", msg)
	}
	sc.givenEpochKey = g.epochKey
	e, err := p.int64(g.epochNode, "group."+g.epochKey, 1, maxStartEpoch)
	sc.Generation = int32(e)
	return err
}

// epochKeyError says why a given start's epoch key does not fit the
// protocol ("" when it does): each belongs to one protocol family. The
// parser and Scenario.WithStrategy both ask it.
func epochKeyError(key string, sc *Scenario) string {
	switch {
	case key == "generation" && isConsumer(sc):
		return "group.generation: the consumer protocol (KIP-848) counts group epochs; write group.group_epoch"
	case key == "group_epoch" && !isConsumer(sc):
		return fmt.Sprintf("group.group_epoch belongs to the KIP-848 consumer protocol; under the %s protocol the group has a generation (group.generation)", sc.Protocol)
	}
	return ""
}

// givenMember reads a member's owned partitions and member id.
func (p *parser) givenMember(m *MemberSpec, what string, owned, memberID *yaml.Node, sc *Scenario) error {
	if what != "members" {
		if n := orNode(owned, memberID); n != nil {
			return p.errf(n, "%s: owned and member_id describe members present at time 0 (a given start); a joining member gets its id and partitions from the group", what)
		}
		return nil
	}
	g := &p.given
	if memberID != nil {
		g.firstNode = orNode(g.firstNode, memberID)
		id, err := p.str(memberID, "members.member_id")
		if err != nil {
			return err
		}
		if id == "" {
			return p.errf(memberID, "members.member_id: an empty member id is what a member has before it joins; leave member_id out to let kviz make one")
		}
		if other, dup := g.memberIDs[id]; dup {
			return p.errf(memberID, "member id %q is held by %s and %s: a member id names one member", id, other, m.ID)
		}
		if g.memberIDs == nil {
			g.memberIDs = map[string]string{}
		}
		g.memberIDs[id] = m.ID
		m.MemberID = id
	}
	if owned == nil {
		return nil
	}
	g.firstNode = orNode(g.firstNode, owned)
	tps, err := p.ownedPartitions(owned, m, sc)
	m.Owned = tps
	return err
}

// ownedPartitions reads owned: {topic: [partitions]}: every partition must
// exist, belong to a subscribed topic and have no other owner.
func (p *parser) ownedPartitions(n *yaml.Node, m *MemberSpec, sc *Scenario) ([]TP, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, "members.owned must map topics to partitions, like {t0: [0, 1]}")
	}
	g := &p.given
	if g.owners == nil {
		g.owners = map[TP]string{}
	}
	var out []TP
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		topic, err := p.str(k, "a topic in members.owned")
		if err != nil {
			return nil, err
		}
		count, ok := sc.Topics[topic]
		if !ok {
			return nil, p.errf(k, "members.owned: unknown topic %q%s", topic, suggest(topic, strategies.SortedTopics(sc.Topics)))
		}
		if !contains(m.Topics, topic) {
			return nil, p.errf(k, "members.owned: %s owns partitions of %s but does not subscribe to it (its topics: %v)", m.ID, topic, m.Topics)
		}
		items := v.Content
		if v.Kind == yaml.ScalarNode {
			items = []*yaml.Node{v}
		} else if v.Kind != yaml.SequenceNode {
			return nil, p.errf(v, "members.owned.%s must be a list of partitions, like [0, 1]", topic)
		}
		for _, x := range items {
			part, err := p.int64(x, "members.owned."+topic, 0, int64(count)-1)
			if err != nil {
				if _, numErr := strconv.ParseInt(x.Value, 10, 64); numErr == nil {
					return nil, p.errf(x, "members.owned: %s has %d partitions (0..%d): %s-%s does not exist", topic, count, count-1, topic, x.Value)
				}
				return nil, err
			}
			tp := TP{Topic: topic, Partition: int32(part)}
			if other, taken := g.owners[tp]; taken {
				if other == m.ID {
					return nil, p.errf(x, "members.owned: %s lists %s twice", m.ID, tp)
				}
				return nil, p.errf(x, "members.owned: %s is owned by %s and %s; a partition has one owner in a group", tp, other, m.ID)
			}
			g.owners[tp] = m.ID
			out = append(out, tp)
		}
	}
	return sortTPs(out), nil
}

// finishGiven settles a given start once the members are read: owned
// partitions alone mean generation 1, and a classic group can only be
// Stable with members that share an assignor.
func (p *parser) finishGiven(sc *Scenario, at *yaml.Node) error {
	g := &p.given
	if sc.Generation == 0 && g.firstNode != nil {
		sc.Generation = 1
	}
	if !sc.GivenStart() || isConsumer(sc) || len(sc.Members) == 0 {
		return nil
	}
	for _, name := range memberStrategies(sc, sc.Members[0]) {
		shared := true
		for _, m := range sc.Members[1:] {
			shared = shared && contains(memberStrategies(sc, m), name)
		}
		if shared {
			return nil
		}
	}
	return p.errf(at, "members: these members share no assignor, so no generation of the group can be Stable with all of them (INCONSISTENT_GROUP_PROTOCOL)")
}

// memberStrategies is a member's assignor list (the group's by default).
func memberStrategies(sc *Scenario, m MemberSpec) []string {
	if m.Strategies != nil {
		return m.Strategies
	}
	return []string{sc.Strategy}
}

// givenText is the opening step's account of a given start.
func givenText(sc *Scenario, coordinator string) string {
	counter := "generation"
	state := Stable
	if isConsumer(sc) {
		counter, state = "group epoch", KStable
	}
	if len(sc.Members) == 0 {
		return fmt.Sprintf("Group %s (%s, %s protocol) starts Empty at %s %d; its coordinator is %s.",
			sc.GroupID, sc.Strategy, sc.Protocol, counter, sc.Generation, coordinator)
	}
	return fmt.Sprintf("Group %s starts %s at %s %d, %d members already consuming (a given state: no join phase); its coordinator is %s.",
		sc.GroupID, state, counter, sc.Generation, len(sc.Members), coordinator)
}
