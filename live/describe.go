package live

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/strategies"
)

// ParseDescribe reads what `kafka-consumer-groups.sh --describe --group G`
// printed with --members --verbose, --offsets and/or --state (Kafka 4's
// layouts, ConsumerGroupCommand.printMembers/printOffsets/printStates, and
// the older --members --verbose one with a single ASSIGNMENT column such as
// "orders(0,1), payments(2)"), several blocks in one text. Columns are
// found by the header: values start where their header starts (an absent
// group.instance.id is blank), or, when a paste lost the alignment, are the
// line's words. Group.Unknown says what the text could not tell. An error
// names the line.
func ParseDescribe(name string, r io.Reader) (*Group, error) {
	p := &describeParser{name: name, g: &Group{ProtocolType: protocolTypeConsumer, Members: []Member{}}, byID: map[string]int{},
		committed: map[string]map[int32]int64{}, ends: map[string]map[int32]int64{}, seen: map[string]int32{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		p.line++
		if err := p.feed(strings.TrimRight(sc.Text(), " \t\r")); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, p.line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, p.line+1, err)
	}
	return p.finish()
}

// stateRebalancing stands for the states the tool prints only as "is
// rebalancing".
const stateRebalancing = "Rebalancing"

type block int

const (
	noBlock block = iota
	membersBlock
	offsetsBlock
	stateBlock
)

type column struct {
	name  string
	start int
}

type describeParser struct {
	name      string
	line      int
	g         *Group
	byID      map[string]int // member id -> index in g.Members
	block     block
	cols      []column
	sawBlock  map[block]bool
	epochs    bool // a member had a numeric CURRENT-EPOCH: a consumer group
	classicIn bool // the old single-ASSIGNMENT layout: a classic group
	committed map[string]map[int32]int64
	ends      map[string]map[int32]int64
	seen      map[string]int32 // topic -> highest partition seen + 1
	total     int              // sum of seen
	state     string
	// noAssignment: a members block without an assignment column (--members
	// without --verbose): its members' partitions are known only by count,
	// or by the --offsets block's CONSUMER-ID column.
	noAssignment bool
	offsetOwned  map[string]map[string][]int32 // member id -> what the --offsets block says it owns
}

// quotedGroup reads a message line of the form
// prefix + "'" + group + "'" + suffix, and returns the group.
func quotedGroup(text, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(text, prefix+"'")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, "'"+suffix)
}

func (p *describeParser) feed(line string) error {
	text := strings.TrimSpace(line)
	if text == "" {
		p.block = noBlock
		return nil
	}
	if _, ok := quotedGroup(strings.TrimPrefix(text, "Error: "), "Consumer group ", " does not exist."); ok {
		return fmt.Errorf("the output says the group does not exist")
	}
	if g, ok := quotedGroup(text, "Consumer group ", " has no active members."); ok {
		p.state = "Empty"
		return p.setGroup(g)
	}
	if g, ok := quotedGroup(text, "Warning: Consumer group ", " is rebalancing."); ok {
		p.state = stateRebalancing
		return p.setGroup(g)
	}
	if b, cols, ok := header(line); ok {
		if p.sawBlock == nil {
			p.sawBlock = map[block]bool{}
		}
		p.block, p.cols, p.sawBlock[b] = b, cols, true
		if b == membersBlock && !slices.ContainsFunc(cols, func(c column) bool { return strings.HasSuffix(c.name, "ASSIGNMENT") }) {
			p.noAssignment = true
		}
		return nil
	}
	switch p.block {
	case membersBlock:
		return p.memberRow(p.values(line))
	case offsetsBlock:
		return p.offsetRow(p.values(line))
	case stateBlock:
		return p.stateRow(p.values(line))
	}
	return nil // a prompt, a log line, anything around the blocks
}

