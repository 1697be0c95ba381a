package model_test

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

func TestDemosParseAndRun(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			if strings.Contains(err.Error(), "unknown strategy") {
				t.Logf("%s: %v (strategy not registered yet)", name, err)
				continue
			}
			t.Fatalf("%s: %v", name, err)
		}
		if sc.Title == "" || sc.Notes == "" {
			t.Errorf("%s: a demo needs a title and notes", name)
		}
		if _, err := model.Simulate(sc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if name, data := demo.Default(); name != "lab" || len(data) == 0 {
		t.Errorf("default demo %q (%d bytes)", name, len(data))
	}
}

// The same scenario always gives the same trace.
func TestDeterministic(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			continue
		}
		a, err1 := model.Simulate(sc)
		b, err2 := model.Simulate(sc)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if a.Len() != b.Len() {
			t.Fatalf("%s: %d steps, then %d", name, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if sa, sb := a.Step(i), b.Step(i); sa.Text != sb.Text || sa.TimeMs != sb.TimeMs {
				t.Fatalf("%s step %d differs: %q vs %q", name, i, sa.Text, sb.Text)
			}
		}
	}
}
