package scenario_test

import (
	"testing"

	"github.com/kvizlab/kviz/model/modeltest"
	"github.com/kvizlab/kviz/model/scenario"
)

// BenchmarkParseScale: parsing issue 21's given starts (10,000 members
// owning 500,000 partitions over 1,000 topics, under each assignor), and
// each at a tenth of the size; -short parses the tenths only. These files
// are of the plain subset parse_fast.go reads (yaml.v3 took 1.5-2.7 s).
//
//	go test ./model/scenario -run '^$' -bench ParseScale -benchtime=3x
func BenchmarkParseScale(b *testing.B) {
	for _, s := range modeltest.IssueScales() {
		if !s.Given {
			continue
		}
		sizes := []modeltest.Scale{s.Tenth()}
		if !testing.Short() {
			sizes = append(sizes, s)
		}
		for _, s := range sizes {
			b.Run(s.Name(), func(b *testing.B) {
				src, err := s.YAML()
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if _, err := scenario.Parse(s.Name()+".yaml", []byte(src)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