// header recognises a block's header line and where its columns start.
func header(line string) (block, []column, bool) {
	norm := strings.Replace(line, "COORDINATOR (ID)", "COORDINATOR-(ID)", 1)
	var cols []column
	for i := 0; i < len(norm); {
		if norm[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(norm) && norm[j] != ' ' {
			j++
		}
		cols = append(cols, column{name: norm[i:j], start: i})
		i = j
	}
	has := func(n string) bool {
		return slices.ContainsFunc(cols, func(c column) bool { return c.name == n })
	}
	for _, c := range cols {
		if !knownColumn(c.name) {
			return noBlock, nil, false
		}
	}
	switch {
	case has("PARTITION") && has("CURRENT-OFFSET"):
		return offsetsBlock, cols, true
	case has("CONSUMER-ID") && has("#PARTITIONS"):
		return membersBlock, cols, true
	case has("STATE") && has("#MEMBERS"):
		return stateBlock, cols, true
	}
	return noBlock, nil, false
}

// knownColumn reports whether name is a column kafka-consumer-groups.sh
// prints (a switch, not a map: nothing to build at start-up).
func knownColumn(name string) bool {
	switch name {
	case "GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT",
		"CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT", "UPGRADED", "TOPIC",
		"PARTITION", "LEADER-EPOCH", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "COORDINATOR-(ID)",
		"ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH", "#MEMBERS":
		return true
	}
	return false
}

// values splits a row by its header's columns.
func (p *describeParser) values(line string) rowValues {
	v := rowValues{p: p, m: map[string]string{}}
	if p.aligned(line) {
		for i, c := range p.cols {
			end := len(line)
			if i+1 < len(p.cols) {
				end = min(end, p.cols[i+1].start)
			}
			if c.start < len(line) {
				v.m[c.name] = strings.TrimSpace(line[c.start:end])
			}
		}
		return v
	}
	words := strings.Fields(line)
	last := p.cols[len(p.cols)-1].name
	if len(words) > len(p.cols) && (last == "ASSIGNMENT" || last == "COORDINATOR-(ID)") {
		words = append(words[:len(p.cols)-1], strings.Join(words[len(p.cols)-1:], " "))
	}
	if len(words) != len(p.cols) {
		v.err = fmt.Errorf("%d values for %d columns (%s); the columns could not be lined up", len(words), len(p.cols), p.colNames())
		return v
	}
	for i, c := range p.cols {
		v.m[c.name] = words[i]
	}
	return v
}

// aligned: every column boundary falls on a space, so values are where the
// header says.
func (p *describeParser) aligned(line string) bool {
	for _, c := range p.cols[1:] {
		if c.start >= len(line) {
			continue
		}
		if line[c.start-1] != ' ' || line[c.start] == ' ' && c.name != "GROUP-INSTANCE-ID" {
			return false
		}
	}
	return len(line) > 0 && line[0] != ' '
}

func (p *describeParser) colNames() string {
	names := make([]string, len(p.cols))
	for i, c := range p.cols {
		names[i] = c.name
	}
	return strings.Join(names, " ")
}

type rowValues struct {
	p   *describeParser
	m   map[string]string
	err error
}

func (v rowValues) str(col string) (string, bool) {
	s, ok := v.m[col]
	return s, ok && s != "" && s != missing
}

func (v rowValues) int(col string) (*int64, error) {
	s, ok := v.str(col)
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%s %q is not a number", col, s)
	}
	return &n, nil
}

func (p *describeParser) setGroup(name string) error {
	if name == "" {
		return nil
	}
	if p.g.Group != "" && p.g.Group != name {
		return fmt.Errorf("a second group %q (the first was %q): give one group's output", name, p.g.Group)
	}
	p.g.Group = name
	return nil
}

// rowGroup checks a row split well and belongs to the one group.
func (p *describeParser) rowGroup(v rowValues) error {
	if v.err != nil {
		return v.err
	}
	g, _ := v.str("GROUP")
	return p.setGroup(g)
}

