package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/strategies"
)

// bigAssignInput is a group of members × partitions/members owned
// partitions over one topic: the kind of input the hand-written parser
// exists for.
func bigAssignInput(members, partitions int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"topics": {"t0": %d}, "members": [`, partitions)
	per := partitions / members
	for m := 0; m < members; m++ {
		if m > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "consumer-%04d", "topics": ["t0"], "generation": 3, "owned": {"t0": [`, m)
		for p := m * per; p < (m+1)*per; p++ {
			if p > m*per {
				b.WriteString(",")
			}
			fmt.Fprint(&b, p)
		}
		b.WriteString("]}}")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BenchmarkAssignInput is why assign_input.go parses its schema by hand:
// the same million-partition group through encoding/json into the obvious
// structs (no validation, no interning) against parseAssignInput.
func BenchmarkAssignInput(b *testing.B) {
	data := bigAssignInput(1000, 1_000_000)
	sticky, err := strategies.Lookup("sticky")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("hand-written", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseAssignInput(data, sticky); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		type member struct {
			ID         string             `json:"id"`
			Topics     []string           `json:"topics"`
			Generation int32              `json:"generation"`
			Owned      map[string][]int32 `json:"owned"`
		}
		type input struct {
			Topics  map[string]int32 `json:"topics"`
			Members []member         `json:"members"`
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var in input
			if err := json.Unmarshal(data, &in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
