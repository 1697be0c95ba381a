package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// A given start: `group: {generation: 5}` (classic) or `group:
// {group_epoch: 5}` (KIP-848) and members with `owned: {t0: [0, 1]}` (and,
// to reproduce a real group, `member_id: ...`) describe a group that is
// already Stable at time 0. Owned partitions without a generation start at
// generation (group epoch) 1.

// maxStartEpoch bounds a given generation well below int32's end, so the
// rebalances that follow cannot overflow it.
const maxStartEpoch = 1_000_000_000

// givenParse collects a given start while the scenario is parsed.
type givenParse struct {
	epochKey   string // "generation" or "group_epoch"; "" = not given
	epochNode  *yaml.Node
	assignNode *yaml.Node          // group.assignment_epoch (KIP-848)
	owners     holders             // partition -> the member owning or revoking it
	targets    map[kafka.TP]string // partition -> the member whose target holds it (KIP-848)
	memberIDs  map[string]string
	protocols  map[string]*yaml.Node // member -> its protocol: key (given_mixed.go)
	shareOwned map[kafka.TP]string   // share partition -> its first owner (given_share.go)
	// firstNode is the first owned: or member_id: seen, for a member list
	// that needs a given start.
	firstNode *yaml.Node
}

// startEpoch reads group.generation or group.group_epoch once the protocol
// is known: each belongs to one protocol family.
func (p *parser) startEpoch(sc *Scenario) error {
	g := &p.given
	if g.epochNode == nil {
		if g.assignNode != nil {
			return p.errf(g.assignNode, "group.assignment_epoch needs group.group_epoch: the assignment epoch trails the group epoch")
		}
		return nil
	}
	if msg := epochKeyError(g.epochKey, sc); msg != "" {
		return p.errf(g.epochNode, "%s", msg)
	}
	sc.givenEpochKey = g.epochKey
	e, err := p.int64(g.epochNode, "group."+g.epochKey, 1, maxStartEpoch)
	sc.Generation = int32(e)
	if err != nil || g.assignNode == nil {
		return err
	}
	return p.assignmentEpoch(sc)
}

// assignmentEpoch reads group.assignment_epoch: the epoch the targets were
// computed for, at most the group epoch (the coordinator computes a target
// for a group epoch it has, GroupMetadataManager.updateTargetAssignment).
func (p *parser) assignmentEpoch(sc *Scenario) error {
	n := p.given.assignNode
	if g := p.given; g.epochKey != "group_epoch" {
		return p.errf(n, "group.assignment_epoch belongs to the KIP-848 consumer protocol and goes with group.group_epoch")
	}
	a, err := p.int64(n, "group.assignment_epoch", 1, maxStartEpoch)
	if err != nil {
		return err
	}
	if f := CheckAssignmentEpoch(sc, a); f != nil {
		return p.errf(n, "%s", f)
	}
	sc.AssignmentEpoch = int32(a)
	return nil
}

// epochKeyError says why a given start's epoch key does not fit the
// protocol ("" when it does): each belongs to one protocol family. The
// parser and Scenario.WithStrategy both ask it.
func epochKeyError(key string, sc *Scenario) string {
	if IsShare(sc) {
		return shareStartEpochError(key) // given_share.go
	}
	switch {
	case key == "generation" && IsConsumer(sc):
		return "group.generation: the consumer protocol (KIP-848) counts group epochs; write group.group_epoch"
	case key == "group_epoch" && !IsConsumer(sc):
		return fmt.Sprintf("group.group_epoch belongs to the KIP-848 consumer protocol; under the %s protocol the group has a generation (group.generation)", sc.Protocol)
	}
	return ""
}

// givenNodes are a member's given-start keys, as the member's fields
// are read.
type givenNodes struct {
	owned, memberID         *yaml.Node
	target, revoking, epoch *yaml.Node // KIP-848 mid-reconcile
	protocol                *yaml.Node // the member's own group.protocol (given_mixed.go)
}

// kip848 is the first KIP-848-only key given, or nil.
func (n givenNodes) kip848() (*yaml.Node, string) {
	for _, k := range []struct {
		n   *yaml.Node
		key string
	}{{n.epoch, "member_epoch"}, {n.target, "target"}, {n.revoking, "revoking"}} {
		if k.n != nil {
			return k.n, k.key
		}
	}
	return nil, ""
}

