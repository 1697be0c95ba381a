package model_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// shareEventKinds are the timeline entries genShareScenario draws from.
var shareEventKinds = []string{"records", "fetch", "acknowledge", "crash", "leave", "join", "stall", "subscribe", "add_partitions",
	"restart", "fail_broker", "recover_broker"}

// genShareScenario draws a share scenario: a release, one or two topics,
// members, and a timeline of records, fetches, acknowledgements (of any
// offsets: one the member does not hold stops the run, the same in both
// runs), crashes, restarts, leaves, joins, stalls, subscriptions, new
// partitions and broker failures, spread over minutes to hours.
func genShareScenario(t *rapid.T) string {
	var b strings.Builder
	version := rapid.SampledFrom([]string{"4.0", "4.1", "4.2", "4.3"}).Draw(t, "version")
	brokers := rapid.IntRange(1, 3).Draw(t, "brokers")
	fmt.Fprintf(&b, "seed: %d\ncluster: {brokers: %d}\n", rapid.Int64().Draw(t, "seed"), brokers)
	parts := map[string]int{"t0": rapid.IntRange(1, 4).Draw(t, "p0")}
	topics := []string{"t0"}
	if rapid.Bool().Draw(t, "two topics") {
		parts["t1"] = rapid.IntRange(1, 3).Draw(t, "p1")
		topics = append(topics, "t1")
	}
	fmt.Fprintf(&b, "topics: {t0: %d", parts["t0"])
	if len(topics) > 1 {
		fmt.Fprintf(&b, ", t1: %d", parts["t1"])
	}
	extra := ""
	if version == "4.3" && rapid.Bool().Draw(t, "interval") {
		extra = fmt.Sprintf(", assignment_interval_ms: %d", rapid.SampledFrom([]int{0, 1000, 15000}).Draw(t, "interval ms"))
	}
	if rapid.Bool().Draw(t, "earliest") {
		extra += ", auto_offset_reset: earliest"
	}
	fmt.Fprintf(&b, "}\ngroup: {id: q, type: share, kafka_version: %q%s}\nmembers:\n", version, extra)
	n := rapid.IntRange(1, 4).Draw(t, "members")
	running := map[string]bool{}
	var ids []string
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("c%d", i)
		ids = append(ids, id)
		running[id] = true
		fmt.Fprintf(&b, "  - {id: %s, topics: [%s]}\n", id, rapid.SampledFrom(topics).Draw(t, "sub "+id))
	}
	b.WriteString("timeline:\n")
	at := int64(0)
	down := map[int]bool{}
	for e := rapid.IntRange(0, 10).Draw(t, "events"); e > 0; e-- {
		at += rapid.Int64Range(1, 400).Draw(t, "gap") * 1000 * rapid.SampledFrom([]int64{1, 1, 10, 100}).Draw(t, "scale")
		id := rapid.SampledFrom(ids).Draw(t, "who")
		tp := rapid.SampledFrom(topics).Draw(t, "topic")
		p := rapid.IntRange(0, parts[tp]-1).Draw(t, "partition")
		var line string
		switch kind := rapid.SampledFrom(shareEventKinds).Draw(t, "kind"); kind {
		case "records":
			line = fmt.Sprintf("records: {topic: %s, partition: %d, count: %d}", tp, p, rapid.IntRange(1, 20).Draw(t, "count"))
		case "fetch":
			line = fmt.Sprintf("fetch: {id: %s, max_records: %d}", id, rapid.IntRange(1, 10).Draw(t, "max"))
		case "acknowledge":
			lo := rapid.IntRange(0, 20).Draw(t, "lo")
			line = fmt.Sprintf("acknowledge: {id: %s, topic: %s, partition: %d, offsets: {from: %d, to: %d}, type: %s}", id, tp, p, lo,
				lo+rapid.IntRange(0, 3).Draw(t, "len"), rapid.SampledFrom([]string{"accept", "release", "reject"}).Draw(t, "type"))
		case "crash", "leave", "restart", "stall", "subscribe":
			if !running[id] {
				continue
			}
			switch kind {
			case "crash", "leave":
				running[id] = false
				line = kind + ": " + id
			case "restart":
				line = "restart: " + id
			case "stall":
				line = fmt.Sprintf("stall: {id: %s, ms: %d}", id, rapid.Int64Range(1, 120).Draw(t, "stall")*1000)
			default:
				line = fmt.Sprintf("subscribe: {id: %s, topics: [%s]}", id, strings.Join(topics, ", "))
			}
		case "join":
			if running[id] {
				id = fmt.Sprintf("c%d", len(ids)+1)
				ids = append(ids, id)
			}
			running[id] = true
			line = fmt.Sprintf("join: {id: %s, topics: [%s]}", id, tp)
		case "add_partitions":
			parts[tp] += rapid.IntRange(1, 2).Draw(t, "more")
			line = fmt.Sprintf("add_partitions: {topic: %s, count: %d}", tp, parts[tp])
		case "fail_broker", "recover_broker":
			br := rapid.IntRange(0, brokers-1).Draw(t, "broker")
			if down[br] == (kind == "fail_broker") {
				continue
			}
			down[br] = kind == "fail_broker"
			line = fmt.Sprintf("%s: %d", kind, br)
		}
		fmt.Fprintf(&b, "  - {at_ms: %d, %s}\n", at, line)
	}
	return b.String()
}

