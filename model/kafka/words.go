package kafka

import (
	"strings"
)

// Kafka's domain words as types: the lab and the CLI compare against these
// names instead of spelling them.

// StepKind names a step of the trace: a request or response by its Kafka
// API name, a rebalance-listener callback, or one of kviz's own events
// (DESIGN.md lists those).
type StepKind string

// Requests and responses.
const (
	KindFindCoordinatorRequest         StepKind = "FindCoordinatorRequest"
	KindJoinGroupRequest               StepKind = "JoinGroupRequest"
	KindJoinGroupResponse              StepKind = "JoinGroupResponse"
	KindSyncGroupRequest               StepKind = "SyncGroupRequest"
	KindSyncGroupResponse              StepKind = "SyncGroupResponse"
	KindHeartbeatRequest               StepKind = "HeartbeatRequest"
	KindHeartbeatResponse              StepKind = "HeartbeatResponse"
	KindLeaveGroupRequest              StepKind = "LeaveGroupRequest"
	KindOffsetCommitRequest            StepKind = "OffsetCommitRequest"
	KindOffsetCommitResponse           StepKind = "OffsetCommitResponse"
	KindConsumerGroupHeartbeatRequest  StepKind = "ConsumerGroupHeartbeatRequest"
	KindConsumerGroupHeartbeatResponse StepKind = "ConsumerGroupHeartbeatResponse"
)

// Share groups (KIP-932): the share protocol's requests, the share
// coordinator's initialisation of share state, and the records' own moves.
const (
	KindShareGroupHeartbeatRequest        StepKind = "ShareGroupHeartbeatRequest"
	KindShareGroupHeartbeatResponse       StepKind = "ShareGroupHeartbeatResponse"
	KindInitializeShareGroupStateRequest  StepKind = "InitializeShareGroupStateRequest"
	KindInitializeShareGroupStateResponse StepKind = "InitializeShareGroupStateResponse"
	KindShareFetchRequest                 StepKind = "ShareFetchRequest"
	KindShareFetchResponse                StepKind = "ShareFetchResponse"
	KindShareAcknowledgeRequest           StepKind = "ShareAcknowledgeRequest"
	KindShareAcknowledgeResponse          StepKind = "ShareAcknowledgeResponse"
	// KindRecordsAppended: records are written to a share group's partition.
	KindRecordsAppended StepKind = "RecordsAppended"
	// KindAcquisitionLockTimeout: acquired records' locks time out
	// (SharePartition's acquisition lock timeout task).
	KindAcquisitionLockTimeout StepKind = "AcquisitionLockTimeout"
)

// The ConsumerRebalanceListener callbacks, named after their methods
// without "on".
const (
	KindPartitionsRevoked  StepKind = "PartitionsRevoked"
	KindPartitionsAssigned StepKind = "PartitionsAssigned"
	KindPartitionsLost     StepKind = "PartitionsLost"
)

// The coordinator's and the cluster's own moves, and kviz's events.
const (
	KindGroupStateChanged   StepKind = "GroupStateChanged"
	KindCoordinatorMoved    StepKind = "CoordinatorMoved"
	KindSessionExpired      StepKind = "SessionExpired"
	KindPollTimeout         StepKind = "PollTimeout"
	KindMemberStarted       StepKind = "MemberStarted"
	KindMemberCrashed       StepKind = "MemberCrashed"
	KindBrokerFailed        StepKind = "BrokerFailed"
	KindBrokerRecovered     StepKind = "BrokerRecovered"
	KindMemberStopped       StepKind = "MemberStopped"
	KindPollStalled         StepKind = "PollStalled"
	KindPollResumed         StepKind = "PollResumed"
	KindSubscriptionChanged StepKind = "SubscriptionChanged"
	KindCommitFailed        StepKind = "CommitFailed"
	KindMetadataRefreshed   StepKind = "MetadataRefreshed"
	KindAssignmentComputed  StepKind = "AssignmentComputed"
	KindMemberRemoved       StepKind = "MemberRemoved"
	KindMemberReplaced      StepKind = "MemberReplaced"
	KindStaticMemberKept    StepKind = "StaticMemberKept"
	KindRebalanceDelayed    StepKind = "RebalanceDelayed"
	KindCreatePartitions    StepKind = "CreatePartitions"
	// KindNetworkCut and KindNetworkRestored: one consumer loses and gets
	// back its network link to the brokers while its process runs.
	KindNetworkCut      StepKind = "NetworkCut"
	KindNetworkRestored StepKind = "NetworkRestored"
	// KindPollInterrupted: poll() throws to the application (wakeup(), a
	// rebalance callback that threw) and the application polls again.
	KindPollInterrupted StepKind = "PollInterrupted"
	// KindCallbackReturned: a rebalance callback that took time returns.
	KindCallbackReturned StepKind = "CallbackReturned"
	// KindGroupConverted: the coordinator converts the group between the
	// classic and the consumer protocol (KIP-848 online migration).
	KindGroupConverted StepKind = "GroupConverted"
	// The data path's moments, steps only in a scenario whose records come
	// from the timeline's produce entries (model/flow_moments.go):
	// records land, another group's consumer starts, a consumer has read
	// and committed what there was.
	KindRecordsProduced StepKind = "RecordsProduced"
	KindReaderStarted   StepKind = "ReaderStarted"
	KindRecordsConsumed StepKind = "RecordsConsumed"
	// KindTopicCreated and KindTopicDeleted: a topic created or deleted
	// during the run (CreateTopics, DeleteTopics); KindRegexResolved: the
	// KIP-848 coordinator's asynchronous resolution of the group's
	// regular expressions (SubscribedTopicRegex) changed what one matches.
	KindTopicCreated  StepKind = "TopicCreated"
	KindTopicDeleted  StepKind = "TopicDeleted"
	KindRegexResolved StepKind = "RegexResolved"
	// KindQuietStretch stands for the routine heartbeats of a stretch in
	// which nothing changed (quiet.go); routine, like them.
	KindQuietStretch StepKind = "QuietStretch"
)