// givenMember reads a member's owned partitions and member id, and under
// KIP-848 its member epoch, target and partitions being revoked.
func (p *parser) givenMember(m *MemberSpec, what string, gn givenNodes, sc *Scenario) error {
	if what != "members" {
		if n := orNode(orNode(gn.owned, gn.memberID), orNode(gn.target, orNode(gn.revoking, gn.epoch))); n != nil {
			return p.errf(n, "%s: owned and member_id describe members present at time 0 (a given start), as do target, revoking and member_epoch; a joining member gets its id and partitions from the group", what)
		}
		return nil
	}
	g := &p.given
	p.givenProtocol(m, gn) // given_mixed.go
	if gn.memberID != nil {
		g.firstNode = orNode(g.firstNode, gn.memberID)
		id, err := p.str(gn.memberID, "members.member_id")
		if err != nil {
			return err
		}
		if id == "" {
			return p.errf(gn.memberID, "members.member_id: an empty member id is what a member has before it joins; leave member_id out to let kviz make one")
		}
		if other, dup := g.memberIDs[id]; dup {
			return p.errf(gn.memberID, "member id %q is held by %s and %s: a member id names one member", id, other, m.ID)
		}
		if g.memberIDs == nil {
			g.memberIDs = map[string]string{}
		}
		g.memberIDs[id] = m.ID
		m.MemberID = id
	}
	if sc.Share != nil {
		return p.shareGivenMember(m, gn, sc) // given_share.go
	}
	if gn.owned != nil {
		g.firstNode = orNode(g.firstNode, gn.owned)
		tps, err := p.ownedPartitions(gn.owned, m, sc)
		if len(tps) > 0 { // owning nothing is no list, as Format writes it
			m.Owned = tps
		}
		if err != nil {
			return err
		}
	}
	return p.reconciling(m, gn, sc)
}

