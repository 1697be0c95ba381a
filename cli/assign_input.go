package cli

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kvizlab/kviz/strategies"
)

// The input of `kviz assign` (a contract: other tools write it):
//
//	{"topics": {"t0": 3, "t1": 2},
//	 "partition_racks": {"t0": [["r1","r2"], ["r2","r3"], ["r3","r1"]]},
//	 "topic_ids": {"t0": "MkZ0Wr0bTXqCW3qLP7Ye4Q"},
//	 "assignable": {"t0": [0, 1]},
//	 "members": [{"id": "c0", "topics": ["t0","t1"], "owned": {"t0": [0]},
//	              "generation": 3, "rack": "r1", "instance": "i0"}]}
//
// "topic_ids" (Kafka's base64 Uuids) and "assignable" (the initialised
// share-partitions; absent: all) are the share-group assignor's: see
// strategies.Group.
// Only "members" and each member's "id" are required. A member without
// "topics" (or with null) subscribes to every topic; "topics": []
// subscribes to none. Unknown fields are errors; null counts as absent.
// Topics a member names or owns that are not in "topics", and topics it
// lists twice, are Kafka's to judge (strategies.InputNotes).
//
// The parser is written for this one schema instead of using encoding/json:
// a 1M-partition group with owned partitions is tens of MB of JSON, and
// reflection into maps took seconds and over 500 MiB. Here names are
// interned, identical subscription lists shared, and every error points at
// the start of the offending value.

// maxTotalPartitions bounds the whole group: Kafka's largest clusters hold
// a few million partitions, and beyond this kviz would only run out of memory.
const maxTotalPartitions = 1 << 22

type assignInput struct {
	topics         map[string]int64
	partitionRacks map[string][][]string
	topicIDs       map[string]strategies.TopicID
	topicIDAt      map[string]int // where each id was given, for errors
	assignable     map[string][]int64
	members        []assignMemberInput
	membersGiven   bool
}

type assignMemberInput struct {
	id, rack, instance string
	topics             []string // nil with allTopics: every topic
	allTopics          bool
	sharedTopics       bool // topics is the previous member's list, shared
	owned              []ownedInput
	generation         int32
}

type ownedInput struct {
	topic     string
	partition int64
}

// parseAssignInput decodes and checks the input. Every error is one line
// naming where the problem is: a line and column for JSON problems, the
// field path for values kviz cannot use.
func parseAssignInput(data []byte, assignor strategies.Assignor) (strategies.Group, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return strategies.Group{}, errors.New(`the input is empty: expected a JSON object with "topics" and "members"`)
	}
	p := &jsonParser{data: data, intern: map[string]string{}}
	in, err := p.input()
	if err != nil {
		return strategies.Group{}, err
	}
	if !in.membersGiven {
		return strategies.Group{}, errors.New(`"members" is missing: list the group's members`)
	}
	if len(in.members) == 0 {
		return strategies.Group{}, errors.New(`"members" is empty: a group needs at least one member`)
	}
	g := strategies.Group{Topics: make(map[string]int32, len(in.topics)), PartitionRacks: in.partitionRacks}
	var total int64
	for _, t := range strategies.SortedTopics(in.topics) {
		n := in.topics[t]
		switch {
		case n < 0:
			return g, fmt.Errorf("topics: %q has a negative partition count (%d)", t, n)
		case n > strategies.MaxPartitions:
			return g, fmt.Errorf("topics: %q has %d partitions; at most %d are supported", t, n, strategies.MaxPartitions)
		}
		total += n
		g.Topics[t] = int32(n)
	}
	if total > maxTotalPartitions {
		return g, fmt.Errorf("topics: %d partitions in all; at most %d are supported", total, maxTotalPartitions)
	}
	order := newTopicOrder(g.Topics)
	g.Members = make([]strategies.Member, len(in.members))
	for i, m := range in.members {
		member, err := m.member(i, order)
		if err != nil {
			return g, err
		}
		g.Members[i] = member
	}
	if err := in.shareFields(&g, p); err != nil {
		return g, err
	}
	if err := g.CheckFor(assignor); err != nil {
		return g, err
	}
	return g, nil
}

