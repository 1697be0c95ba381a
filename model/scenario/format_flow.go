package scenario

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A given start of 10,000 members holds 500,000 partition numbers, each a
// node yaml.v3's emitter writes at a microsecond or two: most of `kviz live
// --scenario` at Kafka's scale (issue 21). The flow-style nodes (a member's
// line, a topic's partitions) are written here instead, when every scalar
// in them is one the emitter writes as it is (plainScalar), and yaml.v3
// writes the rest of the document around a placeholder for each. The bytes
// are the emitter's own: format_test.go holds every round trip to that.

// flowMark starts the placeholders; a document that names it anywhere is
// written by yaml.v3 alone.
const flowMark = "kvizflow"

// encodeFlows is encode with the flow nodes worth it written directly.
func encodeFlows(root *yaml.Node) ([]byte, error) {
	if mentions(root, flowMark) {
		return encode(root)
	}
	var flows []string
	type swap struct {
		parent *yaml.Node
		i      int
		was    *yaml.Node
	}
	var swaps []swap
	var scratch []byte // one buffer for every flow: 10,000 members' owned lists each grew their own
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for i, c := range n.Content {
			if c.Style&yaml.FlowStyle != 0 && (c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode) {
				b, ok := appendFlow(scratch[:0], c)
				scratch = b
				if ok {
					n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Value: flowMark + strconv.Itoa(len(flows)) + "z"}
					flows, swaps = append(flows, string(b)), append(swaps, swap{n, i, c})
					continue
				}
			}
			walk(c)
		}
	}
	walk(root)
	undo := func() *yaml.Node {
		for _, s := range swaps {
			s.parent.Content[s.i] = s.was
		}
		return root
	}
	out, err := encode(root)
	if err != nil || len(flows) == 0 {
		return out, err
	}
	var buf bytes.Buffer
	buf.Grow(len(out) + totalLen(flows))
	rest := out
	for k, f := range flows {
		mark := flowMark + strconv.Itoa(k) + "z"
		i := bytes.Index(rest, []byte(mark))
		if i < 0 { // (the emitter writes a plain scalar as it is: not seen)
			return encode(undo())
		}
		buf.Write(rest[:i])
		buf.WriteString(f)
		rest = rest[i+len(mark):]
	}
	buf.Write(rest)
	return buf.Bytes(), nil
}

func totalLen(ss []string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

// mentions reports whether any scalar of the tree contains s.
func mentions(n *yaml.Node, s string) bool {
	if strings.Contains(n.Value, s) {
		return true
	}
	for _, c := range n.Content {
		if mentions(c, s) {
			return true
		}
	}
	return false
}

// appendFlow writes a flow node on one line as yaml.v3's emitter does
// ("{k: v, k2: [1, 2]}", "{}", "[]"), or reports that some scalar in it
// is not plain enough to write without the emitter.
func appendFlow(b []byte, n *yaml.Node) ([]byte, bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		if !plainScalar(n) {
			return b, false
		}
		return append(b, n.Value...), true
	case yaml.SequenceNode, yaml.MappingNode:
		if n.Style&yaml.FlowStyle == 0 || n.Anchor != "" || n.Tag != "" && n.Tag != "!!seq" && n.Tag != "!!map" {
			return b, false
		}
		open, close := byte('['), byte(']')
		if n.Kind == yaml.MappingNode {
			open, close = '{', '}'
		}
		b = append(b, open)
		for i, c := range n.Content {
			switch {
			case i == 0:
			case n.Kind == yaml.MappingNode && i%2 == 1:
				b = append(b, ':', ' ')
			default:
				b = append(b, ',', ' ')
			}
			var ok bool
			if b, ok = appendFlow(b, c); !ok {
				return b, false
			}
		}
		return append(b, close), true
	}
	return b, false
}

// plainScalar: the emitter writes the scalar as its value, unquoted. Only
// what the formatter makes and is certainly plain: integers, and strings
// of letters, digits and "._~/-" that start with a letter or '_', are not
// a YAML boolean or null, and are short enough to be a simple key.
func plainScalar(n *yaml.Node) bool {
	if n.Style != 0 || n.Anchor != "" || len(n.Value) == 0 || len(n.Value) > 100 || len(n.HeadComment)+len(n.LineComment)+len(n.FootComment) > 0 {
		return false
	}
	v := n.Value
	switch n.Tag {
	case "":
		if v[0] == '-' {
			v = v[1:]
		}
		return v != "" && strings.Trim(v, "0123456789") == "" && (v == "0" || v[0] != '0')
	case "!!str":
		if c := v[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
		for i := 0; i < len(v); i++ {
			c := v[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '~' || c == '/' || c == '-') {
				return false
			}
		}
		switch strings.ToLower(v) {
		case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
			return false
		}
		return true
	}
	return false
}
