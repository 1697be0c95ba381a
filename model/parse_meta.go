package model

import "go.yaml.in/yaml/v3"

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

// lab reads the lab hints: `lab: {open: compare}`.
func (p *parser) lab(n *yaml.Node, sc *Scenario) error {
	return p.fields(n, "lab", []string{"open"}, func(_ string, _, v *yaml.Node) error {
		valid := make([]string, len(LabOpens))
		for i, o := range LabOpens {
			valid[i] = string(o)
		}
		o, err := p.oneOf(v, "lab.open", valid)
		sc.Open = LabOpen(o)
		return err
	})
}
