package model

// A share group's quiet stretches (quiet.go): a settled share group does
// nothing but heartbeat, each member every group.share.heartbeat.interval.ms,
// so its heartbeat cycles are jumped like the other groups'. What a stretch
// must never skip is not routine on the clock and stops the jump before it:
// an acquisition lock's timeout (armLock), the share state's
// initialisation, a stall's end, every timeline entry. A crashed member's
// session timer is routine but does not move with the cycle, so neither
// jumpable (the group is not settled) nor repeated (the queue is not the
// same one cycle later) lets a stretch pass it; and a 4.3 target that waits
// for group.share.assignment.interval.ms is excluded by cycles.

// jumpable is world.jumpable for a share group: a coordinator, the group
// settled (every member at the assignment epoch with its target, the
// target current, no share state initialising) and every running client
// a member of it with nothing on its way.
func (g *shareGroup) jumpable() bool {
	w := g.w
	if w.cluster.coordinator() < 0 || !g.settled() {
		return false
	}
	for _, c := range w.clients {
		if !c.running {
			continue
		}
		s := g.clients[c]
		if s == nil || c.findingCoord || g.memberOf(c) == nil || s.again || s.fullNext || s.epoch != g.assignEpoch {
			return false
		}
	}
	return true
}

// cycles: nothing the coordinator waits for depends on the time, so a
// cycle that repeats itself repeats until something that is not routine
// happens. A group epoch ahead of the target is not: Kafka 4.3 computes the
// next target at the first heartbeat after a moment (canCompute).
func (g *shareGroup) cycles() bool {
	return g.groupEpoch == g.assignEpoch && len(g.initialising) == 0 && !g.pendingInit()
}

// quiet is world.quiet for a share group: the run may end. Without a
// coordinator nothing moves until a broker recovers; else the group is
// settled and no client is still looking for its coordinator.
func (g *shareGroup) quiet() bool {
	if g.w.cluster.coordinator() < 0 {
		return true
	}
	if !g.settled() {
		return false
	}
	for _, c := range g.w.clients {
		if c.running && c.findingCoord {
			return false
		}
	}
	return true
}
