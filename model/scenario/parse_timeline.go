package scenario

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

func (p *parser) timeline(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "timeline must be a list, like - {at_ms: 60000, join: {id: c3}}")
	}
	p.created = createdTopics(n)
	for _, c := range n.Content {
		ev, err := p.event(c, sc)
		if err != nil {
			return err
		}
		if ev.Kind == "produce" {
			continue // the data path's, in p.flow.produces: the group never sees it
		}
		sc.Timeline = append(sc.Timeline, ev)
	}
	sort.SliceStable(sc.Timeline, func(i, j int) bool { return sc.Timeline[i].AtMs < sc.Timeline[j].AtMs })
	running, started := map[string]bool{}, map[string]bool{}
	for _, m := range sc.Members {
		running[m.ID], started[m.ID] = true, true
	}
	joined := 0 // the joins of sc.Timeline[:joined] are in started
	for _, ev := range sc.Timeline {
		for ; joined < len(sc.Timeline) && sc.Timeline[joined].AtMs <= ev.AtMs; joined++ {
			if j := sc.Timeline[joined]; j.Kind == "join" {
				started[j.Member] = true
			}
		}
		if err := checkEventAmong(sc, ev, started); err != nil {
			return fmt.Errorf("%s:%d: %v", p.file, ev.line, err)
		}
		if err := p.checkRunning(ev, running); err != nil {
			return err
		}
	}
	return nil
}

// checkRunning follows which members' processes run, as far as the
// timeline alone decides it, and refuses a leave or crash of one that does
// not: it would send nothing. (A member fenced during the simulation is
// caught when it runs: world.notRunning.)
func (p *parser) checkRunning(ev Event, running map[string]bool) error {
	switch ev.Kind {
	case "join", "restart":
		running[ev.Member] = true
	case "leave", "crash":
		if !running[ev.Member] {
			return fmt.Errorf("%s:%d: %s: %s is not running at %d ms (it left or crashed earlier; restart or join it first)",
				p.file, ev.line, ev.Kind, ev.Member, ev.AtMs)
		}
		running[ev.Member] = false
	}
	return nil
}

func (p *parser) event(n *yaml.Node, sc *Scenario) (Event, error) {
	ev := Event{line: n.Line}
	if n.Kind != yaml.MappingNode {
		return ev, p.errf(n, "a timeline entry must look like {at_ms: 1000, leave: c1}")
	}
	var action, atNode *yaml.Node
	var produced *ProduceEvent
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case k.Value == "at_ms":
			if atNode != nil {
				return ev, p.errf(k, "at_ms is given twice")
			}
			atNode = k
			t, err := p.int64(v, "at_ms", 0, MaxTimelineMs)
			if err != nil {
				return ev, err
			}
			ev.AtMs = t
		case slices.Contains(EventKinds, k.Value):
			if action != nil {
				return ev, p.errf(k, "one action per timeline entry: %s and %s", action.Value, k.Value)
			}
			action = k
			ev.Kind = k.Value
			if err := p.action(&ev, v, sc); err != nil {
				return ev, err
			}
		case slices.Contains(ShareEventKinds, k.Value): // share.go
			if action != nil {
				return ev, p.errf(k, "one action per timeline entry: %s and %s", action.Value, k.Value)
			}
			action, ev.Kind = k, k.Value
			if err := p.shareAction(&ev, v, sc); err != nil {
				return ev, err
			}
		case k.Value == "produce":
			if action != nil {
				return ev, p.errf(k, "one action per timeline entry: %s and %s", action.Value, k.Value)
			}
			action, ev.Kind = k, k.Value
			pe, err := p.produceEvent(v, sc, k.Line)
			if err != nil {
				return ev, err
			}
			produced = &pe
		default:
			return ev, p.errf(k, "unknown action %q%s", k.Value, Suggest(k.Value, append([]string{"at_ms", "produce"}, EventKinds...)))
		}
	}
	if atNode == nil {
		return ev, p.errf(n, "this timeline entry needs at_ms")
	}
	if action == nil {
		return ev, p.errf(n, "this timeline entry needs an action (%s)", strings.Join(EventKinds, ", "))
	}
	if produced != nil {
		produced.AtMs = ev.AtMs
		p.flow.produces = append(p.flow.produces, *produced)
	}
	return ev, nil
}

