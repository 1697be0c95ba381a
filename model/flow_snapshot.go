package model

import (
	"slices"

	"github.com/kvizlab/kviz/model/produce"
	"github.com/kvizlab/kviz/strategies"
)

// rateWindowMs is the shortest span a partition's records/s is measured
// over: steps a few milliseconds apart (a JoinGroup round) would otherwise
// see batches land in bursts and show rates that jump about.
const rateWindowMs = 1000

// hotFactor: a partition is hot at this many times the mean rate of its
// topic's partitions that receive records. Partitions that receive none (just
// added, or skipped by a sticky partitioner) do not lower the bar, and a
// sticky partitioner's one current partition is not hot on its own.
const hotFactor = 2

// maxQueuesInView bounds ProducerView.Queues: a screen names a few
// partitions' batches, and a thousand-partition topic's views must stay small.
const maxQueuesInView = 8

// view snapshots the data path now.
func (f *flow) view() *FlowView {
	now := f.sim.NowMs()
	f.sampleRates(now)
	v := &FlowView{TimeMs: now, Topics: make([]FlowTopic, len(f.topics))}
	for i, t := range f.topics {
		v.Topics[i] = f.shareTopic(i, f.topicView(t))
	}
	for i, p := range f.sim.Producers() {
		v.Records += p.Records
		pv := producerView(p, f.sim.PartitionCount(p.Topic()))
		if i < len(f.sc.Flow.Producers) { // the rest are made for produce: entries, at the latest version
			cfg := f.sc.Flow.Producers[i]
			pv.Version = cfg.Version
			if cfg.Keys.Kind == produce.KeysHot {
				r := strategies.RouteKey([]byte(cfg.Keys.Hot), f.sim.PartitionCount(cfg.Topic))
				pv.HotKey, pv.HotShare, pv.HotPartition, pv.HotLine = cfg.Keys.Hot, cfg.Keys.HotShare, r.Partition, r.Line()
			}
		}
		v.Producers = append(v.Producers, pv)
	}
	v.Readers = f.readerViews()
	v.Brokers = f.brokerViews()
	if f.last != nil && slices.Equal(v.Brokers, f.last.Brokers) {
		v.Brokers = f.last.Brokers
	}
	evs := f.sim.Events()
	for _, e := range evs[max(0, len(evs)-maxFlowEvents):] {
		v.Events = append(v.Events, e.Text)
	}
	if f.last != nil && slices.Equal(v.Events, f.last.Events) {
		v.Events = f.last.Events
	}
	f.last = v
	return v
}

// shareTopic returns the previous view's copy of topic i when nothing in it
// changed (an idle topic, a group at rest), so a long run keeps one copy of
// what stood still instead of one per step.
func (f *flow) shareTopic(i int, t FlowTopic) FlowTopic {
	if f.last == nil || i >= len(f.last.Topics) {
		return t
	}
	prev := f.last.Topics[i]
	if slices.EqualFunc(prev.Partitions, t.Partitions, samePartition) {
		return prev
	}
	return t
}

func samePartition(a, b FlowPartition) bool {
	return a.Partition == b.Partition && a.Owner == b.Owner && a.LogEnd == b.LogEnd && a.Committed == b.Committed &&
		a.Position == b.Position && a.Lag == b.Lag && a.LagKnown == b.LagKnown && a.Consumed == b.Consumed &&
		a.Duplicates == b.Duplicates && a.PerSec == b.PerSec && a.Hot == b.Hot && a.Leader == b.Leader &&
		slices.Equal(a.Replicas, b.Replicas) && slices.Equal(a.ISR, b.ISR)
}

// sampleRates recomputes records/s once at least rateWindowMs has passed.
func (f *flow) sampleRates(now int64) {
	dt := now - f.rateAt
	if dt < rateWindowMs {
		return
	}
	for _, t := range f.topics {
		base, rates := f.rateBase[t], f.rates[t]
		for p := range rates {
			end, _ := f.sim.LogEnd(t, p)
			rates[p] = float64(end-base[p]) * 1000 / float64(dt)
			base[p] = end
		}
	}
	f.rateAt = now
}

func (f *flow) topicView(t string) FlowTopic {
	rates := f.rates[t]
	reps := f.replicas[t]
	var mean float64
	busy := 0
	for _, r := range rates {
		if r > 0 {
			mean += r
			busy++
		}
	}
	mean /= float64(max(1, busy))
	tv := FlowTopic{Name: t, Partitions: make([]FlowPartition, len(rates))}
	views, _ := f.group.Partitions(t)
	for p := range rates {
		var pv produce.PartitionView
		if p < len(views) {
			pv = views[p]
		}
		fp := FlowPartition{Partition: int32(p), Owner: pv.Owner, LogEnd: pv.LogEnd, Committed: pv.Committed,
			Position: pv.Position, Lag: pv.Lag, LagKnown: pv.LagKnown, Consumed: pv.Consumed,
			Duplicates: pv.Duplicates, PerSec: rates[p], Leader: -1}
		fp.Hot = busy > 1 && rates[p] >= hotFactor*mean
		if p < len(reps) {
			// Shared with every view until the next broker event: read-only.
			fp.Leader, fp.Replicas, fp.ISR = reps[p].Leader, reps[p].Replicas, reps[p].ISR
		}
		tv.Partitions[p] = fp
	}
	return tv
}

func producerView(p *produce.Producer, partitions int) ProducerView {
	pv := ProducerView{Name: p.Name(), Topic: p.Topic(), Partitioner: p.Partitioner().Name(), Records: p.Records,
		LastPartition: -1, BatchSize: p.BatchSize(), LingerMs: p.LingerMs(), BatchesSent: p.BatchesSent()}
	var queued []int
	queued, pv.QueuedPartitions = p.QueuedPartitions(maxQueuesInView)
	for _, q := range queued {
		pv.Queues = append(pv.Queues, ProducerQueue{Partition: q, Batches: p.Queue(q)})
	}
	if last, ok := p.LastSent(); ok {
		pv.LastSent = &last
	}
	if p.Records > 0 {
		pv.LastKey, pv.LastPartition, pv.LastLine = p.LastKey, p.Last.Partition, p.LastLine()
		pv.Route = routeOf(p.Last, p.LastKey, partitions)
	}
	return pv
}

func (f *flow) brokerViews() []FlowBroker {
	bs := f.cluster.Brokers()
	out := make([]FlowBroker, len(bs))
	index := map[int]int{}
	for i, b := range bs {
		out[i] = FlowBroker{ID: b.ID, Up: b.Alive}
		index[b.ID] = i
	}
	for _, t := range f.topics {
		for _, p := range f.replicas[t] {
			if i, ok := index[p.Leader]; ok {
				out[i].Leads++
			}
			for _, r := range p.Replicas {
				out[index[r]].Replicas++
			}
		}
	}
	return out
}

// routeOf is the murmur2 path of a keyed choice, nil otherwise.
func routeOf(c strategies.PartitionChoice, key []byte, partitions int) []string {
	if c.Kind != strategies.ChoseKey || key == nil || partitions < 1 {
		return nil
	}
	return strategies.RouteKey(key, partitions).Steps()
}
