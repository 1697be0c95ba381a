package kafka

import ()

// MemberStatus is where a member's process is in its life, as the lab
// draws it (Kafka's own member states are MemberState).
type MemberStatus string

// Member statuses.
const (
	StatusJoining   MemberStatus = "joining"
	StatusActive    MemberStatus = "active"
	StatusRejoining MemberStatus = "rejoining"
	StatusStalled   MemberStatus = "stalled"
	StatusCrashed   MemberStatus = "crashed"
	StatusLeft      MemberStatus = "left"
	StatusFenced    MemberStatus = "fenced"
)
