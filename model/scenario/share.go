package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kvizlab/kviz/strategies"
)

// Share groups (KIP-932): `group: {type: share}`. The group runs the share
// protocol (ShareGroupHeartbeat, the server-side assignor simple) and its
// members consume partitions together, record by record (model/sharepart).
// Defaults and bounds are Kafka's: GroupCoordinatorConfig (heartbeat,
// session, max size, 4.3's assignment interval) and ShareGroupConfig
// (record lock, delivery count limit, in-flight records), confluentinc/kafka
// 4.0-4.3.

// GroupTypeShare is the value of group.type that makes a share group.
const GroupTypeShare = "share"

// Kafka's share-group defaults and bounds.
const (
	ShareHeartbeatDefaultMs = 5000  // group.share.heartbeat.interval.ms
	ShareHeartbeatMinMs     = 5000  // group.share.min.heartbeat.interval.ms
	ShareHeartbeatMaxMs     = 15000 // group.share.max.heartbeat.interval.ms
	ShareSessionDefaultMs   = 45000 // group.share.session.timeout.ms
	ShareSessionMinMs       = 45000 // group.share.min.session.timeout.ms
	ShareSessionMaxMs       = 60000 // group.share.max.session.timeout.ms
	ShareMaxSizeDefault     = 200   // group.share.max.size
	ShareMaxSizeLimit       = 1000  // its bound: between(1, 1000)
	// ShareAssignmentIntervalDefaultMs is 4.3's group.share.assignment.interval.ms
	// (bounds group.share.min/max.assignment.interval.ms, 0..15000).
	ShareAssignmentIntervalDefaultMs = 1000
	ShareAssignmentIntervalMaxMs     = 15000
	ShareRecordLockDefaultMs         = 30000   // group.share.record.lock.duration.ms
	ShareRecordLockMinMs             = 1000    // its bound: between(1000, 3600000)
	ShareRecordLockMaxMs             = 3600000 //
	ShareDeliveryCountDefault        = 5       // group.share.delivery.count.limit
	ShareDeliveryCountMin            = 2       // its bound: between(2, 10)
	ShareDeliveryCountMax            = 10      //
	ShareRecordLocksMin              = 100     // group.share.partition.max.record.locks: between(100, 10000)
	ShareRecordLocksMax              = 10000   //
)

// ShareRecordLocksDefault is group.share.partition.max.record.locks of a
// release: 200 in 4.0, 2000 from 4.1 (ShareGroupConfig).
func ShareRecordLocksDefault(v strategies.ClientVersion) int32 {
	if v.OrLatest().AtLeast(4, 1, 0) {
		return 2000
	}
	return 200
}

// ShareSpec is a share group's settings beyond the ones every group has
// (its heartbeat interval and session timeout are Scenario's, its maximum
// size Scenario.MaxSize).
type ShareSpec struct {
	// AssignmentIntervalMs: Kafka 4.3 computes a target at most once per
	// this (group.share.assignment.interval.ms); earlier releases at every
	// heartbeat that finds the group epoch ahead.
	AssignmentIntervalMs int64
	RecordLockMs         int64  // group.share.record.lock.duration.ms
	DeliveryCountLimit   int32  // group.share.delivery.count.limit / share.delivery.count.limit
	MaxRecordLocks       int32  // group.share.partition.max.record.locks
	AutoOffsetReset      string // share.auto.offset.reset: latest (default) or earliest
	// Partitions: a given start's share-partitions (given_share.go).
	Partitions []SharePartitionState
	// SkipForeignAcks: an acknowledgement of records the member does not
	// hold is answered INVALID_RECORD_STATE and skipped, not refused (a
	// compare row under another release than the script's; never read
	// from a file).
	SkipForeignAcks bool
}

// IsShare reports whether the scenario's group is a share group.
func IsShare(sc *Scenario) bool { return sc.Share != nil }

// The share timeline's own actions (ShareEventKinds): records appends
// records to a partition, fetch is a member's ShareFetch, acknowledge its
// acknowledgement of records it holds.
const (
	EventRecords     = "records"
	EventFetch       = "fetch"
	EventAcknowledge = "acknowledge"
)

// ShareEventKinds lists the share timeline's actions.
var ShareEventKinds = []string{EventRecords, EventFetch, EventAcknowledge}

