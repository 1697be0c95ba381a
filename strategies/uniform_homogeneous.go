package strategies

import "slices"

// The uniform assignor when every member subscribes to the same topics: Kafka's
// UniformHomogeneousAssignmentBuilder as fixed by KAFKA-18688 (apache/kafka
// PR #19677, merged May 2025; read at confluentinc/kafka 9c71db1c).
//
//  1. quota: P partitions over M members → P/M each, P%M members get one more.
//  2. In member order, each member keeps its current target up to its quota
//     (topic by topic, each topic's partitions in Java HashSet order — see
//     javaHashSetOrder) and gives up the rest.
//     A member starts with the extra slot while extras remain, and keeps it only
//     if its target fills it — or if it is one of the last members and the
//     extras would otherwise be left over. (Kafka 4.0, before KAFKA-18688,
//     always gave the extras to the first members, so a balanced target could
//     still move.)
//  3. The partitions nobody kept — never assigned first, topic by topic, then
//     the ones given up, in the order they were given up — go in one run to
//     the members still below quota, in member order.
//
// Kafka iterates a member's topics in HashMap order of their random UUIDs;
// kviz uses topic name order.

// uniformHomogeneous is the state of one homogeneous build.
type uniformHomogeneous struct {
	s     *serverSpec
	ex    *Explainer
	owner []int32 // member index per flat partition, -1 = unassigned

	minQuota   int
	extrasLeft int // Kafka's remainingMembersToGetAnExtraPartition

	kafka40    bool    // Kafka 4.0's rule: the first P%M members take the extras
	unassigned []int   // flat partitions to hand out, in Kafka's order
	unfilled   []int   // members below quota, in member order
	room       []int   // how many more each unfilled member takes
	topics     []int32 // the subscribed topics
}

func assignUniformHomogeneous(s *serverSpec, ex *Explainer) []int32 {
	return buildUniformHomogeneous(&uniformHomogeneous{s: s, ex: ex, topics: s.subs[0]})
}

// assignUniformHomogeneousKafka40 follows Kafka 4.0, before KAFKA-18688: the
// first P%M members in order get the extra slots whatever their targets, so
// a balanced target can still move. The uniform assignor uses it for a group
// at Kafka 4.0 (Group.Version).
func assignUniformHomogeneousKafka40(s *serverSpec, ex *Explainer) []int32 {
	return buildUniformHomogeneous(&uniformHomogeneous{s: s, ex: ex, topics: s.subs[0], kafka40: true})
}

func buildUniformHomogeneous(b *uniformHomogeneous) []int32 {
	s, ex := b.s, b.ex
	b.owner = serverFilled(&s.sc.owner, s.total, -1)
	if len(b.topics) == 0 {
		ex.Addf("no member subscribes to any topic: nothing to assign")
		return b.owner
	}
	b.listNeverAssigned()
	b.quota()
	b.keepTargets()
	b.fill()
	return b.owner
}

// listNeverAssigned starts the unassigned list with every subscribed partition
// no member claims, topic by topic, ascending (GroupSpec.isPartitionAssigned).
func (b *uniformHomogeneous) listNeverAssigned() {
	s := b.s
	// Every subscribed partition enters the list at most once (never
	// assigned, or given up), so it never outgrows this.
	subscribed := 0
	for _, t := range b.topics {
		subscribed += int(s.parts[t])
	}
	b.unassigned = serverGrow(&s.sc.unassigned, subscribed)[:0]
	b.unfilled = serverGrow(&s.sc.unfilled, len(s.members))[:0]
	b.room = serverGrow(&s.sc.room, len(s.members))[:0]
	for _, t := range b.topics {
		for f := s.base[t]; f < s.base[t]+int(s.parts[t]); f++ {
			if s.claimedBy[f] < 0 {
				b.unassigned = append(b.unassigned, f)
			}
		}
	}
}

func (b *uniformHomogeneous) quota() {
	total := 0
	for _, t := range b.topics {
		total += int(b.s.parts[t])
	}
	m := len(b.s.members)
	b.minQuota, b.extrasLeft = total/m, total%m
	if b.extrasLeft == 0 {
		b.ex.Addf("quota: %s / %d members → %d each", serverPlural(total), m, b.minQuota)
	} else {
		who := "members get"
		if b.extrasLeft == 1 {
			who = "member gets"
		}
		b.ex.Addf("quota: %s / %d members → %d each, %d %s one more", serverPlural(total), m, b.minQuota, b.extrasLeft, who)
	}
}

