package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

func fiveShare(t *testing.T, version string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("s.yaml", []byte(`topics: {t0: 2}
group: {type: share, kafka_version: "`+version+`"}
members: [{id: c1}, {id: c2}, {id: c3}, {id: c4}, {id: c5}]
timeline: [{at_ms: 20000, leave: c5}]
`))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// holdersOf is who holds each partition in an assignment.
func holdersOf(a kafka.Holdings) map[kafka.TP][]string { return a.Holders() }

// A member leaves a share group: the forecast runs to the group settled
// at the new epoch, lists every holder of each partition before and after,
// and its moves are exactly the leaver's partitions it stops holding (the
// others keep sharing them).
func TestShareWhatIfLeaveListsEveryHolder(t *testing.T) {
	sc := fiveShare(t, "4.2")
	f, err := model.ForecastScenario(sc, scenario.Event{AtMs: 10000, Kind: "leave", Member: "c2"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Outcome
	if !o.Settled || !o.Rebalanced || len(o.Rounds) != 1 {
		t.Fatalf("settled %v rebalanced %v rounds %v, want one settled round", o.Settled, o.Rebalanced, o.Rounds)
	}
	before, after := holdersOf(o.Before), holdersOf(o.After)
	shared := false
	for tp, ids := range before {
		if len(ids) > 1 {
			shared = true
		}
		if len(after[tp]) == 0 {
			t.Errorf("%v has no holder after c2 leaves", tp)
		}
	}
	if !shared {
		t.Fatalf("before %v: five members on two partitions share none", before)
	}
	if o.After.Has("c2") {
		t.Errorf("c2 left but is in after: %v", o.After)
	}
	for tp, ids := range after {
		for _, id := range ids {
			if id == "c2" {
				t.Errorf("c2 still holds %v", tp)
			}
		}
	}
	// every move names a change of holders, and c2's partitions all appear as gone
	gone := map[kafka.TP]bool{}
	for _, m := range o.Moves {
		tp := kafka.TP{Topic: m.Topic, Partition: m.Partition}
		if m.From != "" {
			gone[tp] = true
		}
		if m.From == m.To {
			t.Errorf("move %v changes nothing", m)
		}
	}
	for _, tp := range o.Before.Partitions("c2") {
		if !gone[tp] {
			t.Errorf("c2 held %v but no move takes it from anyone: %v", tp, o.Moves)
		}
	}
}

// A crashed share member keeps its place until its session expires (45 s
// after its last heartbeat):
// the forecast settles only after that, without it.
func TestShareWhatIfCrashWaitsForSession(t *testing.T) {
	sc := fiveShare(t, "4.2")
	f, err := model.ForecastScenario(sc, scenario.Event{AtMs: 10000, Kind: "crash", Member: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.Outcome
	// its last heartbeat was at most one interval (5 s) before the crash
	if !o.Settled || o.SettledMs < 10000-5000+45000 {
		t.Fatalf("settled %v at %d ms, want after c1's session expires (50,000 ms on)", o.Settled, o.SettledMs)
	}
	if o.After.Has("c1") {
		t.Errorf("crashed c1 in after: %v", o.After)
	}
}

// compare on a share group: simple under 4.0, 4.1 and 4.2+, each run
// under its release: 4.0 gives every member every partition, the later
// ones share them out.
func TestShareCompareRowsPerRelease(t *testing.T) {
	sc := fiveShare(t, "4.2")
	rows := model.Compare(sc, 0, nil, model.ShareVariants(sc))
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	for i, want := range []string{"4.0", "4.1", "4.2+"} {
		r := rows[i]
		if r.Err != nil || !r.Found || r.Variant.Label != want || r.Strategy != "simple" {
			t.Fatalf("row %d: %s %q err %v found %v", i, r.Strategy, r.Variant.Label, r.Err, r.Found)
		}
	}
	for _, id := range rows[0].Outcome.After.Members() {
		if n := len(rows[0].Outcome.After.Partitions(id)); n != 2 {
			t.Errorf("4.0: %s holds %d partitions, want both", id, n)
		}
	}
	for _, r := range rows[1:] {
		for _, id := range r.Outcome.After.Members() {
			if n := len(r.Outcome.After.Partitions(id)); n == 0 || r.Outcome.Balance.Max > 2 {
				t.Errorf("%s: %s holds %d partitions", r.Variant.Label, id, n)
			}
		}
	}
	if same(rows[1].Outcome.After, rows[2].Outcome.After) {
		t.Errorf("4.1 and 4.2 assign alike here (%v); the demo pair says they differ", rows[1].Outcome.After)
	}
}

func same(a, b kafka.Holdings) bool {
	ha, hb := holdersOf(a), holdersOf(b)
	if len(ha) != len(hb) {
		return false
	}
	for tp, ids := range ha {
		if len(ids) != len(hb[tp]) {
			return false
		}
		for i := range ids {
			if ids[i] != hb[tp][i] {
				return false
			}
		}
	}
	return true
}
