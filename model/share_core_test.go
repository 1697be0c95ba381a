package model_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// A share group's rebalances are its group epochs: the ledger counts them
// in the other protocols' words, one round per epoch, and the numbers
// after each say who holds what.
func TestShareLedgerCountsEpochs(t *testing.T) {
	sim := simYAML(t, "l.yaml", `seed: 5
topics: {t0: 2}
group: {id: q, type: share, kafka_version: "4.2"}
members: [{id: c1}, {id: c2}, {id: c3}]
timeline:
  - {at_ms: 20000, leave: c3}
  - {at_ms: 40000, join: {id: c4}}
`)
	rebs := sim.Rebalances()
	if len(rebs) != 3 {
		t.Fatalf("%d rebalances, want 3 (the start, the leave, the join): %+v", len(rebs), rebs)
	}
	for k, r := range rebs {
		if len(r.Rounds) == 0 {
			t.Fatalf("rebalance %d has no round", k+1)
		}
		for j, rd := range r.Rounds {
			if j > 0 && rd.Generation <= r.Rounds[j-1].Generation {
				t.Errorf("rebalance %d: rounds %+v are not one per group epoch", k+1, r.Rounds)
			}
		}
		if last := r.Rounds[len(r.Rounds)-1]; last.Generation != r.Generation || sim.Step(r.EndStep).Generation != r.Generation {
			t.Errorf("rebalance %d ends at epoch %d, its last round at %d, its step at %d", k+1, r.Generation, last.Generation, sim.Step(r.EndStep).Generation)
		}
		end := sim.Step(r.EndStep)
		if end.AssignmentEpoch != end.Generation {
			t.Errorf("rebalance %d ends with the target at epoch %d of %d", k+1, end.AssignmentEpoch, end.Generation)
		}
	}
	// The leave: c3 stops holding what it held, at its leave heartbeat.
	leave := rebs[1]
	if leave.StartMs != 20000 {
		t.Errorf("the leave's rebalance starts at %d ms, want 20000 (c3 closes there)", leave.StartMs)
	}
	gone := false
	for _, m := range leave.Moves {
		if m.From == "c3" && m.To == "" {
			gone = true
		}
		if m.From == "c3" && m.To != "" || m.To == "c3" {
			t.Errorf("move %+v", m)
		}
	}
	if !gone {
		t.Errorf("the leave's moves %+v do not say c3 stopped", leave.Moves)
	}
	join := rebs[2]
	got := false
	for _, m := range join.Moves {
		got = got || m.To == "c4"
	}
	if !got {
		t.Errorf("the join's moves %+v do not give c4 anything", join.Moves)
	}
	// The numbers pane reads the same ledger.
	n := model.NewLedger(sim).At(sim.Len() - 1)
	if len(n.Rebalances) != 3 || n.Focus != 2 {
		t.Errorf("numbers: %d rebalances, focus %d", len(n.Rebalances), n.Focus)
	}
}

// Under 4.1 on, the first heartbeats wait for the share state: the
// partitions have no consumer until the target that assigns them, a gap
// inside the first rebalance.
func TestShareLedgerGapWhileInitialising(t *testing.T) {
	sim := simYAML(t, "g.yaml", shareYAML("4.2", ""))
	rebs := sim.Rebalances()
	if len(rebs) != 1 {
		t.Fatalf("%d rebalances", len(rebs))
	}
	r := rebs[0]
	for _, tp := range []kafka.TP{{Topic: "t0", Partition: 0}, {Topic: "t0", Partition: 1}} {
		if r.UnownedMs.Of(tp) < 5000-10 || r.UnownedMs.Of(tp) > r.EndMs-r.StartMs {
			t.Errorf("%v went %d ms without a consumer in %d–%d ms", tp, r.UnownedMs.Of(tp), r.StartMs, r.EndMs)
		}
	}
	if len(sim.Outages()) != 0 {
		t.Errorf("outages %+v: the wait is the rebalance's", sim.Outages())
	}
}

