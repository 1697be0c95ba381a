// Package sharepart is one share-partition's record states (KIP-932), as
// Kafka's broker keeps them in core's SharePartition (confluentinc/kafka
// 4.0-4.3): the share-partition start offset (SPSO) and end, each in-flight
// record's state (AVAILABLE, ACQUIRED by a member until its lock deadline,
// ACKNOWLEDGED, ARCHIVED) and delivery count, the acquisition lock timeout,
// the delivery count limit and the in-flight cap. Pure: time is a number the
// caller passes in; nothing here schedules or prints.
package sharepart

import (
	"fmt"
	"slices"
)

// State is a record's state (SharePartition's RecordState).
type State uint8

const (
	Available State = iota
	Acquired
	Acknowledged
	Archived
)

func (s State) String() string {
	return [...]string{"AVAILABLE", "ACQUIRED", "ACKNOWLEDGED", "ARCHIVED"}[s]
}

// Terminal: nothing moves the record again (RecordState.validateTransition).
func (s State) Terminal() bool { return s == Acknowledged || s == Archived }

// AckType is an acknowledgement type (AcknowledgeType).
type AckType uint8

const (
	Accept  AckType = 1
	Release AckType = 2
	Reject  AckType = 3
	Renew   AckType = 4 // Kafka 4.2 on (KIP-1222)
)

// ParseAckType reads accept, release, reject or renew.
func ParseAckType(s string) (AckType, error) {
	switch s {
	case "accept":
		return Accept, nil
	case "release":
		return Release, nil
	case "reject":
		return Reject, nil
	case "renew":
		return Renew, nil
	}
	return 0, fmt.Errorf("unknown acknowledgement type %q (accept, release, reject, renew)", s)
}

func (t AckType) String() string {
	switch t {
	case Accept:
		return "ACCEPT"
	case Release:
		return "RELEASE"
	case Reject:
		return "REJECT"
	case Renew:
		return "RENEW"
	}
	return "?"
}

// Config is the share group's settings a share-partition reads.
type Config struct {
	LockMs        int64 // group.share.record.lock.duration.ms (30000)
	DeliveryLimit int32 // group.share.delivery.count.limit (5)
	MaxInFlight   int32 // group.share.partition.max.record.locks (2000; 200 in 4.0)
}

// Record is one in-flight record.
type Record struct {
	Offset int64
	State  State
	Member string // the member holding it (Acquired), else ""
	// MemberID is the holder's member id when it differs from Member (a
	// client id shown for a member id: a restarted client is a new member,
	// and the records its earlier member acquired are not its own).
	MemberID   string
	DeadlineMs int64 // Acquired: when its acquisition lock times out
	Deliveries int32 // delivery count: how often it was acquired
}

// Transition is one record's change, with the reason a narration gives.
type Transition struct {
	Offset     int64
	From, To   State
	Deliveries int32
	Why        string
}

// Partition is one share-partition.
type Partition struct {
	cfg      Config
	start    int64    // share-partition start offset: the first not yet ACKNOWLEDGED or ARCHIVED
	fetched  int64    // the next offset never acquired (in-flight window: [start, fetched))
	logEnd   int64    // the log end offset: records appended so far
	inflight []Record // offsets start..fetched-1, in order
}

// New is a share-partition initialised at start (share.auto.offset.reset:
// latest is the log end offset at initialisation, earliest the log start;
// SharePartition.startOffsetDuringInitialization) over a log ending at logEnd.
func New(cfg Config, start, logEnd int64) *Partition {
	return &Partition{cfg: cfg, start: start, fetched: start, logEnd: max(logEnd, start)}
}

// Start is the share-partition start offset (SPSO).
func (p *Partition) Start() int64 { return p.start }

// End is the share-partition end offset (SharePartition.endOffset): the last
// offset acquired so far, or Start when nothing is in flight.
func (p *Partition) End() int64 {
	if p.fetched == p.start {
		return p.start
	}
	return p.fetched - 1
}

// LogEnd is the partition's log end offset.
func (p *Partition) LogEnd() int64 { return p.logEnd }

// Records is the in-flight records, start offset first (the caller's copy).
func (p *Partition) Records() []Record { return slices.Clone(p.inflight) }

// InFlight counts the in-flight records (SharePartition.numInFlightRecords).
func (p *Partition) InFlight() int { return len(p.inflight) }

// Append adds n records to the log; it returns their first offset.
func (p *Partition) Append(n int) int64 {
	first := p.logEnd
	p.logEnd += int64(n)
	return first
}