// action reads the value of one timeline action into ev.
func (p *parser) action(ev *Event, v *yaml.Node, sc *Scenario) error {
	what := ev.Kind
	switch ev.Kind {
	case "leave", "crash", "wakeup":
		id, err := p.memberRef(v, what)
		ev.Member = id
		return err
	case "restart":
		if v.Kind != yaml.MappingNode {
			id, err := p.memberRef(v, what)
			ev.Member = id
			return err
		}
		// restart: {id: c1, protocol: consumer}: a rolling upgrade.
		return p.fields(v, what, []string{"id", "protocol"}, func(key string, _, x *yaml.Node) error {
			if key == "protocol" {
				return p.memberSetting(&ev.Settings, "protocol", what, x)
			}
			id, err := p.memberRef(x, what+".id")
			ev.Member = id
			return err
		})
	case "disconnect":
		err := p.fields(v, what, []string{"id", "ms"}, func(key string, _, x *yaml.Node) error {
			var err error
			if key == "id" {
				ev.Member, err = p.memberRef(x, what+".id")
			} else {
				ev.Ms, err = p.int64(x, what+".ms", 1, MaxTimelineMs)
			}
			return err
		})
		if err == nil && (ev.Member == "" || ev.Ms == 0) {
			err = p.errf(v, "disconnect needs id and ms, like {id: c2, ms: 60000}")
		}
		return err
	case "remove_members":
		if v.Kind == yaml.ScalarNode && v.Value == "all" {
			ev.All = true
			return nil
		}
		err := p.fields(v, what, []string{"instances"}, func(_ string, _, x *yaml.Node) error {
			var err error
			ev.Instances, err = p.strList(x, what+".instances")
			return err
		})
		if err == nil && len(ev.Instances) == 0 {
			err = p.errf(v, "remove_members needs the group.instance.ids to remove, like {instances: [i1]}, or all")
		}
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
		ev.Member, ev.Topics, ev.Instance, ev.Strategies, ev.Rack, ev.Settings = m.ID, m.Topics, m.Instance, m.Strategies, m.Rack, m.Settings
		ev.Client = m.Client
		return err
	case "stall":
		return p.stall(ev, v)
	case "subscribe":
		return p.subscribe(ev, v, sc)
	case "add_partitions":
		return p.addPartitions(ev, v, sc)
	case "create_topic", "delete_topic":
		return p.topicEvent(ev, v)
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
			ev.Ms, err = p.int64(x, "stall.ms", 1, MaxTimelineMs)
		}
		return err
	})
	if err == nil && (ev.Member == "" || ev.Ms == 0) {
		err = p.errf(v, "stall needs id and ms, like {id: c2, ms: 400000}")
	}
	return err
}

func (p *parser) subscribe(ev *Event, v *yaml.Node, sc *Scenario) error {
	var patternNode *yaml.Node
	err := p.fields(v, "subscribe", []string{"id", "topics", "pattern"}, func(key string, _, x *yaml.Node) error {
		var err error
		switch key {
		case "id":
			ev.Member, err = p.str(x, "subscribe.id")
		case "pattern":
			patternNode = x
			ev.Settings.Pattern, err = p.str(x, "subscribe.pattern")
		default:
			ev.Topics, err = p.topicList(x, sc, "subscribe.topics")
		}
		return err
	})
	if err == nil && patternNode != nil {
		if ev.Topics != nil {
			return p.errf(v, "subscribe: give topics or pattern, not both")
		}
		return nil
	}
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
				if _, ok := sc.Topics[ev.Topic]; !ok && !p.created[ev.Topic] {
					err = p.errf(x, "add_partitions: unknown topic %q%s", ev.Topic, Suggest(ev.Topic, strategies.SortedTopics(sc.Topics)))
				}
			}
		} else {
			countNode = x
			var c int64
			c, err = p.int64(x, "add_partitions.count", 1, kafka.MaxPartitions)
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
