package model

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
)

// The record-lock lab: each share-partition's records (model/sharepart)
// as the partition leader keeps them (core SharePartition), moved by the
// timeline's records, fetch and acknowledge, by locks timing out and by
// share sessions closing. kviz answers a ShareFetch for all of a member's
// partitions in one request (Kafka sends one per leader broker).

// SharePartitionView is one share-partition after a step.
type SharePartitionView struct {
	TP      kafka.TP
	Start   int64 // share-partition start offset (SPSO)
	End     int64 // share-partition end offset (SharePartition.endOffset)
	LogEnd  int64 // the partition's log end offset
	Records []sharepart.Record
	// Capped: records wait in the log past the in-flight cap
	// (group.share.partition.max.record.locks).
	Capped bool
}

// SharePartitions is the share-partitions after step i (share groups
// only; nil otherwise), in topic and partition order. Shared, read-only.
func (s *Sim) SharePartitions(i int) []SharePartitionView {
	return s.steps[s.clamp(i)].g.shares
}

// part is tp's share-partition, made on first use at the start offset
// share.auto.offset.reset gives (SharePartition.startOffsetDuringInitialization).
func (g *shareGroup) part(tp kafka.TP) *sharepart.Partition {
	if p := g.parts[tp]; p != nil {
		return p
	}
	end := g.logEnds[tp]
	start := end // latest
	if g.w.sc.Share.AutoOffsetReset == "earliest" {
		start = 0
	}
	p := sharepart.New(shareConfig(g.w.sc), start, end)
	g.parts[tp] = p
	g.partsDirty = true
	return p
}

// sharesView publishes the share-partitions (a new slice when changed).
func (g *shareGroup) sharesView() []SharePartitionView {
	if !g.partsDirty {
		return g.partsView
	}
	g.partsDirty = false
	var tps []kafka.TP
	for tp := range g.parts {
		tps = append(tps, tp)
	}
	kafka.SortTPs(tps)
	out := make([]SharePartitionView, 0, len(tps))
	for _, tp := range tps {
		p := g.parts[tp]
		out = append(out, SharePartitionView{TP: tp, Start: p.Start(), End: p.End(), LogEnd: p.LogEnd(), Records: p.Records(), Capped: p.Capped()})
	}
	g.partsView = out
	return out
}

// appendRecords writes n records to tp.
func (w *world) appendRecords(tp kafka.TP, n int) {
	g := w.share
	var first int64
	if p := g.parts[tp]; p != nil {
		first = p.Append(n)
		g.partsDirty = true
	} else {
		first = g.logEnds[tp]
		g.logEnds[tp] += int64(n)
	}
	note := ""
	if g.parts[tp] == nil {
		note = fmt.Sprintf(" No share-partition exists for it yet: its start offset will follow share.auto.offset.reset (%s).", w.sc.Share.AutoOffsetReset)
	}
	w.record(kafka.KindRecordsAppended, "", "", false, fmt.Sprintf("%d record(s) are written to %s-%d (offsets %s); its log ends at %d.%s",
		n, tp.Topic, tp.Partition, offsetRange(first, first+int64(n)-1), first+int64(n), note))
}