// ShareEvent is what a share action says beyond Event's fields (Member,
// Topic, Count).
type ShareEvent struct {
	Partition  int32
	MaxRecords int32   // fetch: max.poll.records (500)
	Offsets    []int64 // acknowledge: the offsets, ascending
	Type       string  // acknowledge: accept | release | reject | renew
}

// AckTypes are the acknowledgement types (AcknowledgeType): renew from
// Kafka 4.2 (KIP-1222; AcknowledgeType.RENEW).
var AckTypes = []string{"accept", "release", "reject", "renew"}

var shareGroupKeys = []string{"id", "type", "strategy", "protocol", "kafka_version", "session_timeout_ms", "heartbeat_interval_ms",
	"max_size", "assignment_interval_ms", "record_lock_duration_ms", "delivery_count_limit", "partition_max_record_locks",
	"auto_offset_reset",
	// a given start (given_share.go)
	"group_epoch", "assignment_epoch"}

// shareTypeNode finds group.type in the group mapping (nil when absent).
func shareTypeNode(n *yaml.Node) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "type" {
			return n.Content[i+1]
		}
	}
	return nil
}

// shareGroup reads a group with a type: key. Only share is a type kviz
// knows apart from the default (classic or consumer, by protocol).
func (p *parser) shareGroup(n, typeNode *yaml.Node, sc *Scenario) error {
	if t, err := p.str(typeNode, "group.type"); err != nil {
		return err
	} else if t != GroupTypeShare {
		return p.errf(typeNode, "group.type must be share (a classic or consumer group needs no type: its protocol says which), got %q", t)
	}
	sh := &ShareSpec{AutoOffsetReset: "latest"}
	set := map[string]int64{}
	var intervalNode *yaml.Node
	nodes := map[string]*yaml.Node{} // where derive's errors point
	err := p.fields(n, "group", shareGroupKeys, func(key string, _, v *yaml.Node) error {
		if ok, err := p.identityKey(key, v, sc, nodes); ok { // parse.go
			return err
		}
		var err error
		var x int64
		switch key {
		case "type":
		case "session_timeout_ms":
			x, err = p.int64(v, "group.session_timeout_ms (group.share.session.timeout.ms, bounded by group.share.min/max.session.timeout.ms)", ShareSessionMinMs, ShareSessionMaxMs)
			set[key] = x
		case "heartbeat_interval_ms":
			x, err = p.int64(v, "group.heartbeat_interval_ms (group.share.heartbeat.interval.ms, bounded by group.share.min/max.heartbeat.interval.ms)", ShareHeartbeatMinMs, ShareHeartbeatMaxMs)
			set[key] = x
		case "max_size":
			x, err = p.int64(v, "group.max_size (group.share.max.size)", 1, ShareMaxSizeLimit)
			sc.MaxSize = int32(x)
		case "assignment_interval_ms":
			intervalNode = v
			sh.AssignmentIntervalMs, err = p.int64(v, "group.assignment_interval_ms (group.share.assignment.interval.ms)", 0, ShareAssignmentIntervalMaxMs)
			set[key] = 1
		case "record_lock_duration_ms":
			sh.RecordLockMs, err = p.int64(v, "group.record_lock_duration_ms (group.share.record.lock.duration.ms)", ShareRecordLockMinMs, ShareRecordLockMaxMs)
		case "delivery_count_limit":
			x, err = p.int64(v, "group.delivery_count_limit (share.delivery.count.limit)", ShareDeliveryCountMin, ShareDeliveryCountMax)
			sh.DeliveryCountLimit = int32(x)
		case "partition_max_record_locks":
			x, err = p.int64(v, "group.partition_max_record_locks (group.share.partition.max.record.locks)", ShareRecordLocksMin, ShareRecordLocksMax)
			sh.MaxRecordLocks = int32(x)
		case "auto_offset_reset":
			sh.AutoOffsetReset, err = p.oneOf(v, "group.auto_offset_reset (share.auto.offset.reset)", []string{"latest", "earliest"})
		case "group_epoch", "assignment_epoch":
			p.shareGivenKey(key, v) // given_share.go
		}
		return err
	})
	if err != nil {
		return err
	}
	if nodes["strategy"] == nil {
		sc.Strategy = "simple" // not the parser's range: a share group has one assignor
	}
	sc.Share = sh
	sc.groupSet = set
	if err := p.derive(sc, n, nodes); err != nil {
		return err
	}
	if _, given := set["assignment_interval_ms"]; given && !sc.KafkaVersion.OrLatest().AtLeast(4, 3, 0) {
		return p.errf(intervalNode, "group.assignment_interval_ms: group.share.assignment.interval.ms is Kafka 4.3's (KIP-1263); Kafka %s computes a target at every heartbeat that finds the group epoch ahead", sc.KafkaVersion.OrLatest())
	}
	return p.startEpoch(sc) // a given start (parse_given.go)
}