// A restart: the process crashes (its records stay locked until the lock
// times out, its member until its session expires) and starts again with a
// new member id at epoch 0; the new member cannot acknowledge what the
// earlier one holds.
func TestShareRestartIsANewMember(t *testing.T) {
	src := `seed: 3
topics: {t0: 1}
group: {id: q, type: share, kafka_version: "4.2"}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 3}}
  - {at_ms: 11000, fetch: {id: c1}}
  - {at_ms: 12000, restart: c1}
`
	sim := simYAML(t, "r.yaml", src)
	started := steps(sim, kafka.KindMemberStarted, "c1")
	if len(started) != 2 {
		t.Fatalf("%d starts of c1", len(started))
	}
	first, second := memberIDIn(started[0].Text), memberIDIn(started[1].Text)
	if first == "" || first == second {
		t.Fatalf("member ids %q then %q: a restart makes a new one", first, second)
	}
	join := steps(sim, kafka.KindShareGroupHeartbeatRequest, "c1")
	rejoined := false
	for _, st := range join {
		rejoined = rejoined || st.TimeMs > 12000 && strings.Contains(st.Text, "epoch 0")
	}
	if !rejoined {
		t.Error("c1 does not rejoin at epoch 0")
	}
	timeout := steps(sim, kafka.KindAcquisitionLockTimeout, "")
	if len(timeout) != 1 || timeout[0].TimeMs != 11000+2+30000 {
		t.Fatalf("lock timeouts %+v, want one at 41002 ms", timeout)
	}
	expired := steps(sim, kafka.KindSessionExpired, "c1")
	if len(expired) != 1 || !strings.Contains(expired[0].Text, first) || expired[0].TimeMs < 12000+45000-5000 || expired[0].TimeMs > 12000+45000+5000 {
		t.Fatalf("session expiry %+v, want the earlier member %s's, about 45 s after its last heartbeat", expired, first)
	}
	// The coordinator held both members until then: no rebalance ends
	// before the earlier member's session expired.
	for _, r := range sim.Rebalances() {
		if r.StartMs >= 12000 && r.EndMs < expired[0].TimeMs {
			t.Errorf("rebalance %+v ends before the earlier member's session expires", r)
		}
	}
	// The new member acknowledging the earlier one's records is the script's
	// mistake, named by line.
	bad := src + "  - {at_ms: 13000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: accept}}\n"
	sc, err := scenario.Parse("r.yaml", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.Simulate(sc)
	if err == nil || !strings.Contains(err.Error(), "r.yaml:9:") || !strings.Contains(err.Error(), "earlier member "+first) {
		t.Fatalf("error %v, want line 9 naming the earlier member %s", err, first)
	}
}

func memberIDIn(text string) string {
	i := strings.Index(text, "member id ")
	if i < 0 {
		return ""
	}
	rest := text[i+len("member id "):]
	if j := strings.IndexAny(rest, "), "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// A share-partition's leader fails: the new leader reads the stored state,
// in which no acquisition was ever written, so the locked records are
// AVAILABLE again with the count before it (first deliveries are beyond the
// end, read from the log again); the member's acknowledgement of them is
// answered INVALID_RECORD_STATE, and the next fetch delivers them again.
func TestShareLeaderFailoverReleasesLocks(t *testing.T) {
	src := `seed: 11
cluster: {brokers: 3}
topics: {t0: 1}
group: {id: q, type: share, kafka_version: "4.2"}
members: [{id: c1}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 4}}
  - {at_ms: 11000, fetch: {id: c1, max_records: 2}}
  - {at_ms: 12000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: release}}
  - {at_ms: 13000, fetch: {id: c1, max_records: 3}}
  - {at_ms: 14000, fail_broker: LEADER}
  - {at_ms: 15000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [1], type: accept}}
  - {at_ms: 16000, fetch: {id: c1, max_records: 10}}
`
	// Fail the broker that leads t0-0 (the one whose failure moves it).
	var sim *model.Sim
	for b := 0; b < 3 && sim == nil; b++ {
		try := simYAML(t, "f.yaml", strings.Replace(src, "LEADER", itoa(b), 1))
		for _, st := range steps(try, kafka.KindBrokerFailed, "") {
			if strings.Contains(st.Text, "Share-partition t0-0 moves") {
				sim = try
			}
		}
	}
	if sim == nil {
		t.Fatal("no broker's failure moved t0-0")
	}
	before := sim.SharePartitions(firstAt(sim, 14000) - 1)[0]
	after := sim.SharePartitions(firstAt(sim, 14001) - 1)[0]
	var acquired int
	for _, r := range before.Records {
		if r.State == sharepart.Acquired {
			acquired++
		}
	}
	if acquired != 4 {
		t.Fatalf("before the failure %d records acquired, want 4: %+v", acquired, before.Records)
	}
	for _, r := range after.Records {
		if r.State == sharepart.Acquired {
			t.Fatalf("after the failure offset %d is still acquired", r.Offset)
		}
	}
	// Offset 0 was released (written, delivery 1) and acquired again
	// (delivery 2, never written): it is back at 1. Offsets 1 to 3 were
	// first deliveries, never written: past the new end.
	if len(after.Records) != 1 || after.Records[0].Offset != 0 || after.Records[0].Deliveries != 1 || after.Records[0].State != sharepart.Available {
		t.Fatalf("after the failure %+v, want offset 0 AVAILABLE with 1 delivery", after.Records)
	}
	var answered bool
	for _, st := range steps(sim, kafka.KindShareAcknowledgeResponse, "c1") {
		answered = answered || st.TimeMs > 15000 && st.TimeMs < 16000 && st.Error == "INVALID_RECORD_STATE"
	}
	if !answered {
		t.Error("the acknowledgement after the failover is not answered INVALID_RECORD_STATE")
	}
	refetch := steps(sim, kafka.KindShareFetchResponse, "c1")
	if last := refetch[len(refetch)-1]; !strings.Contains(last.Text, "offsets 0–3") {
		t.Errorf("the fetch after the failover: %s", last.Text)
	}
}

// Kafka forbids a share consumer nothing of these but a protocol change.
func TestShareRestartProtocolRefused(t *testing.T) {
	_, err := scenario.Parse("p.yaml", []byte(`topics: {t0: 1}
group: {type: share}
members: [{id: c1}]
timeline:
  - {at_ms: 1000, restart: {id: c1, protocol: consumer}}
`))
	if err == nil || !strings.Contains(err.Error(), "p.yaml:5:") || !strings.Contains(err.Error(), "share") {
		t.Fatalf("error %v, want a line-5 refusal", err)
	}
}

// Compare under another release than the script's: acknowledgements of
// records the member never gets there are answered and counted, and the
// script's own release is the run simulate gives.
func TestShareCompareSkipsForeignAcks(t *testing.T) {
	sc := fiveShare(t, "4.2")
	sc.Timeline = append(sc.Timeline, scenario.Event{AtMs: 30000, Kind: scenario.EventAcknowledge, Member: "c1", Topic: "t0",
		Share: &scenario.ShareEvent{Partition: 0, Offsets: []int64{0}, Type: "accept"}})
	rows := model.Compare(sc, 0, nil, model.ShareVariants(sc))
	for _, r := range rows {
		if r.Variant.Label == "4.2+" {
			// The script's own release: its mistake is refused, by line.
			if r.Err == nil || !strings.Contains(r.Err.Error(), "acknowledge") {
				t.Errorf("4.2+: error %v, want the acknowledgement refused", r.Err)
			}
			continue
		}
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Variant.Label, r.Err)
		}
		if len(r.Skipped) != 1 || r.Skipped[0].Member != "c1" || r.Skipped[0].AtMs != 30000 {
			t.Errorf("%s: skipped %+v, want c1's acknowledgement at 30 s", r.Variant.Label, r.Skipped)
		}
	}
}

// TestShareLedgerAgreesWithOutcomes: on random share scenarios every
// rebalance the ledger lists ends where the outcome of the same group-epoch
// bump settles, with the same rounds, and at its end the target is of the
// group epoch; the ledger walks the change logs, the outcome its own walk
// from the bump, so two readings of the run agree.
func TestShareLedgerAgreesWithOutcomes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := genShareScenario(t)
		sc, err := scenario.Parse("share.yaml", []byte(src))
		if err != nil {
			t.Skipf("not a valid scenario (%v)", err)
		}
		sim, err := model.Simulate(sc)
		if err != nil {
			return // a script's refused acknowledgement: nothing to read
		}
		for k, r := range sim.Rebalances() {
			bump := r.Rounds[0].StartStep
			o, ok := sim.OutcomeOfRebalance(sim.Step(bump).TimeMs)
			if !ok || !o.Settled || o.SettledStep != r.EndStep {
				t.Fatalf("rebalance %d ends at step %d; the outcome of its bump settles at %d (%v)\n%s", k+1, r.EndStep, o.SettledStep, ok, src)
			}
			if len(o.Rounds) != len(r.Rounds) {
				t.Fatalf("rebalance %d has %d rounds, its outcome %d\n%s", k+1, len(r.Rounds), len(o.Rounds), src)
			}
			if end := sim.Step(r.EndStep); end.AssignmentEpoch != end.Generation || end.Generation != r.Generation {
				t.Fatalf("rebalance %d ends at epoch %d with the target at %d\n%s", k+1, end.Generation, end.AssignmentEpoch, src)
			}
		}
	})
}