// shareFetch is a member's ShareFetch of its partitions: the leader
// acquires up to max.poll.records for it (SharePartition.acquire).
func (w *world) shareFetch(c *client, ev scenario.Event) {
	g := w.share
	if c.status == kafka.StatusStalled {
		w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf("%s is stalled: its application does not poll, so it fetches nothing.", c.id))
		return
	}
	tps := c.owned
	if len(tps) == 0 {
		w.record(kafka.KindShareFetchRequest, c.id, "", false, fmt.Sprintf("%s polls, but holds no partitions: nothing to fetch.", c.id))
		return
	}
	maxRecords := int(ev.Share.MaxRecords)
	w.record(kafka.KindShareFetchRequest, c.id, "", false, fmt.Sprintf("%s sends ShareFetch for %s (max.poll.records %d).", c.id, fmtShort(tps), maxRecords))
	c.toLeaders(func() {
		var parts []string
		left := maxRecords
		for _, tp := range tps {
			if left <= 0 {
				break
			}
			if g.gated() && !g.initialised[tp] {
				continue
			}
			if !g.leaderUp(tp) {
				parts = append(parts, fmt.Sprintf("%s-%d nothing: it has no leader (NOT_LEADER_OR_FOLLOWER)", tp.Topic, tp.Partition))
				continue
			}
			p := g.part(tp)
			got := p.AcquireAs(c.id, c.memberID, left, w.clock.now)
			left -= len(got)
			for _, r := range got {
				delete(g.lost[tp], r.Offset)
			}
			if len(got) > 0 {
				g.partsDirty = true
				parts = append(parts, fmt.Sprintf("%s-%d %s (%s), locked until %d ms", tp.Topic, tp.Partition,
					offsetsWord(got[0].Offset, got[len(got)-1].Offset), deliveriesText(got), got[0].DeadlineMs))
				g.armLock(tp)
			} else if p.Capped() {
				parts = append(parts, fmt.Sprintf("%s-%d nothing: %d records are in flight, the cap (group.share.partition.max.record.locks)", tp.Topic, tp.Partition, p.InFlight()))
			}
		}
		c.reply(false, func() {
			text := fmt.Sprintf("%s acquires nothing: no record of its partitions is AVAILABLE.", c.id)
			if len(parts) > 0 {
				text = fmt.Sprintf("%s acquires %s (group.share.record.lock.duration.ms %d): ACQUIRED, no other member gets them meanwhile.", c.id, strings.Join(parts, "; "), w.sc.Share.RecordLockMs)
			}
			w.record(kafka.KindShareFetchResponse, c.id, "NONE", false, text)
		})
	})
}

// toLeaders delivers a share request to the partitions' leaders after the
// network delay (each partition's leader answers for it: leaderUp), to this
// incarnation of the client.
func (c *client) toLeaders(handle func()) {
	inc := c.inc
	c.w.clock.after(netMs, false, func() {
		if c.inc == inc {
			handle()
		}
	})
}

// shareAcknowledge applies a member's acknowledgement. One of a record the
// member does not hold is the scenario's mistake: the run stops with the
// entry's line (Kafka would answer INVALID_RECORD_STATE).
func (w *world) shareAcknowledge(c *client, ev scenario.Event) {
	g := w.share
	tp := kafka.TP{Topic: ev.Topic, Partition: ev.Share.Partition}
	t, _ := sharepart.ParseAckType(ev.Share.Type)
	if c.status == kafka.StatusStalled {
		w.record(kafka.KindPollStalled, c.id, "", false, fmt.Sprintf("%s is stalled: its application acknowledges nothing.", c.id))
		return
	}
	w.record(kafka.KindShareAcknowledgeRequest, c.id, "", false, fmt.Sprintf("%s acknowledges %s-%d %s: %s.", c.id, tp.Topic, tp.Partition, offsetsListWord(ev.Share.Offsets), t))
	c.toLeaders(func() {
		if !g.leaderUp(tp) {
			c.reply(false, func() {
				w.record(kafka.KindShareAcknowledgeResponse, c.id, "NOT_LEADER_OR_FOLLOWER", false, fmt.Sprintf(
					"%s-%d has no leader: %s's acknowledgement fails (NOT_LEADER_OR_FOLLOWER). The broker that held its locks is gone; the next leader reads the stored state.", tp.Topic, tp.Partition, c.id))
			})
			return
		}
		p := g.parts[tp]
		if p == nil {
			g.refuseAck(c, ev, tp, fmt.Sprintf("%s holds no record of %s-%d: nothing was fetched from it", c.id, tp.Topic, tp.Partition))
			return
		}
		trs, err := p.AcknowledgeAs(c.id, c.memberID, ev.Share.Offsets, t, w.clock.now)
		if err != nil {
			if g.lostBy(tp, c.memberID, ev.Share.Offsets) {
				c.reply(false, func() {
					w.record(kafka.KindShareAcknowledgeResponse, c.id, "INVALID_RECORD_STATE", false, fmt.Sprintf(
						"%s-%d %s: %s no longer holds them; the leader that locked them for it changed, and its successor holds no lock on them. The acknowledgement fails (INVALID_RECORD_STATE): nothing changes, and the records go to whoever fetches them next.",
						tp.Topic, tp.Partition, offsetsListWord(ev.Share.Offsets), c.id))
				})
				return
			}
			g.refuseAck(c, ev, tp, fmt.Sprintf("%s cannot acknowledge %s-%d: %v", c.id, tp.Topic, tp.Partition, err))
			return
		}
		g.partsDirty = true
		g.armLock(tp)
		c.reply(false, func() {
			w.record(kafka.KindShareAcknowledgeResponse, c.id, "NONE", false, transitionsText(tp, trs)+startText(p))
		})
	})
}

