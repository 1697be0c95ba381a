package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// The share protocol (KIP-932) against GroupMetadataManager.shareGroupHeartbeat
// and the share consumer's ShareMembershipManager (confluentinc/kafka 4.0-4.3).

func shareYAML(version, extra string) string {
	return `topics: {t0: 2}
group: {type: share, kafka_version: "` + version + `"` + extra + `}
members: [{id: c1}, {id: c2}, {id: c3}]
`
}

// stepAfter is the last step at or before ms.
func stepAt(sim *model.Sim, ms int64) model.Step {
	i := firstAt(sim, ms+1) - 1
	return sim.Step(i)
}

// 4.1 on: a partition is assigned only once its share state is
// initialised (initializedAssignmentPending): the first heartbeats get
// nothing, the InitializeShareGroupState round trip follows, and the next
// heartbeat bumps the group epoch and assigns. 4.0 assigns at once.
func TestShareJoinWaitsForInitialisation(t *testing.T) {
	sim := simYAML(t, "s.yaml", shareYAML("4.1", ""))
	if n := len(steps(sim, kafka.KindInitializeShareGroupStateRequest, "")); n != 1 {
		t.Fatalf("%d InitializeShareGroupState requests, want 1", n)
	}
	at1 := stepAt(sim, 1000)
	for _, m := range []string{"c1", "c2", "c3"} {
		if len(at1.Owned[m]["t0"]) != 0 {
			t.Errorf("%s owns %v before the share state is initialised", m, at1.Owned[m])
		}
	}
	end := last(sim)
	if end.GroupState != kafka.Stable {
		t.Fatalf("state %s", end.GroupState)
	}
	holders := map[int32]int{}
	for _, m := range []string{"c1", "c2", "c3"} {
		if end.MemberEpochs[m] != end.Generation || end.MemberStates[m] != kafka.MStable {
			t.Errorf("%s at epoch %d %s, group epoch %d", m, end.MemberEpochs[m], end.MemberStates[m], end.Generation)
		}
		for _, p := range end.Owned[m]["t0"] {
			holders[p]++
		}
	}
	if holders[0] == 0 || holders[1] == 0 || holders[0]+holders[1] < 3 {
		t.Errorf("every member holds a partition, both are held: %v", end.Owned)
	}
	assigned := steps(sim, kafka.KindAssignmentComputed, "")
	if len(assigned) < 2 || assigned[len(assigned)-1].TimeMs < 5000 {
		t.Errorf("the assigning target comes at the next heartbeat (5000 ms): %v", assigned)
	}

	sim40 := simYAML(t, "s.yaml", shareYAML("4.0", ""))
	if n := len(steps(sim40, kafka.KindInitializeShareGroupStateRequest, "")); n != 0 {
		t.Errorf("4.0 has no InitializeShareGroupState step, got %d", n)
	}
	st := stepAt(sim40, 100)
	for _, m := range []string{"c1", "c2", "c3"} {
		if len(st.Owned[m]["t0"]) != 2 { // 4.0's simple: every member every partition
			t.Errorf("4.0: %s owns %v at 100 ms", m, st.Owned[m])
		}
	}
}

// States are Empty and Stable only; a leave bumps the group epoch
// (shareGroupFenceMember) and the last leave empties the group.
func TestShareLeaveAndEmpty(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 2}
group: {type: share}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 20000, leave: c1}
  - {at_ms: 40000, leave: c2}
