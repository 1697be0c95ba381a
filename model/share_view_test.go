package model_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
	"github.com/kvizlab/kviz/strategies"
)

// Who holds which records: one partition shared by c1 and c2, c1 rejecting
// one record (ARCHIVED in the middle of the window) and releasing another
// (AVAILABLE again, delivered once), ten records in the log.
const shareHoldersYAML = `topics: {t0: 1}
group: {type: share, kafka_version: "4.2"}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 10}}
  - {at_ms: 11000, fetch: {id: c1, max_records: 3}}
  - {at_ms: 11100, fetch: {id: c2, max_records: 2}}
  - {at_ms: 12000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [1], type: reject}}
  - {at_ms: 12100, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [2], type: release}}
`

func TestShareRecordsSayWhoHoldsWhich(t *testing.T) {
	sim := simYAML(t, "holders.yaml", shareHoldersYAML)
	i := lastOf(sim, kafka.KindShareAcknowledgeResponse) // c1's release is in; every lock still runs
	st := sim.StepLine(i)
	srs := sim.ShareRecords(i)
	if len(srs) != 1 {
		t.Fatalf("%d share-partitions, want 1", len(srs))
	}
	sr := srs[0]
	if sr.TP != (kafka.TP{Topic: "t0", Partition: 0}) || sr.Start != 0 || sr.End != 4 || sr.LogEnd != 10 || sr.Limit != 5 || sr.Cap != 2000 {
		t.Fatalf("share-partition %+v", sr)
	}
	type run struct {
		first, last int64
		state       sharepart.State
		member      string
		deliveries  int32
		fresh       bool
	}
	want := []run{
		{0, 0, sharepart.Acquired, "c1", 1, false},
		{1, 1, sharepart.Archived, "", 1, false},
		{2, 2, sharepart.Available, "", 1, false},
		{3, 4, sharepart.Acquired, "c2", 1, false},
		{5, 9, sharepart.Available, "", 0, true},
	}
	if len(sr.Runs) != len(want) {
		t.Fatalf("runs %+v, want %d", sr.Runs, len(want))
	}
	for k, w := range want {
		r := sr.Runs[k]
		if r.First != w.first || r.Last != w.last || r.State != w.state || r.Member != w.member || r.MaxDeliveries != w.deliveries || r.Fresh != w.fresh {
			t.Errorf("run %d: %+v, want %+v", k, r, w)
		}
		if r.State == sharepart.Acquired && r.LockLeftMs != r.DeadlineMs-st.TimeMs {
			t.Errorf("run %d: lock left %d, deadline %d at %d", k, r.LockLeftMs, r.DeadlineMs, st.TimeMs)
		}
	}
	// The locks run 30 s (group.share.record.lock.duration.ms) from the
	// fetches at 11.0 and 11.1 s (the leader acquires once the request is
	// there).
	c1, c2 := sr.Runs[0], sr.Runs[3]
	if c1.DeadlineMs <= 41000 || c1.DeadlineMs > 41010 || c2.DeadlineMs <= 41100 || c2.DeadlineMs > 41110 {
		t.Errorf("deadlines %d, %d", c1.DeadlineMs, c2.DeadlineMs)
	}
	lock := func(ms int64) string { return fmt.Sprintf("lock %d.%d s", ms/1000, ms%1000/100) }
	line := "t0-0  start 0  c1 ▮ 0 (" + lock(c1.LockLeftMs) + ")  archived 1 (delivered 1 of 5)  ready 2 (delivered 1 of 5)  c2 ▮▮ 3–4 (" +
		lock(c2.LockLeftMs) + ")  ready 5–9"
	if got := sr.Line(); got != line {
		t.Errorf("line\n%s\nwant\n%s", got, line)
	}
	var holders []string
	for _, w := range sr.Words() {
		if w.Member != "" {
			holders = append(holders, w.Member+": "+w.Short)
		}
		if !strings.HasPrefix(w.Long, strings.Fields(w.Short)[0]) {
			t.Errorf("short %q is not the start of long %q", w.Short, w.Long)
		}
	}
	if got := strings.Join(holders, ", "); got != "c1: c1 0, c2: c2 3–4" {
		t.Errorf("holders %s", got)
	}
	if sim.ShareRecords(0) != nil {
		t.Errorf("share-partitions before any is initialised: %+v", sim.ShareRecords(0))
	}
}

// lastOf is the index of the last step of a kind.
func lastOf(sim *model.Sim, kind kafka.StepKind) int {
	for i := sim.Len() - 1; i >= 0; i-- {
		if sim.StepLine(i).Kind == kind {
			return i
		}
	}
	return -1
}

