package produce

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kvizlab/kviz/strategies"
	"pgregory.net/rapid"
)

// The data path as it was first written, kept here as the oracle for the
// fast path: every virtual millisecond, every partition of every producer
// and every owned partition of every member is looked at.
func advanceByHand(s *Sim, ms int64) error {
	for range ms {
		s.nowMs++
		for _, p := range s.producers {
			if err := p.tick(s.nowMs); err != nil {
				return err
			}
		}
		for _, p := range s.producers {
			drainByHand(p, s.nowMs)
		}
		for _, g := range s.groupList {
			for _, name := range g.order {
				m := g.members[name]
				g.landAsync(m, s.nowMs)
				if !m.cfg.Paused {
					commitByHand(g, m, s.nowMs, consumeByHand(g, m))
				}
			}
		}
	}
	return nil
}

func drainByHand(p *Producer, nowMs int64) {
	t, a := p.topic, p.acc
	sizes, ids, length, ok := loadStatsByHand(a, t.leaderOf, int64(p.cfg.AvailabilityTimeoutMs))
	if ok {
		p.part.UpdateLoadStats(sizes, ids, length)
	} else {
		p.part.UpdateLoadStats(nil, nil, 0)
	}
	ready := map[int]int{}
	for q := range a.queues {
		b := a.queues[q].first()
		if b == nil || t.leaderOf(q) < 0 {
			continue
		}
		if a.queues[q].len() > 1 || b.full() || nowMs-b.createdMs >= p.lingerMs {
			ready[t.leaderOf(q)] = 0
		}
	}
	if len(ready) == 0 {
		return
	}
	for b := range ready {
		n := a.nodes[b]
		if n == nil {
			n = &nodeLatency{readyMs: nowMs, drainMs: nowMs}
			a.nodes[b] = n
		}
		n.readyMs = nowMs
		if p.sim.stalled(b) {
			delete(ready, b)
			continue
		}
		n.drainMs = nowMs
	}
	for q := range a.queues {
		b := a.queues[q].first()
		leader := t.leaderOf(q)
		used, ok := ready[leader]
		if b == nil || leader < 0 || !ok || (used > 0 && used+b.bytes > maxRequestSize) {
			continue
		}
		ready[leader] = used + b.bytes
		a.queues[q].pop()
		t.logEnd[q] += int64(b.records)
		p.Sent[q] += int64(b.records)
	}
}

func loadStatsByHand(a *accumulator, leaderOf func(int) int, availabilityMs int64) ([]int, []int, int, bool) {
	for q := range a.queues {
		if !a.queues[q].seen {
			return nil, nil, 0, false
		}
	}
	sizes, ids := make([]int, len(a.queues)), make([]int, len(a.queues))
	length := 0
	for q := range a.queues {
		leader := leaderOf(q)
		if leader < 0 {
			continue
		}
		if node := a.nodes[leader]; availabilityMs > 0 && node != nil && node.readyMs-node.drainMs > availabilityMs {
			continue
		}
		sizes[length], ids[length] = a.queues[q].len(), q
		length++
	}
	return sizes, ids, length, true
}

func consumeByHand(g *Group, m *member) bool {
	budget := m.pace.step()
	n := len(m.owned)
	read := false
	for i := 0; i < n && budget > 0; i++ {
		tp := m.owned[(m.next+i)%n]
		st := &g.parts[tp.Topic][tp.Partition]
		if st.position < 0 {
			continue
		}
		take := min(g.sim.topics[tp.Topic].logEnd[tp.Partition]-st.position, budget)
		if take <= 0 {
			continue
		}
		if st.position < st.maxRead {
			st.duplicates += min(take, st.maxRead-st.position)
		}
		st.position += take
		st.maxRead = max(st.maxRead, st.position)
		st.consumed += take
		budget -= take
		read = true
	}
	if n > 0 {
		m.next = (m.next + 1) % n
	}
	return read
}

func commitByHand(g *Group, m *member, nowMs int64, read bool) {
	commitAll := func() {
		for _, tp := range m.owned {
			if st := &g.parts[tp.Topic][tp.Partition]; st.position >= 0 {
				st.committed = st.position
			}
		}
	}
	switch m.cfg.Commit {
	case CommitAuto:
		if nowMs-m.lastCommit >= int64(m.cfg.AutoCommitIntervalMs) {
			commitAll()
			m.lastCommit = nowMs
		}
	case CommitSync: // commitSync() after every poll: allConsumed, read or not
		commitAll()
	case CommitAsync: // commitAsync() after a poll that moved a position (a read, or a reset: unsent)
		if !read && !m.unsent {
			return
		}
		m.unsent = false
		for _, tp := range m.owned {
			if st := &g.parts[tp.Topic][tp.Partition]; st.position >= 0 {
				m.pending = append(m.pending, asyncCommit{tp: tp, offset: st.position, atMs: nowMs + int64(m.cfg.AsyncCommitMs)})
			}
		}
	}
}

