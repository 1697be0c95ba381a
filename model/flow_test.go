package model_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// checkFlow checks the data path after every step: committed ≤ log-end
// offset, lag ≥ 0 and equal to log end − committed, a partition's records
// counted once (what was processed, re-reads aside, never exceeds what
// landed; what landed never exceeds what was sent), log ends never go back,
// and each partition's consumer is the member the group says owns it.
func checkFlow(t fataler, sim *model.Sim, src string) {
	t.Helper()
	prevEnd := map[string]int64{}
	for i := 0; i < sim.Len(); i++ {
		v := sim.View(i)
		f := v.Flow()
		if f == nil {
			t.Fatalf("step %d: no flow view\n%s", i, src)
			return
		}
		if f.TimeMs != v.TimeMs {
			t.Fatalf("step %d: flow at %d ms, group at %d ms", i, f.TimeMs, v.TimeMs)
		}
		owner := map[strategies.TopicPartition]string{}
		for _, m := range v.Members {
			switch m.Status {
			case kafka.StatusJoining, kafka.StatusActive, kafka.StatusRejoining, kafka.StatusStalled:
				for _, tp := range m.Owned {
					owner[tp] = m.ID
				}
			}
		}
		var landed int64
		for _, tv := range f.Topics {
			for _, p := range tv.Partitions {
				at := fmt.Sprintf("step %d %s-%d", i, tv.Name, p.Partition)
				landed += p.LogEnd
				switch {
				case p.Committed > p.LogEnd:
					t.Fatalf("%s: committed %d > log end %d\n%s", at, p.Committed, p.LogEnd, src)
				case p.Committed < -1:
					t.Fatalf("%s: committed %d", at, p.Committed)
				case p.LagKnown && (p.Lag < 0 || p.Lag != p.LogEnd-p.Committed):
					t.Fatalf("%s: lag %d with log end %d, committed %d", at, p.Lag, p.LogEnd, p.Committed)
				case p.LagKnown != (p.Committed >= 0):
					t.Fatalf("%s: lag known %v with committed %d", at, p.LagKnown, p.Committed)
				case p.Position > p.LogEnd:
					t.Fatalf("%s: position %d beyond log end %d", at, p.Position, p.LogEnd)
				case p.Duplicates < 0 || p.Duplicates > p.Consumed || p.Consumed-p.Duplicates > p.LogEnd:
					t.Fatalf("%s: consumed %d, duplicates %d, log end %d", at, p.Consumed, p.Duplicates, p.LogEnd)
				case p.LogEnd < prevEnd[at[strings.Index(at, " ")+1:]]:
					t.Fatalf("%s: log end went back", at)
				}
				tp := strategies.TopicPartition{Topic: tv.Name, Partition: p.Partition}
				if p.Owner != owner[tp] {
					t.Fatalf("%s: consumed by %q, the group says %q\n%s", at, p.Owner, owner[tp], src)
				}
				prevEnd[at[strings.Index(at, " ")+1:]] = p.LogEnd
			}
		}
		if landed > f.Records {
			t.Fatalf("step %d: %d records landed, only %d sent", i, landed, f.Records)
		}
	}
}

// fataler is what checkFlow needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func TestProducersDemoFlow(t *testing.T) {
	sim := simDemo(t, "producers")
	checkFlow(t, sim, "demo:producers")
	last := sim.View(sim.Len() - 1).Flow()
	// The hot key's partition is hot and lags far behind the others.
	hot := strategies.RouteKey([]byte("user-42"), 6).Partition
	hp, _ := last.Partition("orders", int32(hot))
	if !hp.Hot || !hp.LagKnown {
		t.Fatalf("orders-%d should be hot: %+v", hot, hp)
	}
	for p := range 6 {
		if fp, _ := last.Partition("orders", int32(p)); p != hot && (fp.Hot || fp.Lag*4 > hp.Lag) {
			t.Errorf("orders-%d: %+v next to the hot orders-%d: %+v", p, fp, hot, hp)
		}
	}
	// The crash leaves re-reads behind.
	var dups int64
	for _, tv := range last.Topics {
		for _, p := range tv.Partitions {
			dups += p.Duplicates
		}
	}
	if dups == 0 {
		t.Error("no duplicates after c2's crash")
	}
	// During the eager rebalance c4's join starts, nothing is consumed: the
	// total lag only grows from the first revocation to the last assignment.
	first, lastAssign := -1, -1
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		if st.TimeMs < 20000 || st.TimeMs > 40000 {
			continue
		}
		if st.Kind == "PartitionsRevoked" && first < 0 {
			first = i
		}
		if st.Kind == "PartitionsAssigned" {
			lastAssign = i
		}
	}
	if first < 0 || lastAssign < first {
		t.Fatalf("no eager rebalance after c4's join (%d, %d)", first, lastAssign)
	}
	before, after := totalLag(sim.View(first).Flow()), totalLag(sim.View(lastAssign).Flow())
	if after <= before {
		t.Errorf("lag during the eager rebalance went from %d to %d", before, after)
	}
	// A record's explanation: keyed records show the murmur2 path.
	var keyed bool
	for _, p := range last.Producers {
		if p.Name == "checkout" && len(p.Route) > 0 && strings.Contains(p.LastLine, "partition") {
			keyed = true
			if p.HotKey != "user-42" || p.HotPartition != hot || p.HotShare != 0.6 {
				t.Errorf("checkout's hot key: %q %v → p%d, want user-42 0.6 → p%d", p.HotKey, p.HotShare, p.HotPartition, hot)
			}
		}
	}
	if !keyed {
		t.Errorf("checkout's last record has no key route: %+v", last.Producers)
	}
}

