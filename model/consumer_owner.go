package model

import (
	"github.com/kvizlab/kviz/model/kafka"
)

// ownerIndex is the coordinator's partition -> holding member index (what
// GroupMetadataManager keeps as the current partition epochs): per topic, a
// slice by partition number, since a reconciliation looks up every
// partition of a target and a thousand-member group reconciles often.
type ownerIndex struct {
	topics map[string][]string // topic -> member id by partition ("" = free)
	// The last topic asked for: a target is mostly one topic.
	lastTopic string
	last      []string
}

// get is the member holding tp, or "".
func (o *ownerIndex) get(tp kafka.TP) string {
	ps := o.of(tp.Topic)
	if int(tp.Partition) >= len(ps) {
		return ""
	}
	return ps[tp.Partition]
}

// set records that id holds tp ("" frees it).
func (o *ownerIndex) set(tp kafka.TP, id string) {
	ps := o.of(tp.Topic)
	if int(tp.Partition) >= len(ps) {
		if id == "" {
			return
		}
		ps = append(ps, make([]string, int(tp.Partition)+1-len(ps))...)
		if o.topics == nil {
			o.topics = map[string][]string{}
		}
		o.topics[tp.Topic] = ps
		o.lastTopic, o.last = tp.Topic, ps
	}
	ps[tp.Partition] = id
}

func (o *ownerIndex) of(topic string) []string {
	if topic != o.lastTopic || o.last == nil {
		o.lastTopic, o.last = topic, o.topics[topic]
	}
	return o.last
}