// TestShareQuietStretchesAreExact is TestQuietStretchesAreExact for share
// groups: every step that changes something (a record's state, a lock
// timing out, a session expiring, a 4.3 target waiting for its interval)
// is the same, at the same time, whether the quiet stretches are jumped or
// every heartbeat runs.
func TestShareQuietStretchesAreExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genShareScenario(t)
		sc, err := scenario.Parse("share.yaml", []byte(src))
		if err != nil {
			t.Skipf("not a valid scenario (%v)", err)
		}
		jumped, jerr := model.Simulate(sc)
		every := *sc
		every.EveryHeartbeat = true
		full, ferr := model.Simulate(&every)
		if fmt.Sprint(jerr) != fmt.Sprint(ferr) {
			t.Fatalf("jumped: %v, every heartbeat: %v\n%s", jerr, ferr, src)
		}
		if jerr != nil {
			return
		}
		sameChanges(t, jumped, full, src)
		ja, fa := changing(jumped), changing(full)
		for k := range ja {
			if !reflect.DeepEqual(jumped.SharePartitions(ja[k]), full.SharePartitions(fa[k])) {
				t.Fatalf("share-partitions differ after changing step %d\n%s", k, src)
			}
		}
	})
}

// sameChanges fails unless the two runs have the same steps that change
// something, each the same.
func sameChanges(t interface{ Fatalf(string, ...any) }, jumped, full *model.Sim, src string) {
	a, b := changes(jumped), changes(full)
	if len(a) != len(b) {
		t.Fatalf("%d changing steps when jumping, %d with every heartbeat\n%s", len(a), len(b), src)
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("changing step %d differs:\njumped %+v\nevery  %+v\n%s", i, a[i], b[i], src)
		}
	}
}

// changing is the index of every step that is not a routine heartbeat.
func changing(sim *model.Sim) []int {
	var out []int
	for i := 0; i < sim.Len(); i++ {
		if !sim.Step(i).Routine {
			out = append(out, i)
		}
	}
	return out
}

// TestShareQuietMonth: a share group left alone for 30 days runs as a few
// hundred steps, the crash at the end on its exact millisecond, its
// records' lock timing out and its session expiring on theirs.
func TestShareQuietMonth(t *testing.T) {
	const at = 30*24*3600*1000 - 60000
	sim := simYAML(t, "month.yaml", fmt.Sprintf(`topics: {t0: 1}
group: {id: q, type: share, kafka_version: "4.2"}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 600000, records: {topic: t0, partition: 0, count: 5}}
  - {at_ms: %d, fetch: {id: c1}}
  - {at_ms: %d, crash: c1}
`, at, at+1000))
	if sim.Len() > 1000 {
		t.Fatalf("%d steps: the quiet month was not jumped", sim.Len())
	}
	want := map[kafka.StepKind]int64{kafka.KindMemberCrashed: at + 1000, kafka.KindAcquisitionLockTimeout: at + 2 + 30000,
		kafka.KindSessionExpired: -1}
	got := map[kafka.StepKind]int64{}
	stretches := 0
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.Kind == kafka.KindQuietStretch {
			stretches++
		}
		if _, ok := want[st.Kind]; ok {
			got[st.Kind] = st.TimeMs
		}
	}
	if stretches == 0 {
		t.Fatal("no QuietStretch step")
	}
	for k, ms := range want {
		if ms >= 0 && got[k] != ms || ms < 0 && (got[k] <= at+1000 || got[k] > at+1000+45000+5000) {
			t.Errorf("%s at %d ms, want %d", k, got[k], ms)
		}
	}
}
