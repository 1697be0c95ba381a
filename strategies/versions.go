package strategies

import (
	"fmt"
	"strings"
)

// A Kafka release is one notion for the whole project: ClientVersion
// (partitioner_version.go) selects the behaviour of that release for the
// producer's partitioners, the consumer's assignors and the coordinator's.
// Group.Version carries it into an assignment; its zero value is the newest
// release kviz models (LatestClientVersion).

// VersionChange is one thing a release changed that kviz models.
type VersionChange struct {
	Since ClientVersion
	What  string
}

// VersionChanges lists them, oldest first (for --help and DESIGN.md).
var VersionChanges = []VersionChange{
	{ClientVersion{2, 4, 0}, "producer: sticky partitioning of keyless records (KIP-480); RoundRobinPartitioner and UniformStickyPartitioner appear"},
	{ClientVersion{3, 3, 0}, "producer: the built-in partitioner (KIP-794), partitioner.ignore.keys"},
	{ClientVersion{3, 5, 0}, "consumer: range, sticky and cooperative-sticky are rack-aware (KIP-881); before, client.rack is ignored"},
	{ClientVersion{3, 9, 2}, "producer: RoundRobinPartitioner no longer skips partitions (KAFKA-17632; 4.0 and 3.9.2)"},
	{ClientVersion{4, 0, 0}, "producer: linger.ms defaults to 5 (KIP-1030), DefaultPartitioner and UniformStickyPartitioner removed; coordinator: the consumer protocol (KIP-848) is generally available, kviz models its uniform and range assignors from here; share groups (KIP-932) in early access: the simple assignor gives every member every partition of its subscribed topics"},
	{ClientVersion{4, 1, 0}, "coordinator: the homogeneous uniform builder lets any member keep the extra partition its target fills (KAFKA-18688); 4.0 gives the extras to the first members in order; share groups (preview): simple hashes each member onto one partition, keeps current holders up to ceil(partitions/members) and deals the rest round-robin (KAFKA-18757, KAFKA-18901), only over initialised share-partitions"},
	{ClientVersion{4, 2, 0}, "share groups are generally available: simple shares each partition among ceil(members/partitions) members, with per-member quotas, revoking what is over them before assigning the rest (KAFKA-19362, KAFKA-19363); nothing else kviz models changed"},
	{ClientVersion{4, 3, 0}, "coordinator: a KIP-848 target is computed at most once per group.consumer.assignment.interval.ms (default 1000; group config consumer.assignment.interval.ms), by the first heartbeat after it (KAFKA-20291, KIP-1263), where 4.0-4.2 compute one on every group-epoch bump; a new group starts at group and assignment epoch 1, so the first target is epoch 2 (KAFKA-20268); an OffsetCommit with an older member epoch is accepted for partitions the member got at or before that epoch (KIP-1251 assignment epochs, KAFKA-20066). Not modelled: 4.3 offloads the assignor to a background thread by default (group.consumer.assignor.offload.enable); kviz computes the target inside the heartbeat, as with offload disabled"},
}

// NewestKnownRelease is the newest release VersionChanges lists: a version
// after its minor release is refused (kviz cannot say what it changed);
// its patch releases are taken as the release.
func NewestKnownRelease() ClientVersion { return VersionChanges[len(VersionChanges)-1].Since }

// The newest release whose every change kviz models is LatestClientVersion
// (partitioner_version.go): 4.3 is accepted, but its default assignor
// offload is not modelled, so a scenario without kafka_version runs 4.1.

// OrLatest is v, or the newest release kviz models for the zero value (a
// scenario or an input that names none).
func (v ClientVersion) OrLatest() ClientVersion {
	if v == (ClientVersion{}) {
		return LatestClientVersion
	}
	return v
}

// BatchesAssignments: the KIP-848 coordinator of this release waits
// group.consumer.assignment.interval.ms between target computations
// (KAFKA-20291, Kafka 4.3).
func (v ClientVersion) BatchesAssignments() bool { return v.OrLatest().AtLeast(4, 3, 0) }

// GroupEpochStartsAtOne: a new consumer group of this release starts at
// group epoch 1 with an empty target at assignment epoch 1 (KAFKA-20268,
// Kafka 4.3); before, both start at 0.
func (v ClientVersion) GroupEpochStartsAtOne() bool { return v.OrLatest().AtLeast(4, 3, 0) }

// AssignmentEpochs: the coordinator of this release keeps, per assigned
// partition, the member epoch it was assigned at, and accepts an
// OffsetCommit with an older member epoch for partitions assigned at or
// before it (KIP-1251, KAFKA-20066, Kafka 4.3); before, the epoch must
// equal the member's.
func (v ClientVersion) AssignmentEpochs() bool { return v.OrLatest().AtLeast(4, 3, 0) }

// VersionHelp is VersionChanges as lines for --help, each change wrapped
// to helpWidth columns under its release.
func VersionHelp() string {
	var b strings.Builder
	for _, c := range VersionChanges {
		head := fmt.Sprintf("  %d.%d%s  ", c.Since.Major, c.Since.Minor, patchSuffix(c.Since))
		indent := strings.Repeat(" ", len(head))
		line := head
		for i, word := range strings.Fields(c.What) {
			if i > 0 && len(line)+1+len(word) > helpWidth {
				b.WriteString(line + "\n")
				line = indent + word
				continue
			}
			if i > 0 {
				line += " "
			}
			line += word
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// helpWidth is the width --help's version list wraps at.
const helpWidth = 80

func patchSuffix(v ClientVersion) string {
	if v.Patch == 0 {
		return "  "
	}
	return fmt.Sprintf(".%d", v.Patch)
}

// release is the Kafka release g is assigned as.
func (g Group) release() ClientVersion { return g.Version.OrLatest() }

// CheckRelease refuses an assignor at a release kviz does not model it in:
// the server-side assignors before 4.0, where KIP-848 was early access
// (3.7) or preview (3.8, 3.9) with builders since rewritten.
func CheckRelease(a Assignor, v ClientVersion) error {
	if v == (ClientVersion{}) || !serverSide(a) || v.AtLeast(4, 0, 0) {
		return nil
	}
	if Supports(a, Share) {
		return fmt.Errorf("kafka version %s: share groups (KIP-932) and their %s assignor appear in Kafka 4.0 (early access)", v, a.Name())
	}
	return fmt.Errorf("kafka version %s: kviz models the server-side %s assignor from Kafka 4.0, where the consumer protocol (KIP-848) became generally available", v, a.Name())
}

// racksAsOf is g as an assignor of its release sees it: before 3.5 (KIP-881)
// the client assignors had no rack awareness, so racks are dropped.
func (g Group) racksAsOf(ex *Explainer) Group {
	if g.release().AtLeast(3, 5, 0) || (len(g.PartitionRacks) == 0 && !anyRack(g.Members)) {
		return g
	}
	ex.Addf("Kafka %s: the assignor is not rack-aware before 3.5 (KIP-881): racks ignored", g.release())
	out := g
	out.PartitionRacks = nil
	out.Members = make([]Member, len(g.Members))
	for i, m := range g.Members {
		m.Rack = ""
		out.Members[i] = m
	}
	return out
}

func anyRack(members []Member) bool {
	for _, m := range members {
		if m.Rack != "" {
			return true
		}
	}
	return false
}
