package strategies

// stickyMovements is AbstractStickyAssignor.PartitionMovements: it remembers
// where each partition moved from during one general assignment, so that a
// later move between the same two members in the opposite direction sends an
// earlier mover back instead of a new partition. Which earlier mover goes
// back is the first element of a java.util.HashSet<TopicPartition>, so the
// sets are javaHashTables keyed by TopicPartition.hashCode().
type stickyMovements struct {
	in        *stickyInput
	topicHash []int32
	moved     map[int32]movePair         // partition -> (first source, current destination)
	sets      map[moveKey]*javaHashTable // (topic, src, dst) -> partitions
	perTopic  map[int32]int              // topic -> how many (src, dst) sets it has
}

type movePair struct{ src, dst int }

type moveKey struct {
	topic    int32
	src, dst int
}

func newStickyMovements(in *stickyInput) *stickyMovements {
	return &stickyMovements{
		in:        in,
		topicHash: in.topicHashes(),
		moved:     map[int32]movePair{},
		sets:      map[moveKey]*javaHashTable{},
		perTopic:  map[int32]int{},
	}
}

func (s *stickyMovements) removeRecord(pid int32) movePair {
	pair := s.moved[pid]
	delete(s.moved, pid)
	key := moveKey{s.in.topicOf[pid], pair.src, pair.dst}
	set := s.sets[key]
	set.remove(pid)
	if set.len() == 0 {
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
		set = &javaHashTable{}
		s.sets[key] = set
		s.perTopic[key.topic]++
	}
	set.put(pid, s.in.tpHash(pid, s.topicHash))
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
	return set.first()
}
