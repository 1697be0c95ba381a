package model

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kvizlab/kviz/demo"
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
		n := s.Len()
		stride := max(1, n/2000)
		var order []int
		for i := 0; i < n; i += stride {
			order = append(order, i)
		}
		for i := n - 1; i >= 0; i -= stride {
			order = append(order, i)
		}
		r := rand.New(rand.NewPCG(uint64(n), 7))
		for range 100 {
			i := r.IntN(n)
			order = append(order, i, min(i+1, n-1), max(i-1, 0))
		}
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
