package produce

import "math"

// never is a due time that never comes.
const never = math.MaxInt64

// quietMs is how many of the next milliseconds are certain to change
// nothing but the pacers' carries and the members' round-robin starts:
// everything that can act is due later. 0 means the next one must run.
func (s *Sim) quietMs() int64 {
	due, soon := int64(never), s.nowMs+1
	for _, p := range s.producers {
		if due = min(due, p.nextDue(s.nowMs)); due <= soon {
			return 0
		}
	}
	for _, g := range s.groupList {
		for _, m := range g.list {
			if due = min(due, g.nextDue(m, s.nowMs)); due <= soon {
				return 0
			}
		}
	}
	if due == never {
		return never
	}
	return max(0, due-s.nowMs-1)
}

// QuietMs is how many of the next milliseconds are certain to change
// nothing anyone can observe (never: nothing is due at all).
func (s *Sim) QuietMs() int64 { return s.quietMs() }

// skip walks k quiet milliseconds at once.
func (s *Sim) skip(k int64) {
	for _, p := range s.producers {
		p.pace.skip(k)
		// The first skipped millisecond's drain hands the partitioner the
		// queue sizes as they are now; it has nothing ready to drain.
		p.refreshLoadStats()
	}
	for _, g := range s.groupList {
		for _, m := range g.list {
			m.pace.skip(k) // a member with nothing to read drops its budget
			if n := int64(len(m.owned)); n > 0 {
				m.next = int((int64(m.next) + k%n) % n)
			}
		}
	}
	s.nowMs += k
}

// nextDue is the first millisecond after now at which the producer sends a
// record or its sender has a batch ready (to drain, or to note that its
// broker cannot take it). Load stats out of date do not count: skip
// refreshes them as the first quiet millisecond's drain would.
func (p *Producer) nextDue(now int64) int64 {
	due := p.pace.nextYield(now)
	if due == now+1 {
		return due
	}
	a := p.acc
	for i := a.nonEmpty.next(0); i >= 0; i = a.nonEmpty.next(i + 1) {
		if p.topic.leaderOf(i) < 0 {
			continue // waits for a leader, which only SetLeaders gives
		}
		q := &a.queues[i]
		if q.len() > 1 || q.first().full() {
			return now + 1
		}
		due = min(due, max(now+1, q.first().createdMs+p.lingerMs))
	}
	return due
}

// nextDue is the first millisecond after now at which the member reads,
// lands an async commit or auto-commits.
func (g *Group) nextDue(m *member, now int64) int64 {
	due := int64(never)
	if len(m.pending) > 0 {
		due = max(now+1, m.pending[0].atMs)
	}
	if m.cfg.Paused {
		return due
	}
	if m.cfg.Commit == CommitAuto {
		due = min(due, max(now+1, m.lastCommit+int64(m.cfg.AutoCommitIntervalMs)))
	} else if m.unsent {
		return now + 1
	}
	if len(m.owned) > 0 {
		g.refresh(m)
		if m.readable.next(0) >= 0 {
			due = min(due, m.pace.nextYield(now))
		}
	}
	return due
}

// nextYield is the first millisecond after now whose step yields a record.
func (p *pacer) nextYield(now int64) int64 {
	if p.perMs <= 0 {
		return never
	}
	need := pacerUnit - p.carry // carry < pacerUnit, so need > 0
	return now + (need+p.perMs-1)/p.perMs
}

// skip is k steps whose yields are dropped: the carry keeps only the
// fraction, as each step does.
func (p *pacer) skip(k int64) {
	p.carry = (p.carry + (k%pacerUnit)*(p.perMs%pacerUnit)) % pacerUnit
}
