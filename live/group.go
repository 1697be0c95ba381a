// Package live reads a real consumer group from a Kafka cluster, strictly
// read-only, and turns it into kviz's terms: the JSON twin of `kviz live`,
// the table kafka-consumer-groups.sh prints, and a scenario that starts
// from the group's state. The network code (read.go, connect.go) only
// fetches responses; every conversion is a pure function of them
// (convert.go), so it is tested on recorded responses as well as on kfake.
package live

// Type is a group's type as ListGroups and the tools name it.
type Type string

const (
	Classic  Type = "classic"  // JoinGroup/SyncGroup, the client-side assignor
	Consumer Type = "consumer" // KIP-848, the server-side assignor
	Share    Type = "share"    // KIP-932: members share partitions, the simple assignor
)

// What a member speaks (Member.MemberType): Kafka's MemberType of a
// ConsumerGroupDescribe member (0 classic, 1 consumer; a mixed group is
// KIP-848's online migration), classic for every member of a classic group,
// share for a share group's.
const (
	MemberClassic  = "classic"
	MemberConsumer = "consumer"
	MemberShare    = "share"
)

// Group is one group as `kviz live --format json` prints it. The fields
// up to Offsets are issue 12's contract; the rest extend it.
type Group struct {
	Group           string           `json:"group"`
	Type            Type             `json:"type"`
	ProtocolType    string           `json:"protocol_type"`
	Protocol        string           `json:"protocol"` // the assignor (classic) or server assignor (consumer), as Kafka names it
	State           string           `json:"state"`
	Generation      *int32           `json:"generation"` // classic; see Generation's note in convert.go
	GroupEpoch      *int32           `json:"group_epoch"`
	AssignmentEpoch *int32           `json:"assignment_epoch"`
	Coordinator     *int32           `json:"coordinator"` // broker id; null when unknown (--from-describe)
	Topics          map[string]int32 `json:"topics"`      // partition counts of every topic the group touches
	Members         []Member         `json:"members"`
	Offsets         []Offset         `json:"offsets"`

	// Brokers and OffsetsPartitions size the cluster (Metadata; the
	// partitions of __consumer_offsets); 0 when unknown.
	Brokers           int   `json:"brokers,omitempty"`
	OffsetsPartitions int32 `json:"offsets_partitions,omitempty"`
	// BrokerRacks is every broker's broker.rack, in broker id order
	// (Metadata); empty when unknown (--from-describe).
	BrokerRacks []BrokerRack `json:"broker_racks,omitempty"`
	// Replicas is each partition's replicas (broker ids, the preferred
	// leader first) of the topics in Topics (Metadata); empty when unknown.
	Replicas map[string][][]int32 `json:"replicas,omitempty"`
	// RebalanceProtocol is eager, cooperative or consumer.
	RebalanceProtocol string `json:"rebalance_protocol"`
	// MissingTopics are subscribed (or owned) topics the cluster does not
	// have: deleted, or not created yet.
	MissingTopics []string `json:"missing_topics,omitempty"`
	// Unknown says what the source could not tell (--from-describe).
	Unknown []string `json:"unknown,omitempty"`
	// TopicIDs are the topics' Kafka Uuids (Metadata), base64 as Kafka
	// prints them; a share group's only: the simple assignor's answer
	// depends on them.
	TopicIDs map[string]string `json:"topic_ids,omitempty"`
	// Configs are the group settings the cluster tells (DescribeConfigs):
	// the coordinator's group defaults and the group's own overrides.
	Configs []GroupConfig `json:"configs,omitempty"`

	// Strategy is kviz's name for the assignor (what assign, whatif,
	// compare and demos call "strategy": range-server for a KIP-848
	// group's "range"); null when the group names none or kviz does not
	// model it.
	Strategy *string `json:"strategy"`

	// prev is the last settled read of the group, when this read caught
	// it mid-rebalance (Carry).
	prev *Group
	// opts are what the user tells about the members (WithOptions).
	opts ImportOptions
}

// Member is one group member.
type Member struct {
	MemberID    string             `json:"member_id"`
	InstanceID  *string            `json:"instance_id"`
	ClientID    string             `json:"client_id"`
	Host        string             `json:"host"`
	Rack        *string            `json:"rack"`
	Topics      []string           `json:"topics"`
	Assignment  map[string][]int32 `json:"assignment"`
	Target      map[string][]int32 `json:"target"`
	MemberEpoch *int32             `json:"member_epoch"`

	// OwnedGeneration is the generation the member said it owned its
	// partitions at, in its last JoinGroup (ConsumerProtocolSubscription
	// v2+, KIP-792); classic only, null when the client did not say.
	OwnedGeneration *int32 `json:"owned_generation,omitempty"`
	// Regex is a KIP-848 member's subscribed pattern, if any.
	Regex *string `json:"regex,omitempty"`
	// PartitionCount is how many partitions the member holds when that is
	// all the source tells (a --members paste without --verbose prints
	// #PARTITIONS and no assignment); absent when Assignment is known.
	PartitionCount *int `json:"partition_count,omitempty"`
	// MemberType is the protocol the member speaks: classic, consumer or
	// share (the constants above); null when the source does not tell (a
	// describe paste of a consumer group without the UPGRADED column, or a
	// broker before ConsumerGroupDescribe v1).
	MemberType *string `json:"member_type"`
	// ID is the member's scenario id: how the import, whatif, compare and
	// simulate name it (memberNames).
	ID string `json:"id"`
}

// Offset is one partition's progress.
type Offset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Committed *int64 `json:"committed"`
	LogEnd    *int64 `json:"log_end"`
	Lag       *int64 `json:"lag"`
	// StartOffset is a share group's share-partition start offset
	// (DescribeShareGroupOffsets): records before it are all acknowledged
	// or archived. Share groups commit no offsets (committed is null); lag
	// is the coordinator's (log end minus start offset minus the records
	// past it already done), null where the broker does not compute it.
	StartOffset *int64 `json:"start_offset,omitempty"`
}

// BrokerRack is a broker and its rack (null: none).
type BrokerRack struct {
	ID   int32   `json:"id"`
	Rack *string `json:"rack"`
}

// Listed is one line of `kviz live --list`.
type Listed struct {
	Group        string `json:"group"`
	Type         string `json:"type"`
	ProtocolType string `json:"protocol_type"`
	State        string `json:"state"`
	Coordinator  int32  `json:"coordinator"`
}

func ptr[T any](v T) *T { return &v }
