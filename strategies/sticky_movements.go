package strategies

// stickyMovements is AbstractStickyAssignor.PartitionMovements: it remembers
// where each partition moved from during one general assignment, so that a
// later move between the same two members in the opposite direction sends an
// earlier mover back instead of a new partition. Which earlier mover goes
// back is the first element of a java.util.HashSet<TopicPartition>, so the
// sets are JavaHashMaps keyed by TopicPartition.hashCode().
type stickyMovements struct {
	in       *stickyInput
	hash     func(pid int32) int32           // TopicPartition.hashCode()
	moved    map[int32]movePair              // partition -> (first source, current destination)
	sets     map[moveKey]*JavaHashMap[int32] // (topic, src, dst) -> partitions
	perTopic map[int32]int                   // topic -> how many (src, dst) sets it has
}

type movePair struct{ src, dst int }

type moveKey struct {
	topic    int32
	src, dst int
}

func newStickyMovements(in *stickyInput) *stickyMovements {
	topicHash := in.topicHashes()
	return &stickyMovements{
		in:       in,
		hash:     func(pid int32) int32 { return in.tpHash(pid, topicHash) },
		moved:    map[int32]movePair{},
		sets:     map[moveKey]*JavaHashMap[int32]{},
		perTopic: map[int32]int{},
	}
}

func (s *stickyMovements) removeRecord(pid int32) movePair {
	pair := s.moved[pid]
	delete(s.moved, pid)
	key := moveKey{s.in.topicOf[pid], pair.src, pair.dst}
	set := s.sets[key]
	set.Remove(pid)
	if set.Len() == 0 {
		delete(s.sets, key)
		s.perTopic[key.topic]--
	}
	return pair
}

func (s *stickyMovements) addRecord(pid int32, pair movePair) {
	s.moved[pid] = pair
	key := moveKey{s.in.topicOf[pid], pair.src, pair.dst}
	set := s.sets[key]
	if set == nil {
		set = NewJavaHashMap(s.hash)
		s.sets[key] = set
		s.perTopic[key.topic]++
	}
	set.Put(pid)
}

// move is movePartition: a partition moving back to where it came from
// forgets its movement.
func (s *stickyMovements) move(pid int32, from, to int) {
	if prev, ok := s.moved[pid]; ok {
		s.removeRecord(pid)
		if prev.src != to {
			s.addRecord(pid, movePair{prev.src, to})
		}
		return
	}
	s.addRecord(pid, movePair{from, to})
}

// actualPartitionToMove is getTheActualPartitionToBeMoved: if some partition
// of the same topic moved from `to` to the original owner, move that one
// back instead.
func (s *stickyMovements) actualPartitionToMove(pid int32, from, to int) int32 {
	topic := s.in.topicOf[pid]
	if s.perTopic[topic] == 0 {
		return pid
	}
	if prev, ok := s.moved[pid]; ok {
		from = prev.src
	}
	set := s.sets[moveKey{topic, to, from}]
	if set == nil {
		return pid
	}
	first, _ := set.First()
	return first
}
