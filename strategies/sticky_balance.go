package strategies

// maxReassignmentRounds bounds performReassignments' outer loop. Kafka has no
// bound; its loop ends because every round either moves nothing or improves
// the counts. The bound only guards kviz against looping forever if that
// reasoning ever failed; it is far above anything a real group needs.
const maxReassignmentRounds = 1 << 16

// performReassignments walks the partitions, while the assignment is not
// balanced, moving each to a member that holds at least two fewer: first
// back to its previous-generation owner if that one qualifies, else to the
// first subscriber in (count, id) order. It repeats while anything moved.
func (b *generalBuilder) performReassignments(pids []int32) bool {
	performed := false
	for round := 0; round < maxReassignmentRounds; round++ {
		modified := false
		for _, pid := range pids {
			if b.isBalanced() {
				break
			}
			if b.reassignOne(pid) {
				performed, modified = true, true
			}
		}
		if !modified {
			break
		}
	}
	return performed
}

// reassignOne is the body of Kafka's loop for one partition.
func (b *generalBuilder) reassignOne(pid int32) bool {
	in := b.in
	consumer := int(b.owner[pid])
	if consumer < 0 {
		return false // Kafka logs "Expected partition to be assigned"
	}
	if prev := int(b.prevOwner[pid]); prev >= 0 {
		if b.fixed[prev] {
			// Kafka looks the previous owner up among the members in play and
			// throws a NullPointerException; kviz notes it and goes on.
			b.noteKafkaFailure(pid, prev)
		} else if b.count[consumer] > b.count[prev]+1 {
			b.reassignTo(pid, prev, "back to its previous owner")
			return true
		}
	}
	t := int(in.topicOf[pid])
	if in.racks.onRack(consumer, pid) {
		racks := in.racks.partRacks[pid]
		onRack := func(rack string) bool { return rack != "" && racks[rack] }
		if min := b.order.minCountFor(t, onRack); min >= 0 && b.count[consumer] > min+1 {
			b.reassign(pid)
			return true
		}
	}
	if min := b.order.minCountFor(t, nil); min >= 0 && b.count[consumer] > min+1 {
		b.reassign(pid)
		return true
	}
	return false
}

func (b *generalBuilder) noteKafkaFailure(pid int32, prev int) {
	if b.kafkaWouldFail {
		return
	}
	b.kafkaWouldFail = true
	if b.ex.Enabled() {
		b.ex.Addf("warning: Kafka's assignor throws NullPointerException here (%s's previous owner %s takes no part in balancing); kviz skips that step", b.in.tp(pid), b.in.ids[prev])
	}
}

// reassign moves pid to the first member, in (count, id) order, subscribed
// to its topic.
func (b *generalBuilder) reassign(pid int32) {
	to := b.order.firstFor(int(b.in.topicOf[pid]), nil)
	if to < 0 {
		return
	}
	b.reassignTo(pid, to, "to balance")
}

// reassignTo moves pid, or the partition that stickiness says should move
// instead, to member `to`.
func (b *generalBuilder) reassignTo(pid int32, to int, why string) {
	from := int(b.owner[pid])
	actual := b.moves.actualPartitionToMove(pid, from, to)
	old := int(b.owner[actual])
	b.moves.move(actual, old, to)
	b.order.dec(old)
	b.order.inc(to)
	b.owner[actual] = int32(to)
	b.version++
	if b.ex.Enabled() {
		b.ex.Addf("%s moves %s → %s (%s)", b.in.tp(actual), b.in.ids[old], b.in.ids[to], why)
	} else {
		b.ex.Skip()
	}
}

// isBalanced is Kafka's criterion: counts differ by at most one, or no
// member could take a partition of its topics from a member holding at
// least two more. The answer is cached until the assignment changes.
func (b *generalBuilder) isBalanced() bool {
	if b.balancedVersion == b.version {
		return b.balancedCache
	}
	b.balancedCache = b.computeBalanced()
	b.balancedVersion = b.version
	return b.balancedCache
}

func (b *generalBuilder) computeBalanced() bool {
	in := b.in
	if b.order.size == 0 {
		return true
	}
	min, max := b.order.minMax()
	if min >= max-1 {
		return true
	}
	// topicMax[t] = most partitions held by any member in play holding a
	// partition of t. A member can take from t iff topicMax[t] > its count+1
	// (its own count never exceeds that, so it need not be excluded).
	topicMax := make([]int, len(in.topics))
	for pid, m := range b.owner {
		if m < 0 || b.fixed[m] {
			continue
		}
		t := in.topicOf[pid]
		if c := b.count[m]; c > topicMax[t] {
			topicMax[t] = c
		}
	}
	for m := range in.members {
		if b.fixed[m] || b.count[m] == b.maxSize[m] {
			continue
		}
		for _, t := range in.subscribed[m] {
			if topicMax[t] > b.count[m]+1 {
				return false
			}
		}
	}
	return true
}
