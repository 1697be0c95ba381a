package scenario

import "go.yaml.in/yaml/v3"

// fastTree reads the plain subset of YAML that generated and exported
// scenario files are written in (scripts/scalegen, Format, a live
// import) into the node tree yaml.v3 would build for it, several times
// faster: a Kafka-scale given start lists 500,000 partitions, and the
// library's scanner, events and one allocation per node took seconds over
// them (issue 21). The subset: block mappings and sequences indented with
// spaces, flow mappings and sequences on one line, plain scalars of
// letters, digits and _ . - / (with * and ~ inside a word, and inner spaces in block context), quoted
// scalars without escapes, comment lines before the first content. On
// anything else it answers ok false and Parse asks yaml.v3, so every
// error is the library's own and every tree the same (parse_fast_test.go
// compares the two on every demo and under fuzzing); comments, which the
// parser never reads, are left out of the tree.
func fastTree(data []byte) (root *yaml.Node, lazy map[*yaml.Node]lazyMap, ok bool) {
	for _, b := range data {
		if (b < 0x20 || b > 0x7e) && b != '\n' {
			return nil, nil, false // tabs, CRs, UTF-8, control bytes: the library's
		}
	}
	f := &fastYAML{src: string(data), line: 1}
	defer func() {
		if recover() != nil { // a subset this reader does not take (bail)
			root, lazy, ok = nil, nil, false
		}
	}()
	// Comment lines (and blank ones) may open the file.
	for {
		f.spaces()
		if f.at('#') {
			f.toEOL()
		}
		if !f.at('\n') {
			break
		}
		f.newline()
	}
	if f.eof() || f.col() != 1 {
		return nil, nil, false
	}
	f.root = true
	root = f.block()
	if !f.eof() {
		return nil, nil, false
	}
	return root, f.lazy, true
}

// bail is fastTree's "not in the subset": the library reads the file.
type bail struct{}

func fail() { panic(bail{}) }

type fastYAML struct {
	src       string
	i         int // the next byte
	line      int // its line, 1-based
	lineStart int // the offset of its line's first byte
	depth     int
	nodes     []yaml.Node  // allocated a slab at a time
	ptrs      []*yaml.Node // the collections' Content, a slab at a time
	stack     []*yaml.Node // the children of the collections being read
	// root: the next block mapping is the document's; members: the
	// collection being read is the root's members: list, or one of its
	// entries (members > 1).
	root    bool
	members int
	lazy    map[*yaml.Node]lazyMap
}

const (
	fastSlab     = 4096
	fastMaxDepth = 64
	// fastMaxKey stays below the library's simple-key limit (a key is
	// no key 1,024 bytes on).
	fastMaxKey = 1000
)

func (f *fastYAML) eof() bool       { return f.i >= len(f.src) }
func (f *fastYAML) at(c byte) bool  { return f.i < len(f.src) && f.src[f.i] == c }
func (f *fastYAML) peek(k int) byte { return f.byteAt(f.i + k) }
func (f *fastYAML) col() int        { return f.i - f.lineStart + 1 }
func (f *fastYAML) byteAt(j int) byte {
	if j < len(f.src) {
		return f.src[j]
	}
	return 0
}

func (f *fastYAML) spaces() {
	for f.at(' ') {
		f.i++
	}
}

func (f *fastYAML) toEOL() {
	for !f.eof() && f.src[f.i] != '\n' {
		f.i++
	}
}

func (f *fastYAML) newline() {
	f.i++
	f.line++
	f.lineStart = f.i
}

// blankOrEOL: a space, a line end or the end (what must follow ':' and '-').
func (f *fastYAML) blankAfter(k int) bool {
	c := f.peek(k)
	return c == ' ' || c == '\n' || c == 0
}

// endLine finishes a line whose content is read: trailing spaces, then
// the line's end; it moves to the next line with content (blank lines
// skipped) and returns its column, 0 at the end of the file.
func (f *fastYAML) endLine() int {
	f.spaces()
	if !f.eof() && !f.at('\n') {
		fail() // a comment, or more on the line
	}
	for !f.eof() {
		f.newline()
		f.spaces()
		if f.eof() {
			break
		}
		if !f.at('\n') {
			if f.at('#') {
				fail()
			}
			return f.col()
		}
	}
	return 0
}

func (f *fastYAML) node(kind yaml.Kind, tag string, style yaml.Style, value string, line, col int) *yaml.Node {
	if len(f.nodes) == 0 {
		f.nodes = make([]yaml.Node, fastSlab)
	}
	n := &f.nodes[0]
	f.nodes = f.nodes[1:]
	n.Kind, n.Tag, n.Style, n.Value, n.Line, n.Column = kind, tag, style, value, line, col
	return n
}