// fingerprint is everything a caller can observe of a simulation.
func fingerprint(s *Sim) string {
	out := fmt.Sprintf("t=%d events=%v\n", s.nowMs, s.Events())
	for _, p := range s.producers {
		out += fmt.Sprintf("%s records=%d sent=%v last=%+v key=%q", p.Name(), p.Records, p.Sent, p.Last, p.LastKey)
		for q := range p.Sent {
			out += fmt.Sprintf(" q%d=%d", q, p.Queued(q))
		}
		out += "\n"
	}
	for _, name := range s.names {
		t := s.topics[name]
		for q := range t.partitions() {
			for _, g := range s.groupList {
				v, _ := g.Partition(name, q)
				out += fmt.Sprintf("%s-%d %s %+v\n", name, q, g.name, v)
			}
		}
	}
	return out
}

// Property: the fast path (only partitions with work, quiet stretches
// jumped) ends every operation in exactly the state the millisecond-by-
// millisecond walk over every partition reaches.
func TestFastPathEqualsStepByStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		fast, slow := NewSim(seed), NewSim(seed)
		both := func(f func(s *Sim) error) {
			errFast, errSlow := f(fast), f(slow)
			if (errFast == nil) != (errSlow == nil) {
				t.Fatalf("fast: %v, step by step: %v", errFast, errSlow)
			}
		}
		n := rapid.IntRange(1, 40).Draw(t, "partitions")
		both(func(s *Sim) error { return s.AddTopic("t", n) })
		for i := range rapid.IntRange(1, 3).Draw(t, "producers") {
			linger := rapid.IntRange(0, 60).Draw(t, "linger")
			cfg := ProducerConfig{Name: fmt.Sprint("p", i), Topic: "t", Rate: float64(rapid.IntRange(0, 3000).Draw(t, "rate")),
				Version:               rapid.SampledFrom([]string{"2.3", "3.2", "3.9", "4.0"}).Draw(t, "version"),
				Keys:                  rapid.SampledFrom([]Keys{{Kind: KeysNull}, {Kind: KeysUniform, Count: 50}, {Kind: KeysHot, Hot: "h", HotShare: 0.5, Count: 10}}).Draw(t, "keys"),
				BatchSize:             rapid.IntRange(200, 20000).Draw(t, "batch"),
				LingerMs:              &linger,
				IgnoreKeys:            rapid.Bool().Draw(t, "ignore_keys"),
				AvailabilityTimeoutMs: rapid.SampledFrom([]int{0, 5, 30}).Draw(t, "availability")}
			both(func(s *Sim) error { _, err := s.AddProducer(cfg); return err })
		}
		g := []*Group{fast.Group("g"), slow.Group("g")}
		members := []string{"c0", "c1", "c2"}
		consumer := func(t *rapid.T) ConsumerConfig {
			return ConsumerConfig{Rate: float64(rapid.SampledFrom([]int{1, 7, 100, 1000, 5000}).Draw(t, "crate")),
				Commit:               rapid.SampledFrom([]CommitMode{CommitAuto, CommitSync, CommitAsync}).Draw(t, "commit"),
				OffsetReset:          rapid.SampledFrom([]OffsetReset{ResetEarliest, ResetLatest, ResetNone}).Draw(t, "reset"),
				AutoCommitIntervalMs: rapid.IntRange(1, 200).Draw(t, "interval"), AsyncCommitMs: rapid.IntRange(1, 20).Draw(t, "async")}
		}
		for _, m := range members {
			cfg := consumer(t)
			for _, x := range g {
				_ = x.Join(m, cfg)
			}
		}
		for range rapid.IntRange(1, 40).Draw(t, "ops") {
			size := fast.PartitionCount("t")
			tp := strategies.TopicPartition{Topic: "t", Partition: int32(rapid.IntRange(0, size-1).Draw(t, "partition"))}
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0, 1:
				to := rapid.SampledFrom(members).Draw(t, "to")
				for _, x := range g {
					if v, _ := x.Partition("t", int(tp.Partition)); v.Owner == "" {
						_ = x.Own(to, []strategies.TopicPartition{tp})
					}
				}
			case 2:
				how := rapid.SampledFrom([]Handover{Revoked, Lost}).Draw(t, "how")
				for _, x := range g {
					if v, _ := x.Partition("t", int(tp.Partition)); v.Owner != "" {
						_ = x.Release(v.Owner, []strategies.TopicPartition{tp}, how)
					}
				}
			case 3:
				count := rapid.IntRange(0, 200).Draw(t, "count")
				key := rapid.SampledFrom([][]byte{nil, []byte("k1"), []byte("k2")}).Draw(t, "key")
				both(func(s *Sim) error { return s.Produce("t", key, count) })
			case 4:
				leaders := rapid.SliceOfN(rapid.IntRange(-1, 3), size, size).Draw(t, "leaders")
				both(func(s *Sim) error { return s.SetLeaders("t", leaders) })
			case 5:
				b, stalled := rapid.IntRange(0, 3).Draw(t, "broker"), rapid.Bool().Draw(t, "stalled")
				both(func(s *Sim) error { s.StallBroker(b, stalled); return nil })
			case 6:
				grow := size + rapid.IntRange(1, 5).Draw(t, "grow")
				both(func(s *Sim) error { return s.GrowTopic("t", grow) })
			case 7:
				m, cfg := rapid.SampledFrom(members).Draw(t, "member"), consumer(t)
				for _, x := range g {
					_ = x.Join(m, cfg)
				}
			case 9:
				to, count := int(tp.Partition), rapid.IntRange(1, 50).Draw(t, "explicit")
				both(func(s *Sim) error {
					if len(s.producers) == 0 {
						return nil
					}
					return s.producers[0].SendTo([]byte("x"), to, count)
				})
			case 8:
				m := rapid.SampledFrom(members).Draw(t, "committer")
				for _, x := range g {
					x.Commit(m)
				}
			}
			ms := int64(rapid.SampledFrom([]int{0, 1, 3, 10, 50, 400, 3000}).Draw(t, "ms"))
			errFast, errSlow := fast.Advance(ms), advanceByHand(slow, ms)
			if errFast != nil || errSlow != nil {
				t.Fatalf("advance: fast %v, step by step %v", errFast, errSlow)
			}
			if a, b := fingerprint(fast), fingerprint(slow); a != b {
				t.Fatalf("the fast path differs after %d ms:\nfast:\n%s\nstep by step:\n%s", ms, a, b)
			}
		}
	})
}

