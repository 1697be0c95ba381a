package live

import (
	"fmt"
	"os"
	"testing"
)

// scaleGroup is a KIP-848 group as kfake's uniform assignor leaves one
// (scripts/livescale, livetest.StartScale): members × topics × parts
// partitions, every member subscribed to every topic and holding its
// share, spread over as many topics; read without a cluster, so the
// import's own cost is measured in seconds rather than kfake's minutes.
func scaleGroup(members, topics, parts int) *Group {
	g := &Group{Group: "scale", Type: Consumer, Protocol: "uniform", State: "Stable", Topics: map[string]int32{},
		RebalanceProtocol: "consumer", Brokers: 1, OffsetsPartitions: 50}
	epoch := int32(members + 1)
	g.GroupEpoch, g.AssignmentEpoch = &epoch, &epoch
	names := make([]string, topics)
	for t := range names {
		names[t] = fmt.Sprintf("t%04d", t)
		g.Topics[names[t]] = int32(parts)
	}
	per, kind := topics*parts/members, MemberConsumer
	for i := range members {
		a := map[string][]int32{}
		for k := range per {
			p := i*per + k
			a[names[p%topics]] = append(a[names[p%topics]], int32(p/topics))
		}
		g.Members = append(g.Members, Member{MemberID: fmt.Sprintf("member-%06d", i), ClientID: "livescale", Host: "/127.0.0.1",
			Topics: append([]string(nil), names...), Assignment: a, Target: a, MemberEpoch: &epoch, MemberType: &kind})
	}
	return g
}

// BenchmarkImportAtScale imports a 10,000-member group of 500,000
// partitions over 1,000 topics (KVIZ_IMPORT_SCALE=MEMBERS,TOPICS,PARTITIONS
// for another size) as kviz live --scenario does after its read: the
// member specs, the reconciliation check, Format and the Parse of what it
// wrote (issue 21).
func BenchmarkImportAtScale(b *testing.B) {
	members, topics, parts := 10000, 1000, 500
	if spec := os.Getenv("KVIZ_IMPORT_SCALE"); spec != "" {
		if _, err := fmt.Sscanf(spec, "%d,%d,%d", &members, &topics, &parts); err != nil {
			b.Fatalf("KVIZ_IMPORT_SCALE=%q: %v", spec, err)
		}
	}
	g := scaleGroup(members, topics, parts)
	for b.Loop() {
		if _, _, _, err := g.Import(); err != nil {
			b.Fatal(err)
		}
	}
}