// shareFields checks and sets topic_ids and assignable: an id names a
// topic of "topics" or one a member owns partitions of (a deleted topic's
// id can still be in a target), and assignable partitions exist and are
// listed once.
func (in assignInput) shareFields(g *strategies.Group, p *jsonParser) error {
	if in.topicIDs != nil {
		held := map[string]bool{}
		for _, m := range g.Members {
			for _, tp := range m.Owned {
				held[tp.Topic] = true
			}
		}
		for _, t := range strategies.SortedTopics(in.topicIDs) {
			if _, ok := g.Topics[t]; !ok && !held[t] {
				return p.errorf(in.topicIDAt[t], "topic_ids.%s: %q is not in \"topics\" and no member owns partitions of it", t, t)
			}
		}
		g.TopicIDs = in.topicIDs
	}
	if in.assignable == nil {
		return nil
	}
	g.Assignable = make(map[string][]int32, len(in.assignable))
	for _, t := range strategies.SortedTopics(in.assignable) {
		n, ok := g.Topics[t]
		if !ok {
			return fmt.Errorf("assignable: unknown topic %q (not in \"topics\")", t)
		}
		list := slices.Clone(in.assignable[t])
		slices.Sort(list)
		out := make([]int32, 0, len(list))
		for j, q := range list {
			switch {
			case n == 0:
				return fmt.Errorf("assignable.%s: %q has no partitions", t, t)
			case q < 0 || q >= int64(n):
				return fmt.Errorf("assignable.%s: %q has partitions 0..%d, so %d is not one of them", t, t, n-1, q)
			case j > 0 && q == list[j-1]:
				return fmt.Errorf("assignable.%s: partition %d is listed twice", t, q)
			}
			out = append(out, int32(q))
		}
		g.Assignable[t] = out
	}
	return nil
}

// member converts one member, catching what Group.Validate cannot see
// (partitions listed twice, partition numbers that do not fit). Topics that
// do not exist and topics listed twice are Kafka's to judge: each assignor
// has its rule (strategies.InputNotes).
func (m assignMemberInput) member(i int, order topicOrder) (strategies.Member, error) {
	where := fmt.Sprintf("members[%d] (%s)", i, m.id)
	if m.id == "" {
		where = fmt.Sprintf("members[%d]", i)
	}
	out := strategies.Member{ID: m.id, InstanceID: m.instance, Rack: m.rack, Generation: m.generation, Topics: m.topics}
	if m.allTopics {
		out.Topics = order.names
	}
	type claim struct {
		rank  int // the topic's rank, or len(order.names) for a topic that does not exist
		topic string
		p     int64
	}
	claims := make([]claim, 0, len(m.owned))
	for _, o := range m.owned {
		if o.partition < 0 || o.partition > math.MaxInt32 {
			return out, fmt.Errorf("%s: owns %s-%d, but partitions are numbered 0..%d", where, o.topic, o.partition, int32(math.MaxInt32))
		}
		r, known := order.rank[o.topic]
		if !known {
			r = len(order.names)
		}
		claims = append(claims, claim{r, o.topic, o.partition})
	}
	// Owned partitions in (topic in Java order, partition) order.
	slices.SortFunc(claims, func(a, b claim) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.topic != b.topic {
			return strategies.JavaCompare(a.topic, b.topic)
		}
		return int(a.p - b.p)
	})
	for j, c := range claims {
		if j > 0 && claims[j-1] == c {
			return out, fmt.Errorf("%s: owns %s-%d twice", where, c.topic, c.p)
		}
		out.Owned = append(out.Owned, strategies.TopicPartition{Topic: c.topic, Partition: int32(c.p)})
	}
	return out, nil
}

// fixed is a path known in advance. Paths are functions so that the
// million element paths of a large input are only formatted for an error.
func fixed(path string) func() string { return func() string { return path } }

// jsonParser reads the assign input schema straight from the bytes.
type jsonParser struct {
	data    []byte
	pos     int
	intern  map[string]string // topic and rack names repeat a million times
	scratch []byte
}

const knownTopFields = "topics, partition_racks, topic_ids, assignable, members"
const knownMemberFields = "id, topics, owned, generation, rack, instance"

