package cli

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

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

// ownedInput is one "owned" key: a topic and its partitions as listed.
type ownedInput struct {
	topic      string
	partitions []int64
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
	n := 0
	for _, o := range m.owned {
		for _, p := range o.partitions {
			if p < 0 || p > math.MaxInt32 {
				return out, fmt.Errorf("%s: owns %s-%d, but partitions are numbered 0..%d", where, o.topic, p, int32(math.MaxInt32))
			}
		}
		n += len(o.partitions)
	}
	if n == 0 {
		return out, nil
	}
	rank := func(topic string) int {
		if r, known := order.rank[topic]; known {
			return r
		}
		return len(order.names) // a topic that does not exist
	}
	// Owned partitions in (topic in Java order, partition) order. A member
	// usually lists them so, topic by topic: then they are taken as they
	// come, without a sort's copy of a million claims.
	type claim struct {
		rank  int
		topic string
		p     int64
	}
	less := func(a, b claim) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.topic != b.topic {
			return strategies.JavaCompare(a.topic, b.topic)
		}
		return int(a.p - b.p)
	}
	var claims []claim
	ordered, prev, first := true, claim{}, true
	for _, o := range m.owned {
		r := rank(o.topic)
		for _, p := range o.partitions {
			c := claim{r, o.topic, p}
			if !first && less(prev, c) >= 0 {
				ordered = false
				break
			}
			prev, first = c, false
		}
		if !ordered {
			break
		}
	}
	if !ordered {
		claims = make([]claim, 0, n)
		for _, o := range m.owned {
			r := rank(o.topic)
			for _, p := range o.partitions {
				claims = append(claims, claim{r, o.topic, p})
			}
		}
		slices.SortFunc(claims, less)
		for j := 1; j < len(claims); j++ {
			if c := claims[j]; claims[j-1] == c {
				return out, fmt.Errorf("%s: owns %s-%d twice", where, c.topic, c.p)
			}
		}
	}
	out.Owned = make([]strategies.TopicPartition, 0, n)
	if ordered {
		for _, o := range m.owned {
			for _, p := range o.partitions {
				out.Owned = append(out.Owned, strategies.TopicPartition{Topic: o.topic, Partition: int32(p)})
			}
		}
		return out, nil
	}
	for _, c := range claims {
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
				m.owned = append(m.owned, ownedInput{topic: topic})
				o := &m.owned[len(m.owned)-1]
				return p.array(func() string { return path + ".owned." + topic }, func(j int) error {
					n, err := p.integer(func() string { return fmt.Sprintf("%s.owned.%s[%d]", path, topic, j) }, 64)
					o.partitions = append(o.partitions, n)
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
