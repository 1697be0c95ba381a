package strategies

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Kafka 4.2's simple assignor and later (KAFKA-19362, KAFKA-19363):
// SimpleHomogeneousAssignmentBuilder for a group whose members all
// subscribe to the same topics, SimpleHeterogeneousAssignmentBuilder
// (the same steps, topic by topic) otherwise. Each partition wants
// sharing = ⌈members/partitions⌉ members; the x = sharing·partitions/members
// assignments per member are spread as quotas ⌈x·(i+1)⌉ − ⌈x·i⌉ over the
// members in order. Current holders are revoked where a member is over its
// quota or a partition over its sharing, then partitions short of sharing
// go to members short of their quota.

// shareUnit is what one balancing pass works on: the homogeneous builder's
// whole group, or one topic of the heterogeneous builder.
type shareUnit struct {
	what    string               // for explanations
	keyHash func(int32) int32    // hashCode of its maps' keys: TopicIdPartition, or the partition's Integer
	keyCmp  func(a, b int32) int // their compareTo (Integer); nil for TopicIdPartition, a record that does not compare
	target  []int32              // the assignable partitions, in Kafka's order
	members []int                // the members it balances over (homogeneous: all), in member order
	held    [][]int32            // per member: its current partitions here, in Kafka's iteration order
	// early: the homogeneous builder collects the members short of their
	// quota while it revokes; the heterogeneous one after.
	early bool
}

// kafkaNewHashMapArg is AssignorHelpers.newHashMap's (and newHashSet's)
// initial capacity for n mappings: (int) (((n + 1) / 0.75f) + 1).
func kafkaNewHashMapArg(n int) int {
	return int(float32(float32(n+1)/float32(0.75)) + 1)
}

// shareQuotas is the builders' arithmetic for members sharing partitions:
// each partition wants sharing members, and the k-th member in order
// quota(k) partitions, computed in doubles as Java does.
func shareQuotas(members, partitions int) (sharing int, x float64, quota func(k int) int) {
	if partitions > 0 {
		sharing = (members + partitions - 1) / partitions
	}
	x = float64(sharing*partitions) / float64(members)
	quota = func(k int) int {
		return int(math.Ceil(float64(x*float64(k+1)))) - int(math.Ceil(float64(x*float64(k))))
	}
	return sharing, x, quota
}

// assignBalanced is SimpleAssignor.assign from Kafka 4.2.
func (s *shareSpec) assignBalanced(ex *Explainer) ([]shareHeld, error) {
	held := s.newHeld()
	if s.homogeneous {
		if len(s.names[0]) == 0 {
			ex.Addf("all members subscribe to nothing: nobody gets a partition")
			return held, nil
		}
		ex.Addf("Kafka %s: all members subscribe to the same topics: SimpleHomogeneousAssignmentBuilder", s.g.release())
		subscribed := make([]bool, len(s.topics))
		for _, t := range s.subs[0] {
			subscribed[t] = true
		}
		u := shareUnit{what: "the group", keyHash: s.tipHash, target: s.targets(s.subs[0]), held: make([][]int32, len(s.members)), early: true}
		for i := range s.members {
			u.members = append(u.members, i)
			for _, h := range s.old[i] {
				if !subscribed[h.topic] {
					ex.Addf("revoke: %s's %s: the group no longer subscribes to it", s.members[i].ID, s.topics[h.topic])
					continue
				}
				for _, q := range h.parts {
					f := s.base[h.topic] + q
					held[i][f] = true
					u.held[i] = append(u.held[i], f)
				}
			}
		}
		return held, s.balance(u, held, ex)
	}

	ex.Addf("Kafka %s: members subscribe to different topics: SimpleHeterogeneousAssignmentBuilder, topic by topic", s.g.release())
	var topics []int32 // the union of the subscriptions; Kafka's HashSet order does not change the answer
	in := make([]bool, len(s.topics))
	for i := range s.members {
		for _, t := range s.subs[i] {
			in[t] = true
		}
	}
	for t, ok := range in {
		if ok {
			topics = append(topics, int32(t))
		}
	}
	if len(topics) == 0 {
		ex.Addf("no member subscribes to an existing topic: nobody gets a partition")
		return held, nil
	}
	kept := map[int32]bool{}
	for i := range s.members {
		for _, h := range s.old[i] {
			for _, q := range h.parts {
				held[i][s.base[h.topic]+q] = true
			}
			if !in[h.topic] && !kept[h.topic] {
				kept[h.topic] = true
				ex.Addf("keep: nobody subscribes to %s, so no topic pass looks at it: its holders keep their partitions of it", s.topics[h.topic])
			}
		}
	}
	for _, t := range topics {
		base := s.base[t]
		u := shareUnit{what: s.topics[t], keyHash: func(f int32) int32 { return f - base }, keyCmp: cmp.Compare[int32], target: s.assignable(t), held: make([][]int32, len(s.members))}
		for i := range s.members {
			if slices.Contains(s.subs[i], t) {
				u.members = append(u.members, i)
			}
			for _, h := range s.old[i] {
				if h.topic == t {
					for _, q := range h.parts {
						u.held[i] = append(u.held[i], base+q)
					}
				}
			}
		}
		if err := s.balance(u, held, ex); err != nil {
			return held, err
		}
	}
	return held, nil
}

