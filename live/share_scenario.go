package live

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// importShare is Import for a share group (KIP-932): a share given start
// (model/scenario/given_share.go) from what ShareGroupDescribe,
// DescribeShareGroupOffsets, the configs and the log end offsets show: the
// group and assignment epochs, each member with its real member id, member
// epoch, subscription and the partitions it is assigned (shared), and per
// share-partition its start offset and log end. Kafka's admin API shows no
// in-flight record states (the share coordinator's state batches), so the
// records from the start offset on are imported as AVAILABLE and never
// delivered, and the notes say where the lag shows otherwise.
func (g *Group) importShare() ([]byte, *scenario.Scenario, []string, error) {
	notes := slices.Clone(g.Unknown)
	sc := g.newScenario("share group", "simple", string(strategies.Share))
	sc.Share = &scenario.ShareSpec{AutoOffsetReset: "latest"}
	if len(sc.Topics) == 0 {
		return nil, nil, nil, g.noTopics()
	}
	if g.Protocol != "" && g.Protocol != "simple" {
		notes = append(notes, fmt.Sprintf("the coordinator names the assignor %q; kviz models simple, Kafka's only share assignor", g.Protocol))
	}
	notes = append(notes, fmt.Sprintf("the brokers' Kafka release is not read: %s assumed (set group.kafka_version to the cluster's: the simple assignor differs in 4.0, 4.1 and 4.2 on)", sc.KafkaVersion.OrLatest()))
	notes = append(notes, g.shareSettings(sc)...)
	owned := map[kafka.TP]string{}
	names := memberNames(g.Members)
	for i, m := range g.Members {
		id := names[i]
		spec := scenario.MemberSpec{ID: id, MemberID: m.MemberID}
		for _, t := range m.Topics {
			spec.Topics = append(spec.Topics, t)
			if _, ok := sc.Topics[t]; !ok {
				notes = append(notes, fmt.Sprintf("%s subscribes to %s, which does not exist (kept: nothing of it is assigned)", id, t))
			}
		}
		if len(spec.Topics) == 0 {
			notes = append(notes, fmt.Sprintf("%s (member id %s) subscribes to nothing: left out", id, m.MemberID))
			continue
		}
		for _, t := range strategies.SortedTopics(m.Assignment) {
			_, exists := sc.Topics[t]
			if !exists || !slices.Contains(spec.Topics, t) {
				notes = append(notes, fmt.Sprintf("%s is assigned partitions of %s, which no longer exists or it no longer subscribes to (left out)", id, t))
				continue
			}
			for _, p := range m.Assignment[t] {
				tp := kafka.TP{Topic: t, Partition: p}
				spec.Owned = append(spec.Owned, tp)
				if _, ok := owned[tp]; !ok {
					owned[tp] = id
				}
			}
		}
		kafka.SortTPs(spec.Owned)
		if m.MemberEpoch != nil {
			spec.MemberEpoch = *m.MemberEpoch
		}
		if m.Rack != nil && *m.Rack != "" {
			notes = append(notes, fmt.Sprintf("%s's rack %s is left out: the simple assignor does not use racks", id, *m.Rack))
		}
		sc.Members = append(sc.Members, spec)
	}
	notes = g.shareEpochs(sc, notes)
	sc.Share.Partitions, notes = g.sharePartitionStates(sc, owned, notes)
	return g.writeScenario(sc, notes) // scenario.go
}

// shareEpochs sets the group and assignment epochs, and keeps each
// member's epoch within 1..the assignment epoch (the parser's rule).
func (g *Group) shareEpochs(sc *scenario.Scenario, notes []string) []string {
	sc.Generation = 1
	if g.GroupEpoch != nil && *g.GroupEpoch > 0 {
		sc.Generation = *g.GroupEpoch
	} else {
		notes = append(notes, "the group epoch is unknown; 1 assumed")
	}
	if a := g.AssignmentEpoch; a != nil && *a >= 1 && *a < sc.Generation {
		sc.AssignmentEpoch = *a
	}
	assign := sc.StartAssignmentEpoch()
	for i := range sc.Members {
		m := &sc.Members[i]
		switch e := m.MemberEpoch; {
		case e == assign:
			m.MemberEpoch = 0
		case e < 1 || e > assign:
			notes = append(notes, fmt.Sprintf("%s's member epoch %d is outside 1..the assignment epoch %d: imported at the assignment epoch", m.ID, e, assign))
			m.MemberEpoch = 0
		}
	}
	return notes
}

