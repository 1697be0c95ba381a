package scenario_test

import (
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/model/scenario"
)

func TestParseProducers(t *testing.T) {
	src := `topics: {orders: 6}
group: {rate: 250, commit: sync, auto_offset_reset: earliest}
members:
  - {id: c1}
  - {id: c2, rate: 50, enable_auto_commit: true, auto_commit_interval_ms: 1000}
producers:
  - {name: shop, topic: orders, rate: 500, keys: {hot: user-42, share: 0.7, count: 20}, partitioner: default, kafka_version: "3.9", batch_size: 1024, linger_ms: 10}
  - {topic: orders, keys: [a, b]}
  - {topic: orders, keys: null}
  - {topic: orders, keys: {uniform: 9}}
timeline:
  - {at_ms: 10, produce: {topic: orders, key: k1, count: 3}}
  - {at_ms: 5, produce: {topic: orders}}
`
	sc, err := scenario.Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := sc.Flow
	if f == nil || len(f.Producers) != 4 {
		t.Fatalf("flow: %+v", f)
	}
	p := f.Producers[0]
	if p.Name != "shop" || p.Rate != 500 || p.Keys.Kind != produce.KeysHot || p.Keys.Hot != "user-42" || p.Keys.HotShare != 0.7 ||
		p.Keys.Count != 20 || p.Version != "3.9" || p.BatchSize != 1024 || p.LingerMs == nil || *p.LingerMs != 10 {
		t.Errorf("producer 0: %+v", p)
	}
	if f.Producers[1].Keys.Kind != produce.KeysFixed || f.Producers[2].Keys.Kind != produce.KeysNull || f.Producers[3].Keys.Count != 9 {
		t.Errorf("key kinds: %+v", f.Producers)
	}
	if f.Consumer != (produce.ConsumerConfig{Rate: 250, Commit: produce.CommitSync, OffsetReset: produce.ResetEarliest}) {
		t.Errorf("group consumer: %+v", f.Consumer)
	}
	c2 := f.Members["c2"]
	if c2.Rate != 50 || c2.Commit != produce.CommitAuto || c2.AutoCommitIntervalMs != 1000 || c2.OffsetReset != produce.ResetEarliest {
		t.Errorf("c2 consumer: %+v", c2)
	}
	if _, ok := f.Members["c1"]; ok {
		t.Errorf("c1 sets nothing of its own: %+v", f.Members)
	}
	if len(f.Produces) != 2 || string(f.Produces[0].Key) != "k1" || f.Produces[0].Count != 3 || f.Produces[1].Key != nil || f.Produces[1].Count != 1 {
		t.Errorf("produces: %+v", f.Produces)
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "produce" {
			t.Errorf("produce entries stay out of the group's timeline: %+v", ev)
		}
	}
}

func TestParseWithoutProducersHasNoFlow(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 3}\ngroup: {rate: 10}\nmembers:\n  - {id: c1, commit: async}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Flow != nil {
		t.Errorf("consumer settings alone make no data path: %+v", sc.Flow)
	}
}

func TestParseProducerErrors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"topics: {t0: 3}\nproducers:\n  - {topic: t1}\n", `s.yaml:3: producers[0].topic: unknown topic "t1" (did you mean "t0"?)`},
		{"topics: {t0: 3}\nproducers:\n  - {topic: t0, rat: 5}\n", `s.yaml:3: unknown key "rat" in producers[0] (did you mean "rate"?)`},
		{"topics: {t0: 3}\nproducers:\n  - {rate: 5}\n", `s.yaml:3: producers[0] needs a topic`},
		{"topics: {t0: 3}\nproducers:\n  - {topic: t0, partitioner: sticky-ish}\n", `s.yaml:3: producers[0]: producer "producer-1": unknown partitioner "sticky-ish"`},
		{"topics: {t0: 3}\nproducers:\n  - {topic: t0, partitioner: uniform-sticky, kafka_version: \"4.0\"}\n", `s.yaml:3: producers[0]: producer "producer-1": UniformStickyPartitioner was removed in Kafka 4.0`},
		{"topics: {t0: 3}\nproducers:\n  - topic: t0\n    keys: {hot: k}\n", `s.yaml:4: producers[0].keys: a hot key needs its share`},
		{"topics: {t0: 3}\nproducers:\n  - topic: t0\n    keys: {hot: k, share: 1.5}\n", `s.yaml:4: producers[0].keys.share must be between 0 and 1, got 1.5`},
		{"topics: {t0: 3}\nproducers:\n  - {topic: t0, rate: -1}\n", `s.yaml:3: producers[0].rate must be between 0 and`},
		{"topics: {t0: 3}\nproducers: {topic: t0}\n", `s.yaml:2: producers must be a list`},
		{"topics: {t0: 3}\ngroup:\n  commit: eventually\n", `s.yaml:3: group.commit: unknown value "eventually" (valid: sync, async)`},
		{"topics: {t0: 3}\ngroup:\n  auto_offset_reset: earlist\n", `s.yaml:3: group.auto_offset_reset: unknown value "earlist" (did you mean "earliest"?)`},
		{"topics: {t0: 3}\ngroup:\n  enable_auto_commit: maybe\n", `s.yaml:3: group.enable_auto_commit must be true or false`},
		{"topics: {t0: 3}\ngroup:\n  enable_auto_commit: false\nproducers:\n  - {topic: t0}\n", `s.yaml:3: group: enable_auto_commit: false needs commit: sync or async`},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, commit: sync, enable_auto_commit: true}\nproducers:\n  - {topic: t0}\n", `s.yaml:3: member c1: choose enable_auto_commit: true or commit: sync, not both`},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1, rate: 0}\n", `s.yaml:3: members.rate must be between 0.001 and`},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, produce: {topic: t9}}\n", `s.yaml:3: produce: unknown topic "t9" (did you mean "t0"?)`},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, produce: {topic: t0, count: 0}}\n", `s.yaml:3: produce.count must be between 1 and`},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, produce: {key: k}}\n", `s.yaml:3: produce needs a topic`},
		{"topics: {t0: 3}\ntimeline:\n  - {at_ms: 5, produc: {topic: t0}}\n", `s.yaml:3: unknown action "produc" (did you mean "produce"?)`},
		{"topics: {t0: 3}\nmembers:\n  - {id: c1}\ntimeline:\n  - {at_ms: 5, produce: {topic: t0}, leave: c1}\n", `s.yaml:5: one action per timeline entry: produce and leave`},
	}
	for _, c := range cases {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.yaml, err, c.want)
		}
	}
}
