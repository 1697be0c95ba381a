package model

import (
	"fmt"
	"strings"

	kcluster "github.com/kvizlab/kviz/model/cluster"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/sharepart"
)

// Broker failures under a share group (confluentinc/kafka 4.0-4.3).
//
// The group coordinator: a share group's members, epochs and target are
// records in __consumer_offsets, so the broker that takes the group's
// partition over replays them and the group goes on where it was; every
// member's session timer starts again (GroupMetadataManager.onLoaded,
// scheduleShareGroupSessionTimeout). The members' heartbeats fail with
// NOT_COORDINATOR (or do not arrive) and they find the new coordinator.
//
// A share-partition's leader: the share-partition lives on the partition's
// leader (SharePartitionManager). When leadership moves, the old leader
// fences it (onBecomingFollower, markFenced) and the new leader builds it
// from what the share coordinator persisted (SharePartition.maybeInitialize,
// readState). Acquisitions are never persisted, so the records the old
// leader had locked come back AVAILABLE with the delivery count before that
// acquisition (sharepart.Reload), and a member's acknowledgement of them is
// answered INVALID_RECORD_STATE: it no longer holds them. Fetches and
// acknowledgements go to each partition's leader; a partition without one
// answers nothing until a broker recovers.

// moved is a coordinator failover (world.coordinatorMoved).
func (g *shareGroup) moved(from, to int) {
	w := g.w
	for _, m := range g.order {
		w.clock.cancel(m.session)
	}
	if to < 0 {
		w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
			"Broker %d unloads share group %s; no broker leads partition %d now.", from, w.sc.GroupID, w.cluster.groupPartition))
		return
	}
	for _, m := range g.order {
		g.scheduleSession(m)
	}
	w.record(kafka.KindCoordinatorMoved, "", "", false, fmt.Sprintf(
		"Broker %d becomes the coordinator of share group %s and replays its records: members, epochs and the target come back unchanged, and every member's session starts again (group.share.session.timeout.ms). Members rediscover it with FindCoordinator.",
		to, w.sc.GroupID))
}

// leadersMoved rebuilds the share-partitions whose leader changed.
func (g *shareGroup) leadersMoved(changes []kcluster.LeaderChange, kind kafka.StepKind) {
	w := g.w
	var texts []string
	for _, ch := range changes {
		if ch.Topic == kcluster.OffsetsTopic {
			continue
		}
		tp := kafka.TP{Topic: ch.Topic, Partition: int32(ch.Partition)}
		p := g.parts[tp]
		if p == nil {
			continue
		}
		lost := map[string][]int64{}
		for _, r := range p.Records() {
			if r.State == sharepart.Acquired {
				lost[r.MemberID] = append(lost[r.MemberID], r.Offset)
			}
		}
		trs := p.Reload(fmt.Sprintf("broker %d's locks are gone; the share coordinator never stored the acquisition", ch.From))
		for id, offs := range lost {
			g.noteLost(tp, id, offs)
		}
		g.partsDirty = true
		g.armLock(tp)
		where := fmt.Sprintf("moves from broker %d to broker %d", ch.From, ch.To)
		if ch.To < 0 {
			where = fmt.Sprintf("loses its leader (broker %d): no live in-sync replica is left, so nobody fetches from it until one recovers", ch.From)
		} else if ch.From < 0 {
			where = fmt.Sprintf("gets a leader again, broker %d", ch.To)
		}
		text := fmt.Sprintf("Share-partition %s-%d %s; the new leader reads its state from the share coordinator.", tp.Topic, tp.Partition, where)
		if ch.To >= 0 || len(trs) > 0 {
			if len(trs) > 0 {
				text += " " + transitionsText(tp, trs)
			} else {
				text += " No record was locked."
			}
			text += startText(p)
		}
		texts = append(texts, text)
	}
	if len(texts) > 0 {
		w.record(kind, "", "", false, strings.Join(texts, " "))
	}
}

// noteLost remembers the offsets of tp a leader change took from member
// id, so its acknowledgement of them is Kafka's INVALID_RECORD_STATE, not
// the scenario's mistake.
func (g *shareGroup) noteLost(tp kafka.TP, id string, offs []int64) {
	if g.lost == nil {
		g.lost = map[kafka.TP]map[int64]string{}
	}
	m := g.lost[tp]
	if m == nil {
		m = map[int64]string{}
		g.lost[tp] = m
	}
	for _, o := range offs {
		m[o] = id
	}
}

// lostBy: every offset of offs that memberID does not hold was taken from
// it by a leader change.
func (g *shareGroup) lostBy(tp kafka.TP, memberID string, offs []int64) bool {
	p := g.parts[tp]
	any := false
	for _, o := range offs {
		if held := p != nil && holds(p.Held(memberID), o); held {
			continue
		}
		if g.lost[tp][o] != memberID {
			return false
		}
		any = true
	}
	return any
}

func holds(offs []int64, o int64) bool {
	for _, x := range offs {
		if x == o {
			return true
		}
	}
	return false
}

// leaderUp: tp's partition has a live leader, the broker a ShareFetch or
// ShareAcknowledge for it goes to.
func (g *shareGroup) leaderUp(tp kafka.TP) bool {
	l, err := g.w.cluster.k.Leader(tp.Topic, int(tp.Partition))
	return err == nil && l >= 0
}
