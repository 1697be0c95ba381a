package scenario

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

var memberKeys = []string{"id", "topics", "instance", "rack", "strategies",
	// its own configuration (member_settings.go)
	"session_timeout_ms", "heartbeat_interval_ms", "max_poll_interval_ms", "protocol", "listener", "rejoin_commit_ms", "pattern",
	// a given start (parse_given.go)
	"owned", "member_id", "target", "revoking", "member_epoch",
	// a real group's members (live_start.go)
	"client", "rejoined",
	// consumer settings for the data path (parse_producers.go)
	"rate", "enable_auto_commit", "auto_commit_interval_ms", "commit", "auto_offset_reset"}

func (p *parser) members(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "members must be a list, like - {id: c1}")
	}
	if len(n.Content) > maxMembers {
		return p.errf(n, "at most %d members are supported, got %d: twice the 10,000 Kafka's group coordinator is designed for; kviz keeps every step of a group's history in memory, and more members would not fit", maxMembers, len(n.Content))
	}
	ids := map[string]bool{}
	instances := map[string]bool{}
	for _, c := range n.Content {
		m, err := p.memberSpec(c, sc, "members")
		if err != nil {
			return err
		}
		if ids[m.ID] {
			return p.errf(c, "member %q is listed twice", m.ID)
		}
		if m.Instance != "" && instances[m.Instance] {
			return p.errf(c, "instance %q is used by two members", m.Instance)
		}
		ids[m.ID], instances[m.Instance] = true, true
		sc.Members = append(sc.Members, m)
		p.live.rejoined = append(p.live.rejoined, p.lastRejoined)
	}
	return nil
}

func (p *parser) memberSpec(n *yaml.Node, sc *Scenario, what string) (MemberSpec, error) {
	var m MemberSpec
	var idNode, strategiesNode *yaml.Node
	var gn givenNodes
	var consumer consumerSettings
	var rejoined, topicsNode, patternNode *yaml.Node
	err := p.fields(n, what, memberKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "id":
			idNode = v
			m.ID, err = p.str(v, what+".id")
		case "instance":
			m.Instance, err = p.str(v, what+".instance")
		case "rack":
			m.Rack, err = p.rack(v, what+".rack")
		case "topics":
			topicsNode = k
			m.Topics, err = p.topicList(v, sc, what+".topics")
		case "strategies":
			strategiesNode = v
			m.Strategies, err = p.strategyList(v, what+".strategies")
		case "session_timeout_ms", "heartbeat_interval_ms", "max_poll_interval_ms", "protocol", "listener", "rejoin_commit_ms", "pattern":
			if key == "pattern" {
				patternNode = v
			}
			if key == "protocol" {
				gn.protocol = v // a mixed given start (given_mixed.go)
			}
			err = p.memberSetting(&m.Settings, key, what, v)
		case "owned":
			gn.owned = v
		case "member_id":
			gn.memberID = v
		case "target":
			gn.target = v
		case "revoking":
			gn.revoking = v
		case "member_epoch":
			gn.epoch = v
		case "client", "rejoined":
			var at *yaml.Node
			at, err = p.liveMemberKey(&m, key, v, what)
			rejoined = orNode(at, rejoined)
		default:
			err = p.consumerKey(&consumer, key, what, v)
		}
		return err
	})
	if err != nil {
		return m, err
	}
	if m.ID == "" {
		return m, p.errf(orNode(idNode, n), "%s: every member needs an id", what)
	}
	if patternNode != nil && m.Topics != nil {
		return m, p.errf(topicsNode, "%s: give topics or pattern, not both (subscribe(Collection) and subscribe(Pattern) replace each other)", what)
	}
	if patternNode != nil {
		if err := p.patternMember(&m, what, patternNode, sc); err != nil {
			return m, err
		}
	}
	if m.Topics == nil {
		m.Topics = p.topicsOrAll(sc)
	}
	if strategiesNode != nil && sc.MemberProtocol(m.Settings) == ProtocolConsumer {
		return m, p.errf(strategiesNode, "%s.strategies: %s", what, noMemberAssignors)
	}
	if err := CheckSettings(sc, m.ID, m.Settings); err != nil {
		if _, ok := err.(*PatternError); ok {
			return m, p.errf(patternNode, "%s: %v", what, err)
		}
		return m, p.errf(n, "%s: %v", what, err)
	}
	if err := p.givenMember(&m, what, gn, sc); err != nil {
		return m, err
	}
	p.memberConsumer(m.ID, consumer)
	p.lastRejoined = rejoined
	return m, nil
}

