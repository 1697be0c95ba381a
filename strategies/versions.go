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

// VersionChanges lists them, oldest first (for --help and doc.go).
var VersionChanges = []VersionChange{
	{ClientVersion{2, 4, 0}, "producer: sticky partitioning of keyless records (KIP-480); RoundRobinPartitioner and UniformStickyPartitioner appear"},
	{ClientVersion{3, 3, 0}, "producer: the built-in partitioner (KIP-794), partitioner.ignore.keys"},
	{ClientVersion{3, 5, 0}, "consumer: range, sticky and cooperative-sticky are rack-aware (KIP-881); before, client.rack is ignored"},
	{ClientVersion{3, 9, 2}, "producer: RoundRobinPartitioner no longer skips partitions (KAFKA-17632; 4.0 and 3.9.2)"},
	{ClientVersion{4, 0, 0}, "producer: linger.ms defaults to 5 (KIP-1030), DefaultPartitioner and UniformStickyPartitioner removed; coordinator: the consumer protocol (KIP-848) is generally available, kviz models its uniform and range assignors from here"},
	{ClientVersion{4, 1, 0}, "coordinator: the homogeneous uniform builder lets any member keep the extra partition its target fills (KAFKA-18688); 4.0 gives the extras to the first members in order"},
}

// VersionHelp is VersionChanges as lines for --help.
func VersionHelp() string {
	var b strings.Builder
	for _, c := range VersionChanges {
		fmt.Fprintf(&b, "  %d.%d%s  %s\n", c.Since.Major, c.Since.Minor, patchSuffix(c.Since), c.What)
	}
	return strings.TrimRight(b.String(), "\n")
}

func patchSuffix(v ClientVersion) string {
	if v.Patch == 0 {
		return "  "
	}
	return fmt.Sprintf(".%d", v.Patch)
}

// release is the Kafka release g is assigned as.
func (g Group) release() ClientVersion {
	if g.Version == (ClientVersion{}) {
		return LatestClientVersion
	}
	return g.Version
}

// CheckRelease refuses an assignor at a release kviz does not model it in:
// the server-side assignors before 4.0, where KIP-848 was early access
// (3.7) or preview (3.8, 3.9) with builders since rewritten.
func CheckRelease(a Assignor, v ClientVersion) error {
	if v == (ClientVersion{}) || !serverSide(a) || v.AtLeast(4, 0, 0) {
		return nil
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
