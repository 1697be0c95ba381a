package scenario

import (
	"go.yaml.in/yaml/v3"
)

// maxExample is the last worked example in SEED-EXAMPLES.md.
const maxExample = 19

// examples reads `examples: [7]` (or `examples: 7`): the worked examples a
// scenario shows, each once.
func (p *parser) examples(n *yaml.Node) ([]int, error) {
	items := n.Content
	switch {
	case n.Kind == yaml.ScalarNode && !isNull(n):
		items = []*yaml.Node{n}
	case n.Kind != yaml.SequenceNode:
		return nil, p.errf(n, "examples must list worked example numbers, like [7]")
	}
	var out []int
	for _, x := range items {
		e, err := p.int64(x, "examples", 1, maxExample)
		if err != nil {
			return nil, err
		}
		for _, seen := range out {
			if seen == int(e) {
				return nil, p.errf(x, "example %d is listed twice", e)
			}
		}
		out = append(out, int(e))
	}
	return out, nil
}

// lab reads the lab hints: `lab: {open: compare, pane: brokers}`.
func (p *parser) lab(n *yaml.Node, sc *Scenario) error {
	return p.fields(n, "lab", []string{"open", "pane"}, func(key string, _, v *yaml.Node) error {
		if key == "pane" {
			valid := make([]string, len(LabPanes))
			for i, o := range LabPanes {
				valid[i] = string(o)
			}
			o, err := p.oneOf(v, "lab.pane", valid)
			sc.Pane = LabPane(o)
			p.paneNode = v
			return err
		}
		valid := make([]string, len(LabOpens))
		for i, o := range LabOpens {
			valid[i] = string(o)
		}
		o, err := p.oneOf(v, "lab.open", valid)
		sc.Open = LabOpen(o)
		return err
	})
}

// checkPane refuses a data pane in a scenario without a data path: the
// lab has no such pane to open.
func (p *parser) checkPane(sc *Scenario) error {
	if (sc.Pane == PaneProducers || sc.Pane == PaneBrokers) && sc.Flow == nil {
		return p.errf(p.paneNode, "lab.pane %s needs a data path: producers:, readers: or a produce entry in the timeline", sc.Pane)
	}
	return nil
}

// assignmentInterval reads group.assignment_interval_ms, the group config
// consumer.assignment.interval.ms, within the broker's bounds
// group.consumer.min/max.assignment.interval.ms (consumer_batching.go).
func (p *parser) assignmentInterval(n *yaml.Node) (int64, error) {
	return p.int64(n, "group."+assignmentIntervalKey+" (between group.consumer.min.assignment.interval.ms and group.consumer.max.assignment.interval.ms)",
		minAssignmentIntervalMs, maxAssignmentIntervalMs)
}

// assignmentIntervalApplies refuses group.assignment_interval_ms where no
// coordinator reads it: the classic protocol, or a release before 4.3
// (KAFKA-20291). n is the key's value (nil: not given).
func (p *parser) assignmentIntervalApplies(n *yaml.Node, sc *Scenario) error {
	switch {
	case n == nil:
		return nil
	case !IsConsumer(sc):
		return p.errf(n, "group.%s is the consumer protocol's consumer.assignment.interval.ms; the %s protocol has no assignment interval", assignmentIntervalKey, sc.Protocol)
	case !sc.KafkaVersion.BatchesAssignments():
		return p.errf(n, "group.%s: Kafka %s computes a target on every group-epoch bump; consumer.assignment.interval.ms exists from Kafka 4.3 (KAFKA-20291): set group.kafka_version to 4.3",
			assignmentIntervalKey, sc.KafkaVersion.OrLatest())
	}
	return nil
}