// balance runs the builder's steps over u, changing held: revoke what is
// over a quota or over the sharing, then assign what is short.
func (s *shareSpec) balance(u shareUnit, held []shareHeld, ex *Explainer) error {
	b := s.newBalancer(u, held, ex)
	b.revokeUnassignable()
	b.revokeOverfilled()
	b.revokeOvershared()
	for _, f := range u.target {
		b.byPartition.ComputeIfAbsent(f)
	}
	if b.byPartition.treeified() {
		ex.Addf("order: nine or more of %s's partitions share a bucket of the map Kafka walks; Java orders such a bucket by identity hash codes, which nobody can reproduce: kviz keeps its list order", u.what)
	}
	if !u.early {
		for _, i := range u.members {
			if b.count[i] < b.desired[i] {
				b.unfilled.Put(int32(i))
			}
		}
	}
	if u.early && b.unfilled.Len() == 0 {
		return nil
	}
	return b.assignRemaining()
}

// balancer is one run of a builder over a unit: what each member holds
// and wants as Kafka's builder walks its steps.
type balancer struct {
	s           *shareSpec
	u           shareUnit
	held        []shareHeld
	ex          *Explainer
	sharing     int   // members each partition wants
	desired     []int // per member: its quota
	count       []int // per member: partitions it holds now
	adds        [][]int32
	sharers     map[int32][]int32 // per partition: the members added, in order; -1-m once m is revoked
	byPartition *JavaHashMap[int32]
	unfilled    *JavaHashMap[int32] // members short of their quota
	overfilled  []int32
}

func (s *shareSpec) newBalancer(u shareUnit, held []shareHeld, ex *Explainer) *balancer {
	n := len(s.members)
	sharing, x, quota := shareQuotas(len(u.members), len(u.target))
	b := &balancer{s: s, u: u, held: held, ex: ex, sharing: sharing,
		desired: make([]int, n), count: make([]int, n), adds: make([][]int32, n), sharers: map[int32][]int32{},
		byPartition: NewJavaHashMapCapacity(u.keyHash, kafkaNewHashMapArg(len(u.target))).withCompare(u.keyCmp),
		unfilled:    NewJavaHashMapCapacity(javaIntegerHash, kafkaNewHashMapArg(n)).withCompare(cmp.Compare[int32])}
	for k, i := range u.members {
		b.desired[i] = quota(k)
	}
	s.explainQuotas(ex, u, sharing, x, b.desired)
	return b
}

// revokeUnassignable (revokeUnassignablePartitions) takes stock of the
// current holders of the unit's partitions, members as the builder's
// HashMap<Integer, …> iterates them, and notes who is short or over.
func (b *balancer) revokeUnassignable() {
	n := len(b.s.members)
	memberOrder := NewJavaHashMapCapacity(javaIntegerHash, kafkaNewHashMapArg(n)).withCompare(cmp.Compare[int32])
	for i := range n {
		memberOrder.Put(int32(i))
	}
	for _, i := range memberOrder.Keys() {
		for _, f := range b.u.held[i] {
			b.byPartition.ComputeIfAbsent(f)
			b.sharers[f] = append(b.sharers[f], i)
			b.adds[i] = append(b.adds[i], f)
			b.count[i]++
		}
		if b.u.early && b.count[i] < b.desired[i] {
			b.unfilled.Put(i)
		}
		if b.count[i] > b.desired[i] {
			b.overfilled = append(b.overfilled, i)
		}
	}
}

// revoke takes partition f from member i.
func (b *balancer) revoke(f, i int32, why func() string) {
	list := b.sharers[f]
	list[slices.Index(list, i)] = -1 - i
	delete(b.held[i], f)
	b.count[i]--
	if b.ex.Enabled() {
		b.ex.Addf("revoke: %s from %s (%s)", b.s.tp(f), b.s.members[i].ID, why())
	} else {
		b.ex.Skip()
	}
}