// Acquire hands member up to maxRecords records, AVAILABLE ones first (from
// the lowest offset: nextFetchOffset), then new records from the log while
// the in-flight records stay under the cap (SharePartition.acquire,
// canAcquireRecords, lastOffsetAndMaxRecordsToAcquire). Every acquired
// record's delivery count goes up by one and its lock runs until now +
// LockMs. It returns the acquired records.
func (p *Partition) Acquire(member string, maxRecords int, now int64) []Record {
	return p.AcquireAs(member, member, maxRecords, now)
}

// AcquireAs is Acquire for the member with id id, shown as member.
func (p *Partition) AcquireAs(member, id string, maxRecords int, now int64) []Record {
	var out []Record
	for i := range p.inflight {
		if len(out) >= maxRecords {
			return out
		}
		r := &p.inflight[i]
		if r.State == Available {
			p.lock(r, member, id, now)
			out = append(out, *r)
		}
	}
	for len(out) < maxRecords && p.fetched < p.logEnd && len(p.inflight) < int(p.cfg.MaxInFlight) {
		p.inflight = append(p.inflight, Record{Offset: p.fetched})
		p.fetched++
		r := &p.inflight[len(p.inflight)-1]
		p.lock(r, member, id, now)
		out = append(out, *r)
	}
	return out
}

func (p *Partition) lock(r *Record, member, id string, now int64) {
	r.State, r.Member, r.DeadlineMs = Acquired, member, now+p.cfg.LockMs
	r.MemberID = ""
	if id != member {
		r.MemberID = id
	}
	r.Deliveries++
}

// heldBy: r is ACQUIRED by the member with id id.
func heldBy(r *Record, id string) bool {
	return r.State == Acquired && (r.MemberID == id || r.MemberID == "" && r.Member == id)
}

// Capped reports whether records wait in the log that the in-flight cap
// keeps from being acquired.
func (p *Partition) Capped() bool {
	return p.fetched < p.logEnd && len(p.inflight) >= int(p.cfg.MaxInFlight)
}

// HolderError is an acknowledgement of a record the member does not hold
// (Kafka answers INVALID_RECORD_STATE).
type HolderError struct {
	Offset int64
	Member string
	Rec    *Record // nil: the offset is not in flight
}

func (e *HolderError) Error() string {
	switch {
	case e.Rec != nil && e.Rec.State == Acquired && e.Rec.Member == e.Member:
		return fmt.Sprintf("offset %d is acquired by %s's earlier member %s, not by its member now (INVALID_RECORD_STATE)", e.Offset, e.Member, e.Rec.MemberID)
	case e.Rec == nil:
		return fmt.Sprintf("offset %d is not in flight, so %s holds no lock on it (INVALID_RECORD_STATE)", e.Offset, e.Member)
	case e.Rec.State == Acquired:
		return fmt.Sprintf("offset %d is acquired by %s, not %s (INVALID_RECORD_STATE)", e.Offset, e.Rec.Member, e.Member)
	}
	return fmt.Sprintf("offset %d is %s, not acquired by %s (INVALID_RECORD_STATE)", e.Offset, e.Rec.State, e.Member)
}

// Acknowledge applies member's acknowledgement of offsets (all must be
// ACQUIRED by it; else nothing changes and the error says which is not):
// ACCEPT → ACKNOWLEDGED, RELEASE → AVAILABLE (ARCHIVED once the delivery
// count reached the limit: InFlightState.tryUpdateState), REJECT →
// ARCHIVED, RENEW → still ACQUIRED with a fresh lock (Kafka 4.2 on).
func (p *Partition) Acknowledge(member string, offsets []int64, t AckType, now int64) ([]Transition, error) {
	return p.AcknowledgeAs(member, member, offsets, t, now)
}

// AcknowledgeAs is Acknowledge by the member with id id, shown as member.
func (p *Partition) AcknowledgeAs(member, id string, offsets []int64, t AckType, now int64) ([]Transition, error) {
	for _, o := range offsets {
		r := p.find(o)
		if r == nil || !heldBy(r, id) {
			return nil, &HolderError{Offset: o, Member: member, Rec: r}
		}
	}
	var out []Transition
	for _, o := range offsets {
		r := p.find(o)
		switch t {
		case Accept:
			out = append(out, p.move(r, Acknowledged, fmt.Sprintf("%s accepted", member)))
		case Reject:
			out = append(out, p.move(r, Archived, fmt.Sprintf("%s rejected: never delivered again", member)))
		case Release:
			out = append(out, p.release(r, fmt.Sprintf("%s released", member)))
		case Renew:
			r.DeadlineMs = now + p.cfg.LockMs
			out = append(out, Transition{Offset: o, From: Acquired, To: Acquired, Deliveries: r.Deliveries,
				Why: fmt.Sprintf("%s renewed its lock until %d ms", member, r.DeadlineMs)})
		}
	}
	p.advance()
	return out, nil
}