// reconciling reads a KIP-848 member caught mid-reconcile: its member
// epoch, target and the partitions it is revoking, then judges them by
// Kafka's invariants (CheckReconciling, which the live import asks too),
// refusing a fault at the line it is on.
func (p *parser) reconciling(m *MemberSpec, gn givenNodes, sc *Scenario) error {
	n, key := gn.kip848()
	if n == nil {
		return nil
	}
	if !IsConsumer(sc) {
		return p.errf(n, "members.%s belongs to the KIP-848 consumer protocol (a classic member owns what the leader assigned; it has no target or member epoch)", key)
	}
	if err := p.classicReconciling(m, gn); err != nil { // given_mixed.go
		return err
	}
	g := &p.given
	g.firstNode = orNode(g.firstNode, n)
	if g.epochKey == "" {
		// the file's protocol family: a variation may not turn it classic
		g.epochKey, sc.givenEpochKey = "group_epoch", "group_epoch"
	}
	epoch := int64(max(sc.StartAssignmentEpoch(), 1))
	if gn.epoch != nil {
		e, err := p.int64(gn.epoch, "members.member_epoch", math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		epoch = e
	}
	topicAt, at := map[string]*yaml.Node{}, map[kafka.TP]*yaml.Node{}
	if gn.target != nil {
		anyPartition := func(string) (int32, bool) { return -1, true } // CheckReconciling judges them
		tps, err := p.partitionMap(gn.target, "members.target", m.ID, sc, anyPartition, func(tp kafka.TP, k, x *yaml.Node) error {
			topicAt[tp.Topic], at[tp] = k, x
			return nil
		})
		if err != nil {
			return err
		}
		m.Target = tps
	}
	if gn.revoking != nil {
		tps, err := p.partitionMap(gn.revoking, "members.revoking", m.ID, sc, nil, func(tp kafka.TP, _, x *yaml.Node) error { return p.claim(sc, tp, x, m.ID, "revoking") })
		if err != nil {
			return err
		}
		m.Revoking = tps
	}
	if g.targets == nil {
		g.targets = map[kafka.TP]string{}
	}
	if f := CheckReconciling(sc, *m, epoch, g.targets, &p.subs); f != nil {
		where := orNode(gn.target, n) // OwnedOutsideTarget
		switch f.Kind {
		case EpochOutOfRange:
			where = gn.epoch
		case TargetTopicUnknown:
			where = topicAt[f.TP.Topic]
		case TargetTopicUnsubscribed, TargetPartition:
			where = at[f.TP]
		case RevokingAtTarget:
			where = gn.revoking
		}
		return p.errf(where, "%s", f)
	}
	if gn.epoch != nil {
		m.MemberEpoch = int32(epoch)
	}
	return nil
}

// ownedPartitions reads owned: {topic: [partitions]}: every partition must
// exist, belong to a subscribed topic and have no other owner. A classic
// member may own partitions of a topic it subscribes to that no longer
// exists (deleted before time 0; see given.go): Kafka's members report
// them until their next rebalance.
func (p *parser) ownedPartitions(n *yaml.Node, m *MemberSpec, sc *Scenario) ([]kafka.TP, error) {
	subscribes := p.subscriber(m, sc)
	span := func(topic string) (int32, bool) {
		if count, ok := sc.Topics[topic]; ok {
			return count, true
		}
		return kafka.MaxPartitions, !IsConsumer(sc) && subscribes(topic) // deleted
	}
	return p.partitionMap(n, "members.owned", m.ID, sc, span, func(tp kafka.TP, _, x *yaml.Node) error {
		if !subscribes(tp.Topic) {
			return p.errf(x, "members.owned: %s owns partitions of %s but does not subscribe to it (its topics: %v)", m.ID, tp.Topic, m.Topics)
		}
		return p.claim(sc, tp, x, m.ID, "owned")
	})
}

// claim records that member holds tp (owned or revoking): a partition has
// one holder in a group.
func (p *parser) claim(sc *Scenario, tp kafka.TP, x *yaml.Node, member, how string) error {
	slot := p.given.owners.slot(sc, tp)
	if other := *slot; other != "" {
		if other == member {
			return p.errf(x, "members.%s: %s holds %s twice (a partition is owned or being revoked, not both)", how, member, tp)
		}
		return p.errf(x, "members.%s: %s is owned by %s and %s; a partition has one owner in a group", how, tp, other, member)
	}
	*slot = member
	return nil
}

// holders is each claimed partition's member: a row per topic of the
// scenario, indexed by partition (500,000 claims into one map cost more
// than the rest of the parse), and a map for partitions of a deleted
// topic a classic member may still own.
type holders struct {
	rows    map[string][]string
	last    string // the topic of lastRow, the row claimed last
	lastRow []string
	other   map[kafka.TP]*string
}

// slot is where tp's holder is written ("" while it has none).
func (h *holders) slot(sc *Scenario, tp kafka.TP) *string {
	if tp.Topic != h.last || h.lastRow == nil {
		row, ok := h.rows[tp.Topic]
		if !ok {
			if count, exists := sc.Topics[tp.Topic]; exists {
				row = make([]string, count)
				if h.rows == nil {
					h.rows = map[string][]string{}
				}
				h.rows[tp.Topic] = row
			}
		}
		h.last, h.lastRow = tp.Topic, row
	}
	if tp.Partition >= 0 && int(tp.Partition) < len(h.lastRow) {
		return &h.lastRow[tp.Partition]
	}
	v, ok := h.other[tp]
	if !ok {
		if h.other == nil {
			h.other = map[kafka.TP]*string{}
		}
		v = new(string)
		h.other[tp] = v
	}
	return v
}

// partitionMap reads {topic: [partitions]} (owned, target, revoking):
// span says how many partitions a topic has (ok false: it is unknown; a
// count below 0: any partition number, for check to judge; nil: the
// scenario's topics); check judges each one, given its topic's key and its
// own node. An empty map is an empty, non-nil list (an empty target is a
// target). A map the fast reader left lazy (parse_fast.go) is read from
// the file's text, its keys and partitions all on its own line.
func (p *parser) partitionMap(n *yaml.Node, what, who string, sc *Scenario, span func(string) (int32, bool), check func(tp kafka.TP, k, x *yaml.Node) error) ([]kafka.TP, error) {
	if isNull(n) {
		return []kafka.TP{}, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, "%s must map topics to partitions, like {t0: [0, 1]}", what)
	}
	if span == nil {
		span = func(topic string) (int32, bool) { count, ok := sc.Topics[topic]; return count, ok }
	}
	r := &partitionReader{p: p, what: what, who: who, sc: sc, span: span, check: check, out: []kafka.TP{}}
	if m, ok := p.lazy[n]; ok {
		// One node for every key and one for every partition: the
		// parser reads only their line (and a partition's text).
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Line: n.Line, Column: n.Column}
		x := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Line: n.Line, Column: n.Column}
		_, _ = scanPartitions(m.src, m.at, func(topic string) error {
			k.Value = topic
			r.err = r.startTopic(k, topic)
			return r.err
		}, func(part string) error {
			x.Value = part
			r.err = r.item(x)
			return r.err
		})
		if r.err != nil {
			return nil, r.err
		}
		return kafka.SortTPs(r.out), nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		topic, err := p.str(k, "a topic in "+what)
		if err != nil {
			return nil, err
		}
		if err := r.startTopic(k, topic); err != nil {
			return nil, err
		}
		items := v.Content
		if v.Kind == yaml.ScalarNode {
			items = []*yaml.Node{v}
		} else if v.Kind != yaml.SequenceNode {
			return nil, p.errf(v, "%s.%s must be a list of partitions, like [0, 1]", what, topic)
		}
		for _, x := range items {
			if err := r.item(x); err != nil {
				return nil, err
			}
		}
	}
	return kafka.SortTPs(r.out), nil
}

