package sharepart

import (
	"errors"
	"testing"
)

var cfg = Config{LockMs: 30000, DeliveryLimit: 5, MaxInFlight: 2000}

func states(p *Partition) []State {
	var out []State
	for _, r := range p.Records() {
		out = append(out, r.State)
	}
	return out
}

// SharePartitionTest.testAcquireSingleRecord: one record acquired, its
// delivery count 1, the end offset on it.
func TestAcquireSingleRecord(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(1)
	got := p.Acquire("m1", 500, 100)
	if len(got) != 1 || got[0].Offset != 0 || got[0].Deliveries != 1 || got[0].DeadlineMs != 30100 || got[0].Member != "m1" {
		t.Fatalf("acquired %+v", got)
	}
	if p.Start() != 0 || p.End() != 0 || p.InFlight() != 1 {
		t.Fatalf("start %d end %d in flight %d", p.Start(), p.End(), p.InFlight())
	}
	if again := p.Acquire("m2", 500, 200); len(again) != 0 {
		t.Fatalf("an acquired record was acquired again: %+v", again)
	}
}

// SharePartitionTest.testAcknowledgeSingleRecordBatch: ACCEPT moves the
// start offset past the record and empties the cache.
func TestAcknowledgeAcceptMovesStart(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(3)
	p.Acquire("m1", 2, 0)
	tr, err := p.Acknowledge("m1", []int64{0}, Accept, 10)
	if err != nil || len(tr) != 1 || tr[0].To != Acknowledged {
		t.Fatalf("%v %+v", err, tr)
	}
	if p.Start() != 1 || p.InFlight() != 1 {
		t.Fatalf("start %d, %d in flight", p.Start(), p.InFlight())
	}
	// The next fetch gets offset 2: offset 1 is still m1's.
	if got := p.Acquire("m2", 500, 20); len(got) != 1 || got[0].Offset != 2 {
		t.Fatalf("acquired %+v", got)
	}
}

// SharePartitionTest.testReleaseSingleRecordBatch: RELEASE makes the record
// AVAILABLE with its delivery count kept; the next acquisition counts 2.
func TestReleaseThenRedeliver(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(1)
	p.Acquire("m1", 1, 0)
	if _, err := p.Acknowledge("m1", []int64{0}, Release, 5); err != nil {
		t.Fatal(err)
	}
	if s := states(p); len(s) != 1 || s[0] != Available {
		t.Fatalf("states %v", s)
	}
	got := p.Acquire("m2", 1, 6)
	if len(got) != 1 || got[0].Deliveries != 2 || got[0].Member != "m2" {
		t.Fatalf("acquired %+v", got)
	}
}

// SharePartitionTest.testAcquisitionLockTimeoutCauseMaxDeliveryCountExceed:
// after the limit's deliveries, a lock timeout archives the record.
func TestLockTimeoutArchivesAtLimit(t *testing.T) {
	p := New(Config{LockMs: 1000, DeliveryLimit: 2, MaxInFlight: 200}, 0, 0)
	p.Append(1)
	p.Acquire("m1", 1, 0)
	if d, ok := p.NextDeadline(); !ok || d != 1000 {
		t.Fatalf("deadline %d %v", d, ok)
	}
	if tr := p.Expire(999); len(tr) != 0 {
		t.Fatalf("expired early: %+v", tr)
	}
	tr := p.Expire(1000)
	if len(tr) != 1 || tr[0].To != Available {
		t.Fatalf("first timeout %+v", tr)
	}
	p.Acquire("m1", 1, 1000)
	tr = p.Expire(2000)
	if len(tr) != 1 || tr[0].To != Archived || tr[0].Deliveries != 2 {
		t.Fatalf("second timeout %+v", tr)
	}
	if p.Start() != 1 || p.InFlight() != 0 {
		t.Fatalf("start %d in flight %d", p.Start(), p.InFlight())
	}
}

