package strategies

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Groups where Kafka's answer turns on its finer rules (moves back to a
// previous owner, stickiness reversals, racks, void claims, withholding,
// generation conflicts), picked from the random oracle runs, with the answer
// Kafka's own assignors gave (trunk 1eb7644). "kafka assign ID t:p ..." lines
// are Kafka's output; "kafka error ..." means Kafka's assignor threw.
func TestStickyMatchesRecordedKafkaAnswers(t *testing.T) {
	for i, block := range strings.Split(strings.TrimSpace(stickyKafkaCases), "\nend\n") {
		var input, answer strings.Builder
		for _, line := range strings.Split(block, "\n") {
			if rest, ok := strings.CutPrefix(line, "kafka "); ok {
				answer.WriteString(rest + "\n")
			} else if line != "end" {
				input.WriteString(line + "\n")
			}
		}
		strategy, g := parseOracleCase(t, input.String())
		want := parseOracleAnswers(answer.String() + "end\n")[0]
		a, err := Lookup(strategy)
		assert.NoError(t, err)
		r := a.Assign(g, NewExplainer(0))
		if want.err != "" {
			assert.Contains(t, strings.Join(r.Explanation, "\n"), "NullPointerException", "case %d: Kafka throws %s", i, want.err)
			continue
		}
		assert.True(t, stickyAssignmentsEqual(r.Assignment, want.assignment), "case %d\n%s\nkviz:  %v\nkafka: %v", i, input.String(), r.Assignment, want.assignment)
	}
}

// parseOracleCase reads writeOracleCase's format back.
func parseOracleCase(t *testing.T, text string) (string, Group) {
	g := Group{Topics: map[string]int32{}}
	strategy := ""
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "strategy":
			strategy = f[1]
		case "topic":
			n, err := strconv.Atoi(f[2])
			assert.NoError(t, err)
			g.Topics[f[1]] = int32(n)
			if len(f) > 3 {
				if g.PartitionRacks == nil {
					g.PartitionRacks = map[string][][]string{}
				}
				var racks [][]string
				for _, p := range strings.Split(f[3], ";") {
					if p == "-" {
						racks = append(racks, nil)
					} else {
						racks = append(racks, strings.Split(p, ","))
					}
				}
				g.PartitionRacks[f[1]] = racks
			}
		case "member":
			m := Member{ID: f[1], Generation: NoGeneration}
			if f[2] != "x" {
				n, err := strconv.Atoi(f[2])
				assert.NoError(t, err)
				m.Generation = int32(n)
			}
			if f[3] != "-" {
				m.Rack = f[3]
			}
			if f[4] != "-" {
				m.Topics = strings.Split(f[4], ",")
			}
			if f[5] != "-" {
				for _, x := range strings.Split(f[5], ",") {
					i := strings.LastIndexByte(x, ':')
					p, err := strconv.Atoi(x[i+1:])
					assert.NoError(t, err)
					m.Owned = append(m.Owned, TopicPartition{x[:i], int32(p)})
				}
			}
			g.Members = append(g.Members, m)
		}
	}
	return strategy, g
}

