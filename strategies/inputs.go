package strategies

import (
	"fmt"
	"slices"
	"strings"
)

// Real groups send assignors what a tidy input would not: a subscription to
// a topic that was deleted (or never created), owned partitions of such a
// topic, and (in Kafka's own tests, which hand the assignor a List) a topic
// listed twice. Each assignor has its own rule for them, and kviz follows
// it; InputNotes says which rule applied. What an assignor cannot take, an
// owned partition beyond its topic's partition count, CheckFor refuses.

// ownedReader is implemented by the assignors that read Member.Owned.
type ownedReader interface{ readsOwned() bool }

func (StickyAssignor) readsOwned() bool            { return true }
func (CooperativeStickyAssignor) readsOwned() bool { return true }
func (uniformAssignor) readsOwned() bool           { return true }

// ReadsOwned reports whether a reads what members own (Member.Owned).
// range, roundrobin and (since KAFKA-16944) range-server never look at it.
func ReadsOwned(a Assignor) bool {
	r, ok := a.(ownedReader)
	return ok && r.readsOwned()
}

// serverSide reports whether a runs in the group coordinator (KIP-848's
// consumer groups, KIP-932's share groups).
func serverSide(a Assignor) bool {
	for _, p := range a.Protocols() {
		if p != Consumer && p != Share {
			return false
		}
	}
	return true
}

// CheckFor is Validate plus what a in particular cannot take: an owned
// partition numbered beyond its (existing) topic's partitions. Partition
// counts never shrink in Kafka, so no real member reports one; the sticky
// assignors would keep or hand out a partition that does not exist, and the
// uniform assignor indexes an array by it. range, roundrobin and
// range-server do not read owned partitions at all, so they take it.
func (g Group) CheckFor(a Assignor) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if !ReadsOwned(a) {
		return nil
	}
	for i, m := range g.Members {
		for _, tp := range m.Owned {
			n, ok := g.Topics[tp.Topic]
			if ok && tp.Partition >= n {
				return fmt.Errorf("members[%d] (%s): owns %s, but %q has partitions 0..%d: Kafka's %s assignor cannot take a partition that does not exist",
					i, m.ID, tp, tp.Topic, n-1, a.Name())
			}
		}
	}
	return nil
}

// InputNotes says, member by member, how a treats the parts of g a tidy
// input would not have: topics that do not exist, topics listed twice, and
// owned partitions it does not read or drops. Empty for a tidy group.
func InputNotes(a Assignor, g Group) []string {
	var notes []string
	for _, m := range g.Members {
		missing, repeated := subscriptionOddities(g, m)
		for _, t := range missing {
			notes = append(notes, fmt.Sprintf("%s subscribes to %q, which does not exist: %s", m.ID, t, missingTopicRule(a)))
		}
		for _, t := range repeated {
			notes = append(notes, fmt.Sprintf("%s lists %q twice: %s", m.ID, t, repeatedTopicRule(a)))
		}
		if gone := ownedElsewhere(g, m, ReadsOwned(a)); len(gone) > 0 {
			notes = append(notes, fmt.Sprintf("%s owns %s, which %s: %s", m.ID, strings.Join(gone, ", "), doNotExist(len(gone)), ownedRule(a, g)))
		}
	}
	if Supports(a, Share) {
		notes = append(notes, shareNotes(g)...)
	} else if g.TopicIDs != nil || g.Assignable != nil {
		notes = append(notes, fmt.Sprintf(`"topic_ids" and "assignable" are read only by the share-group assignor (simple); %s ignores them`, a.Name()))
	}
	return notes
}

