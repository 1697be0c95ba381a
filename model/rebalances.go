package model

// Rebalances lists every completed rebalance: from the first step where the
// group stopped being settled (Stable with every subscribed partition
// consumed) to the step where it was settled again.
func (s *Sim) Rebalances() []Rebalance {
	var out []Rebalance
	var cur *Rebalance
	var startOwner map[TP]string
	prevOwner := map[TP]string{}
	prevAt := int64(0)
	var prevWanted []TP
	var prevSnap *snapshot
	var owner map[TP]string
	var wanted []TP
	for i, r := range s.steps {
		if r.snap != prevSnap { // most steps (heartbeats) share their snapshot
			owner, wanted = ownership(r.snap)
			prevSnap = r.snap
		}
		if cur != nil {
			for _, tp := range prevWanted {
				if _, ok := prevOwner[tp]; !ok {
					cur.UnownedMs[tp] += r.at - prevAt
				}
			}
		}
		settled := settledSnap(r.snap, owner, wanted)
		switch {
		case cur == nil && !settled && startedRebalance(r.snap, i):
			cur = &Rebalance{StartStep: i, StartMs: r.at, UnownedMs: map[TP]int64{}}
			startOwner = prevOwner
			for _, tp := range wanted {
				if _, ok := owner[tp]; !ok {
					cur.UnownedMs[tp] += 0
				}
			}
		case cur != nil && settled:
			cur.EndStep, cur.EndMs, cur.Generation = i, r.at, r.snap.g.generation
			for tp, o := range owner {
				if before, ok := startOwner[tp]; ok && before != o {
					cur.Moved++
				}
			}
			out = append(out, *cur)
			cur = nil
		}
		prevOwner, prevAt, prevWanted = owner, r.at, wanted
	}
	return out
}

// startedRebalance: the group has members and is not settled.
func startedRebalance(sn *snapshot, i int) bool {
	return i > 0 && sn.g.state != Empty && sn.g.state != KEmpty && len(sn.members) > 0
}

// ownership maps each consumed partition to its member, and lists the
// partitions some running member subscribes to.
func ownership(sn *snapshot) (map[TP]string, []TP) {
	owner := map[TP]string{}
	subscribed := map[string]bool{}
	for _, m := range sn.members {
		if !consuming(m.Status) {
			continue
		}
		for _, tp := range m.Owned {
			owner[tp] = m.ID
		}
		for _, t := range m.Topics {
			subscribed[t] = true
		}
	}
	var wanted []TP
	for _, t := range sn.g.topics {
		if subscribed[t.Name] {
			for p := int32(0); p < t.Partitions; p++ {
				wanted = append(wanted, TP{Topic: t.Name, Partition: p})
			}
		}
	}
	return owner, wanted
}

func settledSnap(sn *snapshot, owner map[TP]string, wanted []TP) bool {
	if sn.g.state != Stable && sn.g.state != KStable {
		return false
	}
	for _, tp := range wanted {
		if _, ok := owner[tp]; !ok {
			return false
		}
	}
	return true
}
