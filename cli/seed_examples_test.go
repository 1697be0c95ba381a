package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/model/scenario"
)

// The proof that every worked example of SEED-EXAMPLES.md is a demo giving
// Kafka's answer: each demo runs through `kviz simulate --format jsonl` and
// its trace must end with (or pass through) the answer the file states.

type owners = map[string]map[string][]int32

// jsonlStep is the part of a JSONL line the answers are read from.
type jsonlStep struct {
	TimeMs     int64            `json:"time_ms"`
	Kind       string           `json:"kind"`
	Member     string           `json:"member"`
	Text       string           `json:"text"`
	GroupState kafka.GroupState `json:"group_state"`
	Generation int32            `json:"generation"`
	Error      string           `json:"error"`
	Owned      owners           `json:"owned"`
	// Readers: records read by other groups, by topic and partition.
	Readers map[string]map[string]map[string]int64 `json:"readers"`
}

func simulateJSONL(t *testing.T, name string) []jsonlStep {
	t.Helper()
	code, out, errOut := run(t, "", "simulate", "demo:"+name, "--format", "jsonl")
	require.Equal(t, 0, code, errOut)
	var steps []jsonlStep
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var st jsonlStep
		require.NoError(t, json.Unmarshal([]byte(line), &st), line)
		steps = append(steps, st)
	}
	require.NotEmpty(t, steps)
	return steps
}

// sameOwners: exactly these members own exactly these partitions.
func sameOwners(got, want owners) bool {
	norm := func(o owners) owners {
		out := owners{}
		for m, topics := range o {
			out[m] = map[string][]int32{}
			for tp, ps := range topics {
				if len(ps) > 0 {
					out[m][tp] = ps
				}
			}
		}
		return out
	}
	return reflect.DeepEqual(norm(got), norm(want))
}

func endsWith(t *testing.T, steps []jsonlStep, want owners) {
	t.Helper()
	if got := steps[len(steps)-1].Owned; !sameOwners(got, want) {
		t.Errorf("the run ends with %v, want %v", got, want)
	}
}

// passesThrough returns the first step owned exactly as want, or fails.
func passesThrough(t *testing.T, steps []jsonlStep, want owners) int {
	t.Helper()
	for i, st := range steps {
		if sameOwners(st.Owned, want) {
			return i
		}
	}
	t.Errorf("no step has the owners %v", want)
	return -1
}

func stepsOf(steps []jsonlStep, kind, member string) []jsonlStep {
	var out []jsonlStep
	for _, st := range steps {
		if st.Kind == kind && (member == "" || st.Member == member) {
			out = append(out, st)
		}
	}
	return out
}