// armLock sets tp's acquisition lock timer at its earliest deadline.
func (g *shareGroup) armLock(tp kafka.TP) {
	w := g.w
	w.clock.cancel(g.lockTimers[tp])
	delete(g.lockTimers, tp)
	d, ok := g.parts[tp].NextDeadline()
	if !ok {
		return
	}
	g.lockTimers[tp] = w.clock.after(d-w.clock.now, false, func() {
		delete(g.lockTimers, tp)
		p := g.parts[tp]
		trs := p.Expire(w.clock.now)
		if len(trs) > 0 {
			g.partsDirty = true
			w.record(kafka.KindAcquisitionLockTimeout, "", "", false, transitionsText(tp, trs)+startText(p))
		}
		g.armLock(tp)
	})
}

// releaseHeld releases every record c holds (a closing share session).
func (w *world) releaseHeld(c *client, why string) {
	g := w.share
	var texts []string
	for _, tp := range g.sortedParts() {
		trs := g.parts[tp].ReleaseMemberAs(c.id, c.memberID)
		if len(trs) > 0 {
			g.partsDirty = true
			texts = append(texts, transitionsText(tp, trs))
			g.armLock(tp)
		}
	}
	if len(texts) > 0 {
		w.record(kafka.KindShareAcknowledgeRequest, c.id, "", false, why+": its share sessions end (ShareAcknowledge with the final epoch), releasing what it held. "+strings.Join(texts, " "))
	}
}

func (g *shareGroup) sortedParts() []kafka.TP {
	var tps []kafka.TP
	for tp := range g.parts {
		tps = append(tps, tp)
	}
	return kafka.SortTPs(tps)
}

// heldText names the records member holds, " It holds t0-0 offsets 0–2."
func (w *world) heldText(member string) string {
	g := w.share
	var parts []string
	for _, tp := range g.sortedParts() {
		if h := g.parts[tp].Held(member); len(h) > 0 {
			parts = append(parts, fmt.Sprintf("%s-%d %s", tp.Topic, tp.Partition, offsetsListWord(h)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " It holds " + strings.Join(parts, ", ") + "."
}

// transitionsText says why each record moved, grouping like moves.
func transitionsText(tp kafka.TP, trs []sharepart.Transition) string {
	var b strings.Builder
	for i := 0; i < len(trs); {
		j := i + 1
		for j < len(trs) && trs[j].To == trs[i].To && trs[j].Why == trs[i].Why && trs[j].Offset == trs[j-1].Offset+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s-%d %s: %s → %s (%s).", tp.Topic, tp.Partition, offsetsWord(trs[i].Offset, trs[j-1].Offset), trs[i].From, trs[i].To, trs[i].Why)
		i = j
	}
	return b.String()
}

func startText(p *sharepart.Partition) string {
	return fmt.Sprintf(" Share-partition start offset %d, end %d.", p.Start(), p.End())
}

func deliveriesText(rs []sharepart.Record) string {
	lo, hi := rs[0].Deliveries, rs[0].Deliveries
	for _, r := range rs {
		lo, hi = min(lo, r.Deliveries), max(hi, r.Deliveries)
	}
	if lo == hi {
		return fmt.Sprintf("delivery %d", lo)
	}
	return fmt.Sprintf("deliveries %d–%d", lo, hi)
}

// offsetsWord is "offset 3" or "offsets 0–2".
func offsetsWord(a, b int64) string {
	if a == b {
		return fmt.Sprintf("offset %d", a)
	}
	return "offsets " + offsetRange(a, b)
}

func offsetRange(a, b int64) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d–%d", a, b)
}

// offsetsListWord is "offset 3" or "offsets 0–2, 5".
func offsetsListWord(offs []int64) string {
	if len(offs) == 1 {
		return fmt.Sprintf("offset %d", offs[0])
	}
	return "offsets " + offsetList(offs)
}

// offsetList names offsets as runs: 0–2, 5.
func offsetList(offs []int64) string {
	var parts []string
	for i := 0; i < len(offs); {
		j := i + 1
		for j < len(offs) && offs[j] == offs[j-1]+1 {
			j++
		}
		parts = append(parts, offsetRange(offs[i], offs[j-1]))
		i = j
	}
	return strings.Join(parts, ", ")
}
