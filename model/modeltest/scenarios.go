// Package modeltest builds scenario files for tests and benchmarks of more
// than one package, so each big fixture is written once.
package modeltest

import (
	"fmt"
	"strings"
)

// Week is a week-long scenario of members consumers and partitions
// partitions over ten topics, with ten events (leaves, crashes, restarts,
// joins) spread over the days: issue 13's "week-long 200-member ×
// 2,000-partition scenario with ten events".
func Week(members, partitions int, strategy string) string {
	var b strings.Builder
	b.WriteString("topics: {")
	for t := 0; t < 10; t++ {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "t%d: %d", t, partitions/10)
	}
	fmt.Fprintf(&b, "}\ngroup: {id: week, strategy: %s}\nmembers:\n", strategy)
	for i := 0; i < members; i++ {
		fmt.Fprintf(&b, "  - {id: c%03d}\n", i)
	}
	b.WriteString("timeline:\n")
	const day = 24 * 3600 * 1000
	events := []string{"leave: c001", "crash: c002", "restart: c002", "join: {id: x1}", "leave: c010",
		"crash: c020", "join: {id: x2}", "restart: c020", "leave: x1", "crash: c030"}
	for i, ev := range events {
		fmt.Fprintf(&b, "  - {at_ms: %d, %s}\n", int64(i+1)*day*7/11, ev)
	}
	return b.String()
}