// seedExampleChecks holds each example's answer, by demo.
var seedExampleChecks = map[string]func(t *testing.T, steps []jsonlStep){
	"example-01-range": func(t *testing.T, s []jsonlStep) {
		endsWith(t, s, owners{"C0": {"t0": {0, 1, 2, 3}}, "C1": {"t0": {4, 5, 6}}, "C2": {"t0": {7, 8, 9}}})
	},
	"example-02-range-five-topics": func(t *testing.T, s []jsonlStep) {
		want := owners{"C0": {}, "C1": {}, "C2": {}}
		for _, topic := range []string{"t0", "t1", "t2", "t3", "t4"} {
			want["C0"][topic], want["C1"][topic], want["C2"][topic] = []int32{0, 1, 2, 3}, []int32{4, 5, 6}, []int32{7, 8, 9}
		}
		endsWith(t, s, want)
		count := func(m string) (n int) {
			for _, ps := range s[len(s)-1].Owned[m] {
				n += len(ps)
			}
			return n
		}
		if count("C0") != 20 || count("C1") != 15 || count("C2") != 15 {
			t.Errorf("C0 %d, C1 %d, C2 %d partitions; want 20, 15, 15", count("C0"), count("C1"), count("C2"))
		}
	},
	"example-03-range-growing-group": func(t *testing.T, s []jsonlStep) {
		a := passesThrough(t, s, owners{"C0": {"t0": {0, 1, 2, 3, 4}}})
		b := passesThrough(t, s, owners{"C0": {"t0": {0, 1, 2}}, "C1": {"t0": {3, 4}}})
		c := passesThrough(t, s, owners{"C0": {"t0": {0, 1}}, "C1": {"t0": {2, 3}}, "C2": {"t0": {4}}})
		if !(a < b && b < c) {
			t.Errorf("the answers for 1, 2 and 3 consumers come at steps %d, %d, %d; want them in that order", a, b, c)
		}
		endsWith(t, s, owners{"C0": {"t0": {0}}, "C1": {"t0": {1}}, "C2": {"t0": {2}}, "C3": {"t0": {3}}, "C4": {"t0": {4}}, "C5": {}})
		if _, idle := s[len(s)-1].Owned["C5"]; !idle {
			t.Error("C5 must be in the group, consuming nothing")
		}
	},
	"example-04-range-two-topics": func(t *testing.T, s []jsonlStep) {
		endsWith(t, s, owners{"C0": {"t0": {0, 1}, "t1": {0, 1}}, "C1": {"t0": {2}, "t1": {2}}})
		mistake := owners{"C0": {"t0": {0, 2}, "t1": {0, 2}}, "C1": {"t0": {1}, "t1": {1}}}
		for _, st := range s {
			if sameOwners(st.Owned, mistake) {
				t.Fatalf("the trace shows seed 003's wrong answer: %s", st.Text)
			}
		}
	},
	"example-05-roundrobin": func(t *testing.T, s []jsonlStep) {
		endsWith(t, s, owners{"C0": {"t0": {0, 2}, "t1": {1}}, "C1": {"t0": {1}, "t1": {0, 2}}})
	},
	"example-06-roundrobin-subscriptions": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, owners{"C0": {"t0": {0}}, "C1": {"t1": {0}}, "C2": {"t1": {1}, "t2": {0, 1, 2}}})
		endsWith(t, s, owners{"C1": {"t0": {0}, "t1": {1}}, "C2": {"t1": {0}, "t2": {0, 1, 2}}})
		leftAfterward(t, s, "C0")
	},
	"example-07-sticky-leave": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, example7Start)
		endsWith(t, s, owners{"C0": {"t0": {0, 1}, "t1": {1}, "t3": {0}}, "C2": {"t1": {0}, "t2": {0, 1}, "t3": {1}}})
		leftAfterward(t, s, "C1")
	},
	"example-07-roundrobin-leave": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, example7Start)
		endsWith(t, s, owners{"C0": {"t0": {0}, "t1": {0}, "t2": {0}, "t3": {0}}, "C2": {"t0": {1}, "t1": {1}, "t2": {1}, "t3": {1}}})
		leftAfterward(t, s, "C1")
	},
	"example-08-sticky-subscriptions": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, owners{"C0": {"t0": {0}}, "C1": {"t1": {0, 1}}, "C2": {"t2": {0, 1, 2}}})
		endsWith(t, s, owners{"C1": {"t0": {0}, "t1": {0, 1}}, "C2": {"t2": {0, 1, 2}}})
		leftAfterward(t, s, "C0")
	},
	"example-09-cooperative-join": func(t *testing.T, s []jsonlStep) {
		premise(t, s)
		endsWith(t, s, example9End)
		if got := s[len(s)-1].Generation - s[0].Generation; got != 2 {
			t.Errorf("c3's join took %d generations, want 2", got)
		}
		for _, st := range s {
			if !slices.Contains(st.Owned["c1"]["t0"], 0) || !slices.Equal(st.Owned["c2"]["t0"], []int32{2}) {
				t.Fatalf("c1 must keep p0 and c2 p2 throughout: %v at %q", st.Owned, st.Text)
			}
		}
		revoked := stepsOf(s, "PartitionsRevoked", "")
		if len(revoked) != 1 || !strings.Contains(revoked[0].Text, "c1 calls onPartitionsRevoked([t0-1])") {
			t.Errorf("only c1 revokes, only p1: %v", revoked)
		}
	},
	"example-09-eager-join": func(t *testing.T, s []jsonlStep) {
		premise(t, s)
		endsWith(t, s, example9End)
		if got := s[len(s)-1].Generation - s[0].Generation; got != 1 {
			t.Errorf("c3's join took %d generations, want 1", got)
		}
		passesThrough(t, s, owners{"c1": {}, "c2": {}, "c3": {}}) // every partition unowned at once
		if len(stepsOf(s, "PartitionsRevoked", "c1")) != 1 || len(stepsOf(s, "PartitionsRevoked", "c2")) != 1 {
			t.Error("c1 and c2 revoke everything")
		}
	},
	"example-10-static-restart": func(t *testing.T, s []jsonlStep) {
		for _, st := range s {
			if st.TimeMs >= 30000 && st.TimeMs < 79000 && (st.GroupState != kafka.Stable || st.Generation != 1) {
				t.Fatalf("during c1's quick restart: %s generation %d at %q; want Stable 1, no rebalance", st.GroupState, st.Generation, st.Text)
			}
		}
		if len(stepsOf(s, "SessionExpired", "c2")) != 1 {
			t.Error("past the session timeout the coordinator removes c2")
		}
		endsWith(t, s, owners{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
	},
	"example-11-failover": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, owners{"a": {"t0": {0}}, "b": {"t0": {1}}, "c": {"t0": {2}}})
		if len(stepsOf(s, "SessionExpired", "a")) != 1 {
			t.Error("a is removed by its session timeout")
		}
		endsWith(t, s, owners{"b": {"t0": {0, 1}}, "c": {"t0": {2}}})
	},
	"example-12-partition-growth": func(t *testing.T, s []jsonlStep) {
		passesThrough(t, s, owners{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}, "c3": {"t0": {4, 5}}})
		endsWith(t, s, owners{"c1": {"t0": {0, 1, 2, 3}}, "c2": {"t0": {4, 5, 6, 7}}, "c3": {"t0": {8, 9, 10, 11}}})
	},
	"example-13-states": func(t *testing.T, s []jsonlStep) {
		var seq []kafka.GroupState
		for _, st := range s {
			if len(seq) == 0 || seq[len(seq)-1] != st.GroupState {
				seq = append(seq, st.GroupState)
			}
		}
		want := []kafka.GroupState{kafka.Empty, kafka.PreparingRebalance, kafka.CompletingRebalance, kafka.Stable}
		if len(seq) < 4 || !slices.Equal(seq[:4], want) {
			t.Errorf("states %v, want them to begin %v", seq, want)
		}
		prev := int32(0)
		for _, st := range stepsOf(s, "GroupStateChanged", "") {
			if st.GroupState == kafka.CompletingRebalance {
				if st.Generation != prev+1 {
					t.Errorf("a rebalance went from generation %d to %d", prev, st.Generation)
				}
				prev = st.Generation
			}
		}
		fenced := false
		for _, st := range stepsOf(s, "OffsetCommitResponse", "") {
			fenced = fenced || st.Error == "ILLEGAL_GENERATION"
		}
		if !fenced {
			t.Error("the commit with an older generation must be rejected (ILLEGAL_GENERATION)")
		}
	},
	"example-14-coordinator": func(t *testing.T, s []jsonlStep) {
		if !strings.Contains(s[0].Text, "__consumer_offsets partition 12") {
			t.Errorf(`my-group's coordinator leads partition 12: %q`, s[0].Text)
		}
		if len(stepsOf(s, "CoordinatorMoved", "")) != 1 {
			t.Error("the coordinator fails over once")
		}
	},
	"example-15-poll-timeout": func(t *testing.T, s []jsonlStep) {
		timeout, leave := stepsOf(s, "PollTimeout", "c2"), stepsOf(s, "LeaveGroupRequest", "c2")
		if len(timeout) != 1 || len(leave) != 1 || leave[0].TimeMs < timeout[0].TimeMs {
			t.Errorf("c2's slow poll loop: timeout %v, then LeaveGroup %v", timeout, leave)
		}
		if len(stepsOf(s, "SessionExpired", "c3")) != 1 {
			t.Error("c3 leaves by session timeout")
		}
	},
	// Examples 16 and 18 are about the data path: the JSONL trace is the
	// group's, so their answers are read from the same run's flow view.
	"example-16-partitioners": func(t *testing.T, _ []jsonlStep) {
		f := lastFlow(t, "example-16-partitioners")
		for p := int32(0); p < 6; p++ {
			fp, _ := f.Partition("t0", p)
			if (p == 2) != (fp.LogEnd > 0) {
				t.Errorf("t0p%d holds %d records; key1 with 6 partitions goes to 2 only", p, fp.LogEnd)
			}
			rr, _ := f.Partition("t1", p)
			first, _ := f.Partition("t1", 0)
			if d := rr.LogEnd - first.LogEnd; d < -1 || d > 1 || rr.LogEnd == 0 {
				t.Errorf("t1p%d holds %d records, t1p0 %d: a 2.3 client deals keyless records round robin", p, rr.LogEnd, first.LogEnd)
			}
		}
	},
	"example-17-batching": func(t *testing.T, _ []jsonlStep) {
		sim := simDemo(t, "example-17-batching")
		byName := func(f *model.FlowView) map[string]model.ProducerView {
			out := map[string]model.ProducerView{}
			for _, p := range f.Producers {
				out[p.Name] = p
			}
			return out
		}
		end := byName(sim.View(sim.Len() - 1).Flow())
		for name, linger := range map[string]int64{"full": 5, "sparse": 5, "legacy": 0, "slow": 2000} {
			p := end[name]
			if p.LingerMs != linger || p.BatchSize != 16384 || p.LastSent == nil {
				t.Fatalf("%s: linger.ms %d, batch.size %d, last sent %v; want linger %d (0 up to 3.9, 5 since 4.0), 16384", name, p.LingerMs, p.BatchSize, p.LastSent, linger)
			}
		}
		if s := end["full"].LastSent; s.Why != produce.SentFull || s.Bytes > 16384 || s.Bytes < 16384-200 {
			t.Errorf("full: last batch %+v; want it sent full, at batch.size", s)
		}
		for _, name := range []string{"sparse", "legacy"} {
			if s := end[name].LastSent; s.Why != produce.SentLinger || s.Records != 1 {
				t.Errorf("%s: last batch %+v; want one record sent by linger.ms", name, s)
			}
		}
		if s := end["slow"].LastSent; s.Why != produce.SentLinger || s.Records < 2 {
			t.Errorf("slow: last batch %+v; want several records gathered over its linger", s)
		}
		lingering := map[string]bool{}
		for i := range sim.Len() {
			for name, p := range byName(sim.View(i).Flow()) {
				for _, q := range p.Queues {
					b := q.Batches[0]
					lingering[name] = lingering[name] || (!b.Full && b.LingerLeftMs > 0 && b.LingerLeftMs+b.AgeMs == p.LingerMs)
				}
			}
		}
		if !lingering["slow"] || lingering["legacy"] {
			t.Errorf("batches seen lingering: %v; want slow's (2000 ms), never legacy's (linger.ms 0)", lingering)
		}
	},
	"example-18-replicas": func(t *testing.T, _ []jsonlStep) {
		f := lastFlow(t, "example-18-replicas")
		want := [][]int{{0, 1, 2}, {1, 2, 3}, {2, 3, 4}, {3, 4, 0}, {4, 0, 1}, {0, 2, 3}, {1, 3, 4}, {2, 4, 0}, {3, 0, 1}, {4, 1, 2}}
		for p, replicas := range want {
			fp, _ := f.Partition("t0", int32(p))
			if !slices.Equal(fp.Replicas, replicas) || fp.Leader != replicas[0] {
				t.Errorf("t0p%d replicas %v leader %d, want %v led by the first", p, fp.Replicas, fp.Leader, replicas)
			}
		}
	},
	"example-19-offsets": func(t *testing.T, s []jsonlStep) {
		end := s[len(s)-1]
		if got := end.Readers["B-earliest"]["t0"]["0"]; got != 6 {
			t.Errorf("a new group B with earliest reads %d, want 6", got)
		}
		if got, ok := end.Readers["B-latest"]["t0"]["0"]; !ok || got != 0 {
			t.Errorf("a new group B with latest reads %d (listed %v), want 0", got, ok)
		}
		// A: 4 read and committed before it leaves, 2 more after its
		// restart, none twice (the JSONL trace is the group's: A's reads
		// are in the flow view).
		sim := simDemo(t, "example-19-offsets")
		restart := 0
		for i := range sim.Len() {
			if st := sim.StepLine(i); st.Kind == "MemberStarted" && st.TimeMs == 20000 {
				restart = i
			}
		}
		before, _ := sim.View(restart).Flow().Partition("t0", 0)
		after, _ := sim.View(sim.Len()-1).Flow().Partition("t0", 0)
		if before.Consumed != 4 || before.Committed != 4 || before.LogEnd != 6 {
			t.Errorf("before A restarts: read %d, committed %d of %d; want 4, 4 of 6", before.Consumed, before.Committed, before.LogEnd)
		}
		if after.Consumed-before.Consumed != 2 || after.Duplicates != 0 || after.Committed != 6 {
			t.Errorf("A read %d after its restart (%d twice), committed %d; want 2, none twice, 6", after.Consumed-before.Consumed, after.Duplicates, after.Committed)
		}
	},
}