`)
	for i := 0; i < sim.Len(); i++ {
		if s := sim.StepLine(i).GroupState; s != kafka.Empty && s != kafka.Stable {
			t.Fatalf("step %d: state %s", i, s)
		}
	}
	before := stepAt(sim, 19999)
	after := stepAt(sim, 20002) // the leave handled: one bump (shareGroupFenceMember)
	if after.Generation != before.Generation+1 {
		t.Errorf("leave: group epoch %d -> %d", before.Generation, after.Generation)
	}
	if _, in := after.MemberEpochs["c1"]; in {
		t.Errorf("c1 still a member: %v", after.MemberEpochs)
	}
	if st := last(sim); st.GroupState != kafka.Empty {
		t.Errorf("end state %s", st.GroupState)
	}
}

// A crash: the member stays until group.share.session.timeout.ms (45000)
// passes without a heartbeat; its locked records return when their lock
// (30000) times out, before that.
func TestShareCrashLocksReturn(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share, kafka_version: "4.2"}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 3}}
  - {at_ms: 11000, fetch: {id: c1}}
  - {at_ms: 12000, crash: c1}
`)
	exp := steps(sim, kafka.KindSessionExpired, "c1")
	if len(exp) != 1 {
		t.Fatalf("session expiries %d", len(exp))
	}
	// c1's last heartbeat was at most 5 s before the crash.
	if exp[0].TimeMs < 12000+45000-5000 || exp[0].TimeMs > 12000+45000 {
		t.Errorf("session expired at %d ms", exp[0].TimeMs)
	}
	locks := steps(sim, kafka.KindAcquisitionLockTimeout, "")
	if len(locks) != 1 || locks[0].TimeMs != 11002+30000 {
		t.Fatalf("lock timeouts %v", locks)
	}
	recs := locks[0].SharePartitions[0].Records
	if len(recs) != 3 || recs[0].State != sharepart.Available || recs[0].Deliveries != 1 {
		t.Errorf("records after the timeout: %+v", recs)
	}
	if !strings.Contains(locks[0].Text, "c1's acquisition lock timed out") {
		t.Errorf("narration %q", locks[0].Text)
	}
}

// A poison record: delivered five times (share.delivery.count.limit) and
// released each time, it is archived; the start offset moves past it.
func TestSharePoisonRecordArchived(t *testing.T) {
	var tl strings.Builder
	for i := 0; i < 5; i++ {
		at := 20000 + i*1000
		tl.WriteString("  - {at_ms: " + itoa(at) + ", fetch: {id: c1}}\n")
		tl.WriteString("  - {at_ms: " + itoa(at+500) + ", acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: release}}\n")
	}
	sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share}
members: [{id: c1}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 2}}
`+tl.String())
	acks := steps(sim, kafka.KindShareAcknowledgeResponse, "c1")
	if len(acks) != 5 {
		t.Fatalf("%d acknowledgements", len(acks))
	}
	for i, a := range acks[:4] {
		if !strings.Contains(a.Text, "RELEASE") && !strings.Contains(a.Text, "→ AVAILABLE") {
			t.Errorf("ack %d: %q", i+1, a.Text)
		}
	}
	lastAck := acks[4]
	if !strings.Contains(lastAck.Text, "offset 0: ACQUIRED → ARCHIVED") || !strings.Contains(lastAck.Text, "delivery count limit (5)") {
		t.Errorf("fifth release: %q", lastAck.Text)
	}
	if sp := lastAck.SharePartitions[0]; sp.Start != 1 {
		t.Errorf("start offset %d, want 1", sp.Start)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// group.share.max.size: the joiner beyond it gets GROUP_MAX_SIZE_REACHED
// (throwIfShareGroupIsFull), fatal to it.
func TestShareMaxSize(t *testing.T) {
	sim := simYAML(t, "s.yaml", shareYAML("4.1", ", max_size: 2"))
	var refused []string
	for _, st := range steps(sim, kafka.KindShareGroupHeartbeatResponse, "") {
		if st.Error == "GROUP_MAX_SIZE_REACHED" {
			refused = append(refused, st.Member)
		}
	}
	if len(refused) != 1 || refused[0] != "c3" {
		t.Fatalf("refused %v", refused)
	}
	if n := len(last(sim).MemberEpochs); n != 2 {
		t.Errorf("%d members", n)
	}
}

// 4.3 computes a target at most once per group.share.assignment.interval.ms.
func TestShareAssignmentInterval(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 2}
group: {type: share, kafka_version: "4.3"}
members: [{id: c1}]
timeline:
  - {at_ms: 20000, join: {id: c2}}
  - {at_ms: 20300, join: {id: c3}}
`)
	if n := len(steps(sim, kafka.KindRebalanceDelayed, "")); n == 0 {
		t.Error("no RebalanceDelayed: c3's join came 300 ms after the last target")
	}
	comp := steps(sim, kafka.KindAssignmentComputed, "")
	for i := 1; i < len(comp); i++ {
		if comp[i].TimeMs-comp[i-1].TimeMs < 1000 {
			t.Errorf("targets at %d and %d ms, inside the interval", comp[i-1].TimeMs, comp[i].TimeMs)
		}
	}
	if st := last(sim); st.AssignmentEpoch != st.Generation || len(st.Owned["c3"]["t0"]) == 0 {
		t.Errorf("end: epoch %d/%d, c3 %v", st.AssignmentEpoch, st.Generation, st.Owned["c3"])
	}
}

