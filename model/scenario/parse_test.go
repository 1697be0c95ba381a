package scenario_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model/scenario"
)

func TestParseDefaultsAndProtocols(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 3}\nmembers:\n  - {id: c1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Strategy != "range" || sc.Protocol != "eager" || sc.SessionTimeoutMs != 45000 || sc.HeartbeatIntervalMs != 3000 ||
		sc.MaxPollIntervalMs != 300000 || sc.InitialRebalanceDelayMs != 3000 || sc.Brokers != 3 || sc.OffsetsPartitions != 50 {
		t.Errorf("defaults: %+v", sc)
	}
	if got := sc.Members[0].Topics; len(got) != 1 || got[0] != "t0" {
		t.Errorf("topics default to all topics, got %v", got)
	}
	for strategy, want := range map[string]string{"roundrobin": "eager", "sticky": "eager",
		"cooperative-sticky": "cooperative", "uniform": "consumer", "range-server": "consumer"} {
		sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: "+strategy+"}\n"))
		if err != nil {
			t.Fatalf("%s: %v", strategy, err)
		}
		if sc.Protocol != want {
			t.Errorf("%s defaults to %s, want %s", strategy, sc.Protocol, want)
		}
	}
	sc, err = scenario.Parse("s.yaml", []byte("topics: {t0: 3}\ngroup: {strategy: uniform}\n"))
	if err == nil && sc.HeartbeatIntervalMs != 5000 {
		t.Errorf("consumer protocol heartbeat default %d, want 5000", sc.HeartbeatIntervalMs)
	}
}

// lab: {pane: P} names the pane the lab opens with in focus; it survives
// Format.
func TestLabPane(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 3}\nlab: {open: compare, pane: numbers}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Pane != scenario.PaneNumbers || sc.Open != scenario.OpenCompare {
		t.Fatalf("pane %q open %q", sc.Pane, sc.Open)
	}
	out, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.Parse("s.yaml", out)
	if err != nil || back.Pane != sc.Pane || back.Open != sc.Open {
		t.Fatalf("round trip: %v, pane %q open %q\n%s", err, back.Pane, back.Open, out)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, leav: c1}\n", `s.yaml:3: unknown action "leav" (did you mean "leave"?)`},
		{"topics: {t0: 3}\ngroup: {strategy: roundrobin, protocol: cooperative}\n", `s.yaml:2: group.protocol: roundrobin cannot run under the cooperative protocol`},
		{"topics: {t0: 3}\ngrup: {id: x}\n", `s.yaml:2: unknown key "grup" in the scenario (did you mean "group"?)`},
		{"topics: {t0: 3}\ngroup: {id: \" \"}\n", `s.yaml:2: group.id: an empty group.id is invalid: the consumer refuses it (InvalidGroupIdException)`},
		{"topics: {t0: 3, __consumer_offsets: 50}\n", `s.yaml:1: topic __consumer_offsets is Kafka's internal offsets topic (set its size with cluster.offsets_partitions)`},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, crash: c9}\n", `s.yaml:3: crash: no member "c9" has joined by 5 ms`},
		{"topics: {t0: 0}\n", `s.yaml:1: topics.t0 must be between 1 and`},
		{"topics: {t0: 3}\ngroup: {session_timeout_ms: 7000, heartbeat_interval_ms: 8000}\n", `s.yaml:2: group.heartbeat_interval_ms (8000) must be lower`},
		{"topics: {t0: 3}\ngroup:\n  session_timeout_ms: 1000\n", `s.yaml:3: group.session_timeout_ms 1000 is outside group.min.session.timeout.ms 6000`},
		{"topics: {t0: 3\n", `s.yaml:`},
		{"", `s.yaml:1: the scenario is empty`},
		{"topics: {t0: 3}\ncluster: {brokers: 3}\ntimeline:\n  - {at_ms: 5, fail_broker: 3}\n", `s.yaml:4: fail_broker must be between 0 and 2`},
		{"topics: {t0: 3}\ntimeline:\n  - {join: {id: c2}}\n", `s.yaml:3: this timeline entry needs at_ms`},
		{"topics: {t0: 3}\nlab: {pane: broker}\n", `s.yaml:2: lab.pane: unknown value "broker"`},
		{"topics: {t0: 3}\nlab: {pane: brokers}\n", `s.yaml:2: lab.pane brokers needs a data path: producers:, readers: or a produce entry in the timeline`},
	}
	for _, c := range cases {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.yaml, err, c.want)
		}
	}
}

var lineNumbered = regexp.MustCompile(`^f\.yaml:[0-9]+: `)

// FuzzParseScenario: bad input gets a line-numbered error, never a panic.
func FuzzParseScenario(f *testing.F) {
	for _, name := range demo.Names() {
		data, _ := demo.Get(name)
		f.Add(data)
	}
	f.Add([]byte("topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, leav: c1}\n"))
	f.Add([]byte("topics: [1, 2]\nmembers: {a: b}\n"))
	f.Add([]byte("{{{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := scenario.Parse("f.yaml", data)
		if err != nil && !lineNumbered.MatchString(err.Error()) {
			t.Fatalf("error without a line number: %v", err)
		}
	})
}

// Kafka sets no group size limit for classic and consumer groups and
// designs its coordinator for 10,000 members: a file of 10,000 members
// parses under either protocol; past the memory guard, the error says why.
func TestParseKafkaScaleMemberCount(t *testing.T) {
	group := func(n int, strategy string) string {
		var b strings.Builder
		b.WriteString("topics: {t0: 100}\ngroup: {strategy: " + strategy + "}\nmembers:\n")
		for i := range n {
			b.WriteString("  - {id: c" + strconv.Itoa(i) + "}\n")
		}
		return b.String()
	}
	for _, strategy := range []string{"range", "cooperative-sticky", "uniform"} {
		sc, err := scenario.Parse("big.yaml", []byte(group(10000, strategy)))
		if err != nil {
			t.Fatalf("%s: %v", strategy, err)
		}
		if len(sc.Members) != 10000 {
			t.Errorf("%s: %d members, want 10000", strategy, len(sc.Members))
		}
	}
	_, err := scenario.Parse("big.yaml", []byte(group(20001, "uniform")))
	if err == nil || !strings.Contains(err.Error(), "big.yaml:4: at most 20000 members are supported, got 20001") ||
		!strings.Contains(err.Error(), "in memory") {
		t.Errorf("20,001 members: %v", err)
	}
}
