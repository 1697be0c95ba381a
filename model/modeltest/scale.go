package modeltest

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/strategies"
)

// Scale describes one of issue 21's Kafka-scale groups: Members consumers
// on Partitions partitions spread evenly over Topics topics.
type Scale struct {
	Members    int
	Partitions int
	Topics     int
	// Strategy is the assignor; its preferred protocol is the group's
	// (uniform and range-server: the consumer protocol; cooperative-sticky:
	// classic cooperative).
	Strategy string
	// Given starts the group Stable with each member owning what the
	// assignor gives it from nothing; without it every member joins an
	// empty group at time 0.
	Given bool
	// Crash crashes the first member at 10 s: its session expires and the
	// group rebalances its partitions.
	Crash bool
	// KafkaVersion is group.kafka_version ("" for the default, 4.1).
	KafkaVersion string
}

// Name is a short label for benchmarks and scripts: "given-10000x500000-uniform".
func (s Scale) Name() string {
	start := "join"
	if s.Given {
		start = "given"
	}
	n := fmt.Sprintf("%s-%dx%d-%s", start, s.Members, s.Partitions, s.Strategy)
	if s.KafkaVersion != "" {
		n += "-" + s.KafkaVersion
	}
	return n
}

// Tenth is the same scenario at a tenth of the members and partitions
// (and topics, at least one): the base a script's ratios compare against.
func (s Scale) Tenth() Scale {
	t := s
	t.Members, t.Partitions, t.Topics = max(1, s.Members/10), max(1, s.Partitions/10), max(1, s.Topics/10)
	return t
}

// YAML writes the scenario file. A given start runs the assignor once to
// fill the members' owned partitions, so the file is a group Kafka could
// be in; an unknown strategy is an error.
func (s Scale) YAML() (string, error) {
	a, err := strategies.Lookup(s.Strategy)
	if err != nil {
		return "", err
	}
	if s.Members < 1 || s.Topics < 1 || s.Partitions < s.Topics {
		return "", fmt.Errorf("scale: need members >= 1 and partitions >= topics >= 1, got %d members, %d partitions, %d topics",
			s.Members, s.Partitions, s.Topics)
	}
	topics := make([]string, s.Topics)
	counts := map[string]int32{}
	width := len(fmt.Sprint(s.Topics - 1))
	for t := range topics {
		topics[t] = fmt.Sprintf("t%0*d", width, t)
		n := s.Partitions / s.Topics
		if t < s.Partitions%s.Topics {
			n++
		}
		counts[topics[t]] = int32(n)
	}
	ids := make([]string, s.Members)
	idWidth := len(fmt.Sprint(s.Members - 1))
	for i := range ids {
		ids[i] = fmt.Sprintf("c%0*d", idWidth, i)
	}
	var b strings.Builder
	b.Grow(64*s.Members + 8*s.Partitions)
	b.WriteString("topics: {")
	for t, name := range topics {
		if t > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", name, counts[name])
	}
	fmt.Fprintf(&b, "}\ngroup: {id: scale, strategy: %s", s.Strategy)
	if s.KafkaVersion != "" {
		fmt.Fprintf(&b, ", kafka_version: %q", s.KafkaVersion)
	}
	consumer := strategies.Preferred(a) == strategies.Consumer
	if s.Given {
		if consumer {
			b.WriteString(", group_epoch: 5")
		} else {
			b.WriteString(", generation: 5")
		}
	}
	b.WriteString("}\nmembers:\n")
	var assigned strategies.Assignment
	if s.Given {
		g := strategies.Group{Topics: counts}
		for _, id := range ids {
			g.Members = append(g.Members, strategies.Member{ID: id, Topics: topics, Generation: strategies.NoGeneration})
		}
		assigned = a.Assign(g, nil).Assignment
	}
	for _, id := range ids {
		fmt.Fprintf(&b, "  - {id: %s", id)
		if own := assigned[id]; s.Given && len(own) > 0 {
			b.WriteString(", owned: {")
			k := 0
			for _, t := range topics {
				ps := own[t]
				if len(ps) == 0 {
					continue
				}
				if k > 0 {
					b.WriteString(", ")
				}
				k++
				fmt.Fprintf(&b, "%s: [", t)
				for j, p := range ps {
					if j > 0 {
						b.WriteString(", ")
					}
					fmt.Fprint(&b, p)
				}
				b.WriteString("]")
			}
			b.WriteString("}")
		}
		b.WriteString("}\n")
	}
	if s.Crash {
		fmt.Fprintf(&b, "timeline:\n  - {at_ms: 10000, crash: %s}\n", ids[0])
	}
	return b.String(), nil
}

// IssueScales are issue 21's targets: the given-start groups of 10,000
// members on 500,000 partitions over 1,000 topics with one crash, and the
// groups joining from empty.
func IssueScales() []Scale {
	given := func(strategy string) Scale {
		return Scale{Members: 10000, Partitions: 500000, Topics: 1000, Strategy: strategy, Given: true, Crash: true}
	}
	return []Scale{
		given("uniform"), given("range-server"), given("cooperative-sticky"),
		{Members: 2000, Partitions: 100000, Topics: 1, Strategy: "uniform"},
		{Members: 2000, Partitions: 100000, Topics: 1, Strategy: "uniform", KafkaVersion: "4.3"},
		{Members: 7000, Partitions: 20000, Topics: 1, Strategy: "uniform"},
		{Members: 1000, Partitions: 10000, Topics: 1, Strategy: "cooperative-sticky"},
	}
}