var (
	example7Start = owners{"C0": {"t0": {0}, "t1": {1}, "t3": {0}}, "C1": {"t0": {1}, "t2": {0}, "t3": {1}}, "C2": {"t1": {0}, "t2": {1}}}
	example9End   = owners{"c1": {"t0": {0}}, "c2": {"t0": {2}}, "c3": {"t0": {1}}}
)

// premise: seed 002's example starts with c1 {p0,p1} and c2 {p2}, Stable.
func premise(t *testing.T, s []jsonlStep) {
	t.Helper()
	if !sameOwners(s[0].Owned, owners{"c1": {"t0": {0, 1}}, "c2": {"t0": {2}}}) || s[0].GroupState != kafka.Stable {
		t.Errorf("step 0: %s %v, want the given Stable start c1 {p0,p1}, c2 {p2}", s[0].GroupState, s[0].Owned)
	}
}

// leftAfterward: the member's LeaveGroup is part of the story.
func leftAfterward(t *testing.T, s []jsonlStep, member string) {
	t.Helper()
	if len(stepsOf(s, "LeaveGroupRequest", member)) != 1 {
		t.Errorf("%s leaves in the second act", member)
	}
}

func simDemo(t *testing.T, name string) *model.Sim {
	t.Helper()
	data, _ := demo.Get(name)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	return sim
}