// A new partition is assigned only after its share state is initialised.
func TestShareNewPartitionInitialisedFirst(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share, kafka_version: "4.2"}
members: [{id: c1}]
timeline:
  - {at_ms: 20000, add_partitions: {topic: t0, count: 2}}
`)
	var reqAt int64 = -1
	for _, st := range steps(sim, kafka.KindInitializeShareGroupStateRequest, "") {
		if st.TimeMs > 20000 {
			reqAt = st.TimeMs
		}
	}
	if reqAt < 0 {
		t.Fatal("no initialisation of t0-1")
	}
	if st := stepAt(sim, reqAt); len(st.Owned["c1"]["t0"]) != 1 {
		t.Errorf("t0-1 assigned before its share state: %v", st.Owned)
	}
	if !owns(last(sim), "c1", "t0", 0, 1) {
		t.Errorf("end %v", last(sim).Owned)
	}
}

// JSONL: AppendStepJSON writes what json.Marshal(Step) does, share fields too.
func TestShareJSONL(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 2}}
  - {at_ms: 11000, fetch: {id: c2, max_records: 1}}
`)
	seen := false
	for i := 0; i < sim.Len(); i++ {
		want, err := json.Marshal(sim.Step(i))
		if err != nil {
			t.Fatal(err)
		}
		if got := sim.AppendStepJSON(nil, i); string(got) != string(want) {
			t.Fatalf("step %d:\n got %s\nwant %s", i, got, want)
		}
		seen = seen || strings.Contains(string(want), `"member":"c2","deadline_ms"`)
	}
	if !seen {
		t.Error("no step shows c2's acquired record")
	}
}