func (p *describeParser) member(id string) *Member {
	i, ok := p.byID[id]
	if !ok {
		i = len(p.g.Members)
		p.byID[id] = i
		p.g.Members = append(p.g.Members, Member{MemberID: id, Topics: []string{}, Assignment: map[string][]int32{}})
	}
	return &p.g.Members[i]
}

func (p *describeParser) memberRow(v rowValues) error {
	if err := p.rowGroup(v); err != nil {
		return err
	}
	id, ok := v.str("CONSUMER-ID")
	if !ok {
		return fmt.Errorf("a member row with no CONSUMER-ID")
	}
	m := p.member(id)
	m.Host, _ = v.str("HOST")
	m.ClientID, _ = v.str("CLIENT-ID")
	if inst, ok := v.str("GROUP-INSTANCE-ID"); ok {
		m.InstanceID = ptr(inst)
	}
	for _, col := range []string{"ASSIGNMENT", "CURRENT-ASSIGNMENT"} {
		if s, ok := v.m[col]; ok {
			a, err := parseAssignment(s)
			if err != nil {
				return fmt.Errorf("%s: %v", col, err)
			}
			m.Assignment = a
			p.classicIn = p.classicIn || col == "ASSIGNMENT"
		}
	}
	if s, ok := v.m["TARGET-ASSIGNMENT"]; ok {
		a, err := parseAssignment(s)
		if err != nil {
			return fmt.Errorf("TARGET-ASSIGNMENT: %v", err)
		}
		m.Target = a
	}
	_, hasAssignment := v.m["ASSIGNMENT"]
	if _, ok := v.m["CURRENT-ASSIGNMENT"]; ok {
		hasAssignment = true
	}
	if n, err := v.int("#PARTITIONS"); err != nil {
		return err
	} else if n != nil && (!hasAssignment || *n > 0 && count(m.Assignment) == 0 && v.m["ASSIGNMENT"]+v.m["CURRENT-ASSIGNMENT"] == missing) {
		// no assignment column, or kviz's own table of such a paste: a count alone
		m.PartitionCount = ptr(int(*n))
	} else if n != nil && (v.m["ASSIGNMENT"] != "" || v.m["CURRENT-ASSIGNMENT"] != "") && int(*n) != count(m.Assignment) {
		return fmt.Errorf("#PARTITIONS says %d but the assignment lists %d", *n, count(m.Assignment))
	}
	switch up, _ := v.str("UPGRADED"); up {
	case "true": // Kafka 4 prints UPGRADED for a group in the online migration
		m.MemberType = ptr(MemberConsumer)
	case "false":
		m.MemberType = ptr(MemberClassic)
	case "":
	default:
		return fmt.Errorf("UPGRADED %q is not true, false or -", up)
	}
	epoch, err := v.int("CURRENT-EPOCH")
	if err != nil {
		return err
	}
	if epoch != nil {
		p.epochs = true
		m.MemberEpoch = ptr(int32(*epoch))
	}
	target, err := v.int("TARGET-EPOCH")
	if err != nil {
		return err
	}
	if target != nil {
		p.g.AssignmentEpoch = ptr(int32(*target))
	}
	if err := p.see(m.Assignment); err != nil {
		return err
	}
	return p.see(m.Target)
}

