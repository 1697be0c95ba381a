package model_test

import (
	"fmt"
	"sort"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// heldIDs follows, through a trace, which topic id each held partition is
// of, so that ownership is judged as Kafka judges it (model/topic_ids.go).
// A topic deleted and created again under its name is another topic: the
// consumer (KIP-848) coordinator keys assignments and partition epochs by
// topic id, so a member still holding the old t1-0 while another is given
// the new t1-0 is no double ownership (CurrentAssignmentBuilder: the new
// partition has no current epoch, so it is assigned at once). A classic
// group's books are names (TopicPartition; the coordinator never reads
// assignments), so there t1-0 is t1-0 whatever its id. A partition's id is
// the one it had in the member's target when the coordinator last put it
// there (an answer computed before a deletion may reach the client after
// the name has a new topic: its client still resolves the old id in its
// metadata and holds the old partition), else the topic's when the member
// began to hold it: a client holds a partition of one id until it lets it
// go (under KIP-848 it revokes the old id's before it may take the new
// one's; a classic client never sees ids at all).
type heldIDs struct {
	ids      map[string]int              // topic -> its id: how often it appeared anew
	present  map[string]bool             // the topics of the last step (nil before the first)
	held     map[string]map[kafka.TP]int // member -> partition -> the id it holds
	targeted map[string]map[kafka.TP]int // member -> partition -> its id when last in the member's target
}

func newHeldIDs() *heldIDs {
	return &heldIDs{ids: map[string]int{}, held: map[string]map[kafka.TP]int{}, targeted: map[string]map[kafka.TP]int{}}
}

// target notes the ids of the partitions in each member's target at st.
func (h *heldIDs) target(st model.Step) {
	for m, topics := range st.Target {
		mine := h.targeted[m]
		if mine == nil {
			mine = map[kafka.TP]int{}
			h.targeted[m] = mine
		}
		for topic, ps := range topics {
			for _, p := range ps {
				mine[kafka.TP{Topic: topic, Partition: p}] = h.ids[topic]
			}
		}
	}
}

// holding is one member's hold on a partition, keyed for the double-owner check.
type holding struct {
	member, key string
	tp          kafka.TP
}

// owners reads step st (steps in order): each held partition, keyed by
// name under a classic group and by name and topic id under a consumer group.
func (h *heldIDs) owners(st model.Step, topics []model.TopicView) []holding {
	present := make(map[string]bool, len(topics))
	for _, t := range topics {
		present[t.Name] = true
		if h.present != nil && !h.present[t.Name] {
			h.ids[t.Name]++ // created during the run: a new id
		}
	}
	h.present = present
	h.target(st)
	byID := st.GroupState.Consumer()
	var out []holding
	next := make(map[string]map[kafka.TP]int, len(st.Owned))
	for m, topics := range st.Owned {
		mine := map[kafka.TP]int{}
		for topic, ps := range topics {
			for _, p := range ps {
				tp := kafka.TP{Topic: topic, Partition: p}
				id, ok := h.held[m][tp]
				if !ok {
					id, ok = h.targeted[m][tp]
				}
				if !ok {
					id = h.ids[topic]
				}
				mine[tp] = id
				key := fmt.Sprintf("%s-%d", topic, p)
				if byID {
					key = fmt.Sprintf("%s-%d (topic id %d)", topic, p, id)
				}
				out = append(out, holding{m, key, tp})
			}
		}
		next[m] = mine
	}
	h.held = next
	sort.Slice(out, func(i, j int) bool {
		if out[i].key != out[j].key {
			return out[i].key < out[j].key
		}
		return out[i].member < out[j].member
	})
	return out
}