// Bad input: line-numbered errors.
func TestShareBadInput(t *testing.T) {
	cases := map[string]string{
		"static member": "topics: {t0: 1}\ngroup: {type: share}\nmembers:\n  - {id: c1, instance: i1}\n",
		"limit":         "topics: {t0: 1}\ngroup: {type: share,\n  delivery_count_limit: 11}\n",
		"heartbeat":     "topics: {t0: 1}\ngroup: {type: share,\n  heartbeat_interval_ms: 3000}\n",
		"max size":      "topics: {t0: 1}\ngroup: {type: share,\n  max_size: 1001}\n",
		"renew 4.1":     "topics: {t0: 1}\ngroup: {type: share, kafka_version: \"4.1\"}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 1, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0], type: renew}}\n",
		"commit":        "topics: {t0: 1}\ngroup: {type: share}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 1, commit: c1}\n",
		"static join":   "topics: {t0: 1}\ngroup: {type: share}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 1, join: {id: c2, instance: i2}}\n",
	}
	lines := map[string]string{"static member": "s.yaml:4:", "limit": "s.yaml:3:", "heartbeat": "s.yaml:3:", "max size": "s.yaml:3:",
		"renew 4.1": "s.yaml:5:", "commit": "s.yaml:5:", "static join": "s.yaml:5:"}
	for name, y := range cases {
		_, err := scenario.Parse("s.yaml", []byte(y))
		if err == nil || !strings.HasPrefix(err.Error(), lines[name]) {
			t.Errorf("%s: %v, want %s", name, err, lines[name])
		}
	}
	// An acknowledgement of a record the member does not hold.
	sc, err := scenario.Parse("s.yaml", []byte(`topics: {t0: 1}
group: {type: share}
members: [{id: c1}, {id: c2}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 2}}
  - {at_ms: 11000, fetch: {id: c1}}
  - {at_ms: 12000, acknowledge: {id: c2, topic: t0, partition: 0, offsets: [1], type: accept}}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.Simulate(sc)
	if err == nil || !strings.HasPrefix(err.Error(), "s.yaml:7: acknowledge: c2 cannot acknowledge t0-0") || !strings.Contains(err.Error(), "acquired by c1") {
		t.Errorf("ack of c1's record by c2: %v", err)
	}
}

// A stalled application fetches and acknowledges nothing; what it holds
// comes back when the lock times out, while it still stalls.
func TestShareStallPastTheLock(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1}
group: {type: share, record_lock_duration_ms: 15000}
members: [{id: c1}]
timeline:
  - {at_ms: 10000, records: {topic: t0, partition: 0, count: 2}}
  - {at_ms: 11000, fetch: {id: c1}}
  - {at_ms: 12000, stall: {id: c1, ms: 30000}}
  - {at_ms: 13000, acknowledge: {id: c1, topic: t0, partition: 0, offsets: [0, 1], type: accept}}
  - {at_ms: 50000, fetch: {id: c1}}
`)
	if n := len(steps(sim, kafka.KindShareAcknowledgeRequest, "c1")); n != 0 {
		t.Errorf("a stalled member acknowledged (%d requests)", n)
	}
	locks := steps(sim, kafka.KindAcquisitionLockTimeout, "")
	// The first lock runs out mid-stall; the second fetch's at 65002 ms.
	if len(locks) != 2 || locks[0].TimeMs != 11002+15000 || locks[1].TimeMs != 50002+15000 {
		t.Fatalf("lock timeouts %+v", locks)
	}
	fetched := steps(sim, kafka.KindShareFetchResponse, "c1")
	if len(fetched) != 2 || !strings.Contains(fetched[1].Text, "(delivery 2)") {
		t.Errorf("after the stall: %+v", fetched)
	}
}

// Defaults per release: 200 record locks in 4.0, 2000 from 4.1
// (ShareGroupConfig); the assignment interval only in 4.3.
func TestShareDefaultsPerRelease(t *testing.T) {
	for v, want := range map[string]int32{"4.0": 200, "4.1": 2000, "4.3": 2000} {
		sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 1}\ngroup: {type: share, kafka_version: \""+v+"\"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		if sc.Share.MaxRecordLocks != want || sc.Share.DeliveryCountLimit != 5 || sc.Share.RecordLockMs != 30000 ||
			sc.HeartbeatIntervalMs != 5000 || sc.SessionTimeoutMs != 45000 || sc.MaxSize != 200 {
			t.Errorf("%s: %+v, heartbeat %d, session %d, max size %d", v, *sc.Share, sc.HeartbeatIntervalMs, sc.SessionTimeoutMs, sc.MaxSize)
		}
		if iv := sc.Share.AssignmentIntervalMs; (v == "4.3") != (iv == 1000) {
			t.Errorf("%s: assignment interval %d", v, iv)
		}
	}
	if _, err := scenario.Parse("s.yaml", []byte("topics: {t0: 1}\ngroup: {type: share, kafka_version: \"4.2\",\n  assignment_interval_ms: 500}\n")); err == nil || !strings.HasPrefix(err.Error(), "s.yaml:3:") {
		t.Errorf("assignment_interval_ms before 4.3: %v", err)
	}
	if _, err := scenario.Parse("s.yaml", []byte("topics: {t0: 1}\ngroup: {type: share, kafka_version: \"3.9\"}\n")); err == nil {
		t.Error("a share group before Kafka 4.0")
	}
}

// A changed subscription rides the next heartbeat and bumps the group
// epoch; the new topic is assigned once its share state is initialised.
func TestShareSubscriptionChange(t *testing.T) {
	sim := simYAML(t, "s.yaml", `topics: {t0: 1, t1: 1}
group: {type: share, kafka_version: "4.2"}
members: [{id: c1, topics: [t0]}]
timeline:
  - {at_ms: 20000, subscribe: {id: c1, topics: [t0, t1]}}
`)
	before := stepAt(sim, 19999)
	sub := steps(sim, kafka.KindShareGroupHeartbeatRequest, "c1")
	var carried model.Step
	for _, st := range sub {
		if st.TimeMs >= 20000 && strings.Contains(st.Text, "new subscription") {
			carried = st
			break
		}
	}
	if carried.TimeMs <= 20000 || carried.TimeMs > 25000 {
		t.Fatalf("the subscription went out at %d ms", carried.TimeMs)
	}
	if st := stepAt(sim, carried.TimeMs+2); st.Generation != before.Generation+1 || len(st.Owned["c1"]["t1"]) != 0 {
		t.Errorf("after the heartbeat: epoch %d (was %d), c1 %v", st.Generation, before.Generation, st.Owned["c1"])
	}
	if !owns(last(sim), "c1", "t1", 0) || !owns(last(sim), "c1", "t0", 0) {
		t.Errorf("end: %v", last(sim).Owned)
	}
}