func (p *jsonParser) input() (assignInput, error) {
	var in assignInput
	err := p.object(fixed("the input"), func(key string, keyAt int) error {
		switch key {
		case "topics":
			in.topics = nil
			if p.null() {
				return nil
			}
			in.topics = map[string]int64{}
			return p.object(fixed("topics"), func(name string, _ int) error {
				n, err := p.integer(func() string { return "topics." + name }, 64)
				in.topics[p.internString(name)] = n
				return err
			})
		case "partition_racks":
			in.partitionRacks = nil
			if p.null() {
				return nil
			}
			in.partitionRacks = map[string][][]string{}
			return p.object(fixed("partition_racks"), func(name string, _ int) error {
				racks, err := p.rackLists("partition_racks." + name)
				in.partitionRacks[p.internString(name)] = racks
				return err
			})
		case "topic_ids":
			in.topicIDs, in.topicIDAt = nil, nil
			if p.null() {
				return nil
			}
			in.topicIDs, in.topicIDAt = map[string]strategies.TopicID{}, map[string]int{}
			return p.object(fixed("topic_ids"), func(name string, _ int) error {
				path := func() string { return "topic_ids." + name }
				p.space()
				at := p.pos
				s, err := p.string(path, false)
				if err != nil {
					return err
				}
				id, err := strategies.ParseTopicID(s)
				if err != nil {
					return p.errorf(at, "%s: %v", path(), err)
				}
				name = p.internString(name)
				in.topicIDs[name], in.topicIDAt[name] = id, at
				return nil
			})
		case "assignable":
			in.assignable = nil
			if p.null() {
				return nil
			}
			in.assignable = map[string][]int64{}
			return p.object(fixed("assignable"), func(name string, _ int) error {
				name = p.internString(name)
				if p.null() {
					delete(in.assignable, name)
					return nil
				}
				list := []int64{}
				err := p.array(func() string { return "assignable." + name }, func(j int) error {
					n, err := p.integer(func() string { return fmt.Sprintf("assignable.%s[%d]", name, j) }, 64)
					list = append(list, n)
					return err
				})
				in.assignable[name] = list
				return err
			})
		case "members":
			in.members, in.membersGiven = nil, false
			if p.null() {
				return nil
			}
			in.membersGiven = true
			var prevTopics []string
			return p.array(fixed("members"), func(i int) error {
				m, err := p.member(i, prevTopics)
				if m.topics != nil {
					prevTopics = m.topics
				}
				in.members = append(in.members, m)
				return err
			})
		}
		return p.errorf(keyAt, "unknown field %s (known: %s; per member: %s)", strconv.Quote(key), knownTopFields, knownMemberFields)
	})
	if err != nil {
		return in, err
	}
	p.space()
	if p.pos < len(p.data) {
		return in, p.errorf(p.pos, "unexpected data after the JSON object")
	}
	return in, nil
}

func (p *jsonParser) member(i int, prevTopics []string) (assignMemberInput, error) {
	m := assignMemberInput{generation: strategies.NoGeneration, allTopics: true}
	path := fmt.Sprintf("members[%d]", i)
	field := func(name string) func() string { return func() string { return path + "." + name } }
	err := p.object(fixed(path), func(key string, keyAt int) error {
		var err error
		switch key {
		case "id":
			m.id, err = p.optionalString(field("id"))
		case "rack":
			m.rack, err = p.optionalString(field("rack"))
		case "instance":
			m.instance, err = p.optionalString(field("instance"))
		case "generation":
			m.generation = strategies.NoGeneration
			if !p.null() {
				var g int64
				g, err = p.integer(field("generation"), 32)
				m.generation = int32(g)
			}
		case "topics":
			m.topics, m.allTopics, m.sharedTopics = nil, true, false
			if p.null() {
				return nil
			}
			m.allTopics = false
			m.topics = []string{}
			err = p.array(field("topics"), func(j int) error {
				s, err := p.string(func() string { return fmt.Sprintf("%s.topics[%d]", path, j) }, true)
				m.topics = append(m.topics, s)
				return err
			})
			// Members usually share one list: keep one copy (interned
			// strings compare by pointer first, so this is cheap).
			if err == nil && slices.Equal(m.topics, prevTopics) {
				m.topics, m.sharedTopics = prevTopics, true
			}
		case "owned":
			m.owned = nil
			if p.null() {
				return nil
			}
			err = p.object(field("owned"), func(topic string, _ int) error {
				return p.array(func() string { return path + ".owned." + topic }, func(j int) error {
					n, err := p.integer(func() string { return fmt.Sprintf("%s.owned.%s[%d]", path, topic, j) }, 64)
					m.owned = append(m.owned, ownedInput{topic, n})
					return err
				})
			})
		default:
			err = p.errorf(keyAt, "unknown field %s in %s (known: %s)", strconv.Quote(key), path, knownMemberFields)
		}
		return err
	})
	return m, err
}

