package model

import (
	"fmt"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// Quiet stretches. A settled group does nothing but heartbeat: every member
// sends one every heartbeat.interval.ms, the coordinator restarts its
// session timer and answers, and nothing changes. Simulated one by one,
// a 30-day scenario would cost millions of steps; instead the run jumps
// over whole heartbeat cycles and records one QuietStretch step.
//
// The jump is exact. While the group is quiet every queued routine event
// (a heartbeat timer, a heartbeat on the wire, a session timer the last
// heartbeat restarted) belongs to a cycle that repeats itself one
// heartbeat interval later, unchanged but for the time: so running k
// cycles leaves the queue as it is now with every routine event k
// intervals later (clock.shift). Everything else that is queued (the
// timeline, session and poll timeouts, metadata refreshes, a deferred
// rebalance) is not routine and stays on its exact millisecond; the jump
// stops at least one whole cycle before the earliest of them, so the
// heartbeats just before it run as always. A test runs random scenarios
// both ways and compares every step that is not a routine heartbeat.

// minQuietCycles is the shortest stretch worth jumping, in heartbeat
// intervals: shorter ones keep their heartbeats, which is what a workshop
// wants to see in `kviz simulate --all`.
const minQuietCycles = 10

// quietStretch jumps the clock over whole cycles when the group has been
// quiet for one full cycle and the next event that is not routine is far
// enough away. It reports whether it jumped.
func (w *world) quietStretch() bool {
	now := w.clock.now
	if w.sc.EveryHeartbeat || now < w.nextQuietTry {
		return false
	}
	if w.consumer && w.consumerGroup != nil && w.consumerGroup.regexRefreshDue() {
		return false // the next heartbeat schedules a regex refresh (pattern_regex.go)
	}
	p, outage := w.heartbeatPeriod(), w.cluster.coordinator() < 0
	if outage {
		p = retryMaxMs + 2*netMs // a FindCoordinator retry at the longest backoff
	}
	// One whole cycle since the last change: every routine event in the
	// queue was scheduled by the cycle, none by what came before.
	cycle := p + 4*netMs
	if now-w.hist.lastChangeAt < cycle {
		w.nextQuietTry = w.hist.lastChangeAt + cycle
		return false
	}
	w.nextQuietTry = now + p
	if w.jump(now, p, outage) {
		w.lastReplay = nil
		return true
	}
	// Too short to jump, or waiting out a timer that does not repeat: the
	// heartbeats stay in the trace, copied forward (quiet_replay.go).
	return !outage && w.replay(p)
}

// jump jumps the stretch with one QuietStretch step, if it can.
func (w *world) jump(now, p int64, outage bool) bool {
	next := w.clock.nextNonRoutine()
	if next < 0 || w.clock.nonRoutine == 0 {
		return false // the run ends once the group is quiet
	}
	if len(w.clock.q) == w.clock.nonRoutine {
		return false // no heartbeat to jump: the clock goes straight to the next event
	}
	k := (next-now)/p - 1 // leave the last cycle before the event to run
	if k < minQuietCycles {
		return false
	}
	if outage && !w.retrying() || !outage && !w.jumpable() && !w.repeated(p) {
		return false
	}
	from := now
	w.clock.shift(k * p)
	w.quietSteps++
	w.record(kafka.KindQuietStretch, "", "", true, quietText(from, w.clock.now, k, outage, w.cycling(outage)))
	return true
}

// cycleSig is what the run looks like at a moment of a quiet stretch: the
// state (its version, the same while nothing changed), the last change, and
// the queue, every event as its distance from now.
type cycleSig struct {
	at         int64
	ver        int32
	lastChange int64
	routine    []int64 // sorted offsets of the routine events
	nonRoutine int
	next       int64 // the earliest event that is not routine
}

// repeated: the run is where it was exactly one cycle ago, with every
// routine event one cycle later and nothing else changed, so the cycle
// repeats until something that is not routine happens. It catches the
// quiet stretches jumpable does not know, such as a KIP-848 group waiting
// for a stalled member to reconcile. (The check lands on the same point of
// each cycle: it runs after the first event at or after now+p.)
func (w *world) repeated(p int64) bool {
	if w.share != nil && !w.share.cycles() || w.share == nil && w.consumer && w.consumerGroup.derive() == kafka.KAssigning {
		// A deferred target (Kafka 4.3) waits for the first heartbeat
		// after a moment in time: the cycle is not the same shifted. (A
		// share group's too: shareGroup.cycles.)
		w.lastSig = nil
		return false
	}
	now := w.clock.now
	sig := &cycleSig{at: now, ver: w.hist.ver, lastChange: w.hist.lastChangeAt,
		nonRoutine: w.clock.nonRoutine, next: w.clock.nextNonRoutine() - now}
	for _, e := range w.clock.q {
		if e.routine {
			sig.routine = append(sig.routine, e.at-now)
		}
	}
	slices.Sort(sig.routine)
	prev := w.lastSig
	w.lastSig = sig
	return prev != nil && prev.at == now-p && prev.ver == sig.ver && prev.lastChange == sig.lastChange &&
		prev.nonRoutine == sig.nonRoutine && prev.next == sig.next+p && slices.Equal(prev.routine, sig.routine)
}

// retrying: no broker coordinates the group and every running client
// retries FindCoordinator at the longest backoff, the only routine events
// queued. (The group's own timers went with its coordinator.)
func (w *world) retrying() bool {
	for _, c := range w.clients {
		if c.running && !(c.findingCoord && c.findRepeat && c.findBackoff == retryMaxMs) {
			return false
		}
	}
	for _, e := range w.clock.q {
		if e.routine && !e.retry {
			return false
		}
	}
	return true
}

// jumpable: the group is settled and no client can change before a timer
// that is not routine fires. Unlike quiet, a stalled member is fine: its
// heartbeat thread goes on, and its stall's end and poll timeout are
// timers that are not routine. No coordinator is not: the clients retry
// FindCoordinator on a backoff, which is not a heartbeat cycle.
func (w *world) jumpable() bool {
	if w.cluster.coordinator() < 0 {
		return false
	}
	if w.share != nil {
		return w.share.jumpable()
	}
	if w.consumer && !w.consumerGroup.settled() || !w.consumer && !w.classic.settled() {
		return false
	}
	for _, c := range w.clients {
		if !c.waiting() {
			return false
		}
	}
	return true
}

// cycling counts the members whose heartbeats (or retries) a stretch
// stood for.
func (w *world) cycling(outage bool) int {
	n := 0
	for _, c := range w.clients {
		if c.running && (outage || c.idle() || w.share != nil && w.share.memberOf(c) != nil) {
			n++
		}
	}
	return n
}

func quietText(from, to, cycles int64, outage bool, members int) string {
	what, how := "heartbeats", "quiet"
	if outage {
		what, how = "FindCoordinator retries", "without a coordinator"
	}
	who := "per member"
	if members == 1 {
		who = "from its one member"
	}
	return fmt.Sprintf("%s %s (%s to %s): %s %s %s, nothing changed.",
		spanText(to-from), how, clockText(from), clockText(to), thousands(cycles), what, who)
}

// thousands writes n with thousands separators: 863,994.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// spanText says a length of virtual time the way a person would: "45 min",
// "3 h 20 min", "30 days".
func spanText(ms int64) string {
	const (
		sec  = 1000
		min  = 60 * sec
		hour = 60 * min
		day  = 24 * hour
	)
	switch {
	case ms < min:
		return fmt.Sprintf("%.1f s", float64(ms)/sec)
	case ms < hour:
		return joinUnits(ms/min, "min", ms%min/sec, "s")
	case ms < day:
		return joinUnits(ms/hour, "h", ms%hour/min, "min")
	default:
		days := "days"
		if ms/day == 1 {
			days = "day"
		}
		return joinUnits(ms/day, days, ms%day/hour, "h")
	}
}

func joinUnits(a int64, au string, b int64, bu string) string {
	if b == 0 {
		return fmt.Sprintf("%d %s", a, au)
	}
	return fmt.Sprintf("%d %s %d %s", a, au, b, bu)
}

// clockText is a virtual time as the trace prints it (seconds, ms exact).
func clockText(ms int64) string { return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000) }
