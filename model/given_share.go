package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// A share group's given start (scenario/given_share.go): at time 0 the
// coordinator holds the group at its group and assignment epochs with each
// member at its member epoch, holding its assignment, which is also its
// target (ShareGroupDescribe shows no targets); the subscribed topics'
// partition counts are the ones the group epoch was computed for, so
// nothing bumps it unless something changes. The share-partitions with a
// start offset are initialised, as are the owned ones (from 4.1 the
// assignor assigns only those); each restores from its persisted state
// batches (sharepart.Restore). Each member is a running share consumer that
// heartbeats every group.share.heartbeat.interval.ms from time 0 (the
// interval an answer gave it long ago) with its member epoch; its share
// session is open but it holds no records: acquisition locks are not
// persisted, and a given start begins where the persisted state ends.

// runShareGiven plays a share scenario from its given start: runShare for
// a group already running.
func (w *world) runShareGiven() error {
	w.startShareGiven()
	coord := fmt.Sprintf("broker %d, leader of __consumer_offsets partition %d", w.cluster.coordinator(), w.cluster.groupPartition)
	w.record(kafka.KindGroupStateChanged, "", "", false, scenario.ShareGivenText(w.sc, coord))
	return w.play(w.applyShare, w.share.quiet, w.quietStretch) // as runShare: heartbeat cycles jumped
}

// startShareGiven installs the given state before the first step.
func (w *world) startShareGiven() {
	g, sc := w.share, w.sc
	g.groupEpoch, g.assignEpoch = sc.Generation, sc.StartAssignmentEpoch()
	taken := w.takenMemberIDs()
	target := make(map[string][]kafka.TP, len(sc.Members))
	for _, spec := range sc.Members {
		c := newClient(w, spec.ID, "", spec.Topics)
		w.clients = append(w.clients, c)
		w.byID[spec.ID] = c
		c.configure(spec.Settings)
		c.consumerProto = false
		c.memberID = spec.MemberID
		if c.memberID == "" {
			c.memberID = w.givenMemberID(c, taken) // a share consumer makes its own (KIP-1082)
		}
		taken[c.memberID] = true
		epoch := spec.StartEpoch(sc)
		m := &shareMember{id: c.memberID, client: c.id, topics: c.topics, epoch: epoch, assigned: spec.Owned}
		g.members[m.id] = m
		g.order = append(g.order, m)
		target[m.id] = spec.Owned
		s := &shareClient{c: c, epoch: epoch, intervalMs: sc.HeartbeatIntervalMs}
		g.clients[c] = s
		c.inc++
		c.running, c.startedAt = true, 0
		c.coord = w.cluster.coordinator()
		c.generation, c.owned = epoch, spec.Owned
		c.setStatus(kafka.StatusActive)
		s.schedule(0)
		g.scheduleSession(m)
	}
	g.target = target
	g.subscribed = g.subscribedCounts()
	for _, sp := range sc.Share.Partitions {
		if !sp.Initialised {
			g.logEnds[sp.TP] = sp.LogEnd
			continue
		}
		g.initialised[sp.TP] = true
		g.parts[sp.TP] = sharepart.Restore(shareConfig(sc), sp.StartOffset, sp.LogEnd, givenRecords(sp))
	}
	for _, tps := range target {
		for _, tp := range tps {
			if !g.initialised[tp] {
				g.initialised[tp] = true
				g.part(tp) // initialised at offset 0 of an empty log
			}
		}
	}
	g.partsDirty = true
}

// givenRecords are a share-partition's persisted batches as records.
func givenRecords(sp scenario.SharePartitionState) []sharepart.Record {
	var out []sharepart.Record
	for _, b := range sp.Batches {
		st := sharepart.Available
		switch b.State {
		case "acknowledged":
			st = sharepart.Acknowledged
		case "archived":
			st = sharepart.Archived
		}
		for o := b.First; o <= b.Last; o++ {
			out = append(out, sharepart.Record{Offset: o, State: st, Deliveries: b.DeliveryCount})
		}
	}
	return out
}