func (p *describeParser) offsetRow(v rowValues) error {
	if err := p.rowGroup(v); err != nil {
		return err
	}
	topic, ok := v.str("TOPIC")
	if !ok {
		return nil // a member with no partitions: Kafka prints its row with "-"
	}
	part, err := v.int("PARTITION")
	if err != nil || part == nil || *part < 0 || *part > 1<<30 {
		return fmt.Errorf("PARTITION must be a partition number")
	}
	pn := int32(*part)
	if err := p.see(map[string][]int32{topic: {pn}}); err != nil {
		return err
	}
	for col, into := range map[string]map[string]map[int32]int64{"CURRENT-OFFSET": p.committed, "LOG-END-OFFSET": p.ends} {
		n, err := v.int(col)
		if err != nil {
			return err
		}
		if n != nil {
			if into[topic] == nil {
				into[topic] = map[int32]int64{}
			}
			into[topic][pn] = *n
		}
	}
	if id, ok := v.str("CONSUMER-ID"); ok {
		m := p.member(id)
		if m.Host == "" {
			m.Host, _ = v.str("HOST")
		}
		if m.ClientID == "" {
			m.ClientID, _ = v.str("CLIENT-ID")
		}
		if p.offsetOwned == nil {
			p.offsetOwned = map[string]map[string][]int32{}
		}
		if p.offsetOwned[id] == nil {
			p.offsetOwned[id] = map[string][]int32{}
		}
		p.offsetOwned[id][topic] = mergeSorted(p.offsetOwned[id][topic], []int32{pn})
	}
	return nil
}

func (p *describeParser) stateRow(v rowValues) error {
	if err := p.rowGroup(v); err != nil {
		return err
	}
	p.g.Protocol, _ = v.str("ASSIGNMENT-STRATEGY")
	p.state, _ = v.str("STATE")
	if coord, ok := v.str("COORDINATOR-(ID)"); ok {
		if i := strings.LastIndex(coord, "("); i >= 0 {
			if n, err := strconv.ParseInt(strings.TrimSuffix(coord[i+1:], ")"), 10, 32); err == nil {
				p.g.Coordinator = ptr(int32(n))
			}
		}
	}
	for col, into := range map[string]**int32{"GROUP-EPOCH": &p.g.GroupEpoch, "TARGET-ASSIGNMENT-EPOCH": &p.g.AssignmentEpoch} {
		n, err := v.int(col)
		if err != nil {
			return err
		}
		if n != nil {
			*into = ptr(int32(*n))
			p.epochs = true
		}
	}
	return nil
}

// see notes the partitions a row names; the topics' partition counts are
// at least the highest seen plus one, and all together stay within what
// kviz models (a typo such as orders:100000000 is an error, not a hang).
func (p *describeParser) see(a map[string][]int32) error {
	for t, ps := range a {
		for _, q := range ps {
			if n := q + 1; n > p.seen[t] {
				p.total += int(n - p.seen[t])
				p.seen[t] = n
			}
		}
	}
	if p.total > strategies.MaxPartitions {
		return fmt.Errorf("more than %d partitions in all: kviz models at most that many", strategies.MaxPartitions)
	}
	return nil
}

// parseAssignment reads Kafka 4's "orders:0,1;payments:2", the older
// "orders(0,1), payments(2)", or "-".
func parseAssignment(s string) (map[string][]int32, error) {
	out := map[string][]int32{}
	s = strings.TrimSpace(s)
	if s == "" || s == missing {
		return out, nil
	}
	sep, open, close := ";", ":", ""
	if strings.Contains(s, "(") {
		sep, open, close = ", ", "(", ")"
	}
	for _, part := range strings.Split(s, sep) {
		part = strings.TrimSpace(part)
		i := strings.LastIndex(part, open)
		if i <= 0 || !strings.HasSuffix(part, close) {
			return nil, fmt.Errorf("%q is not topic%spartitions%s", part, open, close)
		}
		topic, list := part[:i], strings.TrimSuffix(part[i+1:], close)
		for _, n := range strings.Split(list, ",") {
			q, err := strconv.ParseInt(strings.TrimSpace(n), 10, 32)
			if err != nil || q < 0 {
				return nil, fmt.Errorf("%q: partition %q is not a number", part, n)
			}
			out[topic] = mergeSorted(out[topic], []int32{int32(q)})
		}
	}
	return out, nil
}