// deriveShare is deriveGroup for a share group: the assignor is simple,
// the protocol share, the timeouts the share coordinator's.
func deriveShare(sc *Scenario) *groupError {
	a, err := strategies.LookupAny(sc.Strategy)
	if err != nil || a.Name() != "simple" {
		return &groupError{"strategy", fmt.Sprintf("group.strategy: a share group's assignor is simple (group.share.assignors), got %q", sc.Strategy)}
	}
	if sc.Protocol != "" && sc.Protocol != string(strategies.Share) {
		return &groupError{"protocol", fmt.Sprintf("group.protocol: a share group runs the share protocol (ShareGroupHeartbeat), got %q", sc.Protocol)}
	}
	sc.Strategy, sc.Protocol = a.Name(), string(strategies.Share)
	if !sc.KafkaVersion.OrLatest().AtLeast(4, 0, 0) {
		return &groupError{"kafka_version", fmt.Sprintf("group.kafka_version: share groups (KIP-932) exist from Kafka 4.0 on, got %s", sc.KafkaVersion)}
	}
	if err := strategies.CheckRelease(a, sc.KafkaVersion); err != nil {
		return &groupError{"kafka_version", "group.kafka_version: " + err.Error()}
	}
	set := sc.groupSet
	sc.SessionTimeoutMs, sc.HeartbeatIntervalMs = ShareSessionDefaultMs, ShareHeartbeatDefaultMs
	if v, ok := set["session_timeout_ms"]; ok {
		sc.SessionTimeoutMs = v
	}
	if v, ok := set["heartbeat_interval_ms"]; ok {
		sc.HeartbeatIntervalMs = v
	}
	sc.MaxPollIntervalMs, sc.InitialRebalanceDelayMs = 300000, 0
	sh := sc.Share
	if sh.RecordLockMs == 0 {
		sh.RecordLockMs = ShareRecordLockDefaultMs
	}
	if sh.DeliveryCountLimit == 0 {
		sh.DeliveryCountLimit = ShareDeliveryCountDefault
	}
	if sh.MaxRecordLocks == 0 {
		sh.MaxRecordLocks = ShareRecordLocksDefault(sc.KafkaVersion)
	}
	if _, ok := set["assignment_interval_ms"]; !ok {
		sh.AssignmentIntervalMs = 0
		if sc.KafkaVersion.OrLatest().AtLeast(4, 3, 0) {
			sh.AssignmentIntervalMs = ShareAssignmentIntervalDefaultMs
		}
	}
	if sc.MaxSize == 0 {
		sc.MaxSize = ShareMaxSizeDefault
	}
	return nil
}

// checkShareMembers refuses what a share group cannot have: static
// members (ShareGroupHeartbeat carries no group.instance.id) and the
// classic members' own assignors.
func (p *parser) checkShareMembers(n *yaml.Node, sc *Scenario) error {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	for i, c := range n.Content {
		if i >= len(sc.Members) {
			break
		}
		if err := p.checkShareMember(c, sc.Members[i].Instance, sc.Members[i].Strategies); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) checkShareMember(n *yaml.Node, instance string, strats []string) error {
	at := func(key string) *yaml.Node {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == key {
					return n.Content[i]
				}
			}
		}
		return n
	}
	if instance != "" {
		return p.errf(at("instance"), "instance %q: a share group has no static membership (ShareGroupHeartbeat carries no group.instance.id)", instance)
	}
	if strats != nil {
		return p.errf(at("strategies"), "strategies: a share group's assignor is the coordinator's (simple); members name none")
	}
	return nil
}