// release makes an acquired record AVAILABLE again, or ARCHIVED when its
// delivery count has reached the limit.
func (p *Partition) release(r *Record, why string) Transition {
	if r.Deliveries >= p.cfg.DeliveryLimit {
		return p.move(r, Archived, fmt.Sprintf("%s; delivered %d times, the delivery count limit (%d): archived", why, r.Deliveries, p.cfg.DeliveryLimit))
	}
	return p.move(r, Available, fmt.Sprintf("%s; delivered %d of %d times: deliverable again", why, r.Deliveries, p.cfg.DeliveryLimit))
}

func (p *Partition) move(r *Record, to State, why string) Transition {
	t := Transition{Offset: r.Offset, From: r.State, To: to, Deliveries: r.Deliveries, Why: why}
	r.State, r.Member, r.MemberID, r.DeadlineMs = to, "", "", 0
	return t
}

// ReleaseMember releases every record member holds, as a closing share
// session does (SharePartition.releaseAcquiredRecords): AVAILABLE, or
// ARCHIVED at the delivery count limit.
func (p *Partition) ReleaseMember(member string) []Transition {
	return p.ReleaseMemberAs(member, member)
}

// ReleaseMemberAs is ReleaseMember for the member with id id, shown as member.
func (p *Partition) ReleaseMemberAs(member, id string) []Transition {
	var out []Transition
	for i := range p.inflight {
		if r := &p.inflight[i]; heldBy(r, id) {
			out = append(out, p.release(r, fmt.Sprintf("%s closed its share session", member)))
		}
	}
	p.advance()
	return out
}

// Expire times out every acquisition lock due by now
// (releaseAcquisitionLockOnTimeout).
func (p *Partition) Expire(now int64) []Transition {
	var out []Transition
	for i := range p.inflight {
		if r := &p.inflight[i]; r.State == Acquired && r.DeadlineMs <= now {
			out = append(out, p.release(r, fmt.Sprintf("%s's acquisition lock timed out (%d ms)", r.Member, p.cfg.LockMs)))
		}
	}
	p.advance()
	return out
}

// NextDeadline is the earliest lock deadline (ok false: none held).
func (p *Partition) NextDeadline() (int64, bool) {
	best, ok := int64(0), false
	for _, r := range p.inflight {
		if r.State == Acquired && (!ok || r.DeadlineMs < best) {
			best, ok = r.DeadlineMs, true
		}
	}
	return best, ok
}

// Held lists the offsets the member with id (or name) member holds.
func (p *Partition) Held(member string) []int64 {
	var out []int64
	for i := range p.inflight {
		if r := &p.inflight[i]; heldBy(r, member) {
			out = append(out, r.Offset)
		}
	}
	return out
}

// Reload is the share-partition as a new leader reads it from the share
// coordinator (SharePartition.maybeInitialize, readState) after its leader
// changed: the old leader's in-memory locks are gone, and an acquisition
// is never written (acquire persists nothing; acknowledgements, releases
// and lock timeouts are: writeShareGroupState). So every ACQUIRED record
// is as last written, AVAILABLE with the delivery count it had before
// this acquisition, and records never written at all lie past the new
// end: the first fetch reads them from the log again as new. The start
// offset and every ACKNOWLEDGED or ARCHIVED record were written. It
// returns the records that moved (To AVAILABLE, Deliveries the count kept).
func (p *Partition) Reload(why string) []Transition {
	var out []Transition
	for i := range p.inflight {
		r := &p.inflight[i]
		if r.State != Acquired {
			continue
		}
		r.Deliveries--
		out = append(out, Transition{Offset: r.Offset, From: Acquired, To: Available, Deliveries: r.Deliveries, Why: why})
		r.State, r.Member, r.MemberID, r.DeadlineMs = Available, "", "", 0
	}
	n := len(p.inflight)
	for n > 0 && p.inflight[n-1].State == Available && p.inflight[n-1].Deliveries == 0 {
		n--
	}
	p.fetched -= int64(len(p.inflight) - n)
	p.inflight = p.inflight[:n]
	return out
}

func (p *Partition) find(o int64) *Record {
	if o < p.start || o >= p.fetched {
		return nil
	}
	return &p.inflight[o-p.start]
}

// advance moves the start offset past the records that are done
// (maybeUpdateCachedStateAndOffsets: the first offset not ACKNOWLEDGED or
// ARCHIVED; the whole window when all are).
func (p *Partition) advance() {
	n := 0
	for n < len(p.inflight) && p.inflight[n].State.Terminal() {
		n++
	}
	if n > 0 {
		p.inflight = slices.Delete(p.inflight, 0, n)
		p.start += int64(n)
	}
}