func totalLag(f *model.FlowView) (n int64) {
	for _, tv := range f.Topics {
		for _, p := range tv.Partitions {
			if p.LagKnown {
				n += p.Lag
			} else {
				n += p.LogEnd
			}
		}
	}
	return n
}

func TestScenariosWithoutProducersHaveNoFlow(t *testing.T) {
	sim := simDemo(t, "lab")
	for i := 0; i < sim.Len(); i++ {
		if sim.View(i).Flow() != nil || sim.Step(i).Lag != nil {
			t.Fatalf("step %d: a scenario without producers grew a data path", i)
		}
	}
}

// Seed example 19: a topic holds 6 messages; group A consumed and committed
// 4. A restarts → reads 2 (earliest or latest alike: a committed offset
// exists). A new group B → earliest reads 6, latest reads 0. The data path
// runs as long as the group's trace does, so a last commit keeps it going
// until the records are read.
func TestSeedExample19Scenario(t *testing.T) {
	for _, reset := range []string{"earliest", "latest"} {
		src := `topics: {t0: 1}
group: {id: A, commit: sync, auto_offset_reset: ` + reset + `}
members:
  - {id: a}
timeline:
  - {at_ms: 0, produce: {topic: t0, key: k, count: 4}}
  - {at_ms: 10000, leave: a}
  - {at_ms: 20000, produce: {topic: t0, key: k, count: 2}}
  - {at_ms: 30000, join: {id: a}}
  - {at_ms: 40000, commit: a}
`
		if reset == "latest" {
			// Under latest, a first start after the records would skip them:
			// A's 4 are produced once it consumes.
			src = strings.Replace(src, "at_ms: 0, produce", "at_ms: 5000, produce", 1)
		}
		sim := simYAML(t, "ex19.yaml", src)
		checkFlow(t, sim, src)
		consumedAt := func(ms int64) int64 {
			var c int64
			for i := 0; i < sim.Len() && sim.Step(i).TimeMs <= ms; i++ {
				p, _ := sim.View(i).Flow().Partition("t0", 0)
				c = p.Consumed
			}
			return c
		}
		end, _ := sim.View(sim.Len()-1).Flow().Partition("t0", 0)
		if a := consumedAt(29999); a != 4 || end.Consumed-a != 2 || end.Committed != 6 || end.Duplicates != 0 {
			t.Errorf("%s: A read %d, then %d after its restart (committed %d, duplicates %d); want 4, then 2",
				reset, a, end.Consumed-a, end.Committed, end.Duplicates)
		}
		for want, r := range map[int64]string{6: "earliest", 0: "latest"} {
			b := `topics: {t0: 1}
group: {id: B, auto_offset_reset: ` + r + `}
timeline:
  - {at_ms: 0, produce: {topic: t0, count: 6}}
  - {at_ms: 1000, join: {id: b}}
  - {at_ms: 10000, commit: b}
`
			simB := simYAML(t, "ex19b.yaml", b)
			p, _ := simB.View(simB.Len()-1).Flow().Partition("t0", 0)
			if p.Consumed != want {
				t.Errorf("new group B with %s read %d, want %d", r, p.Consumed, want)
			}
		}
	}
}

var topicEvents = regexp.MustCompile(`(?m)^  - \{at_ms: \d+, (create|delete)_topic: .*\n`)