const stickyKafkaCases = `
strategy cooperative-sticky
topic a 1
topic t1 2
topic t2 11
topic t3 7
member member-934 1 - t1 t1:1
member c11 3 - t1 t2:4,t2:5,t2:10,t3:1
member c5 3 - t1 -
member C1 2 - t1 a:0,t2:2,t2:3,t2:4,t2:5,t2:9,t3:0,t3:4,t3:6
member member-652 1 - t1 t1:0
member member-653 3 - t1 a:0,t1:1,t2:2,t3:0
member c10 1 - t1 t1:0,t1:1,t2:2,t2:7,t2:10,t3:1,t3:3,t3:4,t3:5
member Aa 1 - t1 t1:0
kafka assign Aa
kafka assign C1
kafka assign c10
kafka assign c11
kafka assign c5
kafka assign member-652
kafka assign member-653
kafka assign member-934
end
strategy sticky
topic t0 3
member c1 4 - t0 -
member c11 4 - t0 -
member C2 4 - t0 t0:1
member C0 4 - t0 t0:0
kafka assign C0 t0:0
kafka assign C2 t0:1
kafka assign c1 t0:2
kafka assign c11
end
strategy cooperative-sticky
topic t1 2 -;-
topic t3 7 r1,r2;r1,r2;r1,r2;r2;r2,r3;r1,r2,r3;r3
member c10 2 r2 t3 t3:0
member consumer-2 x - t3 -
member Aa 3 - t3 t3:0,t3:1,t3:3
member c5 3 - t3 t3:0,t3:1,t3:2
member m-7f3a 3 r1 t3 t3:2,t3:3,t3:4
member z 2 r1 t3 t3:2,t3:5
kafka assign Aa t3:6
kafka assign c10
kafka assign c5
kafka assign consumer-2
kafka assign m-7f3a
kafka assign z t3:5
end
strategy cooperative-sticky
topic t3 6 r1,r2;r2;r2,r3;-;-;r2,r3
member consumer-2 4 r2 t3 t3:0,t3:1,t3:2,t3:3,t3:4,t3:5
member new-20 x - t3 -
kafka assign consumer-2 t3:0 t3:1 t3:2
kafka assign new-20
end
strategy sticky
topic a 9
topic t0 14
topic t1 7
member c4 4 - a,t1 t0:0,t0:2,t0:4,t0:6,t0:8,t0:10,t0:12
member c2 4 - a,t0 a:0,a:1,a:2,a:3,a:4,a:5,a:6,a:7,a:8
member z 4 - t0 t0:1,t0:3,t0:5,t0:7,t0:9,t0:11,t0:13
member new-86 x - a -
kafka assign c2 a:7 a:8 t0:0 t0:1 t0:2 t0:4 t0:8 t0:12
kafka assign c4 t1:0 t1:1 t1:2 t1:3 t1:4 t1:5 t1:6
kafka assign new-86 a:0 a:1 a:2 a:3 a:4 a:5 a:6
kafka assign z t0:3 t0:5 t0:6 t0:7 t0:9 t0:10 t0:11 t0:13
end
strategy sticky
topic t1 3 r1,r2,r3;r1,r2,r3;-
topic t3 3 r1,r3;r3;r2
member c2 1 r2 t1 t1:2
member C1 2 r2 t1 t1:1
member c3 x - t3 -
kafka assign C1 t1:1 t1:2
kafka assign c2 t1:0
kafka assign c3 t3:0 t3:1 t3:2
end
strategy sticky
topic a 16 r1;r1;r1;r1;r1;r1,r3;r3;r2,r3;r1,r3;r1,r2,r3;r2;r2,r3;r1,r3;-;r1,r2;-
topic orders 6 r1,r3;r2,r3;r2;r3;r1,r2;r1,r2,r3
topic t1 3 r1,r3;r2,r3;r1
member member-245 1 r2 orders a:3,a:4,a:5,a:12,a:14,orders:3
member c0 3 r2 orders,t1 t1:1,t1:2
member member-298 x r1 a,orders -
kafka assign c0 orders:2 orders:5 t1:0 t1:1 t1:2
kafka assign member-245 orders:0 orders:1 orders:3 orders:4
kafka assign member-298 a:0 a:1 a:2 a:3 a:4 a:5 a:6 a:7 a:8 a:9 a:10 a:11 a:12 a:13 a:14 a:15
end
strategy cooperative-sticky
topic a 9
topic orders 13
topic t0 12
topic t2 8
member C2 4 - t2 orders:1,orders:11
member c1 4 - orders orders:2,orders:12
member member-298 4 - orders orders:5
member member-756 4 - orders orders:8
member member-96 4 - orders orders:9
member c11 4 - orders orders:3
member member-308 4 - orders orders:6
kafka assign C2 t2:0 t2:1 t2:2 t2:3 t2:4 t2:5 t2:6 t2:7
kafka assign c1 orders:2 orders:12
kafka assign c11 orders:0 orders:3
kafka assign member-298 orders:5
kafka assign member-308 orders:4 orders:6
kafka assign member-756 orders:7 orders:8
kafka assign member-96 orders:9 orders:10
end
strategy cooperative-sticky
topic a 7
topic orders 11
topic t0 6
topic t3 0
member consumer-2 4 - orders orders:7
member c11 4 - orders orders:3
member c3 4 - orders orders:5
member z 4 - orders,t0 -
member C0 4 - orders orders:0
member C2 4 - orders orders:2
member c4 4 - orders orders:6
member member-115 4 - orders orders:9
member member-200 4 - orders orders:10
member m-7f3a 4 - a orders:8
member new-16 x - a,t0 -
kafka assign C0 orders:0 orders:1
kafka assign C2 orders:2 orders:4
kafka assign c11 orders:3
kafka assign c3 orders:5
kafka assign c4 orders:6
kafka assign consumer-2 orders:7
kafka assign m-7f3a a:0 a:2 a:4 a:6
kafka assign member-115 orders:9
kafka assign member-200 orders:10
kafka assign new-16 a:1 a:3 a:5 t0:3 t0:5
kafka assign z t0:0 t0:1 t0:2 t0:4
end
strategy sticky
topic t2 15
topic t3 14
member member-81 4 - t2 t2:2,t2:5,t2:8,t2:11,t2:14
member c1 4 - t2,t3 t3:0,t3:1,t3:2,t3:3,t3:4,t3:5,t3:6,t3:7,t3:8,t3:9,t3:10,t3:11,t3:12,t3:13
member m-7f3a 4 - t3 t2:0,t2:3,t2:6,t2:9,t2:12
kafka assign c1 t2:0 t2:1 t2:2 t2:3 t2:13 t3:9 t3:10 t3:11 t3:12 t3:13
kafka assign m-7f3a t3:0 t3:1 t3:2 t3:3 t3:4 t3:5 t3:6 t3:7 t3:8
kafka assign member-81 t2:4 t2:5 t2:6 t2:7 t2:8 t2:9 t2:10 t2:11 t2:12 t2:14
end
strategy sticky
topic orders 9
member member-610 1 - orders orders:1,orders:2,orders:3,orders:4,orders:7,orders:8
member member-707 x - orders -
member consumer-2 2 - orders orders:1,orders:3
member c2 2 - orders orders:1,orders:2,orders:6,orders:8
member c3 3 - orders orders:8
member Aa 3 - orders orders:2,orders:3,orders:8
member member-263 1 - orders orders:0,orders:2,orders:4,orders:6,orders:7
member c11 1 - orders orders:0,orders:2,orders:3,orders:4,orders:7
member BB x - orders -
member consumer-1 x - orders -
kafka assign Aa orders:2
kafka assign BB orders:0
kafka assign c11 orders:1
kafka assign c2 orders:6
kafka assign c3 orders:3
kafka assign consumer-1 orders:4
kafka assign consumer-2 orders:5
kafka assign member-263 orders:7
kafka assign member-610 orders:8
kafka assign member-707
end
strategy sticky
topic a 5
topic orders 6
topic t0 7
topic t2 8
member C2 1 - a,t2 a:0,a:2,orders:4,t0:1,t0:2,t0:6,t2:2,t2:4,t2:6
member consumer-2 1 - a,t2 a:0,a:1,a:2,t2:2,t2:4,t2:6
member consumer-3 3 - a,t2 t2:5
member c3 3 - a,t2 a:0,a:2,t2:0,t2:1,t2:5,t2:7
member c11 2 - a,t2 a:2,a:3,t2:0
member C0 x - a,t2 -
member c2 1 - a,t2 a:0,a:1,a:3,t2:0,t2:7
kafka assign C0 a:1 t2:4
kafka assign C2 a:2 t2:5
kafka assign c11 a:3 t2:3
kafka assign c2 a:4 t2:6
kafka assign c3 a:0 t2:0
kafka assign consumer-2 t2:1 t2:7
kafka assign consumer-3 t2:2
end
strategy sticky
topic a 2
topic t1 3
topic t2 0
member c5 3 - t1 t1:2
member c11 2 - t2 -
member consumer-2 2 - t1 t1:0
member m-7f3a 2 - a,t2 a:0
member c0 3 - t1 a:1,t1:1,t1:2
kafka assign c0 t1:1
kafka assign c11
kafka assign c5 t1:2
kafka assign consumer-2 t1:0
kafka assign m-7f3a a:0 a:1
end
strategy sticky
topic a 5
topic orders 8
topic t2 6
topic t3 6
member consumer-2 3 - a,orders,t3 orders:2,orders:4,t3:2
member C1 1 - a,orders,t3 a:1,t3:0
member c0 3 - a,orders,t3 orders:1,orders:3,orders:6,t3:0,t3:2,t3:3,t3:4,t3:5
member C0 x - a,orders,t3 -
member c5 x - a,orders,t3 -
member c4 x - a,orders,t3 -
kafka assign C0 a:0 orders:5 t3:2
kafka assign C1 a:1 a:2 orders:6
kafka assign c0 orders:1 orders:3 t3:0 t3:3
kafka assign c4 a:3 orders:7 t3:4
kafka assign c5 a:4 t3:1 t3:5
kafka assign consumer-2 orders:0 orders:2 orders:4
end
strategy sticky
topic a 5
topic t1 7
topic t3 3
member m-7f3a 4 - a,t1 a:2,t1:0,t1:3,t1:6,t3:2
member consumer-2 4 - a,t1,t3 a:1,a:4,t1:2,t1:5,t3:1
member c0 4 - a,t1,t3 a:0,a:3,t1:1,t1:4,t3:0
member new-35 x - t3 -
kafka assign c0 a:0 a:3 t1:1 t1:4
kafka assign consumer-2 a:1 a:4 t1:2 t1:5
kafka assign m-7f3a a:2 t1:0 t1:3 t1:6
kafka assign new-35 t3:0 t3:1 t3:2
end
strategy cooperative-sticky
topic a 4
topic orders 4
topic t2 2
topic t3 0
member c5 x - a,orders,t3 -
member c3 3 - a,t2,t3 t2:1
member C1 3 - orders orders:0
member BB 1 - a,t2 a:0,a:3,t2:1
member c0 x - a,t3 -
member m-7f3a 1 - a,t2 a:0,a:2,a:3,orders:3,t2:0
member Aa 2 - t3 -
kafka assign Aa
kafka assign BB a:0 a:3
kafka assign C1 orders:0 orders:2
kafka assign c0 a:1
kafka assign c3 t2:1
kafka assign c5 orders:1
kafka assign m-7f3a a:2 t2:0
end
strategy sticky
topic a 3 r1,r2,r3;r1,r2,r3;r1,r3
member c11 3 - a -
member c2 2 - a -
member Aa 3 r2 a -
member member-833 1 r3 a a:2
member C2 x r2 a -
member c4 3 - a a:0,a:1,a:2
member consumer-2 x - a -
member consumer-3 1 - a a:1
member c3 x r2 a -
member c1 2 r3 a -
member member-897 2 r2 a a:2
member member-925 3 - a a:0,a:1,a:2
member c0 1 r2 a -
member member-248 3 - a -
kafka assign Aa a:0
kafka assign C2 a:1
kafka assign c0
kafka assign c1 a:2
kafka assign c11
kafka assign c2
kafka assign c3
kafka assign c4
kafka assign consumer-2
kafka assign consumer-3
kafka assign member-248
kafka assign member-833
kafka assign member-897
kafka assign member-925
end
strategy cooperative-sticky
topic a 4
topic t0 2
member consumer-1 3 - a a:0,a:1,a:2,a:3
member BB 1 - t0 t0:0
member m-7f3a 1 - a a:0
member c2 1 - t0 a:0,a:3,t0:1
member c5 1 - a,t0 a:1,a:3
member consumer-3 3 - t0 t0:0,t0:1
member C0 x - a -
kafka assign BB t0:0
kafka assign C0
kafka assign c2
kafka assign c5 a:1
kafka assign consumer-1 a:3
kafka assign consumer-3 t0:1
kafka assign m-7f3a a:0
end
strategy sticky
topic a 13 r2;r3;r2;-;r1;r1;r2,r3;r1,r2;-;r1;r3;r1,r2;r2,r3
topic t0 9 r1,r2,r3;r1,r2,r3;r1,r2,r3;r1,r2,r3;-;r1;r3;r2;r3
topic t1 14 r1,r2;r2;r1;r1;r1,r2;r1,r3;r3;-;r1,r3;r1;r1,r2,r3;r2,r3;r1,r2,r3;r1
member Aa 1 - a a:0,a:5,a:12
member c1 x - a -
member C0 3 r3 a a:0,a:1,a:4,a:6,a:9,a:10,a:11
member consumer-2 3 - a a:0,a:7,a:8,a:10,t0:4,t1:3,t1:6,t1:11,t1:12
member member-253 3 - a a:0,a:1
member c11 2 r2 a a:0,a:1,a:7,a:9
kafka assign Aa a:5 a:12
kafka assign C0 a:1 a:6 a:10
kafka assign c1 a:3 a:9
kafka assign c11 a:0 a:2
kafka assign consumer-2 a:7 a:8
kafka assign member-253 a:4 a:11
end
strategy cooperative-sticky
topic orders 8 r1,r2,r3;r2;r2,r3;r1,r3;r2;-;r1,r2;-
topic t2 6 r2;r1,r2,r3;r1,r3;r1,r3;r1,r2;r1,r3
member C0 2 r3 orders orders:0,orders:1,orders:5,orders:6,orders:7,t2:1
member c10 2 r1 orders orders:2,orders:7,t2:3,t2:4
member z 2 r2 orders orders:0,orders:1,orders:3,orders:4
member c4 3 - orders orders:1,orders:3,orders:4,t2:2,t2:3
member c0 2 r3 orders -
member C2 x r2 orders -
member m-7f3a 2 - orders orders:1,orders:4,orders:5
kafka assign C0
kafka assign C2
kafka assign c0
kafka assign c10
kafka assign c4 orders:1 orders:3
kafka assign m-7f3a
kafka assign z
end
strategy cooperative-sticky
topic a 8
topic t2 5
topic t3 0
member consumer-3 2 - t2,t3 t2:0
member c4 1 - t2,t3 t2:0,t2:1
member c3 1 - t2,t3 t2:3
member C2 2 - t2,t3 a:1,a:2,a:4,a:6,t2:1
member c2 2 - t2,t3 t2:2
member consumer-2 3 - t2,t3 t2:2
kafka assign C2 t2:1
kafka assign c2 t2:4
kafka assign c3 t2:3
kafka assign c4
kafka assign consumer-2 t2:2
kafka assign consumer-3 t2:0
end
strategy sticky
topic a 7 r3;-;r1,r3;r2,r3;r2;r2;r3
member C1 x - a -
member C2 3 r2 a a:3
member c0 1 r2 a a:0,a:2,a:3
member BB x r2 a -
member c4 2 r1 a a:0,a:3,a:4
member c11 3 r2 a a:0,a:6
member m-7f3a 1 r1 a a:3,a:4
kafka assign BB a:4
kafka assign C1 a:0
kafka assign C2 a:3
kafka assign c0 a:5
kafka assign c11 a:1
kafka assign c4 a:2
kafka assign m-7f3a a:6
end
strategy sticky
topic orders 4
topic t0 5
topic t1 7
topic t2 6
member m-7f3a 3 - t1 orders:0,orders:1,orders:2,t0:4,t1:0,t1:1,t1:2,t1:4,t1:6,t2:1,t2:4
member C2 2 - t0,t1 t0:0,t1:1,t1:2,t1:3
member C1 1 - orders orders:2
member Aa 3 - t0,t1 t1:1,t1:5,t2:0,t2:1,t2:5
member c2 x - t0 -
member c1 3 - orders,t0,t2 t0:1,t0:4,t2:1,t2:5
member consumer-2 1 - t0 t0:0,t0:1
kafka assign Aa t1:0 t1:1 t1:5
kafka assign C1 orders:0 orders:1 orders:2 orders:3
kafka assign C2 t0:0 t1:3
kafka assign c1 t2:0 t2:1 t2:2 t2:3 t2:4 t2:5
kafka assign c2 t0:2 t0:4
kafka assign consumer-2 t0:1 t0:3
kafka assign m-7f3a t1:2 t1:4 t1:6
end
strategy cooperative-sticky
topic t3 6
member consumer-2 4 - t3 t3:1,t3:3,t3:5
member consumer-1 4 - t3 t3:0,t3:2,t3:4
member new-8 x - t3 -
kafka assign consumer-1 t3:0 t3:2
kafka assign consumer-2 t3:1 t3:3
kafka assign new-8
end
strategy cooperative-sticky
topic t1 6 r1,r3;r1;r3;r1,r2,r3;r1,r3;r2
member c11 1 - t1 t1:1,t1:2,t1:4
member z 1 - t1 -
member C0 1 - t1 t1:0,t1:2
member c3 1 r1 t1 t1:3,t1:4
member consumer-2 x - t1 -
member c5 x r1 t1 -
kafka assign C0 t1:0
kafka assign c11 t1:1
kafka assign c3 t1:3
kafka assign c5
kafka assign consumer-2
kafka assign z t1:5
end
strategy cooperative-sticky
topic t2 5
member consumer-1 2 - t2 t2:0
member member-315 2 - t2 t2:3,t2:4
member c0 1 - t2 t2:0
member C0 3 - t2 t2:3
member member-613 x - t2 -
member c11 1 - t2 t2:0,t2:1,t2:2
member member-897 x - t2 -
member member-957 1 - t2 -
member c10 2 - t2 t2:0,t2:3
member C1 1 - t2 t2:1,t2:2
kafka assign C0
kafka assign C1
kafka assign c0
kafka assign c10
kafka assign c11
kafka assign consumer-1
kafka assign member-315 t2:4
kafka assign member-613
kafka assign member-897
kafka assign member-957
end
strategy cooperative-sticky
topic a 4 -;r2;r2;-
topic t0 8 r2;r2,r3;r1,r2;r2;r2;r1,r2;r2;r1,r3
member C1 4 r1 a,t0 t0:0,t0:5
member z 4 r1 t0 t0:1,t0:7
member C0 4 r1 a,t0 a:3,t0:2
member m-7f3a 4 r1 a a:1
kafka assign C0 t0:2 t0:6
kafka assign C1 a:2 t0:3 t0:5
kafka assign m-7f3a a:0 a:1
kafka assign z t0:4 t0:7
end
strategy cooperative-sticky
topic t0 7 r3;r1,r2,r3;r3;r1;-;r1;r3
topic t1 2 r1,r2;r3
member member-503 x r1 t0,t1 -
member consumer-2 2 r1 t0,t1 t0:2,t0:4,t0:6
member member-118 3 - t1 -
member m-7f3a 3 r3 t0,t1 t0:2,t1:0
member c5 3 r1 t0,t1 t0:0,t0:1,t1:0,t1:1
member consumer-3 x r2 t0 -
member c4 x r1 t1 -
member consumer-1 3 - t0,t1 t0:1,t0:3,t0:6
member c3 2 r3 t0 t0:2,t0:3,t0:5
member Aa 1 r2 t0 t0:0,t0:1,t0:4,t0:6
member member-370 x - t0,t1 -
kafka assign Aa t0:1
kafka assign c3
kafka assign c4
kafka assign c5
kafka assign consumer-1 t0:6
kafka assign consumer-2
kafka assign consumer-3
kafka assign m-7f3a t0:2
kafka assign member-118
kafka assign member-370
kafka assign member-503
end
strategy cooperative-sticky
topic t2 0
topic t3 17
member c10 x - t2 -
member m-7f3a 3 - t3 t3:0,t3:2,t3:9,t3:11,t3:12,t3:14
member member-811 3 - t2,t3 t3:0,t3:3,t3:10,t3:11,t3:13
member c5 1 - t2,t3 t3:1,t3:3,t3:9
member c11 1 - t2,t3 t3:2,t3:8,t3:10,t3:12,t3:16
member Aa x - t2 -
member c3 1 - t3 t3:3,t3:4,t3:6,t3:16
member member-152 3 - t3 t3:2,t3:6,t3:9,t3:11
member C2 2 - t2,t3 t3:4,t3:6,t3:8,t3:11,t3:16
member c4 2 - t3 t3:0,t3:1,t3:12,t3:15
member member-169 1 - t2 -
member member-807 x - t3 -
member consumer-3 x - t2,t3 -
kafka assign Aa
kafka assign C2 t3:8 t3:16
kafka assign c10
kafka assign c11
kafka assign c3 t3:3
kafka assign c4 t3:1 t3:15
kafka assign c5 t3:5
kafka assign consumer-3 t3:7
kafka assign m-7f3a t3:12 t3:14
kafka assign member-152 t3:6
kafka assign member-169
kafka assign member-807
kafka assign member-811 t3:10 t3:13
end
strategy cooperative-sticky
topic a 8 r1;-;r2,r3;-;r2,r3;r1,r2,r3;r1;r1
topic t0 3 r2;r2,r3;r1,r3
topic t1 0 
member c5 4 - a,t0,t1 a:1,a:2,a:3,a:4,t0:0,t0:1
member new-67 x - a -
kafka assign c5 a:2 a:3 a:4 t0:0 t0:1 t0:2
kafka assign new-67 a:0 a:5 a:6 a:7
end
strategy sticky
topic orders 6
topic t0 2
topic t1 5
member m-7f3a x - orders,t0 -
member c2 2 - orders,t1 -
member C2 1 - t0 orders:0,orders:1,t1:3
member consumer-1 3 - orders orders:0,orders:1,orders:2,orders:5
member c0 3 - t0,t1 orders:0,orders:2,orders:3,orders:4,orders:5,t0:0,t0:1,t1:2
member c11 3 - t0 orders:0,orders:1,orders:4,t1:0,t1:1,t1:4
kafka assign C2 orders:0 t1:3
kafka assign c0 t0:1 t1:2
kafka assign c11 t0:0
kafka assign c2 t1:0 t1:1 t1:4
kafka assign consumer-1 orders:2 orders:4
kafka assign m-7f3a orders:1 orders:3 orders:5
end
strategy sticky
topic a 3
topic orders 3
topic t0 15
member c11 1 - orders,t0 a:1,orders:0,orders:2,t0:0,t0:2,t0:3,t0:5,t0:8,t0:11
member member-113 3 - a,t0 a:1,a:2,t0:1,t0:3,t0:4,t0:6,t0:8,t0:9,t0:12,t0:14
member Aa x - t0 -
member c5 3 - orders orders:1,orders:2
member consumer-3 x - a,orders,t0 -
kafka assign Aa t0:0 t0:1 t0:7 t0:10
kafka assign c11 a:1 t0:2 t0:3 t0:5 t0:11
kafka assign c5 orders:0 orders:1 orders:2
kafka assign consumer-3 a:0 a:2 t0:4 t0:13
kafka assign member-113 t0:6 t0:8 t0:9 t0:12 t0:14
end
strategy sticky
topic a 0 
topic t1 5 r1;r3;r2,r3;r2,r3;r2
topic t2 6 r2;r1,r2;r2;r1,r2;r1;r2
topic t3 3 r2;r1,r3;r1,r2,r3
member BB 2 r2 a,t1,t3 t1:1,t1:2,t1:4,t2:0,t2:1,t2:3,t2:4
member consumer-2 2 - a,t2,t3 t1:2,t2:0,t2:1,t2:2,t2:5,t3:2
member C1 x r1 t1 -
member m-7f3a 3 r2 a,t1,t2,t3 t1:0,t2:3,t2:4,t2:5,t3:0,t3:1,t3:2
member consumer-3 1 r3 a,t1 t1:2
kafka assign BB t1:4 t2:0 t2:1
kafka assign C1 t1:0 t1:2
kafka assign consumer-2 t2:2 t2:4 t3:1
kafka assign consumer-3 t1:1 t1:3
kafka assign m-7f3a t2:3 t2:5 t3:0 t3:2
end
strategy sticky
topic orders 5
topic t2 8
topic t3 1
member c4 2 - t3 -
member consumer-1 1 - t2,t3 t2:0,t2:6,t2:7
member Aa 3 - t2,t3 t2:0,t2:4,t2:5,t2:6,t3:0
member c11 x - t2 -
member c3 x - orders,t2 -
kafka assign Aa t2:4 t2:5 t2:6
kafka assign c11 t2:1 t2:2
kafka assign c3 orders:0 orders:1 orders:2 orders:3 orders:4
kafka assign c4 t3:0
kafka assign consumer-1 t2:0 t2:3 t2:7
end
strategy sticky
topic orders 6
topic t1 4
topic t2 3
topic t3 8
member BB 3 - t1 t1:2
member c3 1 - t1,t3 t1:1,t1:3,t3:1,t3:3
member C1 1 - t1,t2,t3 orders:0,orders:1,orders:5,t1:3,t2:0,t3:1,t3:4,t3:6,t3:7
member C0 2 - t1,t2 t1:3
member consumer-3 2 - orders t1:0,t3:3
kafka error performReassignments:1412 NullPointerException Cannot invoke "java.util.List.size()" because the return value of "java.util.Map.get(Object)" is null
end
`