// content moves the children stacked from mark on into n.Content.
func (f *fastYAML) content(n *yaml.Node, mark int) {
	kids := f.stack[mark:]
	if len(kids) > len(f.ptrs) {
		f.ptrs = make([]*yaml.Node, max(fastSlab, len(kids)))
	}
	k := len(kids)
	copy(f.ptrs, kids)
	n.Content = f.ptrs[:k:k] // capped: an append elsewhere copies
	f.ptrs = f.ptrs[k:]
	clear(kids)
	f.stack = f.stack[:mark]
}

func (f *fastYAML) enter() {
	if f.depth++; f.depth > fastMaxDepth {
		fail()
	}
}

// block reads the block collection starting at the current byte and
// returns with the reader at the next line with content whose column is
// at most the collection's.
func (f *fastYAML) block() *yaml.Node {
	if f.at('-') && f.blankAfter(1) {
		return f.blockSeq()
	}
	return f.blockMap()
}

func (f *fastYAML) blockMap() *yaml.Node {
	f.enter()
	root := f.root
	f.root = false
	entry := f.members == 1 // a member's mapping
	f.members = 0
	c := f.col()
	n := f.node(yaml.MappingNode, "!!map", 0, "", f.line, c)
	mark := len(f.stack)
	for {
		start := f.i
		k := f.scalar(blockKey)
		if !f.at(':') || !f.blankAfter(1) || f.i-start >= fastMaxKey {
			fail()
		}
		f.i++
		f.stack = append(f.stack, k)
		f.spaces()
		var next int
		if f.eof() || f.at('\n') {
			next = f.endLine()
			if root && k.Value == "members" {
				f.members = 1
			}
			switch {
			case next > c:
				f.stack = append(f.stack, f.block())
			case next == c && f.at('-') && f.blankAfter(1):
				f.stack = append(f.stack, f.blockSeq()) // indentless, as `members:\n- id: c1`
			default:
				fail() // an empty value
			}
			next = f.colOrZero()
		} else {
			f.stack = append(f.stack, f.entryValue(entry, k))
			next = f.endLine()
		}
		f.members = 0
		if next < c {
			break
		}
		if next > c {
			fail()
		}
	}
	f.content(n, mark)
	f.depth--
	return n
}

// entryValue is a value on the key's line: in a member's entry, a
// partition map (owned, target, revoking) read lazily when it is one.
func (f *fastYAML) entryValue(entry bool, k *yaml.Node) *yaml.Node {
	if entry && f.at('{') && partitionKey(k.Value) {
		if n := f.lazyPartitions(); n != nil {
			return n
		}
	}
	return f.inline()
}

// partitionKey: a member's key whose value is a partition map.
func partitionKey(k string) bool { return k == "owned" || k == "target" || k == "revoking" }

// colOrZero is the current column, 0 at the end of the file.
func (f *fastYAML) colOrZero() int {
	if f.eof() {
		return 0
	}
	return f.col()
}

func (f *fastYAML) blockSeq() *yaml.Node {
	f.enter()
	list := f.members == 1
	f.members = 0
	c := f.col()
	n := f.node(yaml.SequenceNode, "!!seq", 0, "", f.line, c)
	mark := len(f.stack)
	for {
		f.i++ // '-'
		if !f.at(' ') {
			fail() // an empty entry
		}
		f.spaces()
		var next int
		if f.isKey() {
			if list {
				f.members = 1
			}
			f.stack = append(f.stack, f.blockMap())
			next = f.colOrZero()
		} else {
			if f.at('-') || f.at('\n') || f.eof() {
				fail()
			}
			if list && f.at('{') {
				f.stack = append(f.stack, f.flowMapOf(true))
			} else {
				f.stack = append(f.stack, f.inline())
			}
			next = f.endLine()
		}
		if next < c {
			break
		}
		if next > c {
			fail()
		}
		if !f.at('-') || !f.blankAfter(1) {
			break // the next key of the mapping this sequence is indentless in
		}
	}
	f.content(n, mark)
	f.depth--
	return n
}

// isKey: the line goes on with a scalar and ':' (a mapping entry).
func (f *fastYAML) isKey() (key bool) {
	i, line, lineStart := f.i, f.line, f.lineStart
	defer func() {
		recover() // not a scalar: no key
		f.i, f.line, f.lineStart = i, line, lineStart
	}()
	f.scalar(blockKey) // (its node is dropped)
	return f.at(':') && f.blankAfter(1)
}

// inline reads a value on the rest of a line in block context.
func (f *fastYAML) inline() *yaml.Node {
	switch {
	case f.at('{'):
		return f.flowMap()
	case f.at('['):
		return f.flowSeq()
	}
	return f.scalar(blockValue)
}

