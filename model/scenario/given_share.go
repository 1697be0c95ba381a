package scenario

import (
	"fmt"
	"math"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// A share group's given start (KIP-932, issue 22): the group as
// ShareGroupDescribe shows it and the share-partitions as the share
// coordinator persists them (DescribeShareGroupOffsets, ReadShareGroupState:
// ShareGroupOffset / PersisterStateBatch), extending the format's given
// start, not reshaping it:
//
//	group: {type: share, group_epoch: 6, assignment_epoch: 6}
//	members:
//	  - {id: s1, member_id: Xy..., owned: {orders: [0, 1]}}
//	  - {id: s2, member_epoch: 5, owned: {orders: [0]}}
//	share_partitions:
//	  - {topic: orders, partition: 0, start_offset: 40, log_end: 55,
//	     records: [{first_offset: 40, last_offset: 42, state: acknowledged, delivery_count: 1},
//	               {first_offset: 43, last_offset: 43, state: available, delivery_count: 2}]}
//
// A member's owned partitions are its assignment (ShareGroupMember's
// assignedPartitions): several members may own one partition. Its member
// epoch is the assignment epoch unless given (1..the assignment epoch: a
// share member takes the target's epoch at its next heartbeat); its target
// is taken as what it owns (ShareGroupDescribe does not show targets).
// A share-partition with a start_offset has its share state initialised
// (the share coordinator holds it; from 4.1 only such partitions are
// assigned); without one, the entry only says where the log ends. Its
// records are the persisted state batches: AVAILABLE, ACKNOWLEDGED or
// ARCHIVED with a delivery count (acquisition locks live in the leader's
// memory only and are not persisted); offsets between batches are
// AVAILABLE and never delivered, as SharePartition.maybeInitialize reads a
// gap. Owned partitions with no entry start initialised at offset 0 of an
// empty log.

// SharePartitionState is one share-partition at a given start.
type SharePartitionState struct {
	TP kafka.TP
	// Initialised: the share state exists (start_offset given).
	Initialised bool
	StartOffset int64 // the share-partition start offset (SPSO)
	LogEnd      int64 // the partition's log end offset
	Batches     []ShareStateBatch
}

// ShareStateBatch is one persisted state batch (PersisterStateBatch).
type ShareStateBatch struct {
	First, Last   int64
	State         string // available, acknowledged or archived
	DeliveryCount int32
}

// ShareRecordStates are the states a persisted batch may have
// (RecordState: ACQUIRED is never persisted).
var ShareRecordStates = []string{"available", "acknowledged", "archived"}

// maxShareOffset bounds offsets as the share actions do; maxShareWindow the
// records a given share-partition's batches may span (kviz keeps each).
const (
	maxShareOffset = 1 << 50
	maxShareWindow = 100000
)

// shareGivenKey reads group.group_epoch and group.assignment_epoch of a
// share group; startEpoch settles them once the group is derived.
func (p *parser) shareGivenKey(key string, v *yaml.Node) {
	if key == "assignment_epoch" {
		p.given.assignNode = v
		return
	}
	p.given.epochKey, p.given.epochNode = key, v
}

// shareGivenMember reads a share member's given keys: owned (shareable),
// member_epoch; target and revoking are refused.
func (p *parser) shareGivenMember(m *MemberSpec, gn givenNodes, sc *Scenario) error {
	for _, k := range []struct {
		n   *yaml.Node
		key string
	}{{gn.target, "target"}, {gn.revoking, "revoking"}} {
		if k.n != nil {
			return p.errf(k.n, "members.%s: a share member takes its target at once (ShareGroupAssignmentBuilder revokes nothing: partitions are shared); give what it holds as owned", k.key)
		}
	}
	g := &p.given
	if gn.owned != nil {
		g.firstNode = orNode(g.firstNode, gn.owned)
		subscribes := p.subscriber(m, sc)
		tps, err := p.partitionMap(gn.owned, "members.owned", m.ID, sc, nil, func(tp kafka.TP, _, x *yaml.Node) error {
			if !subscribes(tp.Topic) {
				return p.errf(x, "members.owned: %s owns partitions of %s but does not subscribe to it (its topics: %v)", m.ID, tp.Topic, m.Topics)
			}
			if g.shareOwned == nil {
				g.shareOwned = map[kafka.TP]string{}
			}
			if _, ok := g.shareOwned[tp]; !ok {
				g.shareOwned[tp] = m.ID
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(tps) > 0 {
			m.Owned = tps
		}
	}
	if gn.epoch != nil {
		g.firstNode = orNode(g.firstNode, gn.epoch)
		hi := int64(max(sc.StartAssignmentEpoch(), 1))
		e, err := p.int64(gn.epoch, "members.member_epoch", math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		if e < 1 || e > hi {
			return p.errf(gn.epoch, "members.member_epoch: %s's member epoch %d is outside 1..the assignment epoch %d (a share member reaches the target's epoch at its heartbeat, never beyond it)", m.ID, e, hi)
		}
		m.MemberEpoch = int32(e)
	}
	return nil
}

// sharePartitions reads share_partitions: (after the members, whose owned
// partitions must be initialised from 4.1 on).
func (p *parser) sharePartitions(n *yaml.Node, sc *Scenario) error {
	if sc.Share == nil {
		return p.errf(n, "share_partitions belong to a share group (group: {type: share})")
	}
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "share_partitions must be a list, like [{topic: t0, partition: 0, start_offset: 10, log_end: 20}]")
	}
	seen := map[kafka.TP]bool{}
	for _, e := range n.Content {
		sp, err := p.sharePartition(e, sc)
		if err != nil {
			return err
		}
		if seen[sp.TP] {
			return p.errf(e, "share_partitions: %s-%d is listed twice", sp.TP.Topic, sp.TP.Partition)
		}
		seen[sp.TP] = true
		if owner, owned := p.given.shareOwned[sp.TP]; owned && !sp.Initialised && sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0) {
			return p.errf(e, "share_partitions: %s owns %s-%d, so its share state is initialised (from Kafka 4.1 the assignor assigns only initialised share-partitions): give its start_offset", owner, sp.TP.Topic, sp.TP.Partition)
		}
		sc.Share.Partitions = append(sc.Share.Partitions, sp)
		p.given.firstNode = orNode(p.given.firstNode, e)
	}
	slices.SortFunc(sc.Share.Partitions, func(a, b SharePartitionState) int { return kafka.CompareTPs(a.TP, b.TP) })
	return nil
}

func (p *parser) sharePartition(n *yaml.Node, sc *Scenario) (SharePartitionState, error) {
	var sp SharePartitionState
	var topicNode, partNode, startNode, endNode, recordsNode *yaml.Node
	err := p.fields(n, "share_partitions", []string{"topic", "partition", "start_offset", "log_end", "records"}, func(key string, _, v *yaml.Node) error {
		switch key {
		case "topic":
			topicNode = v
		case "partition":
			partNode = v
		case "start_offset":
			startNode = v
		case "log_end":
			endNode = v
		case "records":
			recordsNode = v
		}
		return nil
	})
	if err != nil {
		return sp, err
	}
	if topicNode == nil || partNode == nil {
		return sp, p.errf(n, "share_partitions: an entry needs topic and partition, like {topic: t0, partition: 0, start_offset: 10, log_end: 20}")
	}
	topic, err := p.str(topicNode, "share_partitions.topic")
	if err != nil {
		return sp, err
	}
	count, ok := sc.Topics[topic]
	if !ok {
		return sp, p.errf(topicNode, "share_partitions: unknown topic %q%s", topic, Suggest(topic, strategies.SortedTopics(sc.Topics)))
	}
	part, err := p.int64(partNode, fmt.Sprintf("share_partitions.partition (%s has partitions 0..%d)", topic, count-1), 0, int64(count)-1)
	if err != nil {
		return sp, err
	}
	sp.TP = kafka.TP{Topic: topic, Partition: int32(part)}
	if startNode != nil {
		sp.Initialised = true
		if sp.StartOffset, err = p.int64(startNode, "share_partitions.start_offset", 0, maxShareOffset); err != nil {
			return sp, err
		}
	}
	sp.LogEnd = sp.StartOffset
	if endNode != nil {
		if sp.LogEnd, err = p.int64(endNode, "share_partitions.log_end", 0, maxShareOffset); err != nil {
			return sp, err
		}
		if sp.LogEnd < sp.StartOffset {
			return sp, p.errf(endNode, "share_partitions: %s-%d's log ends at %d, before its start offset %d (the start offset is at most the log end)", topic, part, sp.LogEnd, sp.StartOffset)
		}
	}
	if recordsNode == nil {
		return sp, nil
	}
	if !sp.Initialised {
		return sp, p.errf(recordsNode, "share_partitions: %s-%d has no start_offset, so no share state: its records have no state yet", topic, part)
	}
	sp.Batches, err = p.shareBatches(recordsNode, sp, sc)
	return sp, err
}

// shareBatches reads a share-partition's persisted state batches, judged as
// SharePartition.maybeInitialize judges them: each from the start offset
// on, first <= last, in order without overlap; kviz also keeps them below
// the log end and within the delivery count limit.
func (p *parser) shareBatches(n *yaml.Node, sp SharePartitionState, sc *Scenario) ([]ShareStateBatch, error) {
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "share_partitions.records must be a list of state batches, like [{first_offset: 10, last_offset: 12, state: acknowledged, delivery_count: 1}]")
	}
	limit := int64(sc.Share.DeliveryCountLimit)
	var out []ShareStateBatch
	next := sp.StartOffset
	for _, e := range n.Content {
		var b ShareStateBatch
		var firstNode, lastNode, stateNode, countNode *yaml.Node
		err := p.fields(e, "share_partitions.records", []string{"first_offset", "last_offset", "state", "delivery_count"}, func(key string, _, v *yaml.Node) error {
			var err error
			var x int64
			switch key {
			case "first_offset":
				firstNode = v
				b.First, err = p.int64(v, "records.first_offset", 0, maxShareOffset)
			case "last_offset":
				lastNode = v
				b.Last, err = p.int64(v, "records.last_offset", 0, maxShareOffset)
			case "state":
				stateNode = v
				b.State, err = p.oneOf(v, "records.state (the persisted RecordState)", ShareRecordStates)
			case "delivery_count":
				countNode = v
				x, err = p.int64(v, fmt.Sprintf("records.delivery_count (at most group.delivery_count_limit %d)", limit), 0, limit)
				b.DeliveryCount = int32(x)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if firstNode == nil || stateNode == nil {
			return nil, p.errf(e, "share_partitions.records: a batch needs first_offset and state (last_offset defaults to first_offset)")
		}
		if lastNode == nil {
			b.Last = b.First
		}
		where := fmt.Sprintf("%s-%d", sp.TP.Topic, sp.TP.Partition)
		switch {
		case b.First < next && len(out) == 0:
			return nil, p.errf(firstNode, "share_partitions.records: %s's batch at %d is below its start offset %d (SharePartition.maybeInitialize refuses it)", where, b.First, sp.StartOffset)
		case b.First < next:
			return nil, p.errf(firstNode, "share_partitions.records: %s's batch at %d overlaps the one before (ending at %d): batches go in offset order", where, b.First, next-1)
		case b.Last < b.First:
			return nil, p.errf(lastNode, "share_partitions.records: %s's batch ends at %d, before its first offset %d", where, b.Last, b.First)
		case b.Last >= sp.LogEnd:
			return nil, p.errf(orNode(lastNode, firstNode), "share_partitions.records: %s's batch reaches offset %d, but its log ends at %d (log_end: the next offset written)", where, b.Last, sp.LogEnd)
		case b.State == "available" && int64(b.DeliveryCount) >= limit:
			return nil, p.errf(orNode(countNode, stateNode), "share_partitions.records: an AVAILABLE batch delivered %d times, the delivery count limit, would have been archived when released (InFlightState.tryUpdateState)", b.DeliveryCount)
		case b.State == "acknowledged" && b.DeliveryCount == 0:
			return nil, p.errf(orNode(countNode, stateNode), "share_partitions.records: an ACKNOWLEDGED batch was delivered at least once: give its delivery_count")
		}
		if b.Last-sp.StartOffset >= maxShareWindow {
			return nil, p.errf(orNode(lastNode, firstNode), "share_partitions.records: %s's batches reach %d offsets past its start offset; kviz holds at most %d records in flight per share-partition", where, b.Last-sp.StartOffset+1, maxShareWindow)
		}
		next = b.Last + 1
		out = append(out, b)
	}
	return out, nil
}

// shareStartEpochError is epochKeyError for a share group: it counts group
// epochs.
func shareStartEpochError(key string) string {
	if key == "generation" {
		return "group.generation: a share group counts group epochs (ShareGroupHeartbeat); write group.group_epoch"
	}
	return ""
}

// formatShareGiven writes a share group's given epochs into its group:
// mapping (formatShareGroup).
func formatShareGiven(sc *Scenario, g *yaml.Node) {
	if !sc.GivenStart() {
		return
	}
	put(g, "group_epoch", fInt(int64(sc.Generation)))
	if a := sc.AssignmentEpoch; a > 0 && a != sc.Generation {
		put(g, "assignment_epoch", fInt(int64(a)))
	}
}

// formatSharePartitions writes share_partitions: (nil when none).
func formatSharePartitions(sc *Scenario) *yaml.Node {
	if sc.Share == nil || len(sc.Share.Partitions) == 0 {
		return nil
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, sp := range sc.Share.Partitions {
		n := fMap(true, "topic", fStr(sp.TP.Topic), "partition", fInt(int64(sp.TP.Partition)))
		if sp.Initialised {
			put(n, "start_offset", fInt(sp.StartOffset))
		}
		if sp.LogEnd != sp.StartOffset || !sp.Initialised {
			put(n, "log_end", fInt(sp.LogEnd))
		}
		if len(sp.Batches) > 0 {
			recs := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
			for _, b := range sp.Batches {
				r := fMap(true, "first_offset", fInt(b.First))
				if b.Last != b.First {
					put(r, "last_offset", fInt(b.Last))
				}
				put(r, "state", fStr(b.State))
				put(r, "delivery_count", fInt(int64(b.DeliveryCount)))
				recs.Content = append(recs.Content, r)
			}
			put(n, "records", recs)
		}
		seq.Content = append(seq.Content, n)
	}
	return seq
}

// ShareGivenText is the opening step's account of a share group's given
// start.
func ShareGivenText(sc *Scenario, coordinator string) string {
	head := fmt.Sprintf("Share group %s (simple, Kafka %s)", sc.GroupID, sc.KafkaVersion.OrLatest())
	var state string
	switch {
	case len(sc.Members) == 0:
		state = fmt.Sprintf("starts Empty at group epoch %d", sc.Generation)
	case sc.Generation > sc.StartAssignmentEpoch():
		state = fmt.Sprintf("starts Stable at group epoch %d, assignment epoch %d, %d members already consuming; the group epoch is ahead, so the next heartbeat computes a new target (a given state)",
			sc.Generation, sc.StartAssignmentEpoch(), len(sc.Members))
	default:
		state = fmt.Sprintf("starts Stable at group epoch %d, %d members already consuming (a given state: no joins)", sc.Generation, len(sc.Members))
	}
	init := 0
	for _, sp := range sc.Share.Partitions {
		if sp.Initialised {
			init++
		}
	}
	parts := ""
	if init > 0 {
		parts = fmt.Sprintf(" %d share-partition(s) start from the share state the share coordinator persisted.", init)
	}
	return fmt.Sprintf("%s %s; its coordinator is %s.%s Records are locked for %d ms, archived after %d deliveries, at most %d in flight per partition.",
		head, state, coordinator, parts, sc.Share.RecordLockMs, sc.Share.DeliveryCountLimit, sc.Share.MaxRecordLocks)
}
