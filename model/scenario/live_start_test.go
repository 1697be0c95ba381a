package scenario

import (
	"strings"
	"testing"
)

const caughtFile = `
topics: {orders: 6}
group: {strategy: cooperative-sticky, generation: 4, rebalance: preparing, leader: c2, client: franz-go,
  session_timeout_ms: 3000, heartbeat_interval_ms: 1000, min_session_timeout_ms: 100, timings_from: {session_timeout_ms: "flag --session-timeout"}}
members:
  - {id: c1, member_id: c1-a, owned: {orders: [0, 1, 2]}, client: java}
  - {id: c2, member_id: c2-b, owned: {orders: [3, 4, 5]}}
  - {id: c3, member_id: c3-c, rejoined: true}
timeline:
  - {at_ms: 100, join: {id: c4, client: librdkafka}}
`

func TestCaughtRebalanceLeaderAndClientsRoundTrip(t *testing.T) {
	sc, err := Parse("caught.yaml", []byte(caughtFile))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Classic != (ClassicStart{Rebalance: RebalancePreparing, Leader: "c2"}) || !sc.Members[2].Rejoined || sc.Members[0].Rejoined {
		t.Fatalf("classic start %+v, members %+v", sc.Classic, sc.Members)
	}
	for id, want := range map[string]string{"c1": ClientJava, "c2": ClientFranzGo, "c3": ClientFranzGo, "c4": ClientLibrdkafka, "nobody": ClientFranzGo} {
		if got := sc.ClientOf(id); got != want {
			t.Errorf("client of %s: %s, want %s", id, got, want)
		}
	}
	if lead, _ := sc.LeaderSpec(); lead.ID != "c2" {
		t.Errorf("leader %s", lead.ID)
	}
	roundTrip(t, sc)
}

func TestTimingsSayWhereEachValueCameFrom(t *testing.T) {
	sc, err := Parse("caught.yaml", []byte(caughtFile))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Timing{}
	for _, tm := range Timings(sc) {
		got[tm.Key] = tm
	}
	if tm := got["session_timeout_ms"]; tm.ValueMs != 3000 || tm.Source != "flag --session-timeout" || tm.Kafka != "session.timeout.ms" {
		t.Errorf("session timeout %+v", tm)
	}
	if tm := got["max_poll_interval_ms"]; tm.ValueMs != 300000 || tm.Source != SourceDefault {
		t.Errorf("max poll %+v", tm)
	}
	if len(got) != 4 {
		t.Errorf("classic timings %v", got)
	}
	consumer, err := Parse("k.yaml", []byte("topics: {t: 2}\ngroup: {strategy: uniform, heartbeat_interval_ms: 250}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range Timings(consumer) {
		switch tm.Key {
		case "heartbeat_interval_ms":
			if tm.Source != SourceFile || tm.Kafka != "group.consumer.heartbeat.interval.ms" {
				t.Errorf("consumer heartbeat %+v", tm)
			}
		case "initial_rebalance_delay_ms":
			t.Errorf("the initial delay holds back classic join phases only: %+v", tm)
		}
	}
}

func TestCaughtRebalanceErrors(t *testing.T) {
	for text, want := range map[string]string{
		"topics: {t: 2}\ngroup: {rebalance: preparing}\nmembers: [{id: c1}]\n":                                                                "caught.yaml:2: group.rebalance catches a classic group mid-rebalance: it needs group.generation",
		"topics: {t: 2}\ngroup: {strategy: uniform, group_epoch: 3, rebalance: preparing}\nmembers: [{id: c1}]\n":                             "group.rebalance catches a classic group",
		"topics: {t: 2}\ngroup: {generation: 3, rebalance: sometime}\nmembers: [{id: c1}]\n":                                                  `group.rebalance: unknown value "sometime" (valid: preparing, completing)`,
		"topics: {t: 2}\ngroup: {generation: 3, leader: c9}\nmembers: [{id: c1}]\n":                                                           `group.leader: "c9" is not one of the members`,
		"topics: {t: 2}\ngroup: {strategy: uniform, group_epoch: 3, leader: c1}\nmembers: [{id: c1}]\n":                                       "the consumer protocol has no leader",
		"topics: {t: 2}\ngroup: {generation: 3}\nmembers: [{id: c1, rejoined: true}]\n":                                                       "caught.yaml:3: members.rejoined: c1 has rejoined a rebalance, but the group is not caught in one",
		"topics: {t: 2}\ngroup: {generation: 3, rebalance: completing}\nmembers: [{id: c1, rejoined: true}]\n":                                "under group.rebalance: completing every member has rejoined",
		"topics: {t: 2}\ngroup: {generation: 3, rebalance: preparing}\nmembers: [{id: c1, rejoined: true, owned: {t: [0]}}]\n":                "c1 runs the eager protocol and has rejoined: it revoked everything",
		"topics: {t: 2}\ngroup: {generation: 1, strategy: cooperative-sticky, rebalance: completing}\nmembers: [{id: c1, owned: {t: [0]}}]\n": "a group completing generation 1 came from Empty",
		"topics: {t: 2}\nmembers: [{id: c1, client: kafka-python}]\n":                                                                         `members.client: unknown value "kafka-python" (valid: java, franz-go, librdkafka)`,
		"topics: {t: 2}\ntimeline: [{at_ms: 1, join: {id: c1, rejoined: true}}]\n":                                                            "rejoined describes a member of a group caught mid-rebalance",
		"topics: {t: 2}\ngroup: {timings_from: {rate: flag}}\n":                                                                               `unknown key "rate" in group.timings_from`,
	} {
		_, err := Parse("caught.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
	if _, err := Parse("s.yaml", []byte("topics: {t: 2}\ngroup: {session_timeout_ms: 3000}\n")); err == nil || !strings.Contains(err.Error(), "outside group.min.session.timeout.ms 6000") {
		t.Errorf("Kafka's default bounds: %v", err)
	}
	// A cooperative member that has rejoined keeps what it owns.
	if _, err := Parse("ok.yaml", []byte("topics: {t: 2}\ngroup: {generation: 3, strategy: cooperative-sticky, rebalance: preparing}\nmembers: [{id: c1, rejoined: true, owned: {t: [0]}}]\n")); err != nil {
		t.Error(err)
	}
}
