package model

import (
	"slices"
	"strconv"

	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// FlowReader is another group reading the topics (Scenario readers:): what
// its one consumer has read and committed, per partition of its topics.
type FlowReader struct {
	Group   string
	Started bool // its consumer has started (at its at_ms)
	Reset   produce.OffsetReset
	// Read counts the records it has processed, re-reads included; LogEnd
	// the records its topics hold; Committed the sum of its committed
	// offsets (partitions without one count 0).
	Read, LogEnd, Committed int64
	Partitions              []FlowReaderPartition // topic, then partition order
}

// FlowReaderPartition is one partition as a reader group sees it.
type FlowReaderPartition struct {
	Topic     string
	Partition int32
	Committed int64 // -1 = none
	Position  int64 // -1 = none
	Read      int64
}

// startReader starts a reader group's consumer with every partition of
// its topics, as the lone member of a group is assigned them.
func (f *flow) startReader(r scenario.ReaderSpec) error {
	g := f.sim.Group(r.Group)
	if err := g.Join(r.Group, r.Consumer); err != nil {
		return err
	}
	return g.Own(r.Group, f.readerPartitions(r))
}

// growReaders gives reader groups a grown topic's new partitions at once
// (a lone member's next rebalance; the lag to its metadata refresh is not
// modelled for readers).
func (f *flow) growReaders(topic string) error {
	for _, r := range f.sc.Flow.Readers {
		if !slices.Contains(r.Topics, topic) || f.sim.NowMs() < r.AtMs {
			continue
		}
		g := f.sim.Group(r.Group)
		held := g.Owned(r.Group)
		var more []strategies.TopicPartition
		for _, tp := range f.readerPartitions(r) {
			if !slices.Contains(held, tp) {
				more = append(more, tp)
			}
		}
		if err := g.Own(r.Group, more); err != nil {
			return err
		}
	}
	return nil
}

func (f *flow) readerPartitions(r scenario.ReaderSpec) []strategies.TopicPartition {
	var tps []strategies.TopicPartition
	for _, t := range r.Topics {
		for p := range f.sim.PartitionCount(t) {
			tps = append(tps, strategies.TopicPartition{Topic: t, Partition: int32(p)})
		}
	}
	return tps
}

// readerViews is every reader group now.
func (f *flow) readerViews() []FlowReader {
	var out []FlowReader
	for _, r := range f.sc.Flow.Readers {
		v := FlowReader{Group: r.Group, Started: f.sim.NowMs() >= r.AtMs, Reset: r.Consumer.OffsetReset}
		if v.Reset == "" {
			v.Reset = produce.ResetLatest
		}
		g := f.sim.Group(r.Group)
		for _, t := range r.Topics {
			views, _ := g.Partitions(t)
			for p, pv := range views {
				v.Read += pv.Consumed
				v.LogEnd += pv.LogEnd
				v.Committed += max(pv.Committed, 0)
				v.Partitions = append(v.Partitions, FlowReaderPartition{Topic: t, Partition: int32(p),
					Committed: pv.Committed, Position: pv.Position, Read: pv.Consumed})
			}
		}
		out = append(out, v)
	}
	return out
}

// readersMap is Step.Readers: each reader group's records read, by topic
// and partition.
func readersMap(fv *FlowView) map[string]map[string]map[string]int64 {
	if len(fv.Readers) == 0 {
		return nil
	}
	out := make(map[string]map[string]map[string]int64, len(fv.Readers))
	for _, r := range fv.Readers {
		m := map[string]map[string]int64{}
		for _, p := range r.Partitions {
			if m[p.Topic] == nil {
				m[p.Topic] = map[string]int64{}
			}
			m[p.Topic][strconv.Itoa(int(p.Partition))] = p.Read
		}
		out[r.Group] = m
	}
	return out
}
