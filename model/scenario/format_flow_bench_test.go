package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// Format's flows written directly (format_flow.go) against yaml.v3 writing
// every node, on a given start of 2,000 members x 100,000 partitions (a
// fifth of Kafka's scale: issue 21's live import writes one of these).
//
//	go test ./model/scenario/ -run '^$' -bench FormatGiven
func BenchmarkFormatGiven(b *testing.B) {
	const members, topics, parts = 2000, 200, 500
	var y strings.Builder
	y.WriteString("topics: {")
	for t := range topics {
		if t > 0 {
			y.WriteString(", ")
		}
		fmt.Fprintf(&y, "t%03d: %d", t, parts)
	}
	y.WriteString("}\ngroup: {id: g, strategy: uniform, protocol: consumer, group_epoch: 3}\nmembers:\n")
	for m := range members {
		// partitions m*50 .. m*50+49 of the 100,000: one topic's
		fmt.Fprintf(&y, "  - {id: c%04d, owned: {t%03d: [", m, m*50/parts)
		for k := range 50 {
			if k > 0 {
				y.WriteString(", ")
			}
			fmt.Fprintf(&y, "%d", (m*50+k)%parts)
		}
		y.WriteString("]")
		y.WriteString("}}\n")
	}
	sc, err := Parse("given.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("flows", func(b *testing.B) {
		for b.Loop() {
			if _, err := Format(sc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		for b.Loop() {
			emitterOnly(b, sc)
		}
	})
}
