package scenario

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

var readerKeys = append([]string{"group", "topics", "at_ms"}, consumerKeys...)

// readers reads `readers:`, other groups reading the topics:
// - {group: B, topics: [t0], at_ms: 30000, auto_offset_reset: earliest}.
func (p *parser) readers(n *yaml.Node, sc *Scenario) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "readers must be a list, like - {group: B, at_ms: 30000, auto_offset_reset: earliest}")
	}
	seen := map[string]bool{}
	for i, c := range n.Content {
		r, err := p.reader(c, sc, "readers["+strconv.Itoa(i)+"]")
		if err != nil {
			return err
		}
		if r.Group == sc.GroupID || seen[r.Group] {
			return p.errf(c, "reader group %q is the scenario's group or another reader's: give each group its own id", r.Group)
		}
		seen[r.Group] = true
		p.flow.readers = append(p.flow.readers, r)
	}
	return nil
}

func (p *parser) reader(n *yaml.Node, sc *Scenario, what string) (ReaderSpec, error) {
	var r ReaderSpec
	var s consumerSettings
	err := p.fields(n, what, readerKeys, func(key string, _, v *yaml.Node) error {
		var err error
		switch key {
		case "group":
			r.Group, err = p.str(v, what+".group")
		case "topics":
			r.Topics, err = p.existingTopicList(v, sc, what+".topics")
		case "at_ms":
			r.AtMs, err = p.int64(v, what+".at_ms", 0, MaxTimelineMs)
		default:
			err = p.consumerKey(&s, key, what, v)
		}
		return err
	})
	if err != nil {
		return r, err
	}
	if r.Group == "" {
		return r, p.errf(n, "%s needs a group id, like {group: B}", what)
	}
	if r.Topics == nil {
		r.Topics = p.topicsOrAll(sc)
	}
	// Its own consumer: the scenario group's settings are not its.
	r.Consumer, err = p.config(consumerSettings{}, s, what)
	return r, err
}
