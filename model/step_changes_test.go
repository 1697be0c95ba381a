package model_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// checkChangeLines: applying the change lines of the steps wanted, in
// order, gives each one the object its full line decodes to.
func checkChangeLines(t fataler, sim *model.Sim, what string, want func(i int) bool) {
	t.Helper()
	lines := sim.ChangeLines()
	var r model.ChangeReader
	var line []byte
	n := 0
	for i := 0; i < sim.Len(); i++ {
		if !want(i) {
			continue
		}
		line = lines.Append(line[:0], i)
		got, err := r.Next(line)
		if err != nil {
			t.Fatalf("%s: step %d: %v\n%s", what, i, err, line)
		}
		full := decodeNumbers(t, sim.AppendStepJSON(nil, i))
		if !reflect.DeepEqual(got, full) {
			g, _ := json.Marshal(got)
			f, _ := json.Marshal(full)
			t.Fatalf("%s: step %d rebuilt from its change line differs from the full line:\nchange line %s\nrebuilt     %s\nfull        %s", what, i, line, g, f)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("%s: no lines", what)
	}
}

func decodeNumbers(t fataler, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("full line: %v\n%s", err, b)
	}
	return v
}

// Every demo, under its own strategy and each other's, every step and only
// the steps `kviz simulate` prints by default: the change lines rebuild
// the full lines exactly.
func TestChangeLinesRebuildEveryDemo(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string]*scenario.Scenario{name: sc}
		for _, st := range []string{"range", "cooperative-sticky", "uniform"} {
			if v, err := sc.WithStrategy(st, ""); err == nil {
				variants[name+"/"+st] = v
			}
		}
		for what, sc := range variants {
			sim, err := model.Simulate(sc)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			checkChangeLines(t, sim, what, func(int) bool { return true })
			checkChangeLines(t, sim, what+" (no routine steps)", func(i int) bool { return !sim.StepLine(i).Routine })
		}
	}
}

// The same on random groups over every protocol, with random steps left
// out between lines.
func TestChangeLinesRebuildRandomGroups(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		sim, _ := drawSim(t, available)
		skip := rapid.SliceOfN(rapid.Bool(), sim.Len(), sim.Len()).Draw(t, "skip")
		checkChangeLines(t, sim, "random", func(i int) bool { return i == 0 || !skip[i] })
	})
}

// A change line carries what changed: a member's crash in a large given
// group writes that member, not the group.
func TestChangeLinesGrowWithChanges(t *testing.T) {
	src, err := modeltest.Scale{Members: 2000, Partitions: 20000, Topics: 10, Strategy: "uniform", Given: true, Crash: true}.YAML()
	if err != nil {
		t.Fatal(err)
	}
	sim := simYAML(t, "big.yaml", src)
	lines := sim.ChangeLines()
	full := len(lines.Append(nil, 0))
	for i := 1; i < sim.Len(); i++ {
		line := lines.Append(nil, i)
		if st := sim.StepLine(i); st.Kind == "MemberCrashed" && len(line) > 2000 {
			t.Errorf("the crash's change line is %d bytes (the full line %d): %s", len(line), full, line)
		}
	}
	if full < 100000 {
		t.Errorf("the first line is %d bytes: it should carry the whole group", full)
	}
}

// Given groups over many topics with a crash, under each of issue 21's
// assignors, and joining from empty: the change lines rebuild every step.
func TestChangeLinesRebuildScaleGroups(t *testing.T) {
	for _, s := range modeltest.IssueScales() {
		s.Members, s.Partitions, s.Topics = 30, 600, min(s.Topics, 12)
		src, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		sim := simYAML(t, s.Name()+".yaml", src)
		checkChangeLines(t, sim, s.Name(), func(i int) bool { return !sim.StepLine(i).Routine })
	}
}