func (f *fastYAML) flowSpaces() {
	f.spaces()
	if f.eof() || f.at('\n') || f.at('#') {
		fail() // a flow collection over lines: the library's
	}
}

func (f *fastYAML) flowValue() *yaml.Node {
	switch {
	case f.at('{'):
		return f.flowMap()
	case f.at('['):
		return f.flowSeq()
	}
	return f.scalar(inFlow)
}

func (f *fastYAML) flowSeq() *yaml.Node {
	f.enter()
	n := f.node(yaml.SequenceNode, "!!seq", yaml.FlowStyle, "", f.line, f.col())
	f.i++
	mark := len(f.stack)
	for {
		f.flowSpaces()
		if f.at(']') {
			break
		}
		f.stack = append(f.stack, f.flowValue())
		f.flowSpaces()
		if f.at(',') {
			f.i++
			continue
		}
		if !f.at(']') {
			fail() // `k: v` entries, a missing comma
		}
		break
	}
	f.i++
	f.content(n, mark)
	f.depth--
	return n
}

func (f *fastYAML) flowMap() *yaml.Node { return f.flowMapOf(false) }

// flowMapOf reads a flow mapping, a member's entry when entry says so.
func (f *fastYAML) flowMapOf(entry bool) *yaml.Node {
	f.enter()
	n := f.node(yaml.MappingNode, "!!map", yaml.FlowStyle, "", f.line, f.col())
	f.i++
	mark := len(f.stack)
	for {
		f.flowSpaces()
		if f.at('}') {
			break
		}
		start := f.i
		k := f.scalar(inFlow)
		f.stack = append(f.stack, k)
		if !f.at(':') || f.peek(1) != ' ' || f.i-start >= fastMaxKey {
			fail()
		}
		f.i++
		f.flowSpaces()
		if f.at(',') || f.at('}') {
			fail() // an empty value
		}
		var v *yaml.Node
		if entry && f.at('{') && partitionKey(k.Value) {
			v = f.lazyPartitions()
		}
		if v == nil {
			v = f.flowValue()
		}
		f.stack = append(f.stack, v)
		f.flowSpaces()
		if f.at(',') {
			f.i++
			continue
		}
		if !f.at('}') {
			fail()
		}
		break
	}
	f.i++
	f.content(n, mark)
	f.depth--
	return n
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '/' || c == '*' || c == '~' // '*' and '~' only within: plainStart refuses an alias and a null
}

// Where a scalar is: a flow collection's, a block mapping's key, or a
// value in block context (which may hold words and most punctuation, as
// a title or notes do).
const (
	inFlow = iota
	blockKey
	blockValue
)

// valueByte: a byte a block value may go on with (a ':' or '#' leaves
// the value to the library).
func valueByte(c byte) bool { return c > ' ' && c <= '~' && c != ':' && c != '#' }

// scalar reads a quoted or plain scalar; in block context a plain one
// may hold spaces between its words.
func (f *fastYAML) scalar(where int) *yaml.Node {
	line, col := f.line, f.col()
	if q := f.peek(0); q == '"' || q == '\'' {
		return f.quoted(q, line, col)
	}
	if f.eof() || !plainStart(f.src[f.i:min(f.i+2, len(f.src))]) {
		fail()
	}
	more := plainByte
	if where == blockValue {
		more = valueByte
	}
	start := f.i
	var end int
	for {
		for f.i < len(f.src) && more(f.src[f.i]) {
			f.i++
		}
		end = f.i
		if where == inFlow || !f.at(' ') {
			break
		}
		j := f.i
		for f.byteAt(j) == ' ' {
			j++
		}
		if !more(f.byteAt(j)) {
			break
		}
		f.i = j
	}
	v := f.src[start:end]
	tag := plainTag(v)
	if tag == "" {
		fail()
	}
	return f.node(yaml.ScalarNode, tag, 0, v, line, col)
}

// quoted reads a scalar in quotes on one line: double quotes without a
// backslash escape, single quotes with ” for a quote.
func (f *fastYAML) quoted(q byte, line, col int) *yaml.Node {
	start := f.i + 1
	j := start
	var b []byte // the value, once a '' makes it differ from the text
	for {
		for j < len(f.src) && f.src[j] != q && f.src[j] != '\n' && f.src[j] != '\\' {
			j++
		}
		if f.byteAt(j) == '\\' && q == '\'' {
			j++ // a backslash is itself in single quotes
			continue
		}
		if f.byteAt(j) != q {
			fail() // an escape, a line break, no end
		}
		if q == '\'' && f.byteAt(j+1) == q {
			b = append(b, f.src[start:j+1]...)
			j += 2
			start = j
			continue
		}
		break
	}
	v := f.src[start:j]
	if b != nil {
		v = string(append(b, v...))
	}
	f.i = j + 1
	style := yaml.DoubleQuotedStyle
	if q == '\'' {
		style = yaml.SingleQuotedStyle
	}
	return f.node(yaml.ScalarNode, "!!str", style, v, line, col)
}