// topicsOrAll is every topic of sc, sorted once for all the members and
// readers given no topics: sorting it for each made the parser quadratic
// in a file with many of both. They share the slice, as a scenario's
// clones share their members' lists: nothing changes one in place.
func (p *parser) topicsOrAll(sc *Scenario) []string {
	if p.allTopics == nil {
		p.allTopics = strategies.SortedTopics(sc.Topics)
	}
	return p.allTopics
}

// rack reads a client.rack or broker.rack: a plain, non-empty value (Kafka
// takes an empty rack as none, so writing one would mean nothing).
func (p *parser) rack(n *yaml.Node, what string) (string, error) {
	r, err := p.str(n, what)
	if err == nil && strings.TrimSpace(r) == "" {
		err = p.errf(n, "%s: an empty rack is no rack (Kafka ignores it); leave the key out", what)
	}
	return r, err
}

// noMemberAssignors is why a member's assignor list is refused under the
// consumer protocol (by the parser and by Scenario.WithStrategy).
const noMemberAssignors = "under the consumer protocol the coordinator assigns (group.strategy); members have no assignor list"

// strategyList reads a member's partition.assignment.strategy list.
func (p *parser) strategyList(n *yaml.Node, what string) ([]string, error) {
	names, err := p.strList(n, what)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, p.errf(n, "%s: give at least one assignor", what)
	}
	var out []string
	for _, name := range names {
		a, err := strategies.Lookup(name)
		if err != nil {
			return nil, p.errf(n, "%s: %v", what, err)
		}
		if strategies.Supports(a, kafka.ProtocolConsumer) && !strategies.Supports(a, kafka.ProtocolEager) {
			return nil, p.errf(n, "%s: %s is a server-side assignor (consumer protocol only)", what, a.Name())
		}
		if !slices.Contains(out, a.Name()) {
			out = append(out, a.Name())
		}
	}
	return out, nil
}

func (p *parser) topicList(n *yaml.Node, sc *Scenario, what string) ([]string, error) {
	ts, err := p.strList(n, what)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		// A topic not in topics: is a subscription to a topic that does not
		// exist, which Kafka takes (DESIGN.md, "Topics that do not exist").
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		// KafkaConsumer.subscribe of an empty list is unsubscribe().
		return nil, p.errf(n, "%s: give at least one topic (an empty subscription is unsubscribe(); use leave)", what)
	}
	return out, nil
}

// existingTopicList is topicList for a list that must name existing topics
// (a data-path reader reads records, so its topics must be there).
func (p *parser) existingTopicList(n *yaml.Node, sc *Scenario, what string) ([]string, error) {
	ts, err := p.topicList(n, sc, what)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if _, ok := sc.Topics[t]; !ok {
			return nil, p.errf(n, "%s: unknown topic %q%s", what, t, Suggest(t, strategies.SortedTopics(sc.Topics)))
		}
	}
	return ts, nil
}

// subscriber answers "does m subscribe to topic?" for each partition a
// given member lists: a member on the shared every-topic list subscribes
// to exactly the scenario's topics, and a long list of its own is looked
// up in a set (Subscribers), so a thousand-topic group is not a scan per
// partition.
func (p *parser) subscriber(m *MemberSpec, sc *Scenario) func(string) bool {
	if all := p.allTopics; len(m.Topics) > 0 && len(m.Topics) == len(all) && &m.Topics[0] == &all[0] {
		return func(t string) bool { _, ok := sc.Topics[t]; return ok }
	}
	return p.subs.Of(m.Topics)
}