// A window at the in-flight cap: the records past it wait, and a run
// longer than a few blocks says its count.
func TestShareRecordsAtTheCap(t *testing.T) {
	sim := simYAML(t, "cap.yaml", `topics: {t0: 1}
group: {type: share, kafka_version: "4.2", partition_max_record_locks: 100}
members: [{id: c1}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 150}}
  - {at_ms: 11000, fetch: {id: c1}}
`)
	sr := sim.ShareRecords(lastOf(sim, kafka.KindShareFetchResponse))[0]
	words := sr.Words()
	if len(words) != 3 || !strings.HasPrefix(words[1].Long, "c1 ▮×100 0–99 (lock ") || words[2].Long != "waiting 100–149 (in-flight cap 100)" || words[2].Short != "capped 100–149" {
		t.Errorf("words %+v", words)
	}
}

// A step that only lets time pass changes no share-partition; a fetch
// changes the one it acquires from.
func TestChangedShareRecords(t *testing.T) {
	sim := simYAML(t, "holders.yaml", shareHoldersYAML)
	var fetched, quiet int
	for i := 1; i < sim.Len(); i++ {
		st := sim.StepLine(i)
		changed := model.ChangedShareRecords(sim.ShareRecords(i-1), sim.ShareRecords(i))
		switch {
		case st.Kind == kafka.KindShareFetchResponse && strings.Contains(st.Text, "acquires t0-0"):
			fetched++
			if len(changed) != 1 || changed[0].TP.Topic != "t0" {
				t.Errorf("step %d (%s): changed %+v", i, st.Text, changed)
			}
		case st.Kind == kafka.KindShareGroupHeartbeatResponse && sim.ShareRecords(i) != nil:
			quiet++
			if len(changed) != 0 {
				t.Errorf("step %d (%s) changed %+v", i, st.Text, changed)
			}
		}
	}
	if fetched != 2 || quiet == 0 {
		t.Errorf("%d fetches, %d heartbeats with share-partitions", fetched, quiet)
	}
	if got := model.ChangedShareRecords(nil, sim.ShareRecords(sim.Len()-1)); len(got) != 1 {
		t.Errorf("a new share-partition is a change: %+v", got)
	}
	if got := model.ChangedShareRecords(sim.ShareRecords(sim.Len()-1), sim.ShareRecords(sim.Len()-1)); len(got) != 0 {
		t.Errorf("a step compared with itself changed %+v", got)
	}
}

// Compare's rows for a share group are releases; the one the scenario runs
// is its release family's.
func TestShareVariantOf(t *testing.T) {
	for _, c := range []struct {
		version string
		want    string
	}{{"4.0", "4.0"}, {"4.0.1", "4.0"}, {"4.1", "4.1"}, {"4.1.1", "4.1"}, {"4.2", "4.2+"}, {"4.3", "4.2+"}} {
		sc, err := scenario.Parse("v.yaml", []byte(shareYAML(c.version, "")))
		if err != nil {
			t.Fatal(err)
		}
		vs := model.DefaultVariants(sc)
		k := model.ShareVariantOf(sc, vs)
		if k < 0 || vs[k].Label != c.want {
			t.Errorf("%s: row %d of %+v, want %s", c.version, k, vs, c.want)
		}
	}
	sc, err := scenario.Parse("c.yaml", []byte("topics: {t0: 2}\nmembers: [{id: c1}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if k := model.ShareVariantOf(sc, []model.Variant{{Strategy: "range", KafkaVersion: strategies.ClientVersion{Major: 4}}}); k != -1 {
		t.Errorf("a consumer group's row %d", k)
	}
}

// A release row runs the release's own defaults where the file gave none
// (group.share.partition.max.record.locks: 200 in 4.0, 2000 later;
// group.share.assignment.interval.ms from 4.3 only), and making it leaves
// the scenario it came from as it was.
func TestShareReleaseRowsTakeTheirReleasesDefaults(t *testing.T) {
	sc, err := scenario.Parse("v.yaml", []byte(shareYAML("4.3", "")))
	if err != nil {
		t.Fatal(err)
	}
	before := *sc.Share
	want := map[string][2]int64{"4.0": {200, 0}, "4.1": {2000, 0}, "4.2+": {2000, 1000}}
	for _, v := range model.ShareVariants(sc) {
		cp, err := v.WithVersion(sc).WithStrategy(sc.Strategy, sc.Protocol)
		if err != nil {
			t.Fatalf("%s: %v", v.Label, err)
		}
		if got := [2]int64{int64(cp.Share.MaxRecordLocks), cp.Share.AssignmentIntervalMs}; got != want[v.Label] {
			t.Errorf("%s: record locks and assignment interval %v, want %v", v.Label, got, want[v.Label])
		}
		if !reflect.DeepEqual(*sc.Share, before) {
			t.Errorf("%s: the scenario's share settings changed: %+v, were %+v", v.Label, *sc.Share, before)
		}
	}
	given, err := scenario.Parse("g.yaml", []byte(shareYAML("4.2", ", partition_max_record_locks: 500")))
	if err != nil {
		t.Fatal(err)
	}
	if cp := model.ShareVariants(given)[0].WithVersion(given); cp.Share.MaxRecordLocks != 500 {
		t.Errorf("4.0 row of a file that gives 500 record locks: %d", cp.Share.MaxRecordLocks)
	}
}
