package model

import (
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
)

// A share group's rebalances, outages and outcomes, read from the history's
// change logs. A share group has no join phase and revokes nothing, so the
// rebalance scan's vocabulary maps onto it this way: a rebalance starts with
// a group-epoch bump and ends when the group is settled again (every member
// the coordinator holds is running at the assignment epoch and holds its
// target, the target is of the current group epoch, no process is on its
// way in); each group epoch it goes through is a round, whose members are
// STABLE at once. Several members hold one partition, so a partition goes
// without a consumer only when none of them consumes it; Moves pair, per
// partition, the holders gone with the holders new (shareDiff).

// shareWalk follows a share group's members through the steps. Forward it
// applies only the views and targets that changed (the history logs only
// those), so its cost follows the changes, not steps × members.
type shareWalk struct {
	s       *Sim
	views   *stateCursor[*MemberView]
	targets *stateCursor[targetEntry]
	step    int
	holders map[kafka.TP]int // consuming members holding each partition
	// onHolders, when set, hears of every partition whose holders went
	// from none to some or back.
	onHolders func(tp kafka.TP, held bool)
	// The settled tallies: members the coordinator holds (groupN) that are
	// not consuming (down), consuming processes it does not hold
	// (joining), and members consuming their target, by member epoch.
	groupN, down, joining int
	ready                 map[int32]int
	part                  []sharePart           // by view position: what the tallies count of it
	posOf                 map[string]int        // member id -> view position
	targetOf              map[string][]kafka.TP // member id -> target, as the targets cursor last said
}

// sharePart is what one member view adds to the walk's tallies.
type sharePart struct {
	in, consuming, ready bool
	epoch                int32
	id                   string
	consumed             []kafka.TP
}

func (s *Sim) newShareWalk() *shareWalk {
	return &shareWalk{s: s, views: newCursor(s.vlog), targets: newCursor(s.tlog), step: -1,
		holders: map[kafka.TP]int{}, ready: map[int32]int{}, posOf: map[string]int{}, targetOf: map[string][]kafka.TP{}}
}

// seek puts the walk at step i from nothing (its tallies rebuilt once).
func (w *shareWalk) seek(i int) {
	on := w.onHolders
	w.onHolders = nil
	views := w.views.seek(i)
	for p, e := range w.targets.seek(i) {
		if p < len(w.s.tids.ids) && e.in {
			w.targetOf[w.s.tids.ids[p]] = w.s.tids.decode(e)
		}
	}
	for p, v := range views {
		w.set(p, v)
	}
	w.step, w.onHolders = i, on
}

// advance moves the walk on to step i.
func (w *shareWalk) advance(i int) { w.advanceSubs(i, nil) }

// set replaces position p's part by what view v adds.
func (w *shareWalk) set(p int, v *MemberView) {
	for p >= len(w.part) {
		w.part = append(w.part, sharePart{})
	}
	old := &w.part[p]
	w.count(old, -1)
	for _, tp := range old.consumed {
		if w.holders[tp]--; w.holders[tp] == 0 {
			delete(w.holders, tp)
			if w.onHolders != nil {
				w.onHolders(tp, false)
			}
		}
	}
	if old.id != "" && w.posOf[old.id] == p {
		delete(w.posOf, old.id)
	}
	n := sharePart{}
	if v != nil {
		n = sharePart{in: v.InGroup, consuming: consuming(v.Status), epoch: v.MemberEpoch, id: v.MemberID, consumed: consumedBy(v)}
		if n.in && n.consuming {
			n.ready = sameTPs(v.Owned, w.targetOf[v.MemberID]) // no target: none to hold
		}
		if n.id != "" {
			w.posOf[n.id] = p
		}
	}
	for _, tp := range n.consumed {
		if w.holders[tp]++; w.holders[tp] == 1 && w.onHolders != nil {
			w.onHolders(tp, true)
		}
	}
	w.count(&n, 1)
	*old = n
}

func (w *shareWalk) count(x *sharePart, d int) {
	switch {
	case x.in:
		w.groupN += d
		if !x.consuming {
			w.down += d
		} else if x.ready {
			if w.ready[x.epoch] += d; w.ready[x.epoch] == 0 {
				delete(w.ready, x.epoch)
			}
		}
	case x.consuming:
		w.joining += d
	}
}

// settled is shareSettled at the walk's step, from the tallies.
func (w *shareWalk) settled(g *groupSnap) bool {
	return g.generation == g.assignEpoch && len(g.away) == 0 && w.down == 0 && w.joining == 0 && w.ready[g.assignEpoch] == w.groupN
}