// sharePartitionStates are the share-partitions as DescribeShareGroupOffsets
// and the log end offsets show them.
func (g *Group) sharePartitionStates(sc *scenario.Scenario, owned map[kafka.TP]string, notes []string) ([]scenario.SharePartitionState, []string) {
	var out []scenario.SharePartitionState
	seen := map[kafka.TP]bool{}
	gated := sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0)
	var done []string
	for _, o := range g.Offsets {
		tp := kafka.TP{Topic: o.Topic, Partition: o.Partition}
		if n, ok := sc.Topics[o.Topic]; !ok || o.Partition >= n || seen[tp] {
			continue
		}
		seen[tp] = true
		sp := scenario.SharePartitionState{TP: tp}
		if o.LogEnd != nil {
			sp.LogEnd = *o.LogEnd
		}
		switch {
		case o.StartOffset != nil:
			sp.Initialised, sp.StartOffset = true, *o.StartOffset
			if sp.LogEnd < sp.StartOffset {
				notes = append(notes, fmt.Sprintf("%s-%d's start offset %d is past its log end %d as read: the log end is taken as the start offset", tp.Topic, tp.Partition, sp.StartOffset, sp.LogEnd))
				sp.LogEnd = sp.StartOffset
			}
			if o.Lag != nil && *o.Lag >= 0 && *o.Lag < sp.LogEnd-sp.StartOffset {
				done = append(done, fmt.Sprintf("%s-%d %d", tp.Topic, tp.Partition, sp.LogEnd-sp.StartOffset-*o.Lag))
			}
		case owned[tp] != "" && gated:
			// assigned, so initialised; the start offset is what
			// share.auto.offset.reset latest gives at initialisation
			sp.Initialised, sp.StartOffset = true, sp.LogEnd
			notes = append(notes, fmt.Sprintf("%s is assigned %s-%d, but DescribeShareGroupOffsets gives it no start offset: its share state is taken as initialised at the log end %d (share.auto.offset.reset latest)", owned[tp], tp.Topic, tp.Partition, sp.LogEnd))
		case sp.LogEnd == 0:
			continue // no share state, an empty log: the scenario's default
		}
		out = append(out, sp)
	}
	notes = append(notes, "in-flight records' states are the share coordinator's and no admin API shows them (DescribeShareGroupOffsets gives start offsets and lag): the records from each start offset on are imported as AVAILABLE and never delivered")
	if len(done) > 0 {
		notes = append(notes, "the lag shows records past the start offset already acknowledged or archived, which the import cannot place (imported as AVAILABLE): "+strings.Join(done, ", "))
	}
	slices.SortFunc(out, func(a, b scenario.SharePartitionState) int { return kafka.CompareTPs(a.TP, b.TP) })
	return out, notes
}

// shareSettings are the share group's settings from its configs (the
// group's share.* first, then the coordinator's group.share.*), within the
// bounds Kafka's GroupCoordinatorConfig and ShareGroupConfig give them (the
// parser's); a value outside is said and Kafka's nearest bound kept.
func (g *Group) shareSettings(sc *scenario.Scenario) []string {
	var notes []string
	read := func(name string) (int64, string, bool) {
		for _, n := range []string{"share." + name, "group.share." + name} {
			if v, src, ok := g.configMs(n); ok {
				return v, src, true
			}
		}
		return 0, "", false
	}
	bounded := func(name string, lo, hi int64, set func(int64)) {
		v, src, ok := read(name)
		if !ok {
			return
		}
		if v < lo || v > hi {
			kept := min(max(v, lo), hi)
			notes = append(notes, fmt.Sprintf("%s is %d (%s), outside Kafka's bounds %d..%d: the scenario keeps %d", name, v, src, lo, hi, kept))
			v = kept
		}
		set(v)
	}
	sh := sc.Share
	timing := func(key string) func(int64) {
		return func(v int64) { _ = sc.SetTiming(key, v, "") }
	}
	bounded("session.timeout.ms", scenario.ShareSessionMinMs, scenario.ShareSessionMaxMs, timing("session_timeout_ms"))
	bounded("heartbeat.interval.ms", scenario.ShareHeartbeatMinMs, scenario.ShareHeartbeatMaxMs, timing("heartbeat_interval_ms"))
	bounded("record.lock.duration.ms", scenario.ShareRecordLockMinMs, scenario.ShareRecordLockMaxMs, func(v int64) { sh.RecordLockMs = v })
	bounded("delivery.count.limit", scenario.ShareDeliveryCountMin, scenario.ShareDeliveryCountMax, func(v int64) { sh.DeliveryCountLimit = int32(v) })
	bounded("partition.max.record.locks", scenario.ShareRecordLocksMin, scenario.ShareRecordLocksMax, func(v int64) { sh.MaxRecordLocks = int32(v) })
	bounded("max.size", 1, scenario.ShareMaxSizeLimit, func(v int64) { sc.MaxSize = int32(v) })
	if sc.KafkaVersion.OrLatest().AtLeast(4, 3, 0) {
		bounded("assignment.interval.ms", 0, scenario.ShareAssignmentIntervalMaxMs, func(v int64) {
			sh.AssignmentIntervalMs = v
			_ = sc.SetTiming("assignment_interval_ms", v, "")
		})
	}
	for _, c := range g.Configs {
		if c.Name == "share.auto.offset.reset" && (c.Value == "earliest" || c.Value == "latest") {
			sh.AutoOffsetReset = c.Value
		}
	}
	return notes
}