// shareNotes says what the share assignor takes from the input that others
// do not: topic ids (from 4.1 the answer depends on them) and which
// share-partitions are initialised.
func shareNotes(g Group) []string {
	var notes []string
	if !g.release().AtLeast(4, 1, 0) {
		if g.Assignable != nil {
			notes = append(notes, fmt.Sprintf(`Kafka %s assigns share-partitions without waiting for their state to be initialised: "assignable" does not apply`, g.release()))
		}
		return notes
	}
	var derived []string
	for _, t := range SortedTopics(g.Topics) {
		if _, ok := g.TopicIDs[t]; !ok {
			derived = append(derived, t)
		}
	}
	if len(derived) > 0 {
		const show = 8
		list := derived
		if len(list) > show {
			list = append(list[:show:show], fmt.Sprintf("… (%d in all)", len(derived)))
		}
		notes = append(notes, fmt.Sprintf(`no "topic_ids" for %s: kviz derives each id from the name (UUID.nameUUIDFromBytes; --explain shows them); Kafka iterates partitions by TopicIdPartition.hashCode, so a real cluster's random ids can give another answer`, strings.Join(list, ", ")))
	}
	if g.Assignable == nil {
		return notes
	}
	var missing []string
	for _, t := range SortedTopics(g.Topics) {
		if _, ok := g.Assignable[t]; !ok && subscribedByAny(g, t) {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		notes = append(notes, fmt.Sprintf(`"assignable" does not list %s: none of %s share-partitions is initialised, so the simple assignor assigns none of them`, strings.Join(missing, ", "), map[bool]string{true: "its", false: "their"}[len(missing) == 1]))
	}
	return notes
}

// subscribedByAny reports whether some member subscribes to topic t.
func subscribedByAny(g Group, t string) bool {
	for i, m := range g.Members {
		if i > 0 && slices.Equal(m.Topics, g.Members[i-1].Topics) {
			continue
		}
		if slices.Contains(m.Topics, t) {
			return true
		}
	}
	return false
}

// subscriptionOddities lists m's topics that are not in g, and those it
// lists more than once, each once, in list order.
func subscriptionOddities(g Group, m Member) (missing, repeated []string) {
	count := make(map[string]int, len(m.Topics))
	for _, t := range m.Topics {
		count[t]++
		switch {
		case count[t] == 2:
			repeated = append(repeated, t)
		case count[t] == 1:
			if _, ok := g.Topics[t]; !ok {
				missing = append(missing, t)
			}
		}
	}
	return missing, repeated
}

// ownedElsewhere lists m's owned partitions that do not exist: of topics
// not in g, and, when the assignor does not read owned partitions at all,
// beyond their topic's count (CheckFor refuses those otherwise).
func ownedElsewhere(g Group, m Member, readsOwned bool) []string {
	var out []string
	for _, tp := range m.Owned {
		n, ok := g.Topics[tp.Topic]
		if !ok || (!readsOwned && tp.Partition >= n) {
			out = append(out, tp.String())
		}
	}
	return out
}

func doNotExist(n int) string {
	if n == 1 {
		return "does not exist"
	}
	return "do not exist"
}

func missingTopicRule(a Assignor) string {
	if serverSide(a) {
		return "the coordinator resolves subscribed names against its metadata image (TopicIds), so the assignor never sees it; the name still counts when the group decides whether all members subscribe alike (ModernGroup.subscriptionType)"
	}
	return "the leader's assignor gets only topics its metadata knows (AbstractPartitionAssignor: \"Skipping assignment for topic … since no metadata is available\"), so nobody is assigned any of it"
}

func repeatedTopicRule(a Assignor) string {
	switch {
	case serverSide(a):
		return "the coordinator holds a subscription as a set, so it counts once"
	case a.Name() == "range":
		return "range lists each member once among a topic's consumers (a LinkedHashMap), so it counts once"
	case a.Name() == "roundrobin":
		return "roundrobin only asks whether the list contains a topic, so it counts once"
	}
	return "AbstractStickyAssignor reads the list as given (a real consumer sends a set): allSubscriptionsEqual compares its length, and the general algorithm counts the member twice among the topic's potential consumers and in its maximum assignment size"
}

func ownedRule(a Assignor, g Group) string {
	switch {
	case !ReadsOwned(a):
		return a.Name() + " does not read owned partitions"
	case Supports(a, Share):
		return shareOwnedRule(g)
	case serverSide(a):
		return "the coordinator drops a topic that is gone from the member's target"
	}
	return "AbstractStickyAssignor keeps only owned partitions of topics in its metadata; the consumer revokes the rest"
}