// keepTargets is Kafka's maybeRevokePartitions with the KAFKA-18688 rule for
// the extra slots, member by member in order.
func (b *uniformHomogeneous) keepTargets() {
	for i := range b.s.members {
		b.keepTarget(i)
	}
	if b.ex.Enabled() && len(b.unassigned) > 0 {
		b.ex.Addf("to hand out, in this order (never assigned first, then given up): %s", b.s.formatFlat(b.unassigned))
	}
}

func (b *uniformHomogeneous) keepTarget(i int) {
	quota, hasExtra := b.minQuota, b.extrasLeft > 0
	if hasExtra {
		quota++
	}
	claims := b.s.claims[i]
	if len(claims) > quota {
		// Trimming: which partitions stay depends on Kafka's iteration order.
		claims = b.s.javaHashSetTrimInto(claims, quota, &b.s.sc.trim)
	}
	kept := min(len(claims), quota)
	for _, f := range claims[:kept] {
		b.owner[f] = int32(i)
	}
	gaveUp := claims[kept:]
	b.unassigned = append(b.unassigned, gaveUp...)
	b.explainKeep(i, claims[:kept], gaveUp, quota)
	quota -= kept
	if quota > 0 && hasExtra && !b.kafka40 && !b.mustTakeExtra(i, kept) {
		quota, hasExtra = quota-1, false
	}
	if quota > 0 {
		b.unfilled = append(b.unfilled, i)
		b.room = append(b.room, quota)
	}
	if hasExtra {
		b.extrasLeft--
	}
}

// mustTakeExtra decides for member i, whose target does not fill its extra
// slot: it leaves the slot to a later member unless too few members are left
// to take the extras.
func (b *uniformHomogeneous) mustTakeExtra(i, kept int) bool {
	id, left := b.s.members[i].ID, len(b.s.members)-i
	if left > b.extrasLeft {
		b.explainExtra("%s leaves its extra slot to a later member (its target fills %d of %d)", id, kept, b.minQuota+1)
		return false
	}
	b.explainExtra("%s must take an extra partition: %s left for %s", id,
		serverCount(left, "member", "members"), serverCount(b.extrasLeft, "extra", "extras"))
	return true
}

func (b *uniformHomogeneous) explainExtra(format string, args ...any) {
	if b.ex.Enabled() {
		b.ex.Addf(format, args...)
	} else {
		b.ex.Skip()
	}
}

// fill hands the unassigned partitions, in list order, to the members below
// quota, in member order (Kafka's assignRemainingPartitions).
func (b *uniformHomogeneous) fill() {
	next := 0
	for k, i := range b.unfilled {
		from := next
		for n := 0; n < b.room[k] && next < len(b.unassigned); n++ {
			b.owner[b.unassigned[next]] = int32(i)
			next++
		}
		if b.ex.Enabled() {
			b.ex.Addf("%s takes %s (to fill its quota)", b.s.members[i].ID, b.s.formatFlat(serverSortedInts(b.unassigned[from:next])))
		} else {
			b.ex.Skip()
		}
	}
	if next < len(b.unassigned) {
		// Kafka throws "Partitions were left unassigned"; the quota rules above
		// make that impossible, so reaching here is a kviz bug worth showing.
		b.ex.Addf("internal error: %d partitions left unassigned", len(b.unassigned)-next)
	}
}

func (b *uniformHomogeneous) explainKeep(i int, kept, gaveUp []int, quota int) {
	if !b.ex.Enabled() {
		b.ex.Skip()
		return
	}
	s := b.s
	id := s.members[i].ID
	if len(s.droppedBy(i)) > 0 {
		b.ex.Addf("%s drops %s (topics it no longer subscribes to)", id, serverFormatTPs(s.droppedBy(i)))
	}
	if len(kept) > 0 {
		b.ex.Addf("%s keeps %s (its target; quota %d)", id, s.formatFlat(serverSortedInts(kept)), quota)
	}
	if len(gaveUp) > 0 {
		b.ex.Addf("%s gives up %s (over its quota of %d)", id, s.formatFlat(serverSortedInts(gaveUp)), quota)
	}
}

// serverSortedInts returns an ascending copy of xs, for explanations.
func serverSortedInts(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}
