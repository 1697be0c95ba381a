package model_test

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/scenario"
)

// A reader group reads from its own offsets: all of the log with earliest,
// only what comes after its start with latest; the scenario's group is not
// touched.
func TestReadersReadTheLogByTheirOwnOffsets(t *testing.T) {
	sim := simYAML(t, "r.yaml", `topics: {t0: 2}
members:
  - {id: c1}
readers:
  - {group: early, at_ms: 10000, auto_offset_reset: earliest}
  - {group: late, topics: [t0], at_ms: 10000}
timeline:
  - {at_ms: 5000, produce: {topic: t0, key: k, count: 5}}
  - {at_ms: 15000, produce: {topic: t0, key: k, count: 3}}
  - {at_ms: 20000, commit: c1}
`)
	f := sim.View(sim.Len() - 1).Flow()
	if len(f.Readers) != 2 {
		t.Fatalf("readers %+v", f.Readers)
	}
	early, late := f.Readers[0], f.Readers[1]
	if early.Read != 8 || early.LogEnd != 8 || early.Reset != "earliest" {
		t.Errorf("earliest: read %d of %d (%s), want all 8", early.Read, early.LogEnd, early.Reset)
	}
	if late.Read != 3 || late.Reset != "latest" {
		t.Errorf("latest: read %d (%s), want the 3 records after its start", late.Read, late.Reset)
	}
	if st := sim.Step(sim.Len() - 1); st.Readers["early"]["t0"] == nil || len(st.Owned) != 1 {
		t.Errorf("step: readers %v, owned %v", st.Readers, st.Owned)
	}
	if f0 := sim.View(0).Flow(); f0.Readers[0].Started {
		t.Error("a reader starts at its at_ms")
	}
}

func TestReadersErrors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"topics: {t0: 1}\ngroup: {id: A}\nreaders:\n  - {group: A}\n", `s.yaml:4: reader group "A" is the scenario's group`},
		{"topics: {t0: 1}\nreaders:\n  - {group: B}\n  - {group: B}\n", `s.yaml:4: reader group "B" is the scenario's group or another reader's`},
		{"topics: {t0: 1}\nreaders:\n  - {group: B, topics: [t9]}\n", `s.yaml:3: readers[0].topics: unknown topic "t9"`},
		{"topics: {t0: 1}\nreaders:\n  - {at_ms: 5}\n", "s.yaml:3: readers[0] needs a group id"},
		{"topics: {t0: 1}\nreaders:\n  - {group: B, auto_offset_reset: soon}\n", `s.yaml:3: readers[0].auto_offset_reset: unknown value "soon"`},
		{"topics: {t0: 1}\nreaders: {group: B}\n", "s.yaml:2: readers must be a list"},
	}
	for _, c := range cases {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.yaml, err, c.want)
		}
	}
}