// TestRandomFlows runs random groups (every protocol, every event kind) with
// producers and checks the data path after every step.
func TestRandomFlows(t *testing.T) {
	available := registeredSetups()
	group := regexp.MustCompile(`group: \{`)
	rapid.Check(t, func(t *rapid.T) {
		src := genScenario(t, rapid.SampledFrom(available).Draw(t, "setup"))
		// The data path does not model topics created or deleted during the run.
		src = topicEvents.ReplaceAllString(src, "")
		commit := rapid.SampledFrom([]string{"", "commit: sync, ", "commit: async, ", "auto_commit_interval_ms: 700, "}).Draw(t, "commit")
		reset := rapid.SampledFrom([]string{"earliest", "latest", "none"}).Draw(t, "reset")
		src = group.ReplaceAllString(src, fmt.Sprintf("group: {rate: %d, %sauto_offset_reset: %s, ",
			rapid.IntRange(1, 300).Draw(t, "consumer rate"), commit, reset))
		keys := rapid.SampledFrom([]string{"null", "[a, b, c]", "{uniform: 20}", "{hot: h, share: 0.8, count: 5}"}).Draw(t, "keys")
		version := rapid.SampledFrom([]string{"2.3", "3.0", "3.9", "4.0"}).Draw(t, "version")
		src += fmt.Sprintf("producers:\n  - {topic: t0, rate: %d, keys: %s, kafka_version: %q, batch_size: %d}\n",
			rapid.IntRange(0, 200).Draw(t, "rate"), keys, version, rapid.IntRange(200, 20000).Draw(t, "batch"))
		checkFlow(t, simGenerated(t, src), src)
	})
}

// simulate's JSONL gains "lag" only in scenarios with producers.
func TestLagInJSONOnlyWithProducers(t *testing.T) {
	with := simDemo(t, "producers")
	b, err := json.Marshal(with.Step(with.Len() - 1))
	if err != nil || !strings.Contains(string(b), `"lag":{"clicks":{"0":`) {
		t.Errorf("producers: %s %v", b, err)
	}
	without := simDemo(t, "lab")
	b, _ = json.Marshal(without.Step(without.Len() - 1))
	if strings.Contains(string(b), `"lag"`) {
		t.Errorf("no producers, yet: %s", b)
	}
}

// A topic nothing happens to is kept once, not once per step.
func TestFlowViewsShareWhatStoodStill(t *testing.T) {
	sim := simYAML(t, "share.yaml", `topics: {busy: 2, idle: 2}
members:
  - {id: c1, topics: [busy]}
producers:
  - {topic: busy, rate: 50}
timeline:
  - {at_ms: 30000, commit: c1}
`)
	first := sim.View(0).Flow()
	distinct := 0
	for i := 1; i < sim.Len(); i++ {
		f := sim.View(i).Flow()
		if f == first {
			continue
		}
		distinct++
		if &f.Topics[1].Partitions[0] != &first.Topics[1].Partitions[0] {
			t.Fatalf("step %d: the idle topic was copied", i)
		}
	}
	if distinct == 0 {
		t.Fatal("every step shares one view: the busy topic never changed?")
	}
}

// A stalled application reads and commits nothing; afterwards it catches up.
func TestStalledMemberReadsNothing(t *testing.T) {
	sim := simYAML(t, "stall.yaml", `topics: {t0: 1}
group: {rate: 1000, auto_commit_interval_ms: 1000}
members:
  - {id: c1}
producers:
  - {topic: t0, rate: 100}
timeline:
  - {at_ms: 10000, stall: {id: c1, ms: 20000}}
  - {at_ms: 20000, commit: c1}
  - {at_ms: 40000, commit: c1}
`)
	at := func(ms int64) model.FlowPartition {
		var p model.FlowPartition
		for i := 0; i < sim.Len() && sim.Step(i).TimeMs <= ms; i++ {
			p, _ = sim.View(i).Flow().Partition("t0", 0)
		}
		return p
	}
	start, mid, end := at(10000), at(29000), at(40000)
	if start.Consumed == 0 || mid.Consumed != start.Consumed || mid.Committed > start.Position {
		t.Errorf("during the stall: consumed %d → %d, committed %d", start.Consumed, mid.Consumed, mid.Committed)
	}
	if mid.Lag < 1500 || end.Consumed <= mid.Consumed {
		t.Errorf("lag %d during the stall; consumed %d after it (was %d)", mid.Lag, end.Consumed, mid.Consumed)
	}
}

// Producers change nothing in the group's own trace.
func TestProducersLeaveTheGroupTraceAlone(t *testing.T) {
	data, _ := demo.Get("producers")
	sc, err := scenario.Parse("producers.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	with, err := model.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	bare := *sc
	bare.Flow = nil
	without, err := model.Simulate(&bare)
	if err != nil {
		t.Fatal(err)
	}
	if with.Len() != without.Len() {
		t.Fatalf("%d steps with producers, %d without", with.Len(), without.Len())
	}
	for i := 0; i < with.Len(); i++ {
		a, b := with.Step(i), without.Step(i)
		a.Lag = nil
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("step %d differs:\n%s\n%s", i, ja, jb)
		}
	}
}
