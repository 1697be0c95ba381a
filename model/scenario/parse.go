package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// Limits that keep a typo from becoming an hour-long simulation.
const (
	maxBrokers           = 1000
	maxOffsetsPartitions = 10000
	// maxMembers guards memory, not Kafka: Kafka sets no limit for
	// classic and consumer groups (group.max.size and
	// group.consumer.max.size are Integer.MAX_VALUE) and designs its
	// coordinator for 10,000 members; twice that is where a simulated
	// group still fits a laptop.
	maxMembers    = 20000
	MaxTimelineMs = 30 * 24 * 3600 * 1000 // a month of virtual time
)

// Parse parses a scenario file; errors look like
// `scenario.yaml:12: unknown action "leav" (did you mean "leave"?)`.
func Parse(filename string, data []byte) (*Scenario, error) {
	root, lazy, ok := fastTree(data) // parse_fast.go: the plain subset, fast
	if !ok {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, yamlError(filename, err)
		}
		if len(doc.Content) == 0 {
			return nil, fmt.Errorf("%s:1: the scenario is empty", filename)
		}
		root = doc.Content[0]
	}
	p := &parser{file: filename, lazy: lazy}
	sc, err := p.scenario(root)
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// yamlError turns the YAML library's message ("yaml: line 3: ...") into ours.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.HasPrefix(msg, "line ") {
		rest := strings.TrimPrefix(msg, "line ")
		if i := strings.Index(rest, ":"); i > 0 {
			if _, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				return fmt.Errorf("%s:%s: %s", file, rest[:i], strings.TrimSpace(rest[i+1:]))
			}
		}
	}
	return fmt.Errorf("%s:1: %s", file, msg)
}

type parser struct {
	file  string
	flow  flowParse  // producers and consumer settings, see parse_producers.go
	given givenParse // a given start, see parse_given.go
	live  liveParse  // a caught rebalance, leader, clients (live_start.go)
	// lastRejoined is the rejoined: key of the member read last
	lastRejoined *yaml.Node
	// paneNode is lab.pane's value, checked once the data path is read
	paneNode *yaml.Node
	// replicas: topics' replicas: lists, checked once the brokers are known
	// (replicas.go)
	replicas map[string]*yaml.Node
	// allTopics: every topic, sorted, once the topics are read: the list of
	// a member or reader given none, one shared slice (see topicsOrAll)
	allTopics []string
	subs      Subscribers // the members' own subscriptions, looked up (subscriber)
	// lazy: the members' partition maps the fast reader left unread
	// (parse_fast.go): nodes without Content, which partitionMap alone
	// reads, from the file's text
	lazy map[*yaml.Node]lazyMap
	// created: the topics the timeline's create_topic entries name
	// (pattern_parse.go), which an add_partitions may grow
	created map[string]bool
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	line := 1
	if n != nil && n.Line > 0 {
		line = n.Line
	}
	return fmt.Errorf("%s:%d: %s", p.file, line, fmt.Sprintf(format, args...))
}

// fields walks a mapping node, rejecting unknown keys with a suggestion.
func (p *parser) fields(n *yaml.Node, what string, known []string, each func(key string, k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s must be a mapping (key: value)", what)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		if !slices.Contains(known, key) {
			return p.errf(k, "unknown key %q in %s%s", key, what, Suggest(key, known))
		}
		if seen[key] {
			return p.errf(k, "%s is given twice in %s", key, what)
		}
		seen[key] = true
		if err := each(key, k, v); err != nil {
			return err
		}
	}
	return nil
}

// isNull: an empty value (`timeline:` with nothing after it).
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (p *parser) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", p.errf(n, "%s must be a plain value", what)
	}
	return n.Value, nil
}

func (p *parser) int64(n *yaml.Node, what string, lo, hi int64) (int64, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, p.errf(n, "%s must be a number", what)
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64)
	if err != nil {
		return 0, p.errf(n, "%s must be a whole number, got %q", what, n.Value)
	}
	if v < lo || v > hi {
		return 0, p.errf(n, "%s must be between %d and %d, got %d", what, lo, hi, v)
	}
	return v, nil
}

func (p *parser) strList(n *yaml.Node, what string) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return []string{n.Value}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "%s must be a list, like [t0, t1]", what)
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		s, err := p.str(c, what)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

var topKeys = []string{"name", "title", "notes", "seed", "examples", "lab", "cluster", "topics", "group", "members", "timeline", "producers", "readers",
	"share_partitions"} // a share group's given start (given_share.go)

