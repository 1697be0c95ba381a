package model

import (
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/strategies"
)

// Step is one line of the trace: a request, a response, a callback, a timer.
type Step struct {
	Index      int              `json:"step"`
	TimeMs     int64            `json:"time_ms"`
	Kind       kafka.StepKind   `json:"kind"`
	Member     string           `json:"member"`
	Text       string           `json:"text"`
	GroupState kafka.GroupState `json:"group_state"`
	Generation int32            `json:"generation"`
	// AssignmentEpoch is the epoch of the target assignment (consumer
	// protocol only; JSONL "assignment_epoch").
	AssignmentEpoch int32                         `json:"-"`
	Leader          string                        `json:"leader"`
	Error           string                        `json:"error,omitempty"`
	Owned           map[string]map[string][]int32 `json:"owned"`
	MemberEpochs    map[string]int32              `json:"member_epochs,omitempty"`
	// MemberStates is each member's reconciliation state, keyed as
	// MemberEpochs (consumer protocol only; JSONL "member_states"): with
	// the epochs it makes the group state derivable from the step.
	MemberStates map[string]kafka.MemberState  `json:"-"`
	Target       map[string]map[string][]int32 `json:"target,omitempty"`
	// Lag is the group's lag per topic and partition (partitions with a
	// committed offset); only in scenarios with producers.
	Lag map[string]map[string]int64 `json:"lag,omitempty"`
	// Readers is what each other group reading the topics (readers:) has
	// read so far, by topic and partition; only in scenarios with readers.
	Readers map[string]map[string]map[string]int64 `json:"readers,omitempty"`
	// Routine marks a heartbeat that changed nothing; `kviz simulate` hides it unless --all.
	Routine bool `json:"-"`
	// SharePartitions: a share group's share-partitions (JSONL
	// "share_partitions", share groups only).
	SharePartitions []SharePartitionView `json:"-"`
	// consumer: under the consumer protocol member_epochs and target are
	// always written, even when empty.
	consumer bool
}

// ConsumerProtocol reports whether the step is of a group under the KIP-848
// consumer protocol (Generation is then the group epoch).
func (s Step) ConsumerProtocol() bool { return s.consumer }

// GroupView is the whole state after one step, for the lab to draw.
// Views are shared between callers: treat them as read-only.
type GroupView struct {
	TimeMs               int64
	GroupID              string
	Protocol             kafka.Protocol   // eager | cooperative | consumer
	Strategy             string           // kviz strategy name
	State                kafka.GroupState // Kafka's name for the group state in this protocol
	Generation           int32            // classic generation; group epoch under the consumer protocol
	AssignmentEpoch      int32            // consumer protocol only
	Leader               string           // classic only: the leader's client id
	CoordinatorBroker    int              // -1 when no broker leads the group's offsets partition
	CoordinatorPartition int32
	Topics               []TopicView  // in name order
	Members              []MemberView // in join order; departed ones flagged by Status
	Brokers              []BrokerView
	// flows and step give Flow() the data path after this step (flow.go);
	// sim and step, Unconsumed its answer (view_consumed.go).
	flows *flowCache
	sim   *Sim
	step  int
	// changed is the members this step changed (Changed, view_find.go).
	changed []int
	// SharePartitions: a share group's share-partitions, their offsets
	// and in-flight records (nil for other groups; share_records.go).
	SharePartitions []SharePartitionView
}

// TopicView is one topic as the group sees it.
type TopicView struct {
	Name       string
	Partitions int32
}

// BrokerView is one broker and the __consumer_offsets partitions it leads.
type BrokerView struct {
	ID            int
	Up            bool
	LeadsOffsets  int  // how many __consumer_offsets partitions it leads
	IsCoordinator bool // it leads the group's offsets partition
}

// MemberView is one member as the lab draws it. ID is the scenario's client
// id (c1); MemberID is the coordinator-made member.id (c1-1a2b3c4d).
type MemberView struct {
	ID, InstanceID string
	MemberID       string
	Status         kafka.MemberStatus // joining|active|rejoining|stalled|crashed|left|fenced
	Topics         []string
	Owned          []strategies.TopicPartition // consumed now
	Revoking       []strategies.TopicPartition // being revoked (callback running / pending revocation)
	// Pending is assigned or targeted but not yet held: withheld by a
	// cooperative assignor, or not yet released by another member (KIP-848).
	Pending       []strategies.TopicPartition
	NewlyAssigned []strategies.TopicPartition // given by the last onPartitionsAssigned
	Generation    int32                       // classic: the generation the member holds (-1 none)
	MemberEpoch   int32                       // consumer protocol: the coordinator's epoch for it
	InGroup       bool                        // the coordinator counts it as a member (a crashed one stays until its session expires)
	MemberState   kafka.MemberState           // consumer protocol: STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS
	LastCallback  string                      // e.g. "onPartitionsRevoked([t0-1])"
	IsLeader      bool
}

// Rebalance summarises one completed rebalance: from the start of a join
// phase (KIP-848: a group-epoch bump) to the group settled again; see
// Sim.Rebalances.
type Rebalance struct {
	StartStep, EndStep int
	StartMs, EndMs     int64
	Generation         int32 // generation (group epoch) at the end
	// Rounds are the generations (KIP-848: group epochs) the rebalance went
	// through: one for eager, two for a cooperative dance that moves a
	// partition, one per epoch bump under KIP-848.
	Rounds []Round
	// Moves are the partitions whose consumer at the end differs from the
	// one just before the start (Diff); Moved counts those taken from a
	// member (Move.Taken), the one meaning of "moved".
	Moves []kafka.Move
	Moved int
	// UnownedMs is, per partition, how long it had no consumer during the rebalance.
	UnownedMs PartitionMs
}

// fillMembers sets v.Members, the views after step i (members, in start
// order, the leader's client id leader). Reading 10,000 views one pointer
// at a time costs more than the rest of a step (each sits elsewhere in
// memory); the view of a neighbouring step, when the Sim keeps one, holds
// all but the few this step or the next changed in one block, so those
// are copied in one go and only the changed ones read.
func (s *Sim) fillMembers(v *GroupView, i int, members []*MemberView, leader string) {
	v.Members = make([]MemberView, len(members))
	prev, diff := s.neighbour(i)
	if prev == nil || prev.Leader != leader {
		for j, m := range members {
			v.Members[j] = *m
			v.Members[j].IsLeader = leader != "" && m.ID == leader
		}
		return
	}
	copy(v.Members, prev.Members) // a member new in step i is one of diff
	for _, ch := range diff {
		if j := int(ch.pos); j < len(members) {
			v.Members[j] = *members[j]
			v.Members[j].IsLeader = leader != "" && members[j].ID == leader
		}
	}
}

// neighbour is a view the Sim keeps of step i-1 or i+1 (nil for none),
// with the changes between it and step i: every position they name may
// differ, no other does. Callers hold s.mu.
func (s *Sim) neighbour(i int) (*GroupView, []change[*MemberView]) {
	if v, ok := s.views[i-1]; ok && i > 0 {
		return v, s.vlog.changes[s.vlog.end(i-1):s.vlog.end(i)]
	}
	if v, ok := s.views[i+1]; ok && i+1 < len(s.steps) {
		return v, s.vlog.changes[s.vlog.end(i):s.vlog.end(i+1)]
	}
	return nil, nil
}