// partitionReader is partitionMap under way: the topic being read, and
// the partitions so far.
type partitionReader struct {
	p         *parser
	what, who string
	sc        *Scenario
	span      func(string) (int32, bool)
	check     func(tp kafka.TP, k, x *yaml.Node) error
	out       []kafka.TP
	err       error
	topics    []string        // the topics read so far: a map names each once
	unordered bool            // topics came out of order
	topicSet  map[string]bool // topics as a set, once out of order and long

	k      *yaml.Node
	topic  string
	count  int32
	lo, hi int64
	// The topic's own partitions are out[from:]: a map names a topic once,
	// so a partition listed twice is twice in its topic's list. Listed in
	// ascending order, as files are, a new one is past the last; seen is
	// the list as a set once it is out of order and long.
	from      int
	ascending bool
	seen      map[int32]bool
}

// startTopic starts a topic's list at its key k.
func (r *partitionReader) startTopic(k *yaml.Node, topic string) error {
	count, ok := r.span(topic)
	if !ok {
		return r.p.errf(k, "%s: unknown topic %q%s", r.what, topic, Suggest(topic, strategies.SortedTopics(r.sc.Topics)))
	}
	if r.topicListed(topic) {
		return r.p.errf(k, "%s: topic %q is listed twice (give its partitions in one list, like {%s: [0, 1]})", r.what, topic, topic)
	}
	r.k, r.topic, r.count = k, topic, count
	r.from, r.ascending, r.seen = len(r.out), true, nil
	r.lo, r.hi = int64(0), int64(count)-1
	if count < 0 {
		r.lo, r.hi = math.MinInt32, math.MaxInt32
	}
	return nil
}

// item reads one partition of the topic.
func (r *partitionReader) item(x *yaml.Node) error {
	p := r.p
	part, err := strconv.ParseInt(x.Value, 10, 64) // p.int64's answer, when it has no fault to tell
	if x.Kind != yaml.ScalarNode || err != nil || part < r.lo || part > r.hi {
		where := r.what + "." + r.topic
		if part, err = p.int64(x, where, r.lo, r.hi); err != nil {
			if _, numErr := strconv.ParseInt(x.Value, 10, 64); numErr == nil && r.count >= 0 {
				return p.errf(x, "%s: %s has %d partitions (0..%d): %s-%s does not exist", r.what, r.topic, r.count, r.count-1, r.topic, x.Value)
			}
			return err
		}
	}
	tp := kafka.TP{Topic: r.topic, Partition: int32(part)}
	if r.dup(tp) {
		return p.errf(x, "%s: %s lists %s twice", r.what, r.who, tp)
	}
	if err := r.check(tp, r.k, x); err != nil {
		return err
	}
	if n := len(r.out); n > r.from && r.out[n-1].Partition > tp.Partition {
		r.ascending = false
	}
	r.out = append(r.out, tp)
	if r.seen != nil {
		r.seen[tp.Partition] = true
	}
	return nil
}