// finish builds the group and says what the text could not tell.
func (p *describeParser) finish() (*Group, error) {
	g := p.g
	if g.Group == "" {
		return nil, fmt.Errorf("%s: no kafka-consumer-groups.sh --describe output found (a header such as GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS)", p.name)
	}
	g.State = p.state
	var unknown []string
	if g.State == stateRebalancing {
		unknown = append(unknown, "state: the output says rebalancing (PreparingRebalance or CompletingRebalance; under KIP-848 Assigning or Reconciling)")
	}
	if g.State == "" {
		g.State = "Stable"
		unknown = append(unknown, "state: not in the output (add --state); Stable assumed, as the members hold assignments")
	}
	g.Type = Classic
	if p.epochs && !p.classicIn {
		g.Type = Consumer
	}
	if g.Type == Consumer {
		g.RebalanceProtocol = "consumer"
		if g.GroupEpoch == nil && g.AssignmentEpoch != nil {
			unknown = append(unknown, "group epoch: not in the output (add --state); the target assignment epoch is taken for it")
			g.GroupEpoch = ptr(*g.AssignmentEpoch)
		}
	} else {
		g.GroupEpoch, g.AssignmentEpoch = nil, nil
		unknown = append(unknown, "generation: kafka-consumer-groups.sh does not print a classic group's generation")
		for i := range g.Members {
			g.Members[i].Target = nil
			g.Members[i].MemberEpoch = nil
			g.Members[i].MemberType = ptr(MemberClassic) // every member of a classic group
		}
	}
	if g.Protocol == "" {
		unknown = append(unknown, "assignor: not in the output (add --state to the describe)")
	} else {
		g.RebalanceProtocol = rebalanceProtocolOf(g)
	}
	if !p.sawBlock[membersBlock] {
		unknown = append(unknown, "group.instance.id and member epochs: there is no --members --verbose block")
	}
	unknown = append(unknown, p.ownersFromOffsets()...)
	if !p.sawBlock[offsetsBlock] {
		unknown = append(unknown, "offsets, and partitions nobody owns: there is no --offsets block")
	}
	unknown = append(unknown,
		"partition counts: the output lists only partitions that are owned or committed; each topic has at least the partitions seen",
		"subscriptions: the output shows assignments, not subscriptions; every member is taken to subscribe to every topic seen",
		"racks: not in the output")
	var topics []string
	for t := range p.seen {
		topics = append(topics, t)
	}
	topics = sortedUnique(topics)
	for i := range g.Members {
		g.Members[i].Topics = topics
	}
	sortMembers(g.Members)
	g.AddCluster(p.seen, p.committed, p.ends)
	g.Unknown = unknown
	return g.Named(), nil
}

// ownersFromOffsets fills in what each member owns where the members
// block did not say it (no block, or --members without --verbose): the
// --offsets block names each partition's consumer. It says what stays
// unknown.
func (p *describeParser) ownersFromOffsets() []string {
	if p.sawBlock[membersBlock] && !p.noAssignment {
		return nil
	}
	for i := range p.g.Members {
		m := &p.g.Members[i]
		if owned, ok := p.offsetOwned[m.MemberID]; ok {
			m.Assignment = owned
		}
		if m.PartitionCount != nil && p.sawBlock[offsetsBlock] && count(m.Assignment) == *m.PartitionCount {
			m.PartitionCount = nil // the offsets block told them all
		}
	}
	if !p.noAssignment {
		return nil
	}
	if p.sawBlock[offsetsBlock] {
		return []string{"assignment: the --members output has no ASSIGNMENT column (add --verbose); each member's partitions are taken from the --offsets block's CONSUMER-ID column"}
	}
	return []string{"assignment: the --members output has no ASSIGNMENT column (add --verbose, or paste --offsets too); each member's #PARTITIONS is kept as partition_count, not which partitions it holds"}
}

func rebalanceProtocolOf(g *Group) string {
	if g.Type == Consumer {
		return "consumer"
	}
	return classicRebalanceProtocol(g.Protocol)
}