// shareEventsAllowed are the group events a share scenario's timeline may
// have besides ShareEventKinds.
var shareEventsAllowed = []string{"join", "leave", "crash", "restart", "stall", "subscribe", "add_partitions", "fail_broker", "recover_broker"}

// checkShareEvent is CheckEvent's share-group part.
func checkShareEvent(sc *Scenario, ev Event) error {
	switch {
	case slices.Contains(ShareEventKinds, ev.Kind):
		if ev.Share == nil {
			return fmt.Errorf("%s needs its settings", ev.Kind)
		}
		if ev.Kind != EventFetch {
			if _, ok := sc.Topics[ev.Topic]; !ok {
				return fmt.Errorf("%s: unknown topic %q%s", ev.Kind, ev.Topic, Suggest(ev.Topic, strategies.SortedTopics(sc.Topics)))
			}
			if n := countAt(sc, ev.Topic, ev.AtMs); ev.Share.Partition < 0 || ev.Share.Partition >= n {
				return fmt.Errorf("%s: %s has partitions 0..%d at %d ms, not %d", ev.Kind, ev.Topic, n-1, ev.AtMs, ev.Share.Partition)
			}
		}
		if ev.Kind == EventAcknowledge && ev.Share.Type == "renew" && !sc.KafkaVersion.OrLatest().AtLeast(4, 2, 0) {
			return fmt.Errorf("acknowledge: type renew is Kafka 4.2's (KIP-1222, AcknowledgeType.RENEW); Kafka %s knows accept, release and reject", sc.KafkaVersion.OrLatest())
		}
		return nil
	case slices.Contains(shareEventsAllowed, ev.Kind):
		if ev.Kind == "join" && ev.Instance != "" {
			return fmt.Errorf("join: instance %q: a share group has no static membership (ShareGroupHeartbeat carries no group.instance.id)", ev.Instance)
		}
		if ev.Kind == "restart" && ev.Settings.Protocol != "" {
			return fmt.Errorf("restart: protocol %s: a share consumer has no group.protocol to change (KafkaShareConsumer speaks only ShareGroupHeartbeat; there is no online migration to or from a share group)", ev.Settings.Protocol)
		}
		return nil
	}
	return fmt.Errorf("%s is not modelled for share groups (a share group's timeline has %s)", ev.Kind, strings.Join(append(slices.Clone(shareEventsAllowed), ShareEventKinds...), ", "))
}

// shareAction reads a share timeline action.
func (p *parser) shareAction(ev *Event, v *yaml.Node, sc *Scenario) error {
	if sc.Share == nil {
		return p.errf(v, "%s is a share group's action (group: {type: share})", ev.Kind)
	}
	se := &ShareEvent{MaxRecords: 500, Type: "accept"}
	ev.Share = se
	var keys []string
	switch ev.Kind {
	case EventRecords:
		keys = []string{"topic", "partition", "count"}
		ev.Count = 1
	case EventFetch:
		keys = []string{"id", "max_records"}
	default:
		keys = []string{"id", "topic", "partition", "offsets", "type"}
	}
	err := p.fields(v, ev.Kind, keys, func(key string, _, x *yaml.Node) error {
		var err error
		var n int64
		switch key {
		case "id":
			ev.Member, err = p.memberRef(x, ev.Kind+".id")
		case "topic":
			ev.Topic, err = p.str(x, ev.Kind+".topic")
		case "partition":
			n, err = p.int64(x, ev.Kind+".partition", 0, strategies.MaxPartitions-1)
			se.Partition = int32(n)
		case "count":
			n, err = p.int64(x, ev.Kind+".count", 1, 100000)
			ev.Count = int32(n)
		case "max_records":
			n, err = p.int64(x, ev.Kind+".max_records (max.poll.records)", 1, 1<<31-1)
			se.MaxRecords = int32(n)
		case "offsets":
			se.Offsets, err = p.offsets(x, ev.Kind+".offsets")
		case "type":
			se.Type, err = p.oneOf(x, ev.Kind+".type (AcknowledgeType)", AckTypes)
		}
		return err
	})
	if err != nil {
		return err
	}
	switch {
	case ev.Kind == EventRecords && ev.Topic == "":
		return p.errf(v, "records needs a topic, like {topic: t0, partition: 0, count: 5}")
	case ev.Kind != EventRecords && ev.Member == "":
		return p.errf(v, "%s needs the member's id", ev.Kind)
	case ev.Kind == EventAcknowledge && (ev.Topic == "" || len(se.Offsets) == 0):
		return p.errf(v, "acknowledge needs topic, partition and offsets, like {id: c1, topic: t0, partition: 0, offsets: [0, 1], type: accept}")
	}
	return nil
}

