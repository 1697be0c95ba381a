package scenario

import (
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// Scenario is a parsed scenario file: the cluster, the group's settings, the
// members present at time 0 and the timeline of what happens next.
type Scenario struct {
	File  string // where it came from, for messages
	Name  string
	Title string
	Notes string
	Seed  int64
	// Examples are the worked examples of SEED-EXAMPLES.md the scenario
	// shows (`examples: [7]`), for `kviz demos` and the lab's picker.
	Examples []int
	// Open is the lab hint `lab: {open: compare}`: the mode the lab opens
	// the scenario in ("" = the plain lab).
	Open LabOpen
	// Pane is the lab hint `lab: {pane: brokers}`: the pane the lab opens
	// with in focus ("" = its own choice).
	Pane LabPane

	Brokers int
	// BrokerRacks is each broker's broker.rack (cluster.racks), one per
	// broker in id order; nil = no broker has a rack. With racks, replicas
	// are placed rack-aware and members with a rack (MemberSpec.Rack) meet
	// Kafka's rack-aware assignors (KIP-881).
	BrokerRacks       []string
	OffsetsPartitions int32
	Topics            map[string]int32 // topic -> partition count
	// Replicas is a topic's replica assignment as given (topics.T.replicas:
	// each partition's broker ids, the first its preferred leader), as a
	// real cluster has it; a topic without one is placed by Kafka's
	// algorithm from the seed.
	Replicas map[string][][]int

	GroupID  string
	Strategy string // kviz strategy name
	Protocol string // eager | cooperative | consumer
	// KafkaVersion is group.kafka_version: the release whose assignors run
	// (the zero value: the newest kviz models; strategies/versions.go).
	KafkaVersion            strategies.ClientVersion
	SessionTimeoutMs        int64
	HeartbeatIntervalMs     int64
	MaxPollIntervalMs       int64 // also the rebalance timeout
	InitialRebalanceDelayMs int64

	// Generation is a given start: the group is already Stable (KIP-848:
	// STABLE) at time 0, at this generation (classic) or group epoch
	// (KIP-848; the assignment epoch and every member epoch equal it), with
	// Members holding their Owned partitions. 0: the group starts empty and
	// its members join. With no members it starts Empty at this generation.
	Generation int32
	// AssignmentEpoch is a KIP-848 given start's assignment epoch
	// (group.assignment_epoch): the group epoch its members' targets were
	// computed for. 0 = Generation (the targets are current); below it, the
	// group is ASSIGNING and the next heartbeat computes new targets.
	AssignmentEpoch int32
	// Classic is a classic given start's leader and caught rebalance;
	// Client the library members run unless they say; TimingSources where
	// the group's timings came from (live_start.go, timings.go).
	Classic       ClassicStart
	Client        string
	TimingSources map[string]string

	// MaxSize is group.classic.max.size / group.consumer.max.size
	// (group.max_size): a join beyond it gets GROUP_MAX_SIZE_REACHED. 0 =
	// Kafka's default, Integer.MAX_VALUE.
	MaxSize int32
	// SessionCheck is group.session_timeout_check: who refuses a classic
	// session timeout outside the broker's bounds (SessionCheckParser, the
	// default, or SessionCheckCoordinator: INVALID_SESSION_TIMEOUT).
	SessionCheck string
	// Migration is group.migration_policy, the broker's
	// group.consumer.migration.policy ("" = bidirectional, Kafka 4.0's
	// default).
	Migration string
	// Share: a share group (group.type: share, KIP-932; share.go); nil for
	// a classic or consumer group.
	Share *ShareSpec

	Members  []MemberSpec // start at time 0, in this order
	Timeline []Event      // sorted by AtMs, stable

	// EveryHeartbeat runs every routine heartbeat of a quiet stretch
	// instead of jumping it (quiet.go): `kviz simulate --all
	// --every-heartbeat`, for a short scenario whose heartbeats a user
	// wants to see one by one. Not part of the file format.
	EveryHeartbeat bool

	// Flow is the data path (producers, consumer rates, offsets); nil when
	// the scenario has no producers: and no produce: entries.
	Flow *FlowSpec

	// groupSet holds the group timeouts the scenario gave explicitly (by
	// their file key); the others follow Kafka's defaults for the protocol,
	// and are derived again when a variation changes it (vary.go).
	groupSet map[string]int64
	// givenEpochKey is the key a given start's epoch was written under
	// (generation or group_epoch; "" when implied), which fixes the
	// protocol family a variation may take.
	givenEpochKey string
}

// MemberSpec is a member present from the start.
type MemberSpec struct {
	ID       string
	Instance string
	// Rack is the member's client.rack ("" = not set): the classic
	// rack-aware assignors (KIP-881, Kafka 3.5) prefer partitions with a
	// replica on it.
	Rack   string
	Topics []string
	// Strategies is the member's partition.assignment.strategy, in order
	// (kviz names); nil = [group.strategy]. Classic protocol only.
	Strategies []string
	// Settings are its own configuration (timeouts, group.protocol,
	// listener); zero values are the group's.
	Settings MemberSettings
	// In a given start (Scenario.Generation > 0): the member id it holds
	// ("" = made as the coordinator, or the KIP-848 client, would) and the
	// partitions it consumes at time 0 (sorted; under KIP-848 also its target).
	MemberID string
	Owned    []kafka.TP
	// A KIP-848 given start may catch a member mid-reconcile, as
	// ConsumerGroupDescribe shows it (Kafka's ConsumerGroupMember): its
	// member epoch (0 = the assignment epoch), its target (nil = Owned: the
	// member is reconciled; non-nil, even empty, = given) and the partitions
	// it is still revoking (UNREVOKED_PARTITIONS, at an epoch below the
	// assignment epoch).
	MemberEpoch int32
	Target      []kafka.TP
	Revoking    []kafka.TP
	// Client is the library the member runs ("" = group.client, else
	// java); Rejoined, in a group caught preparing a rebalance, that it
	// has sent its JoinGroup (live_start.go).
	Client   string
	Rejoined bool
}

// StartAssignmentEpoch is the assignment epoch a given start begins at.
func (sc *Scenario) StartAssignmentEpoch() int32 {
	if sc.AssignmentEpoch > 0 {
		return sc.AssignmentEpoch
	}
	return sc.Generation
}

// StartEpoch is the member's epoch at a given start (KIP-848).
func (m MemberSpec) StartEpoch(sc *Scenario) int32 {
	if m.MemberEpoch > 0 {
		return m.MemberEpoch
	}
	return sc.StartAssignmentEpoch()
}

// StartTarget is the member's target at a given start (KIP-848).
func (m MemberSpec) StartTarget() []kafka.TP {
	if m.Target != nil {
		return m.Target
	}
	return m.Owned
}

// GivenStart reports whether the group starts from a given state rather
// than empty.
func (sc *Scenario) GivenStart() bool { return sc.Generation > 0 }

// LabOpen is a mode the lab may open a scenario in.
type LabOpen string

// OpenCompare opens the lab with compare ready (a strategy contrast).
const OpenCompare LabOpen = "compare"

// LabOpens lists the valid lab.open values.
var LabOpens = []LabOpen{OpenCompare}

// LabPane is a pane the lab may open a scenario with in focus.
type LabPane string

// The lab's panes: the assignment grid, the protocol messages, the
// numbers of the rebalances, the producers, and the producers with the
// broker map beside them (replicas and leaders of the data topics, the
// coordinator). The last two need a data path (producers:, readers: or
// produce entries).
const (
	PaneGrid      LabPane = "grid"
	PaneProtocol  LabPane = "protocol"
	PaneNumbers   LabPane = "numbers"
	PaneProducers LabPane = "producers"
	PaneBrokers   LabPane = "brokers"
)

// LabPanes lists the valid lab.pane values.
var LabPanes = []LabPane{PaneGrid, PaneProtocol, PaneNumbers, PaneProducers, PaneBrokers}

// KafkaVersionLabel is group.kafka_version as the lab's header shows it, ""
// when the scenario runs the newest release kviz models.
func (sc *Scenario) KafkaVersionLabel() string {
	if sc.KafkaVersion == (strategies.ClientVersion{}) {
		return ""
	}
	return sc.KafkaVersion.String()
}