// Property: jumping quiet stretches changes nothing against walking the
// fast path one millisecond at a time.
func TestQuietJumpsEqualStepwise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		sims := []*Sim{NewSim(seed), NewSim(seed)}
		sims[1].stepwise = true
		rate := float64(rapid.IntRange(0, 500).Draw(t, "rate"))
		linger := rapid.IntRange(0, 100).Draw(t, "linger")
		crate := float64(rapid.IntRange(1, 300).Draw(t, "crate"))
		commit := rapid.SampledFrom([]CommitMode{CommitAuto, CommitSync, CommitAsync}).Draw(t, "commit")
		for _, s := range sims {
			_ = s.AddTopic("t", 4)
			_, _ = s.AddProducer(ProducerConfig{Topic: "t", Rate: rate, LingerMs: &linger})
			g := s.Group("g")
			_ = g.Join("c0", ConsumerConfig{Rate: crate, Commit: commit, OffsetReset: ResetEarliest})
			_ = g.Own("c0", []strategies.TopicPartition{{Topic: "t", Partition: 0}, {Topic: "t", Partition: 2}})
		}
		for range rapid.IntRange(1, 10).Draw(t, "advances") {
			ms := int64(rapid.IntRange(0, 5000).Draw(t, "ms"))
			for _, s := range sims {
				if err := s.Advance(ms); err != nil {
					t.Fatal(err)
				}
			}
			if a, b := fingerprint(sims[0]), fingerprint(sims[1]); a != b {
				t.Fatalf("jumps differ:\n%s\nstepwise:\n%s", a, b)
			}
		}
		if !slices.Equal(sims[0].Events(), sims[1].Events()) {
			t.Fatal("events differ")
		}
	})
}

// Partitions is Partition for every partition at once.
func TestPartitionsEqualsPartition(t *testing.T) {
	sim := NewSim(3)
	_ = sim.AddTopic("t", 5)
	_, _ = sim.AddProducer(ProducerConfig{Topic: "t", Rate: 2000, Keys: Keys{Kind: KeysUniform, Count: 20}})
	g := sim.Group("g")
	_ = g.Join("c0", ConsumerConfig{Rate: 500, OffsetReset: ResetEarliest, AutoCommitIntervalMs: 100})
	_ = g.Own("c0", []strategies.TopicPartition{{Topic: "t", Partition: 1}, {Topic: "t", Partition: 3}})
	_ = sim.Advance(1000)
	all, err := g.Partitions("t")
	if err != nil || len(all) != 5 {
		t.Fatalf("%d views, %v", len(all), err)
	}
	for p, v := range all {
		one, _ := g.Partition("t", p)
		if v != one {
			t.Errorf("p%d: %+v, alone %+v", p, v, one)
		}
	}
	if all[1].Consumed == 0 || all[0].Owner != "" {
		t.Errorf("c0 read nothing, or p0 has an owner: %+v", all)
	}
	if _, err := g.Partitions("nope"); err == nil {
		t.Error("an unknown topic has no partitions")
	}
}