// topicListed: the map named topic already, and notes it. Files name
// topics in order, so a name past the last is new; out of order, a scan
// of a short list, a set past 16 (a member of a Kafka-scale group can own
// partitions of hundreds of topics).
func (r *partitionReader) topicListed(topic string) bool {
	n := len(r.topics)
	if r.topicSet == nil && !r.unordered && (n == 0 || r.topics[n-1] < topic) {
		r.topics = append(r.topics, topic)
		return false
	}
	r.unordered = true
	if r.topicSet == nil {
		if n < 16 {
			if slices.Contains(r.topics, topic) {
				return true
			}
			r.topics = append(r.topics, topic)
			return false
		}
		r.topicSet = make(map[string]bool, 2*n)
		for _, t := range r.topics {
			r.topicSet[t] = true
		}
	}
	if r.topicSet[topic] {
		return true
	}
	r.topicSet[topic] = true
	return false
}

// dup: tp is listed already in its topic's list (a scan of a short
// list, a set past 128, nothing while the list ascends).
func (r *partitionReader) dup(tp kafka.TP) bool {
	list := r.out[r.from:]
	switch {
	case len(list) == 0:
		return false
	case r.ascending && list[len(list)-1].Partition < tp.Partition:
		return false
	case r.seen == nil && len(list) < 128:
		return slices.Contains(list, tp)
	case r.seen == nil:
		r.seen = make(map[int32]bool, 2*len(list))
		for _, o := range list {
			r.seen[o.Partition] = true
		}
	}
	return r.seen[tp.Partition]
}

// finishGiven settles a given start once the members are read: owned
// partitions alone mean generation 1, and a classic group can only be
// Stable with members that share an assignor.
func (p *parser) finishGiven(sc *Scenario, at *yaml.Node) error {
	g := &p.given
	if sc.Generation == 0 && g.firstNode != nil {
		sc.Generation = 1
	}
	if err := p.mixedStart(sc, at); err != nil { // given_mixed.go
		return err
	}
	if !sc.GivenStart() || IsConsumer(sc) || IsShare(sc) || len(sc.Members) == 0 {
		return nil
	}
	for _, name := range memberStrategies(sc, sc.Members[0]) {
		shared := true
		for _, m := range sc.Members[1:] {
			shared = shared && slices.Contains(memberStrategies(sc, m), name)
		}
		if shared {
			return nil
		}
	}
	return p.errf(at, "members: these members share no assignor, so no generation of the group can be Stable with all of them (INCONSISTENT_GROUP_PROTOCOL)")
}

// memberStrategies is a member's assignor list (the group's by default).
func memberStrategies(sc *Scenario, m MemberSpec) []string {
	if m.Strategies != nil {
		return m.Strategies
	}
	return []string{sc.Strategy}
}

// GivenText is the opening step's account of a given start.
func GivenText(sc *Scenario, coordinator string) string {
	counter := "generation"
	state := kafka.Stable
	if IsConsumer(sc) {
		counter, state = "group epoch", StartGroupState(sc)
	}
	if len(sc.Members) == 0 {
		return fmt.Sprintf("Group %s (%s, %s protocol) starts Empty at %s %d; its coordinator is %s.",
			sc.GroupID, sc.Strategy, sc.Protocol, counter, sc.Generation, coordinator)
	}
	if state == kafka.KAssigning || state == kafka.KReconciling {
		why := "some still reconciling towards their targets"
		if state == kafka.KAssigning {
			why = "the group epoch is ahead of the assignment epoch, so the next heartbeat computes new targets"
		}
		return fmt.Sprintf("Group %s starts %s at group epoch %d, assignment epoch %d, %d members already consuming%s; %s (a given state); its coordinator is %s.",
			sc.GroupID, state, sc.Generation, sc.StartAssignmentEpoch(), len(sc.Members), mixedText(sc), why, coordinator)
	}
	return fmt.Sprintf("Group %s starts %s at %s %d, %d members already consuming (a given state: no join phase)%s; its coordinator is %s.",
		sc.GroupID, state, counter, sc.Generation, len(sc.Members), mixedText(sc), coordinator)
}