// API is the Kafka API a request or response step belongs to
// ("JoinGroup"); "" for other steps.
func (k StepKind) API() string {
	if api, ok := strings.CutSuffix(string(k), "Request"); ok {
		return api
	}
	if api, ok := strings.CutSuffix(string(k), "Response"); ok {
		return api
	}
	return ""
}

// IsRequest reports whether the step is a request to the coordinator.
func (k StepKind) IsRequest() bool { return strings.HasSuffix(string(k), "Request") }

// IsCallback reports whether the step is a rebalance-listener callback.
func (k StepKind) IsCallback() bool {
	return k == KindPartitionsRevoked || k == KindPartitionsAssigned || k == KindPartitionsLost
}

// IsDataPath reports whether the step is one of the data path's moments
// (records landing, a reader starting, a consumer done reading).
func (k StepKind) IsDataPath() bool {
	return k == KindRecordsProduced || k == KindReaderStarted || k == KindRecordsConsumed
}

// ListenerMethod is the callback's method name, "onPartitionsAssigned".
func (k StepKind) ListenerMethod() string { return "on" + string(k) }

// GroupState is Kafka's name for a group state: ClassicGroupState's under
// the classic protocol, ConsumerGroupState's (upper case, as the enum
// constants) under KIP-848.
type GroupState string

// Classic group states (ClassicGroupState).
const (
	Empty               GroupState = "Empty"
	PreparingRebalance  GroupState = "PreparingRebalance"
	CompletingRebalance GroupState = "CompletingRebalance"
	Stable              GroupState = "Stable"
	Dead                GroupState = "Dead"
)

// Consumer group states (KIP-848, ConsumerGroup.ConsumerGroupState).
const (
	KEmpty       GroupState = "EMPTY"
	KAssigning   GroupState = "ASSIGNING"
	KReconciling GroupState = "RECONCILING"
	KStable      GroupState = "STABLE"
	KDead        GroupState = "DEAD"
)

// Consumer reports whether the state is a consumer group's (KIP-848's
// upper-case names) rather than a classic group's.
func (s GroupState) Consumer() bool {
	switch s {
	case KEmpty, KAssigning, KReconciling, KStable, KDead:
		return true
	}
	return false
}

// Machine is the protocol whose state machine the state belongs to: the
// scenario's, unless the group has migrated to the other kind (KIP-848's
// online migration turns a classic group into a consumer group and back).
func (s GroupState) Machine(p Protocol) Protocol {
	switch {
	case s.Consumer():
		return ProtocolConsumer
	case p == ProtocolConsumer && s != "":
		return ProtocolCooperative // a classic group: its states are the same for either rebalance protocol
	}
	return p
}

// GroupStates is a protocol's state machine in the order a rebalance walks
// it (Dead is left out: the lab never unloads the group).
func GroupStates(p Protocol) []GroupState {
	if p == ProtocolShare {
		return []GroupState{Empty, Stable} // ShareGroup.ShareGroupState: no rebalance states
	}
	if p == ProtocolConsumer {
		return []GroupState{KEmpty, KAssigning, KReconciling, KStable}
	}
	return []GroupState{Empty, PreparingRebalance, CompletingRebalance, Stable}
}

// Title is the state as Kafka's tools print it (ConsumerGroupState's
// toString is "Assigning"; the classic names are already so).
func (s GroupState) Title() string {
	if len(s) < 2 || strings.ToUpper(string(s)) != string(s) {
		return string(s)
	}
	return string(s[:1]) + strings.ToLower(string(s[1:]))
}

// MemberState is a KIP-848 member's reconciliation state (MemberState).
type MemberState string

// Member states of the reconciliation.
const (
	MStable     MemberState = "STABLE"
	MUnrevoked  MemberState = "UNREVOKED_PARTITIONS"
	MUnreleased MemberState = "UNRELEASED_PARTITIONS"
)
