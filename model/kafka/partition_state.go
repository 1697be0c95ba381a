package kafka

// PartitionState is what a partition is doing at a moment of a run, or what
// one member is doing with it. A partition's state is the strongest of its
// members' (consumed, then revoking, then waiting); nobody otherwise.
type PartitionState uint8

// Partition states.
const (
	// PartitionNobody: no member consumes it, gives it up or waits for it.
	PartitionNobody PartitionState = iota
	// PartitionConsumed: a member consumes it (fetches from it).
	PartitionConsumed
	// PartitionRevoking: its owner is giving it up. Its onPartitionsRevoked
	// or onPartitionsLost runs or is due, or (KIP-848) the coordinator waits
	// for the member to acknowledge the revocation; fetching from it is
	// paused, so nobody consumes it.
	PartitionRevoking
	// PartitionWaiting: assigned to a member that does not have it yet:
	// withheld until a cooperative follow-up round, or (KIP-848) not yet
	// released by its previous owner.
	PartitionWaiting
)

func (s PartitionState) String() string {
	switch s {
	case PartitionConsumed:
		return "consumed"
	case PartitionRevoking:
		return "revoking"
	case PartitionWaiting:
		return "waiting"
	}
	return "nobody"
}

// Stronger reports whether s says more about a partition than o: a
// consumer outranks a member giving it up, which outranks one waiting.
func (s PartitionState) Stronger(o PartitionState) bool { return s.rank() > o.rank() }

func (s PartitionState) rank() int {
	return [...]int{PartitionNobody: 0, PartitionWaiting: 1, PartitionRevoking: 2, PartitionConsumed: 3}[s]
}

// MemberTag is the one word that says what a member is doing, the most
// telling first: a problem (crashed, left, fenced, stalled), a KIP-848
// reconciliation (unrevoked, unreleased), joining or rejoining, waiting for
// a partition, idle, leading the group; TagNone for a member simply
// consuming.
type MemberTag string

// Member tags.
const (
	TagNone       MemberTag = ""
	TagCrashed    MemberTag = MemberTag(StatusCrashed)
	TagLeft       MemberTag = MemberTag(StatusLeft)
	TagFenced     MemberTag = MemberTag(StatusFenced)
	TagStalled    MemberTag = MemberTag(StatusStalled)
	TagUnrevoked  MemberTag = "unrevoked"
	TagUnreleased MemberTag = "unreleased"
	TagJoining    MemberTag = MemberTag(StatusJoining)
	TagRejoining  MemberTag = MemberTag(StatusRejoining)
	TagWaiting    MemberTag = "waiting" // nothing held, a partition on its way (cooperative, KIP-848)
	TagIdle       MemberTag = "idle"    // nothing held, nothing on its way
	TagLeader     MemberTag = "leader"
)

// Problem reports whether the tag is a problem (the member is down or
// stuck) rather than a note.
func (t MemberTag) Problem() bool {
	switch t {
	case TagCrashed, TagLeft, TagFenced, TagStalled:
		return true
	}
	return false
}
