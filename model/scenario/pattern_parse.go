package scenario

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// patternMember finishes a member or join with a pattern: its Topics are
// what the pattern matches among the scenario's topics at time 0 (what the
// lab lists; the engine matches again whenever the member would, as
// Kafka's client and coordinator do).
func (p *parser) patternMember(m *MemberSpec, what string, n *yaml.Node, sc *Scenario) error {
	if sc.GivenStart() && what == "members" {
		return p.errf(n, "%s.pattern: a given start holds explicit subscriptions; a pattern member joins on the timeline or starts a group that starts empty", what)
	}
	if CheckPattern(m.Settings.Pattern, PatternSyntax(sc.MemberProtocol(m.Settings))) != "" {
		return nil // CheckSettings says why, at this line
	}
	re, err := CompilePattern(m.Settings.Pattern)
	if err != nil {
		return p.errf(n, "%s.pattern: %v", what, err)
	}
	m.Topics = MatchTopics(re, sc.Topics)
	return nil
}

// topicEvent reads create_topic {topic, partitions} and delete_topic (a
// topic name, or {topic}).
func (p *parser) topicEvent(ev *Event, v *yaml.Node) error {
	what := ev.Kind
	if ev.Kind == "delete_topic" && v.Kind == yaml.ScalarNode {
		t, err := p.str(v, what)
		ev.Topic = t
		return err
	}
	keys := []string{"topic"}
	if ev.Kind == "create_topic" {
		keys = append(keys, "partitions")
	}
	err := p.fields(v, what, keys, func(key string, _, x *yaml.Node) error {
		var err error
		if key == "topic" {
			if ev.Topic, err = p.str(x, what+".topic"); err == nil {
				if bad := validTopicName(ev.Topic); bad != nil {
					err = p.errf(x, "%s: %v", what, bad)
				}
			}
		} else {
			var c int64
			c, err = p.int64(x, what+".partitions", 1, kafka.MaxPartitions)
			ev.Count = int32(c)
		}
		return err
	})
	if err == nil && (ev.Topic == "" || ev.Kind == "create_topic" && ev.Count == 0) {
		if ev.Kind == "create_topic" {
			return p.errf(v, "create_topic needs topic and partitions, like {topic: orders-3, partitions: 3}")
		}
		return p.errf(v, "delete_topic needs a topic, like delete_topic: orders-1")
	}
	return err
}

// createdTopics is the topics a timeline node's create_topic entries name.
func createdTopics(n *yaml.Node) map[string]bool {
	var out map[string]bool
	for _, e := range n.Content {
		if e.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(e.Content); i += 2 {
			if k, v := e.Content[i], e.Content[i+1]; k.Value == "create_topic" && v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					if v.Content[j].Value == "topic" {
						if out == nil {
							out = map[string]bool{}
						}
						out[v.Content[j+1].Value] = true
					}
				}
			}
		}
	}
	return out
}

// checkTopicEvent is CheckEvent for create_topic and delete_topic.
func checkTopicEvent(sc *Scenario, ev Event) error {
	if sc.Flow != nil {
		return fmt.Errorf("%s: kviz's data path (producers, readers) does not model topics created or deleted during the run; drop the producers or the %s", ev.Kind, ev.Kind)
	}
	if err := validTopicName(ev.Topic); err != nil {
		return fmt.Errorf("%s: %v", ev.Kind, err)
	}
	if ev.Topic == "__consumer_offsets" {
		return fmt.Errorf("%s: __consumer_offsets is Kafka's internal offsets topic", ev.Kind)
	}
	counts := TopicsBefore(sc, ev)
	_, exists := counts[ev.Topic]
	if ev.Kind == "create_topic" {
		if ev.Count < 1 || ev.Count > kafka.MaxPartitions {
			return fmt.Errorf("create_topic.partitions must be between 1 and %d, got %d", kafka.MaxPartitions, ev.Count)
		}
		if exists {
			return fmt.Errorf("create_topic: topic %q already exists at %d ms (CreateTopics answers TOPIC_ALREADY_EXISTS)", ev.Topic, ev.AtMs)
		}
		return nil
	}
	if !exists {
		return fmt.Errorf("delete_topic: no topic %q exists at %d ms (DeleteTopics answers UNKNOWN_TOPIC_OR_PARTITION)%s", ev.Topic, ev.AtMs, Suggest(ev.Topic, strategies.SortedTopics(counts)))
	}
	return nil
}

// checkSubscribePattern: a subscribe to a pattern is in the syntax of the
// member's protocol at that time.
func checkSubscribePattern(sc *Scenario, ev Event) error {
	s, _ := settingsBy(sc, ev.Member, ev.AtMs)
	syntax := PatternSyntax(sc.MemberProtocol(s))
	if why := CheckPattern(ev.Settings.Pattern, syntax); why != "" {
		return &PatternError{Member: ev.Member, Pattern: ev.Settings.Pattern, Syntax: syntax, Why: why}
	}
	return nil
}

// topicEventsWithFlow refuses create_topic and delete_topic in a scenario
// with a data path (read after the timeline).
func (p *parser) topicEventsWithFlow(sc *Scenario) error {
	if sc.Flow == nil {
		return nil
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "create_topic" || ev.Kind == "delete_topic" {
			return fmt.Errorf("%s:%d: %v", p.file, ev.line, checkTopicEvent(sc, ev))
		}
	}
	return nil
}