// revokeOverfilled (revokeOverfilledMembers): each member over its quota
// gives up the first of its partitions in its HashSet's order.
func (b *balancer) revokeOverfilled() {
	for _, i := range b.overfilled {
		set := NewJavaHashMap(b.u.keyHash).withCompare(b.u.keyCmp)
		for _, f := range b.adds[i] {
			set.Put(f)
		}
		for _, f := range set.Keys() {
			if b.count[i] == b.desired[i] {
				break
			}
			b.revoke(f, i, func() string { return fmt.Sprintf("over its quota of %d", b.desired[i]) })
		}
	}
}

// revokeOvershared (revokeOversharedPartitions): a partition held by more
// than sharing members drops the first of them in its HashSet<Integer>'s
// order.
func (b *balancer) revokeOvershared() {
	for _, f := range b.byPartition.Keys() {
		live := liveSharers(b.sharers[f])
		if live <= b.sharing {
			continue
		}
		set := NewJavaHashMap(javaIntegerHash).withCompare(cmp.Compare[int32])
		for _, m := range b.sharers[f] {
			set.Put(max(m, -1-m))
		}
		for _, m := range b.sharers[f] {
			if m < 0 {
				set.Remove(-1 - m)
			}
		}
		for _, m := range set.Keys() {
			b.revoke(f, m, func() string { return fmt.Sprintf("shared by %d members, %d wanted", live, b.sharing) })
			live--
			if b.u.early {
				b.unfilled.Put(m)
			}
			if live <= b.sharing {
				break
			}
		}
	}
}

// assignRemaining (assignRemainingPartitions): one pass over the
// partitions, cycling through the members short of their quota.
func (b *balancer) assignRemaining() error {
	cycle, next := b.unfilled.Keys(), 0
	dealt := false // a partition was given since the cycle restarted
	for _, f := range b.byPartition.Keys() {
		list := b.sharers[f]
		need := b.sharing - liveSharers(list)
		var fresh []int32 // members given f in this loop: Kafka's set of f is not updated
		for need > 0 {
			if next == len(cycle) {
				if !dealt {
					if b.ex.Enabled() {
						b.ex.Addf("short: %s wants %d more members, but every member still short already holds it", b.s.tp(f), need)
					} else {
						b.ex.Skip()
					}
					break
				}
				cycle, next, dealt = b.unfilled.Keys(), 0, false
				if len(cycle) == 0 {
					//lint:ignore ST1005 the message begins with a name (Kafka)
					return fmt.Errorf("Kafka's simple assignor throws NoSuchElementException: %s still wants %d more members when no member is short of its quota (current holdings of partitions that are not initialised count towards quotas), so the heartbeat asking for the new target fails", b.s.tp(f), need)
				}
			}
			i := cycle[next]
			next++
			if slices.Contains(list, i) {
				continue
			}
			b.held[i][f] = true
			if !slices.Contains(fresh, i) {
				fresh = append(fresh, i)
				b.count[i]++
			}
			need--
			dealt = true
			if b.ex.Enabled() {
				b.ex.Addf("assign: %s → %s (%d of its quota %d)", b.s.tp(f), b.s.members[i].ID, b.count[i], b.desired[i])
			} else {
				b.ex.Skip()
			}
			if b.count[i] >= b.desired[i] {
				b.unfilled.Remove(i)
			}
		}
		if b.unfilled.Len() == 0 {
			break
		}
	}
	return nil
}

// liveSharers counts the members of a partition's list not revoked.
func liveSharers(list []int32) int {
	n := 0
	for _, m := range list {
		if m >= 0 {
			n++
		}
	}
	return n
}

// explainQuotas says the sharing and quota arithmetic of one pass.
func (s *shareSpec) explainQuotas(ex *Explainer, u shareUnit, sharing int, x float64, desired []int) {
	if !ex.Enabled() {
		return
	}
	m, p := len(u.members), len(u.target)
	if p == 0 {
		ex.Addf("%s: no initialised partition to share among %d members: every quota is 0", u.what, m)
		return
	}
	var quotas []string
	for k, i := range u.members {
		if k == 12 {
			quotas = append(quotas, "…")
			break
		}
		quotas = append(quotas, fmt.Sprintf("%s %d", s.members[i].ID, desired[i]))
	}
	ex.Addf("%s: %d members on %d initialised partitions: each partition wants ⌈%d/%d⌉ = %d members; x = %d·%d/%d = %s assignments per member; quota of the k-th = ⌈x·(k+1)⌉ − ⌈x·k⌉: %s",
		u.what, m, p, m, p, sharing, sharing, p, m, formatShareX(x), strings.Join(quotas, ", "))
}

func formatShareX(x float64) string { return fmt.Sprintf("%.4g", x) }
