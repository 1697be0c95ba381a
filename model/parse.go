package model

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/strategies"
	"go.yaml.in/yaml/v3"
)

// Limits that keep a typo from becoming an hour-long simulation.
const (
	maxBrokers           = 1000
	maxOffsetsPartitions = 10000
	maxMembers           = 5000
	maxTimelineMs        = 30 * 24 * 3600 * 1000 // a month of virtual time
)

// ParseScenario parses a scenario file; errors look like
// `scenario.yaml:12: unknown action "leav" (did you mean "leave"?)`.
func ParseScenario(filename string, data []byte) (*Scenario, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(filename, err)
	}
	p := &parser{file: filename}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s:1: the scenario is empty", filename)
	}
	sc, err := p.scenario(doc.Content[0])
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

type parser struct{ file string }

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
		if !contains(known, key) {
			return p.errf(k, "unknown key %q in %s%s", key, what, suggest(key, known))
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

var topKeys = []string{"name", "title", "notes", "seed", "cluster", "topics", "group", "members", "timeline"}

func (p *parser) scenario(root *yaml.Node) (*Scenario, error) {
	sc := &Scenario{File: p.file, Brokers: 3, OffsetsPartitions: 50, GroupID: "workshop",
		Strategy: "range", Topics: map[string]int32{}}
	var groupNode, membersNode, timelineNode *yaml.Node
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
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(sc.Topics) == 0 {
		return nil, p.errf(root, "the scenario needs topics, like topics: {t0: 3}")
	}
	if err := p.group(groupNode, root, sc); err != nil {
		return nil, err
	}
	if membersNode != nil {
		if err := p.members(membersNode, sc); err != nil {
			return nil, err
		}
	}
	if timelineNode != nil {
		if err := p.timeline(timelineNode, sc); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

func (p *parser) cluster(n *yaml.Node, sc *Scenario) error {
	return p.fields(n, "cluster", []string{"brokers", "offsets_partitions"}, func(key string, _, v *yaml.Node) error {
		switch key {
		case "brokers":
			b, err := p.int64(v, "cluster.brokers", 1, maxBrokers)
			sc.Brokers = int(b)
			return err
		default:
			o, err := p.int64(v, "cluster.offsets_partitions", 1, maxOffsetsPartitions)
			sc.OffsetsPartitions = int32(o)
			return err
		}
	})
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
		if _, dup := sc.Topics[name]; dup {
			return p.errf(k, "topic %q is listed twice", name)
		}
		c, err := p.int64(v, fmt.Sprintf("topics.%s", name), 1, strategies.MaxPartitions)
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

func isConsumer(sc *Scenario) bool { return sc.Protocol == string(strategies.Consumer) }

var groupKeys = []string{"id", "strategy", "protocol", "session_timeout_ms", "heartbeat_interval_ms",
	"max_poll_interval_ms", "initial_rebalance_delay_ms"}

func (p *parser) group(n, root *yaml.Node, sc *Scenario) error {
	var protoNode, strategyNode, sessionNode *yaml.Node
	set := map[string]int64{}
	if n != nil {
		err := p.fields(n, "group", groupKeys, func(key string, _, v *yaml.Node) error {
			var err error
			switch key {
			case "id":
				sc.GroupID, err = p.str(v, "group.id")
			case "strategy":
				strategyNode = v
				sc.Strategy, err = p.str(v, "group.strategy")
			case "protocol":
				protoNode = v
				sc.Protocol, err = p.str(v, "group.protocol")
			case "initial_rebalance_delay_ms":
				set[key], err = p.int64(v, "group."+key, 0, 24*3600*1000) // 0 is a common dev setting
			case "session_timeout_ms":
				sessionNode = v
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
	a, err := strategies.Lookup(sc.Strategy)
	if err != nil {
		return p.errf(orNode(strategyNode, at), "group.strategy: %v", err)
	}
	sc.Strategy = a.Name()
	if sc.Protocol == "" {
		sc.Protocol = defaultProtocol(a)
	}
	if !protocolSupported(a, sc.Protocol) {
		return p.errf(orNode(protoNode, at), "group.protocol: %s cannot run under the %s protocol (it supports %s)",
			sc.Strategy, sc.Protocol, protocolList(a))
	}
	applyTimeoutDefaults(sc, set)
	if !isConsumer(sc) && (sc.SessionTimeoutMs < minSessionMs || sc.SessionTimeoutMs > maxSessionMs) {
		return p.errf(orNode(sessionNode, at), "group.session_timeout_ms %d is outside group.min.session.timeout.ms %d .. group.max.session.timeout.ms %d: the coordinator would answer INVALID_SESSION_TIMEOUT",
			sc.SessionTimeoutMs, minSessionMs, maxSessionMs)
	}
	if sc.HeartbeatIntervalMs >= sc.SessionTimeoutMs {
		return p.errf(at, "group.heartbeat_interval_ms (%d) must be lower than group.session_timeout_ms (%d)",
			sc.HeartbeatIntervalMs, sc.SessionTimeoutMs)
	}
	return nil
}

func orNode(n, fallback *yaml.Node) *yaml.Node {
	if n != nil {
		return n
	}
	return fallback
}

// defaultProtocol is the protocol a strategy runs under unless told: the
// server-side assignors need KIP-848, the others Kafka's highest common one.
func defaultProtocol(a strategies.Assignor) string {
	ps := a.Protocols()
	if len(ps) == 0 {
		return string(strategies.Eager)
	}
	return string(ps[len(ps)-1])
}

func protocolSupported(a strategies.Assignor, proto string) bool {
	for _, p := range a.Protocols() {
		if string(p) == proto {
			return true
		}
	}
	return false
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
	if sc.Protocol == string(strategies.Consumer) {
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

var memberKeys = []string{"id", "topics", "instance", "strategies"}

func (p *parser) members(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "members must be a list, like - {id: c1}")
	}
	if len(n.Content) > maxMembers {
		return p.errf(n, "at most %d members are supported, got %d", maxMembers, len(n.Content))
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
	}
	return nil
}

func (p *parser) memberSpec(n *yaml.Node, sc *Scenario, what string) (MemberSpec, error) {
	var m MemberSpec
	var idNode *yaml.Node
	err := p.fields(n, what, memberKeys, func(key string, k, v *yaml.Node) error {
		var err error
		switch key {
		case "id":
			idNode = v
			m.ID, err = p.str(v, what+".id")
		case "instance":
			m.Instance, err = p.str(v, what+".instance")
		case "topics":
			m.Topics, err = p.topicList(v, sc, what+".topics")
		case "strategies":
			m.Strategies, err = p.strategyList(v, sc, what+".strategies")
		}
		return err
	})
	if err != nil {
		return m, err
	}
	if m.ID == "" {
		return m, p.errf(orNode(idNode, n), "%s: every member needs an id", what)
	}
	if m.Topics == nil {
		m.Topics = strategies.SortedTopics(sc.Topics)
	}
	return m, nil
}

// strategyList reads a member's partition.assignment.strategy list.
func (p *parser) strategyList(n *yaml.Node, sc *Scenario, what string) ([]string, error) {
	if sc.Protocol == string(strategies.Consumer) {
		return nil, p.errf(n, "%s: under the consumer protocol the coordinator assigns (group.strategy); members have no assignor list", what)
	}
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
		if protocolSupported(a, string(strategies.Consumer)) && !protocolSupported(a, string(strategies.Eager)) {
			return nil, p.errf(n, "%s: %s is a server-side assignor (consumer protocol only)", what, a.Name())
		}
		if !contains(out, a.Name()) {
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
	known := strategies.SortedTopics(sc.Topics)
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if _, ok := sc.Topics[t]; !ok {
			return nil, p.errf(n, "%s: unknown topic %q%s", what, t, suggest(t, known))
		}
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

func (p *parser) timeline(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "timeline must be a list, like - {at_ms: 60000, join: {id: c3}}")
	}
	known := map[string]bool{}
	for _, m := range sc.Members {
		known[m.ID] = true
	}
	for _, c := range n.Content {
		ev, err := p.event(c, sc)
		if err != nil {
			return err
		}
		sc.Timeline = append(sc.Timeline, ev)
	}
	sort.SliceStable(sc.Timeline, func(i, j int) bool { return sc.Timeline[i].AtMs < sc.Timeline[j].AtMs })
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" {
			known[ev.Member] = true
			continue
		}
		if ev.Member != "" && !known[ev.Member] {
			return fmt.Errorf("%s:%d: %s: no member %q has joined by %d ms%s", p.file, ev.line, ev.Kind,
				ev.Member, ev.AtMs, suggest(ev.Member, sortedKeys(known)))
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (p *parser) event(n *yaml.Node, sc *Scenario) (Event, error) {
	ev := Event{line: n.Line}
	if n.Kind != yaml.MappingNode {
		return ev, p.errf(n, "a timeline entry must look like {at_ms: 1000, leave: c1}")
	}
	var action, atNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == "at_ms":
			if atNode != nil {
				return ev, p.errf(k, "at_ms is given twice")
			}
			atNode = k
			t, err := p.int64(v, "at_ms", 0, maxTimelineMs)
			if err != nil {
				return ev, err
			}
			ev.AtMs = t
		case contains(EventKinds, k.Value):
			if action != nil {
				return ev, p.errf(k, "one action per timeline entry: %s and %s", action.Value, k.Value)
			}
			action = k
			ev.Kind = k.Value
			if err := p.action(&ev, v, sc); err != nil {
				return ev, err
			}
		default:
			return ev, p.errf(k, "unknown action %q%s", k.Value, suggest(k.Value, append([]string{"at_ms"}, EventKinds...)))
		}
	}
	if atNode == nil {
		return ev, p.errf(n, "this timeline entry needs at_ms")
	}
	if action == nil {
		return ev, p.errf(n, "this timeline entry needs an action (%s)", strings.Join(EventKinds, ", "))
	}
	return ev, nil
}

// action reads the value of one timeline action into ev.
func (p *parser) action(ev *Event, v *yaml.Node, sc *Scenario) error {
	what := ev.Kind
	switch ev.Kind {
	case "leave", "crash", "restart":
		id, err := p.memberRef(v, what)
		ev.Member = id
		return err
	case "commit":
		if v.Kind == yaml.ScalarNode {
			id, err := p.memberRef(v, what)
			ev.Member = id
			return err
		}
		return p.fields(v, what, []string{"id", "generation"}, func(key string, _, x *yaml.Node) error {
			if key == "id" {
				id, err := p.memberRef(x, what+".id")
				ev.Member = id
				return err
			}
			g, err := p.int64(x, what+".generation", -1, math.MaxInt32)
			g32 := int32(g)
			ev.Generation = &g32
			return err
		})
	case "join":
		m, err := p.memberSpec(v, sc, what)
		ev.Member, ev.Topics, ev.Instance, ev.Strategies = m.ID, m.Topics, m.Instance, m.Strategies
		return err
	case "stall":
		return p.stall(ev, v)
	case "subscribe":
		return p.subscribe(ev, v, sc)
	case "add_partitions":
		return p.addPartitions(ev, v, sc)
	default: // fail_broker, recover_broker
		b, err := p.int64(v, what, 0, int64(sc.Brokers-1))
		ev.Broker = int(b)
		return err
	}
}

func (p *parser) memberRef(v *yaml.Node, what string) (string, error) {
	if v.Kind == yaml.MappingNode {
		var id string
		err := p.fields(v, what, []string{"id"}, func(_ string, _, x *yaml.Node) error {
			var err error
			id, err = p.str(x, what+".id")
			return err
		})
		if err == nil && id == "" {
			err = p.errf(v, "%s needs a member id", what)
		}
		return id, err
	}
	id, err := p.str(v, what)
	if err == nil && id == "" {
		err = p.errf(v, "%s needs a member id", what)
	}
	return id, err
}

func (p *parser) stall(ev *Event, v *yaml.Node) error {
	err := p.fields(v, "stall", []string{"id", "ms"}, func(key string, _, x *yaml.Node) error {
		var err error
		if key == "id" {
			ev.Member, err = p.str(x, "stall.id")
		} else {
			ev.Ms, err = p.int64(x, "stall.ms", 1, maxTimelineMs)
		}
		return err
	})
	if err == nil && (ev.Member == "" || ev.Ms == 0) {
		err = p.errf(v, "stall needs id and ms, like {id: c2, ms: 400000}")
	}
	return err
}

func (p *parser) subscribe(ev *Event, v *yaml.Node, sc *Scenario) error {
	err := p.fields(v, "subscribe", []string{"id", "topics"}, func(key string, _, x *yaml.Node) error {
		var err error
		if key == "id" {
			ev.Member, err = p.str(x, "subscribe.id")
		} else {
			ev.Topics, err = p.topicList(x, sc, "subscribe.topics")
		}
		return err
	})
	if err == nil && (ev.Member == "" || ev.Topics == nil) {
		err = p.errf(v, "subscribe needs id and topics, like {id: c2, topics: [t0, t1]}")
	}
	return err
}

func (p *parser) addPartitions(ev *Event, v *yaml.Node, sc *Scenario) error {
	var countNode *yaml.Node
	err := p.fields(v, "add_partitions", []string{"topic", "count"}, func(key string, _, x *yaml.Node) error {
		var err error
		if key == "topic" {
			ev.Topic, err = p.str(x, "add_partitions.topic")
			if err == nil {
				if _, ok := sc.Topics[ev.Topic]; !ok {
					err = p.errf(x, "add_partitions: unknown topic %q%s", ev.Topic, suggest(ev.Topic, strategies.SortedTopics(sc.Topics)))
				}
			}
		} else {
			countNode = x
			var c int64
			c, err = p.int64(x, "add_partitions.count", 1, strategies.MaxPartitions)
			ev.Count = int32(c)
		}
		return err
	})
	if err != nil {
		return err
	}
	if ev.Topic == "" || countNode == nil {
		return p.errf(v, "add_partitions needs topic and count (the new total), like {topic: t0, count: 6}")
	}
	return nil
}