// rackLists reads [[rack, ...], ...] (null lists count as empty).
func (p *jsonParser) rackLists(path string) ([][]string, error) {
	var out [][]string
	err := p.array(fixed(path), func(i int) error {
		var racks []string
		if p.null() {
			out = append(out, racks)
			return nil
		}
		err := p.array(func() string { return fmt.Sprintf("%s[%d]", path, i) }, func(j int) error {
			s, err := p.string(func() string { return fmt.Sprintf("%s[%d][%d]", path, i, j) }, true)
			racks = append(racks, s)
			return err
		})
		out = append(out, racks)
		return err
	})
	return out, err
}

// object reads {"key": value, ...}, calling field with the parser on each value.
func (p *jsonParser) object(path func() string, field func(key string, keyAt int) error) error {
	if err := p.open('{', path, "an object"); err != nil {
		return err
	}
	p.space()
	if p.peek() == '}' {
		p.pos++
		return nil
	}
	for {
		p.space()
		keyAt := p.pos
		if p.peek() != '"' {
			return p.syntax("looking for the beginning of an object key string")
		}
		key, err := p.internedString() // field names and topic names repeat
		if err != nil {
			return err
		}
		p.space()
		if p.peek() != ':' {
			return p.syntax("after object key")
		}
		p.pos++
		p.space()
		if err := field(key, keyAt); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return nil
		default:
			return p.syntax("after object key:value pair")
		}
	}
}

// array reads [value, ...], calling elem with the parser on each value.
func (p *jsonParser) array(path func() string, elem func(i int) error) error {
	if err := p.open('[', path, "a list"); err != nil {
		return err
	}
	p.space()
	if p.peek() == ']' {
		p.pos++
		return nil
	}
	for i := 0; ; i++ {
		p.space()
		if err := elem(i); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return nil
		default:
			return p.syntax("after array element")
		}
	}
}

// open consumes the opening bracket of an object or list, or reports what
// was there instead.
func (p *jsonParser) open(bracket byte, path func() string, want string) error {
	p.space()
	if p.peek() == bracket {
		p.pos++
		return nil
	}
	return p.typeError(path, want)
}

// null consumes a null literal if one is next.
func (p *jsonParser) null() bool {
	p.space()
	if bytes.HasPrefix(p.data[p.pos:], []byte("null")) {
		p.pos += 4
		return true
	}
	return false
}

func (p *jsonParser) optionalString(path func() string) (string, error) {
	if p.null() {
		return "", nil
	}
	return p.string(path, false)
}

// string reads a string value; interned ones share memory with earlier copies.
func (p *jsonParser) string(path func() string, intern bool) (string, error) {
	p.space()
	if p.peek() != '"' {
		return "", p.typeError(path, "a string")
	}
	if !intern {
		return p.rawString()
	}
	return p.internedString()
}

func (p *jsonParser) internString(s string) string {
	if v, ok := p.intern[s]; ok {
		return v
	}
	p.intern[s] = s
	return s
}

// internedString reads a string, looking plain ones up without allocating.
func (p *jsonParser) internedString() (string, error) {
	start := p.pos + 1
	end := start
	for end < len(p.data) && p.data[end] != '"' && p.data[end] != '\\' && p.data[end] >= 0x20 && p.data[end] < utf8.RuneSelf {
		end++
	}
	if end < len(p.data) && p.data[end] == '"' {
		if v, ok := p.intern[string(p.data[start:end])]; ok {
			p.pos = end + 1
			return v, nil
		}
	}
	s, err := p.rawString()
	if err != nil {
		return "", err
	}
	return p.internString(s), nil
}

// rawString reads a JSON string at p.pos (which is a quote).
func (p *jsonParser) rawString() (string, error) {
	p.pos++ // the opening quote
	start := p.pos
	plain := true
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			raw := p.data[start:p.pos]
			p.pos++
			if plain && utf8.Valid(raw) {
				return string(raw), nil
			}
			return p.unescape(raw), nil
		case c == '\\':
			plain = false
			if err := p.checkEscape(); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.syntax("in string literal")
		default:
			p.pos++
		}
	}
	return "", p.eof()
}