func (p *parser) scenario(root *yaml.Node) (*Scenario, error) {
	sc := &Scenario{File: p.file, Brokers: 3, OffsetsPartitions: 50, GroupID: "workshop",
		Strategy: "range", Topics: map[string]int32{}}
	var groupNode, membersNode, timelineNode, producersNode, readersNode, sharePartsNode *yaml.Node
	err := p.fields(root, "the scenario", topKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "name":
			sc.Name, err = p.str(v, "name")
		case "title":
			sc.Title, err = p.str(v, "title")
		case "notes":
			sc.Notes, err = p.str(v, "notes")
		case "seed":
			sc.Seed, err = p.int64(v, "seed", math.MinInt64, math.MaxInt64)
		case "examples":
			sc.Examples, err = p.examples(v)
		case "lab":
			err = p.lab(v, sc)
		case "cluster":
			err = p.cluster(v, sc)
		case "topics":
			err = p.topics(v, sc)
		case "group":
			groupNode = v
		case "members":
			membersNode = v
		case "timeline":
			timelineNode = v
		case "producers":
			producersNode = v
		case "readers":
			readersNode = v
		case "share_partitions":
			sharePartsNode = v
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(sc.Topics) == 0 {
		return nil, p.errf(root, "the scenario needs topics, like topics: {t0: 3}")
	}
	if err := p.checkReplicas(sc); err != nil {
		return nil, err
	}
	if err := p.group(groupNode, root, sc); err != nil {
		return nil, err
	}
	if membersNode != nil {
		if err := p.members(membersNode, sc); err != nil {
			return nil, err
		}
		if sc.Share != nil {
			if err := p.checkShareMembers(membersNode, sc); err != nil {
				return nil, err
			}
		}
	}
	if sharePartsNode != nil {
		if err := p.sharePartitions(sharePartsNode, sc); err != nil { // given_share.go
			return nil, err
		}
	}
	if err := p.finishGiven(sc, orNode(membersNode, root)); err != nil {
		return nil, err
	}
	if err := p.finishLive(sc, orNode(membersNode, root)); err != nil {
		return nil, err
	}
	if timelineNode != nil {
		if err := p.timeline(timelineNode, sc); err != nil {
			return nil, err
		}
	}
	if err := p.checkMemberRacks(sc); err != nil {
		return nil, err
	}
	if producersNode != nil {
		if err := p.producers(producersNode, sc); err != nil {
			return nil, err
		}
	}
	if readersNode != nil {
		if err := p.readers(readersNode, sc); err != nil {
			return nil, err
		}
	}
	if err := p.finishFlow(sc); err != nil {
		return nil, err
	}
	if err := p.checkPane(sc); err != nil {
		return nil, err
	}
	if err := p.topicEventsWithFlow(sc); err != nil {
		return nil, err
	}
	return sc, nil
}

func (p *parser) cluster(n *yaml.Node, sc *Scenario) error {
	var racks *yaml.Node
	err := p.fields(n, "cluster", []string{"brokers", "offsets_partitions", "racks"}, func(key string, _, v *yaml.Node) error {
		switch key {
		case "brokers":
			b, err := p.int64(v, "cluster.brokers", 1, maxBrokers)
			sc.Brokers = int(b)
			return err
		case "racks":
			racks = v
			return nil
		default:
			o, err := p.int64(v, "cluster.offsets_partitions", 1, maxOffsetsPartitions)
			sc.OffsetsPartitions = int32(o)
			return err
		}
	})
	if err != nil || racks == nil {
		return err
	}
	return p.brokerRacks(racks, sc)
}

func (p *parser) topics(n *yaml.Node, sc *Scenario) error {
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "topics must map each topic to its partition count, like {t0: 3}")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, err := p.str(k, "a topic name")
		if err != nil {
			return err
		}
		if err := validTopicName(name); err != nil {
			return p.errf(k, "%v", err)
		}
		if name == "__consumer_offsets" {
			return p.errf(k, "topic __consumer_offsets is Kafka's internal offsets topic (set its size with cluster.offsets_partitions)")
		}
		if _, dup := sc.Topics[name]; dup {
			return p.errf(k, "topic %q is listed twice", name)
		}
		if v.Kind == yaml.MappingNode {
			if err := p.topicSpec(name, v, sc); err != nil {
				return err
			}
			continue
		}
		c, err := p.int64(v, fmt.Sprintf("topics.%s", name), 1, kafka.MaxPartitions)
		if err != nil {
			return err
		}
		sc.Topics[name] = int32(c)
	}
	return nil
}

// validTopicName applies Kafka's topic name rule (Topic.validate).
func validTopicName(name string) error {
	if name == "" || name == "." || name == ".." || len(name) > 249 {
		return fmt.Errorf("invalid topic name %q", name)
	}
	for _, r := range name {
		ok := r == '.' || r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return fmt.Errorf("topic name %q may only contain letters, digits, '.', '_' and '-'", name)
		}
	}
	return nil
}

