package model

import (
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// A view built from a neighbouring step's (fillMembers) has the very
// members one read from the history alone has, whichever way the lab
// walks: forward, back, or jumping about.
func TestViewFromNeighbourIsTheWholeView(t *testing.T) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		sc, err := scenario.Parse(name+".yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Simulate(sc)
		if err != nil {
			t.Fatal(err)
		}
		order := modeltest.Walk(s.Len(), s.Len()/2000, 100, 7)
		s.views = map[int]*GroupView{}
		for _, i := range order {
			got := s.View(i)
			s.mu.Lock()
			kept := s.views
			s.views = map[int]*GroupView{}
			want := s.buildView(i)
			s.views = kept
			s.mu.Unlock()
			if !reflect.DeepEqual(got.Members, want.Members) {
				t.Fatalf("%s, step %d: the members built from a neighbour differ", name, i)
			}
		}
	}
}
