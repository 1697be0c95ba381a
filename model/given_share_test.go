package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// Issue 22: a share group's given start (given_share.go) is the group at
// time 0 as the coordinator and the share coordinator hold it: Stable at
// the given epochs, each member holding its shared partitions with no join,
// and each share-partition restored from its persisted state batches
// (SharePartition.maybeInitialize: the start offset moves past a finished
// prefix, a gap is AVAILABLE and undelivered), so the next fetch acquires
// AVAILABLE records first, each delivery counted on from the persisted one.
func TestShareGivenStartRestoresGroupAndRecords(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {orders: 2}
group: {id: s, type: share, kafka_version: "4.2", group_epoch: 6}
members:
  - {id: s1, member_id: m1, owned: {orders: [0, 1]}}
  - {id: s2, member_id: m2, member_epoch: 5, owned: {orders: [0]}}
share_partitions:
  - {topic: orders, partition: 0, start_offset: 40, log_end: 50, records: [{first_offset: 40, last_offset: 41, state: acknowledged, delivery_count: 1}, {first_offset: 43, state: available, delivery_count: 4}, {first_offset: 44, state: archived, delivery_count: 5}]}
  - {topic: orders, partition: 1, start_offset: 7, log_end: 9}
timeline:
  - {at_ms: 1000, fetch: {id: s2, max_records: 3}}
`)
	st := sim.Step(0)
	if st.GroupState != kafka.Stable || st.Generation != 6 {
		t.Fatalf("step 0: %s at %d, want Stable at group epoch 6", st.GroupState, st.Generation)
	}
	assertOwned(t, st, owned{"s1": {"orders": {0, 1}}, "s2": {"orders": {0}}})
	v := sim.View(0)
	if v.Members[0].MemberID != "m1" || v.Members[0].MemberEpoch != 6 || v.Members[1].MemberEpoch != 5 || v.Members[1].Status != kafka.StatusActive {
		t.Errorf("members at step 0: %+v", v.Members)
	}
	parts := sim.SharePartitions(0)
	if len(parts) != 2 {
		t.Fatalf("share partitions at step 0: %+v", parts)
	}
	p0 := parts[0]
	// 40-41 acknowledged: the start offset moves to 42, a gap record
	want := []sharepart.Record{{Offset: 42}, {Offset: 43, Deliveries: 4}, {Offset: 44, State: sharepart.Archived, Deliveries: 5}}
	if p0.Start != 42 || p0.End != 44 || p0.LogEnd != 50 || fmt.Sprint(p0.Records) != fmt.Sprint(want) {
		t.Errorf("orders-0 at step 0: start %d end %d log end %d records %+v; want 42, 44, 50, %+v", p0.Start, p0.End, p0.LogEnd, p0.Records, want)
	}
	if p1 := parts[1]; p1.Start != 7 || p1.End != 7 || p1.LogEnd != 9 || len(p1.Records) != 0 {
		t.Errorf("orders-1 at step 0: %+v", p1)
	}
	for _, s := range steps(sim, "ShareGroupHeartbeatRequest", "") {
		if strings.Contains(s.Text, "joins") {
			t.Errorf("a given start has no joins: %s", s.Text)
		}
	}
	fetched := steps(sim, "ShareFetchResponse", "s2")
	if len(fetched) != 1 || !strings.Contains(fetched[0].Text, "orders-0 offsets 42–45 (deliveries 1–5)") {
		t.Fatalf("s2's fetch: %v", fetched)
	}
	after := sim.SharePartitions(fetched[0].Index)[0].Records
	if after[0].State != sharepart.Acquired || after[0].Deliveries != 1 || after[1].Deliveries != 5 || after[3].Offset != 45 || after[3].Deliveries != 1 {
		t.Errorf("after the fetch: %+v (the gap's first delivery, the persisted count + 1, the archived one skipped, then a new record)", after)
	}
	if end := last(sim); end.Generation != 6 {
		t.Errorf("nothing changed, yet the group epoch moved to %d", end.Generation)
	}
}

// A share group read mid-run and given as a start (members with their ids,
// epochs and shared partitions; share-partitions with their persisted
// states) runs on as the group itself does: the same targets, epochs and
// record states at the end.
func TestShareGivenStartContinuesTheGroup(t *testing.T) {
	const at = 15000
	base := `seed: 932
topics: {t0: 2}
group: {id: queue, type: share, kafka_version: "4.2"}
members:
  - {id: c1}
  - {id: c2}
  - {id: c3}
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 8}}
  - {at_ms: 10000, records: {topic: t0, partition: 1, count: 2}}
  - {at_ms: 11000, fetch: {id: c1, max_records: 3}}
  - {at_ms: 11100, fetch: {id: c3, max_records: 3}}
  - {at_ms: 12000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: accept}}
  - {at_ms: 12050, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [1, 2], type: reject}}
  - {at_ms: 12100, acknowledge: {id: c3, topic: t0, partition: 0, offsets: [3, 5], type: accept}}
  - {at_ms: 12150, acknowledge: {id: c3, topic: t0, partition: 0, offsets: [4], type: release}}
