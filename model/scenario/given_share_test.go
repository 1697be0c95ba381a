package scenario

import (
	"reflect"
	"strings"
	"testing"
)

const shareGivenFile = `
topics: {orders: 2, audit: 1}
group: {id: s, type: share, kafka_version: "4.2", group_epoch: 7, assignment_epoch: 6}
members:
  - {id: s1, member_id: m1, topics: [orders], owned: {orders: [0, 1]}}
  - {id: s2, member_id: m2, topics: [orders], member_epoch: 5, owned: {orders: [0]}}
  - {id: s3, topics: [orders, audit]}
share_partitions:
  - {topic: orders, partition: 0, start_offset: 40, log_end: 55, records: [{first_offset: 40, last_offset: 42, state: acknowledged, delivery_count: 1}, {first_offset: 44, state: available, delivery_count: 2}, {first_offset: 45, last_offset: 46, state: archived, delivery_count: 5}]}
  - {topic: orders, partition: 1, start_offset: 10}
  - {topic: audit, partition: 0, log_end: 3}
`

// Issue 22: a share group's given start (given_share.go) reads the group
// and assignment epochs, shared owned partitions, member epochs and the
// persisted share-partition state, and Format writes it back exactly.
func TestShareGivenStartRoundTrips(t *testing.T) {
	sc, err := Parse("s.yaml", []byte(shareGivenFile))
	if err != nil {
		t.Fatal(err)
	}
	if !IsShare(sc) || sc.Generation != 7 || sc.StartAssignmentEpoch() != 6 {
		t.Fatalf("group epoch %d, assignment epoch %d", sc.Generation, sc.StartAssignmentEpoch())
	}
	if len(sc.Members[0].Owned) != 2 || len(sc.Members[1].Owned) != 1 || sc.Members[1].StartEpoch(sc) != 5 || sc.Members[0].StartEpoch(sc) != 6 {
		t.Errorf("members %+v", sc.Members)
	}
	ps := sc.Share.Partitions
	if len(ps) != 3 || ps[0].TP.Topic != "audit" || ps[0].Initialised || ps[0].LogEnd != 3 ||
		!ps[1].Initialised || ps[1].StartOffset != 40 || ps[1].LogEnd != 55 || len(ps[1].Batches) != 3 ||
		ps[1].Batches[1] != (ShareStateBatch{First: 44, Last: 44, State: "available", DeliveryCount: 2}) ||
		ps[2].StartOffset != 10 || ps[2].LogEnd != 10 {
		t.Errorf("share partitions %+v", ps)
	}
	out, err := Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("s2.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Share.Partitions, sc.Share.Partitions) || !reflect.DeepEqual(back.Members, sc.Members) ||
		back.Generation != sc.Generation || back.AssignmentEpoch != sc.AssignmentEpoch {
		t.Errorf("round trip differs:\n%s", out)
	}
}

// Bad share given starts are refused at their line.
func TestShareGivenStartErrors(t *testing.T) {
	head := "topics: {t0: 2}\ngroup: {type: share, group_epoch: 3}\n"
	for _, tc := range []struct{ name, body, want string }{
		{"generation", "", ""}, // placeholder replaced below
		{"target", "members:\n  - {id: s1, owned: {t0: [0]},\n     target: {t0: [0]}}\n", "s.yaml:5: members.target: a share member takes its target at once"},
		{"member epoch ahead", "members:\n  - {id: s1, owned: {t0: [0]},\n     member_epoch: 4}\n", "s.yaml:5: members.member_epoch: s1's member epoch 4 is outside 1..the assignment epoch 3"},
		{"unsubscribed", "members:\n  - {id: s1, topics: [t0], owned: {t1: [0]}}\n", "s.yaml:4: members.owned: unknown topic"},
		{"not a share group", "", ""},
		{"batch below start", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 9,\n     records: [{first_offset: 4, state: available, delivery_count: 1}]}\n", "s.yaml:5: share_partitions.records: t0-0's batch at 4 is below its start offset 5"},
		{"overlap", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 9, records: [{first_offset: 5, last_offset: 6, state: archived, delivery_count: 1},\n     {first_offset: 6, state: available, delivery_count: 1}]}\n", "s.yaml:5: share_partitions.records: t0-0's batch at 6 overlaps the one before"},
		{"past log end", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 9, records: [{first_offset: 5, last_offset: 9, state: archived, delivery_count: 1}]}\n", "s.yaml:4: share_partitions.records: t0-0's batch reaches offset 9, but its log ends at 9"},
		{"available at the limit", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 9, records: [{first_offset: 5, state: available, delivery_count: 5}]}\n", "s.yaml:4: share_partitions.records: an AVAILABLE batch delivered 5 times"},
		{"acquired", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 9, records: [{first_offset: 5, state: acquired, delivery_count: 1}]}\n", "s.yaml:4: records.state (the persisted RecordState): unknown value \"acquired\""},
		{"log end before start", "share_partitions:\n  - {topic: t0, partition: 0, start_offset: 5, log_end: 4}\n", "s.yaml:4: share_partitions: t0-0's log ends at 4, before its start offset 5"},
		{"owned uninitialised", "members:\n  - {id: s1, owned: {t0: [1]}}\nshare_partitions:\n  - {topic: t0, partition: 1, log_end: 4}\n", "s.yaml:6: share_partitions: s1 owns t0-1, so its share state is initialised"},
		{"twice", "share_partitions:\n  - {topic: t0, partition: 1, start_offset: 0}\n  - {topic: t0, partition: 1, start_offset: 0}\n", "s.yaml:5: share_partitions: t0-1 is listed twice"},
		{"records without state", "share_partitions:\n  - {topic: t0, partition: 1, log_end: 3, records: []}\n", "s.yaml:4: share_partitions: t0-1 has no start_offset"},
	} {
		file := head + tc.body
		switch tc.name {
		case "generation":
			file, tc.want = "topics: {t0: 2}\ngroup: {type: share,\n  generation: 3}\n", "s.yaml:3: unknown key \"generation\" in group"
		case "not a share group":
			file, tc.want = "topics: {t0: 2}\nshare_partitions:\n  - {topic: t0, partition: 0, start_offset: 1}\n", "s.yaml:3: share_partitions belong to a share group"
		}
		_, err := Parse("s.yaml", []byte(file))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The share and mixed given starts parse to line-numbered errors or to
// scenarios Format writes back exactly (roundTrip, format_test.go).
func FuzzGivenStartRoundTrip(f *testing.F) {
	f.Add([]byte(shareGivenFile))
	f.Add([]byte("topics: {t0: 4}\ngroup: {protocol: consumer, strategy: uniform, group_epoch: 7}\nmembers:\n  - {id: c1, protocol: classic, member_id: m1, owned: {t0: [0, 1]}, member_epoch: 6}\n  - {id: c2, owned: {t0: [2, 3]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("f.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml:") {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		if _, err := Format(sc); err != nil {
			t.Fatalf("a parsed scenario does not format: %v", err)
		}
		roundTrip(t, sc)
	})
}