// plainTag is the tag yaml.v3 resolves a plain scalar of the subset to
// ("" for one whose resolution this reader leaves to the library).
func plainTag(v string) string {
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "null", "Null", "NULL":
		return "!!null"
	}
	c := v[0]
	if c != '-' && (c < '0' || c > '9') {
		return "!!str" // a letter or _ first: a string unless named above
	}
	// A number: an optional minus, then digits without a leading zero
	// (an int), or digits, a point and maybe digits (a float); digits
	// with two points or more are a version, a string. Anything else
	// (0x1f, 012, 1e3, 1_000, dates, words) is the library's.
	d := v
	if c == '-' {
		d = v[1:]
	}
	dots, first := 0, -1
	for k := 0; k < len(d); k++ {
		switch {
		case d[k] >= '0' && d[k] <= '9':
		case d[k] == '.':
			if dots++; first < 0 {
				first = k
			}
		default:
			return ""
		}
	}
	switch {
	case dots == 0 && len(d) > 0 && len(d) <= 18 && (d[0] != '0' || len(d) == 1):
		return "!!int"
	case dots == 1 && first > 0:
		return "!!float"
	case dots > 1 && first > 0:
		return "!!str"
	}
	return ""
}

// lazyMap is a member's partition map as the file has it, read when the
// parser asks (partitionMap): {topic: [partition, ...], ...} on one line,
// topics plain strings, partitions plain ints. A given start's 500,000
// partitions would be a million and a half nodes.
type lazyMap struct {
	src             string
	at              int // the '{'
	line, lineStart int
}

// lazyPartitions reads a partition map at '{' as a lazy node (with no
// Content), or returns nil, having read nothing, when it is not one.
func (f *fastYAML) lazyPartitions() *yaml.Node {
	end, ok := scanPartitions(f.src, f.i, nil, nil)
	if !ok {
		return nil
	}
	n := f.node(yaml.MappingNode, "!!map", yaml.FlowStyle, "", f.line, f.col())
	if f.lazy == nil {
		f.lazy = map[*yaml.Node]lazyMap{}
	}
	f.lazy[n] = lazyMap{f.src, f.i, f.line, f.lineStart}
	f.i = end
	return n
}

// tree is the map's nodes, as the reader builds them for another flow
// mapping.
func (m lazyMap) tree() *yaml.Node {
	f := &fastYAML{src: m.src, i: m.at, line: m.line, lineStart: m.lineStart}
	return f.flowMap()
}

// scanPartitions reads {topic: [p, ...], ...} at src[i] (telling topic
// and part of each topic and partition, when given) and returns the
// offset after the '}'; ok false: it is no such map of the subset.
func scanPartitions(src string, i int, topic func(string) error, part func(string) error) (end int, ok bool) {
	at := func(c byte) bool { return i < len(src) && src[i] == c }
	sp := func() {
		for at(' ') {
			i++
		}
	}
	word := func() string {
		j := i
		for j < len(src) && plainByte(src[j]) {
			j++
		}
		w := src[i:j]
		i = j
		return w
	}
	i++ // '{'
	for {
		sp()
		if at('}') {
			return i + 1, true
		}
		start := i
		t := word()
		if t == "" || !plainStart(t) || plainTag(t) != "!!str" || !at(':') || i+1 >= len(src) || src[i+1] != ' ' || i-start >= fastMaxKey {
			return 0, false
		}
		i++
		sp()
		if !at('[') {
			return 0, false
		}
		i++
		if topic != nil && topic(t) != nil {
			return 0, false
		}
		for {
			sp()
			if at(']') {
				break
			}
			x := word()
			if x == "" || !plainStart(x) || plainTag(x) != "!!int" {
				return 0, false
			}
			if part != nil && part(x) != nil {
				return 0, false
			}
			sp()
			if at(',') {
				i++
				continue
			}
			if !at(']') {
				return 0, false
			}
			break
		}
		i++ // ']'
		sp()
		if at(',') {
			i++
			continue
		}
		if !at('}') {
			return 0, false
		}
	}
}

// plainStart: a plain scalar of the subset may start so.
func plainStart(w string) bool {
	c := w[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' && len(w) > 1 && w[1] >= '0' && w[1] <= '9'
}