// checkEscape validates the escape at p.pos and steps over it.
func (p *jsonParser) checkEscape() error {
	if p.pos+1 >= len(p.data) {
		p.pos = len(p.data)
		return p.eof()
	}
	switch p.data[p.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.pos += 2
		return nil
	case 'u':
		if p.pos+6 > len(p.data) {
			p.pos = len(p.data)
			return p.eof()
		}
		if _, err := strconv.ParseUint(string(p.data[p.pos+2:p.pos+6]), 16, 16); err != nil {
			p.pos += 2
			return p.syntax("in \\u hexadecimal character escape")
		}
		p.pos += 6
		return nil
	}
	p.pos++
	return p.syntax("in string escape code")
}

// unescape decodes a validated string body, replacing invalid UTF-8 and
// lone surrogates with U+FFFD as encoding/json does.
func (p *jsonParser) unescape(raw []byte) string {
	b := p.scratch[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, n := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r)
			i += n
			continue
		}
		switch raw[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(raw[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if dec := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); dec != utf8.RuneError {
					r = dec
					i += 6
				}
			}
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // " \ /
			b = append(b, raw[i+1])
		}
		i += 2
	}
	p.scratch = b
	return string(b)
}

func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 16)
	return rune(n)
}

// integer reads a whole number that fits in bits.
func (p *jsonParser) integer(path func() string, bits int) (int64, error) {
	p.space()
	at := p.pos
	if c := p.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, p.typeError(path, "a whole number")
	}
	lit, whole, err := p.number()
	if err != nil {
		return 0, err
	}
	if !whole {
		return 0, p.errorf(at, "%s: expected a whole number, got number %s", path(), lit)
	}
	n, err := strconv.ParseInt(lit, 10, bits)
	if err != nil {
		return 0, p.errorf(at, "%s: expected a whole number that fits in %d bits, got number %s", path(), bits, lit)
	}
	return n, nil
}

// number scans a JSON number and reports whether it is written as an integer.
func (p *jsonParser) number() (string, bool, error) {
	start := p.pos
	whole := true
	if p.peek() == '-' {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		return "", false, p.syntax("in numeric literal")
	}
	if p.peek() == '.' {
		whole = false
		p.pos++
		if !isDigit(p.peek()) {
			return "", false, p.syntax("after decimal point in numeric literal")
		}
		p.digits()
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		whole = false
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if !isDigit(p.peek()) {
			return "", false, p.syntax("in exponent of numeric literal")
		}
		p.digits()
	}
	return string(p.data[start:p.pos]), whole, nil
}

func (p *jsonParser) digits() {
	for isDigit(p.peek()) {
		p.pos++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end.
func (p *jsonParser) peek() byte {
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

// typeError reports a value of the wrong kind where path expected want,
// or a syntax error when what is there is not a JSON value at all.
func (p *jsonParser) typeError(path func() string, want string) error {
	got := ""
	switch c := p.peek(); {
	case p.pos >= len(p.data):
		return p.eof()
	case c == '"':
		got = "string"
	case c == '{':
		got = "object"
	case c == '[':
		got = "array"
	case bytes.HasPrefix(p.data[p.pos:], []byte("true")), bytes.HasPrefix(p.data[p.pos:], []byte("false")):
		got = "bool"
	case bytes.HasPrefix(p.data[p.pos:], []byte("null")):
		got = "null"
	case c == '-' || isDigit(c):
		at := p.pos
		lit, _, err := p.number()
		if err != nil {
			return err
		}
		p.pos = at
		got = "number " + lit
	default:
		return p.syntax("looking for beginning of value")
	}
	return p.errorf(p.pos, "%s: expected %s, got %s", path(), want, got)
}

func (p *jsonParser) syntax(context string) error {
	if p.pos >= len(p.data) {
		return p.eof()
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return p.errorf(p.pos, "malformed JSON: invalid character %s %s", quoteChar(r), context)
}

func (p *jsonParser) eof() error {
	return p.errorf(len(p.data), "malformed JSON: the input ends in the middle of a value")
}

func (p *jsonParser) errorf(at int, format string, args ...any) error {
	line, col := lineCol(p.data, int64(at))
	return fmt.Errorf("line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))
}

// quoteChar writes a character the way encoding/json's errors do.
func quoteChar(r rune) string {
	if r == '\'' {
		return `'\''`
	}
	if r == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(r))
	return "'" + strings.Trim(s, `"`) + "'"
}

// lineCol turns a byte offset into a 1-based line and column (in characters).
func lineCol(data []byte, offset int64) (int, int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[lineStart:]) + 1
}