// offsets reads a list of offsets, or {from: a, to: b} (inclusive).
func (p *parser) offsets(n *yaml.Node, what string) ([]int64, error) {
	var out []int64
	if n.Kind == yaml.MappingNode {
		var from, to int64 = -1, -1
		err := p.fields(n, what, []string{"from", "to"}, func(key string, _, x *yaml.Node) error {
			v, err := p.int64(x, what+"."+key, 0, 1<<50)
			if key == "from" {
				from = v
			} else {
				to = v
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if from < 0 || to < from || to-from >= 100000 {
			return nil, p.errf(n, "%s needs from <= to (at most 100000 offsets)", what)
		}
		for o := from; o <= to; o++ {
			out = append(out, o)
		}
		return out, nil
	}
	if n.Kind != yaml.SequenceNode {
		v, err := p.int64(n, what, 0, 1<<50)
		return []int64{v}, err
	}
	for _, c := range n.Content {
		v, err := p.int64(c, what, 0, 1<<50)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			return nil, p.errf(c, "%s must be ascending and distinct", what)
		}
		out = append(out, v)
	}
	return out, nil
}

// formatShareGroup writes a share group's group: mapping (Format).
func formatShareGroup(sc *Scenario) *yaml.Node {
	sh := sc.Share
	g := fMap(false, "id", fStr(sc.GroupID), "type", fStr(GroupTypeShare))
	if v := sc.KafkaVersionLabel(); v != "" {
		put(g, "kafka_version", fStr(v))
	}
	if sc.SessionTimeoutMs != ShareSessionDefaultMs {
		put(g, "session_timeout_ms", fInt(sc.SessionTimeoutMs))
	}
	if sc.HeartbeatIntervalMs != ShareHeartbeatDefaultMs {
		put(g, "heartbeat_interval_ms", fInt(sc.HeartbeatIntervalMs))
	}
	if sc.MaxSize != ShareMaxSizeDefault {
		put(g, "max_size", fInt(int64(sc.MaxSize)))
	}
	if _, given := sc.groupSet["assignment_interval_ms"]; given {
		put(g, "assignment_interval_ms", fInt(sh.AssignmentIntervalMs))
	}
	if sh.RecordLockMs != ShareRecordLockDefaultMs {
		put(g, "record_lock_duration_ms", fInt(sh.RecordLockMs))
	}
	if sh.DeliveryCountLimit != ShareDeliveryCountDefault {
		put(g, "delivery_count_limit", fInt(int64(sh.DeliveryCountLimit)))
	}
	if sh.MaxRecordLocks != ShareRecordLocksDefault(sc.KafkaVersion) {
		put(g, "partition_max_record_locks", fInt(int64(sh.MaxRecordLocks)))
	}
	if sh.AutoOffsetReset != "latest" {
		put(g, "auto_offset_reset", fStr(sh.AutoOffsetReset))
	}
	formatShareGiven(sc, g) // given_share.go
	return g
}

// formatShareAction writes a records, fetch or acknowledge entry's value.
func formatShareAction(ev Event) *yaml.Node {
	se := ev.Share
	switch ev.Kind {
	case EventRecords:
		return fMap(true, "topic", fStr(ev.Topic), "partition", fInt(int64(se.Partition)), "count", fInt(int64(ev.Count)))
	case EventFetch:
		return fMap(true, "id", fStr(ev.Member), "max_records", fInt(int64(se.MaxRecords)))
	}
	offs := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, o := range se.Offsets {
		offs.Content = append(offs.Content, fInt(o))
	}
	return fMap(true, "id", fStr(ev.Member), "topic", fStr(ev.Topic), "partition", fInt(int64(se.Partition)), "offsets", offs, "type", fStr(se.Type))
}