// holdersNow is every partition's holders at the walk's step, ids sorted
// (shareHolders of the step's view).
func (w *shareWalk) holdersNow() map[kafka.TP][]string {
	out := map[kafka.TP][]string{}
	for p, v := range w.views.state {
		if v == nil {
			continue
		}
		for _, tp := range w.part[p].consumed {
			out[tp] = append(out[tp], v.ID)
		}
	}
	for tp, ids := range out {
		slices.Sort(ids)
		out[tp] = slices.Compact(ids)
	}
	return out
}

// shareScan is the rebalance scan of a share group (Sim.scan).
func (s *Sim) shareScan() *ownershipScan {
	out := newOwnershipScan(true)
	if len(s.steps) == 0 {
		return out
	}
	w := s.newShareWalk()
	subs := map[string]int{}    // consuming members subscribed to each topic
	parts := map[string]int32{} // the topics' partition counts
	since := map[kafka.TP]int64{}
	var at int64
	var cur *Rebalance
	var round *Round
	var outage *Outage
	curGaps, outGaps := map[kafka.TP]int64{}, map[kafka.TP]int64{} // cur's and outage's UnownedMs as they accrue
	var before map[kafka.TP][]string                               // holders just before the open rebalance
	wanted := func(tp kafka.TP) bool { return subs[tp.Topic] > 0 && tp.Partition < parts[tp.Topic] }
	accrue := func(tp kafka.TP, from int64) {
		switch {
		case cur != nil:
			if f := max(from, cur.StartMs); at > f {
				curGaps[tp] += at - f
			}
		case outage != nil:
			if f := max(from, outage.StartMs); at > f {
				outGaps[tp] += at - f
			}
		}
	}
	closeGap := func(tp kafka.TP) {
		if from, ok := since[tp]; ok {
			accrue(tp, from)
			delete(since, tp)
		}
	}
	openGaps := func(topic string, lo, hi int32) {
		for p := lo; p < hi; p++ {
			if tp := (kafka.TP{Topic: topic, Partition: p}); w.holders[tp] == 0 {
				if _, ok := since[tp]; !ok {
					since[tp] = at
				}
			}
		}
	}
	w.onHolders = func(tp kafka.TP, held bool) {
		if held {
			closeGap(tp)
		} else if wanted(tp) {
			since[tp] = at
		}
	}
	// Subscriptions follow the views: a view's topics count while it consumes.
	subscribe := func(topics []string, d int) {
		for _, t := range topics {
			n := subs[t]
			subs[t] = n + d
			switch {
			case n == 0 && d > 0:
				openGaps(t, 0, parts[t])
			case n+d == 0:
				delete(subs, t)
				for p := int32(0); p < parts[t]; p++ {
					closeGap(kafka.TP{Topic: t, Partition: p})
				}
			}
		}
	}
	var topics []TopicView
	prevG := s.steps[0].g.generation
	prevI, prevAt := 0, s.steps[0].at
	finish := func(i int, g *groupSnap) {
		for tp, from := range since {
			accrue(tp, from)
		}
		cur.EndStep, cur.EndMs, cur.Generation = i, at, g.generation
		round.EndStep, round.EndMs = i, at
		cur.Rounds = append(cur.Rounds, *round)
		cur.Moves = shareDiff(before, w.holdersNow())
		cur.Moved = kafka.Taken(cur.Moves)
		cur.UnownedMs = PartitionMsOf(curGaps)
		out.done = append(out.done, *cur)
		cur, round, before, curGaps = nil, nil, nil, map[kafka.TP]int64{}
	}
	closeOutage := func(i int) {
		if outage == nil {
			return
		}
		for tp, from := range since {
			accrue(tp, from)
		}
		outage.EndStep, outage.EndMs = i, at
		outage.UnownedMs = PartitionMsOf(outGaps)
		if worst, _ := outage.UnownedMs.stats(); worst > 0 {
			out.outs = append(out.outs, *outage)
		}
		outage, outGaps = nil, map[kafka.TP]int64{}
	}
	for i := range s.steps {
		r := &s.steps[i]
		if i > 0 && r.ver == s.steps[i-1].ver {
			continue
		}
		at = r.at
		g := r.g
		if !sameTopics(g.topics, topics) {
			topics = g.topics
			for _, t := range topics {
				if old := parts[t.Name]; t.Partitions > old {
					parts[t.Name] = t.Partitions
					if subs[t.Name] > 0 {
						openGaps(t.Name, old, t.Partitions)
					}
				}
			}
		}
		var holdBefore map[kafka.TP][]string
		if cur == nil && i > 0 && g.generation > prevG {
			holdBefore = w.holdersNow() // the step before's holders: the walk is still there
		}
		w.advanceSubs(i, subscribe)
		switch {
		case holdBefore != nil:
			start := i
			// A member that closed one network hop before the bump (its
			// leave heartbeat) stopped consuming there: that is this
			// rebalance's beginning, and its partitions were held before.
			for k := i - 1; k > 0 && s.steps[k].at >= at-netMs && s.steps[k].at > lastEndMs(out); k-- {
				start = k
			}
			if start < i {
				// (s.mu is held here: buildView, not View.)
				if h := shareHolders(s.buildView(start - 1)); !sameHolders(h, holdBefore) {
					holdBefore = h
				} else {
					start = i
				}
			}
			if outage != nil && outage.StartStep >= start {
				outage, outGaps = nil, map[kafka.TP]int64{} // the hop's own gap: this rebalance's
			}
			closeOutage(start)
			cur = &Rebalance{StartStep: start, StartMs: s.steps[start].at}
			round = &Round{StartStep: start, StartMs: s.steps[start].at, Generation: g.generation}
			before = holdBefore
			if w.settled(g) {
				finish(i, g)
			}
		case cur != nil && w.settled(g):
			if g.generation > round.Generation {
				round.EndStep, round.EndMs = prevI, prevAt
				cur.Rounds = append(cur.Rounds, *round)
				round = &Round{StartStep: i, StartMs: at, Generation: g.generation}
			}
			finish(i, g)
		case cur != nil && g.generation > round.Generation:
			round.EndStep, round.EndMs = prevI, prevAt
			cur.Rounds = append(cur.Rounds, *round)
			round = &Round{StartStep: i, StartMs: at, Generation: g.generation}
		}
		if cur == nil {
			switch {
			case outage == nil && len(since) > 0 && g.state != kafka.Empty:
				outage = &Outage{StartStep: i, StartMs: at}
			case outage != nil && len(since) == 0:
				closeOutage(i)
			}
		}
		prevG, prevI, prevAt = g.generation, i, at
	}
	if cur != nil {
		round.EndStep, round.EndMs = prevI, prevAt
		cur.Rounds = append(cur.Rounds, *round)
		cur.UnownedMs = PartitionMsOf(curGaps)
	}
	if outage != nil {
		outage.UnownedMs = PartitionMsOf(outGaps)
	}
	out.cur, out.out = cur, outage
	return out
}