func lastFlow(t *testing.T, name string) *model.FlowView {
	t.Helper()
	sim := simDemo(t, name)
	f := sim.View(sim.Len() - 1).Flow()
	require.NotNil(t, f, "%s has producers", name)
	return f
}

// notYetDemos are the examples no demo can show yet (none since example
// 17's batches view and example 19's readers).
var notYetDemos []int

func TestSeedExamplesAreDemosWithKafkasAnswers(t *testing.T) {
	code, out, errOut := run(t, "", "demos", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var demos []demoJSON
	require.NoError(t, json.Unmarshal([]byte(out), &demos))
	covered := map[int]bool{}
	for _, d := range demos {
		for _, e := range d.Examples {
			covered[e] = true
		}
		check, isExample := seedExampleChecks[d.Name]
		if len(d.Examples) > 0 && !isExample {
			t.Errorf("%s shows examples %v but no test checks its answer", d.Name, d.Examples)
		}
		if !isExample {
			continue
		}
		t.Run(d.Name, func(t *testing.T) { check(t, simulateJSONL(t, d.Name)) })
	}
	for e := 1; e <= 19; e++ {
		if covered[e] == slices.Contains(notYetDemos, e) {
			t.Errorf("example %d: covered %v, listed as not yet done %v", e, covered[e], slices.Contains(notYetDemos, e))
		}
	}
	for name := range seedExampleChecks {
		if !slices.ContainsFunc(demos, func(d demoJSON) bool { return d.Name == name }) {
			t.Errorf("no demo %s", name)
		}
	}
}

// `kviz demos` lists every demo with its metadata, and says which opens compare.
func TestDemosListing(t *testing.T) {
	code, out, errOut := run(t, "", "demos", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var demos []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &demos))
	require.Len(t, demos, len(demo.Names()))
	for i, d := range demos {
		require.Equal(t, demo.Names()[i], d["name"], "name order")
		for _, k := range []string{"name", "title", "examples", "strategy", "protocol"} {
			require.Contains(t, d, k)
		}
		if d["name"] == "example-07-sticky-leave" {
			require.Equal(t, "compare", d["open"])
		} else {
			require.NotContains(t, d, "open")
		}
	}
	code, text, _ := run(t, "", "demos", "--format", "text")
	require.Equal(t, 0, code)
	require.Contains(t, text, "example-07-sticky-leave")
	require.Contains(t, strings.Split(text, "\n")[0], "EXAMPLES")
	code, _, errOut = run(t, "", "demos", "--format", "yaml")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, fmt.Sprintf("%q", "yaml"))
}