// REJECT archives at once, whatever the delivery count.
func TestRejectArchives(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(2)
	p.Acquire("m1", 2, 0)
	tr, err := p.Acknowledge("m1", []int64{1}, Reject, 1)
	if err != nil || tr[0].To != Archived {
		t.Fatalf("%v %+v", err, tr)
	}
	// Offset 0 is still acquired, so the start offset stays.
	if p.Start() != 0 {
		t.Fatalf("start %d", p.Start())
	}
}

// testAcquireWithMaxInFlightRecordsAndTryAcquireNewBatch: at the cap no new
// records are acquired; once the start offset moves, they are.
func TestInFlightCap(t *testing.T) {
	p := New(Config{LockMs: 30000, DeliveryLimit: 5, MaxInFlight: 100}, 0, 0)
	p.Append(150)
	if got := p.Acquire("m1", 500, 0); len(got) != 100 {
		t.Fatalf("acquired %d, want the cap 100", len(got))
	}
	if !p.Capped() {
		t.Fatal("not capped")
	}
	if got := p.Acquire("m2", 500, 0); len(got) != 0 {
		t.Fatalf("acquired %d past the cap", len(got))
	}
	offs := make([]int64, 10)
	for i := range offs {
		offs[i] = int64(i)
	}
	if _, err := p.Acknowledge("m1", offs, Accept, 1); err != nil {
		t.Fatal(err)
	}
	if got := p.Acquire("m2", 500, 2); len(got) != 10 || got[0].Offset != 100 {
		t.Fatalf("acquired %d from %v", len(got), got)
	}
}

// An acknowledgement of a record the member does not hold changes nothing.
func TestAcknowledgeNotHeld(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(2)
	p.Acquire("m1", 1, 0)
	_, err := p.Acknowledge("m2", []int64{0}, Accept, 1)
	var he *HolderError
	if !errors.As(err, &he) || he.Rec == nil || he.Rec.Member != "m1" {
		t.Fatalf("err %v", err)
	}
	if _, err := p.Acknowledge("m1", []int64{0, 1}, Accept, 1); err == nil {
		t.Fatal("offset 1 is not in flight")
	}
	if s := states(p); s[0] != Acquired {
		t.Fatalf("a refused acknowledgement changed %v", s)
	}
}

// RENEW keeps the record acquired with a fresh lock.
func TestRenew(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(1)
	p.Acquire("m1", 1, 0)
	if _, err := p.Acknowledge("m1", []int64{0}, Renew, 20000); err != nil {
		t.Fatal(err)
	}
	if tr := p.Expire(30000); len(tr) != 0 {
		t.Fatalf("renewed lock expired at the old deadline: %+v", tr)
	}
	if tr := p.Expire(50000); len(tr) != 1 || tr[0].To != Available {
		t.Fatalf("%+v", tr)
	}
}

// testReleaseAcquiredRecordsDoNotDecreaseDeliveryCount: a closing session
// releases what the member holds, counts kept.
func TestReleaseMember(t *testing.T) {
	p := New(cfg, 5, 5)
	p.Append(3)
	p.Acquire("m1", 2, 0)
	p.Acquire("m2", 1, 0)
	tr := p.ReleaseMember("m1")
	if len(tr) != 2 || tr[0].Offset != 5 || tr[1].Offset != 6 {
		t.Fatalf("%+v", tr)
	}
	got := p.Acquire("m2", 5, 1)
	if len(got) != 2 || got[0].Deliveries != 2 {
		t.Fatalf("%+v", got)
	}
	if p.Start() != 5 || p.End() != 7 {
		t.Fatalf("start %d end %d", p.Start(), p.End())
	}
}

// A poison record: five deliveries, then archived; the start offset moves.
func TestPoisonRecord(t *testing.T) {
	p := New(cfg, 0, 0)
	p.Append(1)
	var last Transition
	for i := 0; i < 5; i++ {
		if got := p.Acquire("m1", 1, int64(i)); len(got) != 1 {
			t.Fatalf("delivery %d: acquired %v", i+1, got)
		}
		tr, err := p.Acknowledge("m1", []int64{0}, Release, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		last = tr[0]
	}
	if last.To != Archived || last.Deliveries != 5 || p.Start() != 1 {
		t.Fatalf("%+v start %d", last, p.Start())
	}
}