// advanceSubs is advance that also tells subscribe, if given, of every
// consuming view's subscription that came or went: the new one before the
// old, so a topic the member stays subscribed to never looks unwanted.
func (w *shareWalk) advanceSubs(i int, subscribe func(topics []string, d int)) {
	if i <= w.step {
		return
	}
	var retarget []string
	w.targets.advance(i, func(p int, _, e targetEntry) {
		id := w.s.tids.ids[p]
		if e.in {
			w.targetOf[id] = w.s.tids.decode(e)
		} else {
			delete(w.targetOf, id)
		}
		retarget = append(retarget, id)
	})
	w.views.advance(i, func(p int, was, v *MemberView) {
		if subscribe == nil || was != nil && consuming(was.Status) && v != nil && consuming(v.Status) && slices.Equal(was.Topics, v.Topics) {
			w.set(p, v)
			return
		}
		if v != nil && consuming(v.Status) {
			subscribe(v.Topics, 1)
		}
		w.set(p, v)
		if was != nil && consuming(was.Status) {
			subscribe(was.Topics, -1)
		}
	})
	for _, id := range retarget {
		if p, ok := w.posOf[id]; ok {
			w.set(p, w.views.state[p])
		}
	}
	w.step = i
}

// shareSettled: at step i every member the coordinator holds is running at
// the assignment epoch and holds its target, every running process is in
// the group, and the target is of the current group epoch (one look; a
// walk asks its tallies instead).
func (s *Sim) shareSettled(i int) bool {
	w := s.newShareWalk()
	w.seek(i)
	return w.settled(s.steps[s.clamp(i)].g)
}

// lastEndMs is when the last rebalance found ended (-1 for none): a
// rebalance never starts inside the one before.
func lastEndMs(sc *ownershipScan) int64 {
	if n := len(sc.done); n > 0 {
		return sc.done[n-1].EndMs
	}
	return -1
}

func sameHolders(a, b map[kafka.TP][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for tp, ids := range a {
		if !slices.Equal(ids, b[tp]) {
			return false
		}
	}
	return true
}