// The brokers' default bounds on a classic member's session timeout.
const (
	minSessionMs = 6000
	maxSessionMs = 1800000
)

func IsConsumer(sc *Scenario) bool { return sc.Protocol == string(kafka.ProtocolConsumer) }

var groupKeys = []string{"id", "strategy", "protocol", "kafka_version", "session_timeout_ms", "heartbeat_interval_ms",

	"max_poll_interval_ms", "initial_rebalance_delay_ms",
	// the KIP-848 coordinator's assignment interval (Kafka 4.3, parse_meta.go)
	assignmentIntervalKey,
	// a given start (parse_given.go)
	"generation", "group_epoch", "assignment_epoch",
	// a real group's start (live_start.go)
	"rebalance", "leader", "client", "timings_from", minSessionKey, maxSessionKey,
	// the coordinator's limits and the migration policy (member_settings.go)
	"max_size", "session_timeout_check", "migration_policy",
	// consumer settings for the data path (parse_producers.go)
	"rate", "enable_auto_commit", "auto_commit_interval_ms", "commit", "auto_offset_reset"}

func (p *parser) group(n, root *yaml.Node, sc *Scenario) error {
	if t := shareTypeNode(n); t != nil {
		return p.shareGroup(n, t, sc) // share.go
	}
	var intervalNode *yaml.Node
	nodes := map[string]*yaml.Node{} // where derive's errors point
	set := map[string]int64{}
	if n != nil {
		err := p.fields(n, "group", groupKeys, func(key string, _, v *yaml.Node) error {
			if ok, err := p.identityKey(key, v, sc, nodes); ok {
				return err
			}
			var err error
			switch key {
			case "rate", "enable_auto_commit", "auto_commit_interval_ms", "commit", "auto_offset_reset":
				err = p.consumerKey(&p.flow.group, key, "group", v)
			case "generation", "group_epoch":
				p.given.epochKey, p.given.epochNode = key, v
			case assignmentIntervalKey:
				intervalNode = v
				set[key], err = p.assignmentInterval(v)
			case "assignment_epoch":
				p.given.assignNode = v
			case "rebalance", "leader", "client", "timings_from":
				err = p.liveGroupKey(key, v, sc)
			case "max_size":
				var n int64
				n, err = p.int64(v, "group.max_size (group.classic.max.size / group.consumer.max.size)", 1, math.MaxInt32)
				sc.MaxSize = int32(n)
			case "session_timeout_check":
				sc.SessionCheck, err = p.oneOf(v, "group.session_timeout_check", []string{"parser", SessionCheckCoordinator})
				if sc.SessionCheck == "parser" {
					sc.SessionCheck = SessionCheckParser
				}
			case "migration_policy":
				sc.Migration, err = p.oneOf(v, "group.migration_policy (group.consumer.migration.policy)", migrationPolicies)
			case "initial_rebalance_delay_ms":
				set[key], err = p.int64(v, "group."+key, 0, 24*3600*1000) // 0 is a common dev setting
			case "session_timeout_ms":
				nodes[key] = v
				set[key], err = p.int64(v, "group."+key, 1, 24*3600*1000)
			default:
				set[key], err = p.int64(v, "group."+key, 1, 24*3600*1000)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	at := n
	if at == nil {
		at = root
	}
	sc.groupSet = set
	if err := p.derive(sc, at, nodes); err != nil {
		return err
	}
	if err := p.assignmentIntervalApplies(intervalNode, sc); err != nil {
		return err
	}
	return p.startEpoch(sc)
}

// identityKey reads the keys every kind of group shares: id, strategy,
// protocol and kafka_version. nodes keeps where each was, for derive's
// errors. It reports false for any other key.
func (p *parser) identityKey(key string, v *yaml.Node, sc *Scenario, nodes map[string]*yaml.Node) (bool, error) {
	var err error
	switch key {
	case "id":
		err = p.groupID(v, sc)
	case "strategy":
		sc.Strategy, err = p.str(v, "group.strategy")
	case "protocol":
		sc.Protocol, err = p.str(v, "group.protocol")
	case "kafka_version":
		err = p.kafkaVersion(v, sc)
	default:
		return false, nil
	}
	nodes[key] = v
	return true, err
}

// groupID reads group.id.
func (p *parser) groupID(v *yaml.Node, sc *Scenario) error {
	var err error
	if sc.GroupID, err = p.str(v, "group.id"); err != nil {
		return err
	}
	if bad := strategies.CheckGroupID(sc.GroupID); bad != nil {
		return p.errf(v, "group.id: %v", bad)
	}
	return nil
}

// kafkaVersion reads group.kafka_version.
func (p *parser) kafkaVersion(v *yaml.Node, sc *Scenario) error {
	raw, err := p.str(v, "group.kafka_version")
	if err != nil {
		return err
	}
	if sc.KafkaVersion, err = strategies.ParseClientVersion(raw); err != nil {
		return p.errf(v, "group.kafka_version: %v", err)
	}
	return nil
}

// groupError is a group setting the derivation refuses, and which one, so
// the parser can point at its line.
type groupError struct{ field, msg string }

func (e *groupError) Error() string { return e.msg }

// deriveGroup settles the group's strategy name, protocol and timeouts from
// what the scenario gave (sc.groupSet) and Kafka's defaults, which depend on
// the protocol. The parser and Scenario.WithStrategy both use it, so a
// varied scenario is exactly the file with other values under group:.
func deriveGroup(sc *Scenario) *groupError {
	if sc.Share != nil {
		return deriveShare(sc) // share.go
	}
	a, err := strategies.Lookup(sc.Strategy)
	if err != nil {
		return &groupError{"strategy", fmt.Sprintf("group.strategy: %v", err)}
	}
	sc.Strategy = a.Name()
	if sc.Protocol == "" {
		sc.Protocol = string(strategies.Preferred(a))
	}
	if !strategies.Supports(a, kafka.Protocol(sc.Protocol)) {
		return &groupError{"protocol", fmt.Sprintf("group.protocol: %s cannot run under the %s protocol (it supports %s)",
			sc.Strategy, sc.Protocol, protocolList(a))}
	}
	if err := strategies.CheckRelease(a, sc.KafkaVersion); err != nil {
		return &groupError{"kafka_version", "group.kafka_version: " + err.Error()}
	}
	applyTimeoutDefaults(sc, sc.groupSet)
	if lo, hi := sc.SessionBounds(); !IsConsumer(sc) && sc.SessionCheck != SessionCheckCoordinator && (sc.SessionTimeoutMs < lo || sc.SessionTimeoutMs > hi) {
		return &groupError{"session_timeout_ms", fmt.Sprintf("group.session_timeout_ms %d is outside group.min.session.timeout.ms %d .. group.max.session.timeout.ms %d: the coordinator would answer INVALID_SESSION_TIMEOUT",
			sc.SessionTimeoutMs, lo, hi)}
	}
	if sc.HeartbeatIntervalMs >= sc.SessionTimeoutMs {
		return &groupError{"heartbeat_interval_ms", fmt.Sprintf("group.heartbeat_interval_ms (%d) must be lower than group.session_timeout_ms (%d)",
			sc.HeartbeatIntervalMs, sc.SessionTimeoutMs)}
	}
	if msg := epochKeyError(sc.givenEpochKey, sc); msg != "" {
		return &groupError{sc.givenEpochKey, msg}
	}
	return nil
}

// derive settles the group's derived fields (deriveGroup); a fault is
// reported at the node of the key it is about (nodes), else at at.
func (p *parser) derive(sc *Scenario, at *yaml.Node, nodes map[string]*yaml.Node) error {
	gerr := deriveGroup(sc)
	if gerr == nil {
		return nil
	}
	return p.errf(orNode(nodes[gerr.field], at), "%s", gerr.msg)
}

func orNode(n, fallback *yaml.Node) *yaml.Node {
	if n != nil {
		return n
	}
	return fallback
}

func protocolList(a strategies.Assignor) string {
	var out []string
	for _, p := range a.Protocols() {
		out = append(out, string(p))
	}
	return strings.Join(out, " and ")
}

// applyTimeoutDefaults fills Kafka's defaults for the settings not given. The
// consumer protocol's heartbeat is the broker's
// group.consumer.heartbeat.interval.ms (5000).
func applyTimeoutDefaults(sc *Scenario, set map[string]int64) {
	def := map[string]int64{"session_timeout_ms": 45000, "heartbeat_interval_ms": 3000,
		"max_poll_interval_ms": 300000, "initial_rebalance_delay_ms": 3000}
	if sc.Protocol == string(kafka.ProtocolConsumer) {
		def["heartbeat_interval_ms"] = 5000
	}
	get := func(k string) int64 {
		if v, ok := set[k]; ok {
			return v
		}
		return def[k]
	}
	sc.SessionTimeoutMs = get("session_timeout_ms")
	sc.HeartbeatIntervalMs = get("heartbeat_interval_ms")
	sc.MaxPollIntervalMs = get("max_poll_interval_ms")
	if v, ok := set["initial_rebalance_delay_ms"]; ok {
		sc.InitialRebalanceDelayMs = v
	} else {
		sc.InitialRebalanceDelayMs = def["initial_rebalance_delay_ms"]
	}
}