`
	rest := []struct {
		at   int64
		what string
	}{
		{20000, "fetch: {id: c3}"},
		{21000, "leave: c1"},
		{22000, "acknowledge: {id: c3, topic: t0, partition: 0, offsets: [4, 6, 7], type: accept}"},
		{30000, "records: {topic: t0, partition: 1, count: 3}"},
		{31000, "fetch: {id: c2}"},
		{32000, "acknowledge: {id: c2, topic: t0, partition: 1, offsets: [2, 3], type: release}"},
	}
	var tl strings.Builder
	for _, r := range rest {
		fmt.Fprintf(&tl, "  - {at_ms: %d, %s}\n", r.at, r.what)
	}
	full := simYAML(t, "full.yaml", base+tl.String())
	i := firstAt(full, at) - 1
	st, v, parts := full.Step(i), full.View(i), full.SharePartitions(i)
	var b strings.Builder
	fmt.Fprintf(&b, "topics: {t0: 2}\ngroup: {id: queue, type: share, kafka_version: \"4.2\", group_epoch: %d, assignment_epoch: %d}\nmembers:\n", st.Generation, v.AssignmentEpoch)
	for _, m := range v.Members {
		var ps []string
		for _, tp := range m.Owned {
			ps = append(ps, fmt.Sprint(tp.Partition))
		}
		fmt.Fprintf(&b, "  - {id: %s, member_id: %s, member_epoch: %d, owned: {t0: [%s]}}\n", m.ID, m.MemberID, m.MemberEpoch, strings.Join(ps, ", "))
	}
	b.WriteString("share_partitions:\n")
	batches := 0
	for _, p := range parts {
		fmt.Fprintf(&b, "  - {topic: t0, partition: %d, start_offset: %d, log_end: %d, records: [", p.TP.Partition, p.Start, p.LogEnd)
		for j, r := range p.Records {
			if r.State == sharepart.Acquired {
				t.Fatalf("%d ms: %s-%d offset %d is acquired, which no persisted state holds", at, p.TP.Topic, p.TP.Partition, r.Offset)
			}
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{first_offset: %d, state: %s, delivery_count: %d}", r.Offset, strings.ToLower(r.State.String()), r.Deliveries)
			batches++
		}
		b.WriteString("]}\n")
	}
	if batches < 2 {
		t.Fatalf("the group at %d ms has %d in-flight records; the test wants some to carry over:\n%s", at, batches, b.String())
	}
	b.WriteString("timeline:\n")
	for _, r := range rest {
		fmt.Fprintf(&b, "  - {at_ms: %d, %s}\n", r.at-at, r.what)
	}
	sc, err := scenario.Parse("given.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	given, err := model.Simulate(sc)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	a, g := last(full), last(given)
	if a.Generation != g.Generation || fmt.Sprint(a.Owned) != fmt.Sprint(g.Owned) {
		t.Errorf("the group ends at epoch %d with %v; its given start ends at %d with %v\n%s", a.Generation, a.Owned, g.Generation, g.Owned, b.String())
	}
	pa, pg := full.SharePartitions(full.Len()-1), given.SharePartitions(given.Len()-1)
	view := func(ps []model.SharePartitionView) string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s-%d start %d end %d log %d %v", p.TP.Topic, p.TP.Partition, p.Start, p.End, p.LogEnd, p.Records))
		}
		return strings.Join(out, "; ")
	}
	if view(pa) != view(pg) {
		t.Errorf("share-partitions at the end:\ngroup %s\ngiven %s\n%s", view(pa), view(pg), b.String())
	}
}

// A share or mixed given start that parses simulates without a panic or an
// internal fault: the engine starts from whatever the parser accepts.
func FuzzGivenStartSimulates(f *testing.F) {
	f.Add([]byte(`topics: {orders: 2}
group: {type: share, kafka_version: "4.1", group_epoch: 3, assignment_epoch: 2}
members:
  - {id: s1, owned: {orders: [0, 1]}, member_epoch: 1}
  - {id: s2, owned: {orders: [0]}}
share_partitions:
  - {topic: orders, partition: 0, start_offset: 4, log_end: 9, records: [{first_offset: 5, state: available, delivery_count: 4}]}
timeline:
  - {at_ms: 100, fetch: {id: s1}}
  - {at_ms: 200, join: {id: s3}}
  - {at_ms: 300, add_partitions: {topic: orders, count: 3}}
  - {at_ms: 400, crash: s2}
`))
	f.Add([]byte(`topics: {t0: 4}
group: {protocol: consumer, strategy: uniform, group_epoch: 7, assignment_epoch: 6}
members:
  - {id: c1, protocol: classic, owned: {t0: [0, 1]}, member_epoch: 6}
  - {id: c2, owned: {t0: [2, 3]}}
timeline:
  - {at_ms: 100, leave: c2}
  - {at_ms: 200, join: {id: c3, protocol: classic}}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse("f.yaml", data)
		if err != nil || len(sc.Members) > 20 || len(sc.Timeline) > 20 {
			return
		}
		for _, n := range sc.Topics {
			if n > 64 {
				return
			}
		}
		// a scenario's own mistake (an acknowledgement of a record the
		// member does not hold) is line-numbered; anything else is the model's
		if _, err := model.Simulate(sc); err != nil && !strings.HasPrefix(err.Error(), "f.yaml:") {
			t.Fatalf("%v", err)
		}
	})
}
