package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/model/sharepart"
	"github.com/kvizlab/kviz/strategies"
)

// A share group (KIP-932) beside the classic and consumer groups: the
// coordinator's side of ShareGroupHeartbeat as Kafka's
// GroupMetadataManager.shareGroupHeartbeat handles it (confluentinc/kafka
// 4.0-4.3), the share consumers' side (ShareMembershipManager,
// ShareHeartbeatRequestManager: share_client.go) and the share-partitions'
// records (share_records.go, model/sharepart). A scenario with group.type
// share runs this instead of the classic or consumer machinery: world.run
// hands it to runShare.

// shareGroup is the coordinator's share group and the share-partitions.
type shareGroup struct {
	w           *world
	groupEpoch  int32
	assignEpoch int32
	members     map[string]*shareMember // member id -> member
	order       []*shareMember          // join order: the assignor's map order
	target      map[string][]kafka.TP   // member id -> target (replaced, never changed)
	// subscribed is the subscribed topics' partition counts the group epoch
	// was last computed for (ModernGroup.computeMetadataHash's input).
	subscribed map[string]int32
	metaStale  bool // partition counts changed since the last heartbeat
	// Share state (4.1 on): partitions whose share state is initialised,
	// and those the coordinator asked the share coordinator to initialise
	// (ShareGroupStatePartitionMetadata's initialized / initializing topics).
	initialised, initialising map[kafka.TP]bool
	lastTargetAt              int64 // 4.3: when the assignor last ran (-1 never)
	deferredEpoch             int32 // 4.3: the group epoch whose wait a step told of
	clients                   map[*client]*shareClient
	parts                     map[kafka.TP]*sharepart.Partition
	lockTimers                map[kafka.TP]*event
	partsView                 []SharePartitionView // the last published view (replaced when changed)
	partsDirty                bool
	logEnds                   map[kafka.TP]int64 // records written before a share-partition exists
	fenced                    string             // why the last fence bumped the epoch, until a target follows
	// lost: offsets a leader change took from the member id holding them
	// (share_brokers.go), until acquired again.
	lost map[kafka.TP]map[int64]string
	// skipped: acknowledgements of records the member did not hold,
	// answered and skipped (Share.SkipForeignAcks: share_compare.go).
	skipped []SkippedAck
	// Kept answers (share_group.go): subscribedCounts until countsStale,
	// assignedSet for the target map assignedOf, initialisedPending for
	// pendingAt.
	counts      map[string]int32
	countsStale bool
	countsGen   int
	assigned    map[kafka.TP]bool
	assignedOf  uintptr
	pendingOK   bool
	pendingAt   pendingKey
	pending     bool
	// away is the members no client view shows (a restarted client's
	// earlier member, until its session expires), published like partsView.
	away      []awayMember
	awayDirty bool
}

// shareMember is one member as the coordinator keeps it (ShareGroupMember).
type shareMember struct {
	id, client string
	topics     []string
	epoch      int32
	assigned   []kafka.TP
	session    *event
}

func newShareGroup(w *world) *shareGroup {
	return &shareGroup{w: w, members: map[string]*shareMember{}, target: map[string][]kafka.TP{},
		subscribed: map[string]int32{}, initialised: map[kafka.TP]bool{}, initialising: map[kafka.TP]bool{},
		lastTargetAt: -1, clients: map[*client]*shareClient{}, parts: map[kafka.TP]*sharepart.Partition{},
		lockTimers: map[kafka.TP]*event{}, partsDirty: true, logEnds: map[kafka.TP]int64{}}
}

// state is ShareGroup.maybeUpdateGroupState: Empty without members, else
// Stable. A share group has no rebalance states: nothing is revoked.
func (g *shareGroup) state() kafka.GroupState {
	if len(g.members) == 0 {
		return kafka.Empty
	}
	return kafka.Stable
}

func (g *shareGroup) fillSnap(s *groupSnap) {
	s.state, s.generation, s.assignEpoch = g.state(), g.groupEpoch, g.assignEpoch
	s.target = g.target
	s.shares = g.sharesView()
	s.away = g.awayView()
}

// awayView is the members whose client has restarted since (a new member
// id): JSONL names them by member id, and the group is not settled while
// the coordinator holds one.
func (g *shareGroup) awayView() []awayMember {
	if !g.awayDirty {
		return g.away
	}
	g.awayDirty = false
	var out []awayMember
	for _, m := range g.order {
		if c := g.w.byID[m.client]; c != nil && c.memberID != m.id {
			out = append(out, awayMember{id: m.id, epoch: m.epoch, state: kafka.MStable})
		}
	}
	slices.SortFunc(out, func(a, b awayMember) int { return strings.Compare(a.id, b.id) })
	g.away = out
	return out
}

// settled: every member is at the assignment epoch with its target, the
// target is current, and no share state is being initialised.
func (g *shareGroup) settled() bool {
	if g.groupEpoch > g.assignEpoch || len(g.initialising) > 0 || g.pendingInit() {
		return false
	}
	for _, m := range g.members {
		c := g.w.byID[m.client]
		if c == nil || !c.running || c.memberID != m.id {
			return false // a crashed member waits for its session to expire
		}
		if m.epoch != g.assignEpoch || !sameSlice(m.assigned, g.target[m.id]) {
			return false
		}
		if sc := g.clients[c]; sc == nil || sc.fullNext || !sameSlice(c.owned, m.assigned) {
			return false // a subscription the next heartbeat carries, or an answer on its way
		}
	}
	return true
}

// pendingInit: subscribed partitions whose share state is neither
// initialised nor being initialised (4.1 on).
func (g *shareGroup) pendingInit() bool {
	if !g.gated() {
		return false
	}
	for t, n := range g.subscribedCounts() {
		for p := int32(0); p < n; p++ {
			tp := kafka.TP{Topic: t, Partition: p}
			if !g.initialised[tp] && !g.initialising[tp] {
				return true
			}
		}
	}
	return false
}

// gated: the release assigns a partition only once its share state is
// initialised (Kafka 4.1 on: initializedAssignmentPending,
// maybeCreateInitializeShareGroupStateRequest); 4.0 assigns every
// partition at once.
func (g *shareGroup) gated() bool { return g.w.sc.KafkaVersion.OrLatest().AtLeast(4, 1, 0) }

// subscribedCounts is the subscribed topics that exist and their partition
// counts. Every heartbeat asks, so it is kept until a member comes, goes or
// changes its subscription, or a count changes (countsStale); the map is
// replaced, never changed: read it only.
func (g *shareGroup) subscribedCounts() map[string]int32 {
	if g.counts != nil && !g.countsStale {
		return g.counts
	}
	out := map[string]int32{}
	for _, m := range g.order {
		for _, t := range m.topics {
			if n, ok := g.w.topics[t]; ok {
				out[t] = n
			}
		}
	}
	g.counts, g.countsStale = out, false
	g.countsGen++
	return out
}

// membersChanged: a member came, went or changed its subscription.
func (g *shareGroup) membersChanged() { g.countsStale = true }

func (g *shareGroup) topicsChanged() { g.metaStale, g.countsStale = true, true }

// assignedSet is every partition the target assigns, kept for the target
// map it was read from (targets are replaced, never changed).
func (g *shareGroup) assignedSet() map[kafka.TP]bool {
	if g.assigned != nil && g.assignedOf == mapID(g.target) {
		return g.assigned
	}
	assigned := map[kafka.TP]bool{}
	for _, tps := range g.target {
		for _, tp := range tps {
			assigned[tp] = true
		}
	}
	g.assigned, g.assignedOf = assigned, mapID(g.target)
	return assigned
}

// shareRequest is one ShareGroupHeartbeat.
type shareRequest struct {
	memberID string
	epoch    int32
	topics   []string // nil: unchanged since the last request
}

// shareResponse is its answer.
type shareResponse struct {
	err        string
	memberID   string
	epoch      int32
	assignment []kafka.TP // nil when not sent
	sent       bool       // the assignment field is set
	intervalMs int64
}

// heartbeat handles a ShareGroupHeartbeat (GroupMetadataManager.shareGroupHeartbeat).
func (g *shareGroup) heartbeat(c *client, req shareRequest) shareResponse {
	w := g.w
	if req.epoch == leaveEpoch {
		return g.leave(c, req)
	}
	m := g.members[req.memberID]
	// throwIfShareGroupIsFull: a new member beyond group.share.max.size.
	if m == nil && len(g.members) >= int(w.sc.MaxSize) {
		return shareResponse{err: "GROUP_MAX_SIZE_REACHED"}
	}
	// getOrMaybeSubscribeShareGroupMember: epoch 0 creates the member; an
	// unknown member or another epoch is refused.
	if m == nil && req.epoch != joinEpoch {
		return shareResponse{err: "UNKNOWN_MEMBER_ID"}
	}
	if m != nil && req.epoch != joinEpoch && req.epoch != m.epoch {
		return shareResponse{err: "FENCED_MEMBER_EPOCH"}
	}
	joined := m == nil
	if joined {
		m = &shareMember{id: req.memberID, client: c.id}
		g.members[m.id] = m
		g.order = append(g.order, m)
		g.membersChanged()
	}
	var why []string
	bump := false
	if req.topics != nil && !slices.Equal(req.topics, m.topics) {
		m.topics = slices.Clone(req.topics)
		g.membersChanged()
		bump = true
		if joined {
			why = append(why, c.id+" joined")
		} else {
			why = append(why, c.id+" changed its subscription")
		}
	}
	if g.initialisedPending() { // initializedAssignmentPending
		bump = true
		why = append(why, "initialised "+g.newlyInitialised()+" in no target (initializedAssignmentPending)")
	}
	if bump || g.metaStale {
		g.metaStale = false
		if counts := g.subscribedCounts(); !maps.Equal(counts, g.subscribed) {
			if !bump {
				why = append(why, "the subscribed topics' partitions changed")
			}
			g.subscribed, bump = counts, true
		}
	}
	if bump {
		g.groupEpoch++
	}
	if len(why) == 0 && g.fenced != "" {
		why = append(why, g.fenced)
	}
	before := m.assigned
	// Target: when the group epoch is ahead (4.3: at most once per
	// group.share.assignment.interval.ms, maybeUpdateTargetAssignment).
	if g.groupEpoch > g.assignEpoch {
		if g.canCompute() {
			g.computeTarget(strings.Join(why, "; "))
			g.fenced = ""
		} else if g.deferredEpoch != g.groupEpoch {
			g.deferredEpoch = g.groupEpoch
			w.record(kafka.KindRebalanceDelayed, "", "", false, fmt.Sprintf(
				"The group epoch is %d (%s), but the last target was computed at %d ms: Kafka %s waits group.share.assignment.interval.ms (%d ms) before the next; %s gets the last target.",
				g.groupEpoch, strings.Join(why, "; "), g.lastTargetAt, w.sc.KafkaVersion.OrLatest(), w.sc.Share.AssignmentIntervalMs, c.id))
		}
	}
	// maybeReconcile (ShareGroupAssignmentBuilder): the member takes its
	// target and the target's epoch at once, STABLE: nothing to revoke.
	m.epoch, m.assigned = g.assignEpoch, g.target[m.id]
	g.touch(m)
	g.scheduleSession(m)
	resp := shareResponse{memberID: m.id, epoch: m.epoch, intervalMs: w.sc.HeartbeatIntervalMs}
	if joined || req.topics != nil || !sameSlice(before, m.assigned) {
		resp.assignment, resp.sent = m.assigned, true
	}
	g.maybeInitialise()
	return resp
}

// canCompute is 4.3's assignment interval (canComputeNextTargetAssignment):
// no target yet, an interval of 0, or the interval over since the last.
func (g *shareGroup) canCompute() bool {
	iv := g.w.sc.Share.AssignmentIntervalMs
	return iv == 0 || g.lastTargetAt < 0 || g.w.clock.now >= g.lastTargetAt+iv
}

// initialisedPending is initializedAssignmentPending: a subscribed topic's
// initialised partitions differ from the ones the target assigns.
func (g *shareGroup) initialisedPending() bool {
	if !g.gated() || len(g.members) == 0 {
		return false
	}
	counts, assigned := g.subscribedCounts(), g.assignedSet()
	key := pendingKey{mapID(g.target), g.countsGen, len(g.initialised)}
	if g.pendingOK && g.pendingAt == key {
		return g.pending
	}
	pending := false
	for tp := range g.initialised {
		if _, sub := counts[tp.Topic]; !assigned[tp] && sub {
			pending = true
			break
		}
	}
	g.pendingOK, g.pendingAt, g.pending = true, key, pending
	return pending
}

// pendingKey is what initialisedPending's answer depends on: the target,
// the subscribed counts and the initialised partitions (which only grow).
type pendingKey struct {
	target    uintptr
	countsGen int
	nInit     int
}

// newlyInitialised names the initialised partitions no target assigns.
func (g *shareGroup) newlyInitialised() string {
	counts, assigned := g.subscribedCounts(), g.assignedSet()
	var out []kafka.TP
	for tp := range g.initialised {
		if _, sub := counts[tp.Topic]; !assigned[tp] && sub {
			out = append(out, tp)
		}
	}
	kafka.SortTPs(out)
	return fmtShort(out)
}

// computeTarget runs simple over the members in join order with the
// assignable (initialised) partitions (updateTargetAssignment).
func (g *shareGroup) computeTarget(why string) {
	w := g.w
	grp := strategies.Group{Topics: g.subscribedCounts(), Version: w.sc.KafkaVersion}
	for _, m := range g.order {
		grp.Members = append(grp.Members, strategies.Member{ID: m.id, Topics: m.topics,
			Owned: g.target[m.id], Generation: g.assignEpoch})
	}
	if g.gated() {
		grp.Assignable = map[string][]int32{}
		for tp := range g.initialised {
			if _, ok := grp.Topics[tp.Topic]; ok {
				grp.Assignable[tp.Topic] = append(grp.Assignable[tp.Topic], tp.Partition)
			}
		}
		for t := range grp.Assignable {
			slices.Sort(grp.Assignable[t])
		}
	}
	target := map[string][]kafka.TP{}
	if err := grp.Validate(); err != nil {
		w.fail("share target: %v", err)
		return
	}
	res := w.assignor.Assign(grp, nil)
	if res.Err != nil {
		w.fail("share target: %v", res.Err)
		return
	}
	for _, m := range g.order {
		target[m.id] = kafka.TPsOf(res.Assignment[m.id])
	}
	g.target, g.assignEpoch, g.lastTargetAt = target, g.groupEpoch, w.clock.now
	var parts []string
	for _, m := range g.order {
		parts = append(parts, fmt.Sprintf("%s %s", g.memberName(m), fmtShort(target[m.id])))
	}
	gate := ""
	if g.gated() {
		if n := len(g.uninitialised()); n > 0 {
			gate = fmt.Sprintf(" %d subscribed partition(s) are left out until their share state is initialised.", n)
		}
	}
	w.record(kafka.KindAssignmentComputed, "", "", false, fmt.Sprintf(
		"Group epoch %d (%s): the coordinator computes the target with simple (Kafka %s): %s. Several members may share a partition.%s",
		g.groupEpoch, why, w.sc.KafkaVersion.OrLatest(), strings.Join(parts, ", "), gate))
}

func (g *shareGroup) uninitialised() []kafka.TP {
	var out []kafka.TP
	for t, n := range g.subscribedCounts() {
		for p := int32(0); p < n; p++ {
			if tp := (kafka.TP{Topic: t, Partition: p}); !g.initialised[tp] {
				out = append(out, tp)
			}
		}
	}
	kafka.SortTPs(out)
	return out
}

// maybeInitialise asks the share coordinator to initialise the subscribed
// partitions whose state is neither initialised nor initialising
// (maybeCreateInitializeShareGroupStateRequest). 4.0 has no such step: its
// share-partitions initialise on their first fetch.
func (g *shareGroup) maybeInitialise() {
	w := g.w
	var todo []kafka.TP
	for _, tp := range g.uninitialised() {
		if !g.initialising[tp] {
			todo = append(todo, tp)
		}
	}
	if len(todo) == 0 {
		return
	}
	for _, tp := range todo {
		g.initialising[tp] = true
		if !g.gated() {
			g.initialised[tp] = true
		}
	}
	if !g.gated() {
		for _, tp := range todo {
			delete(g.initialising, tp) // 4.0: the share-partition initialises at its first fetch
		}
		return
	}
	epoch := g.groupEpoch
	w.record(kafka.KindInitializeShareGroupStateRequest, "", "", false, fmt.Sprintf(
		"The coordinator asks the share coordinator to initialise the share state of %s (state epoch %d): until it has, the assignor may not give them to anyone.",
		fmtShort(todo), epoch))
	w.clock.after(2*netMs, false, func() {
		for _, tp := range todo {
			delete(g.initialising, tp)
			g.initialised[tp] = true
			g.part(tp)
		}
		var starts []string
		for _, tp := range todo {
			starts = append(starts, fmt.Sprintf("%s-%d at %d", tp.Topic, tp.Partition, g.parts[tp].Start()))
		}
		w.record(kafka.KindInitializeShareGroupStateResponse, "", "", false, fmt.Sprintf(
			"Share state initialised (share.auto.offset.reset %s): start offsets %s. The next heartbeat finds initialised partitions the target does not assign, bumps the group epoch and assigns them (initializedAssignmentPending).",
			w.sc.Share.AutoOffsetReset, strings.Join(starts, ", ")))
	})
}

// leave handles a heartbeat at epoch -1 (shareGroupLeave, shareGroupFenceMember):
// the member goes, the group epoch is bumped; the target waits for the
// next heartbeat.
func (g *shareGroup) leave(c *client, req shareRequest) shareResponse {
	m := g.members[req.memberID]
	if m == nil {
		return shareResponse{err: "UNKNOWN_MEMBER_ID"}
	}
	g.fence(m, c.id+" left the group")
	return shareResponse{memberID: req.memberID, epoch: leaveEpoch}
}

func (g *shareGroup) fence(m *shareMember, why string) {
	w := g.w
	g.awayDirty = true
	w.clock.cancel(m.session)
	delete(g.members, m.id)
	g.order = slices.DeleteFunc(g.order, func(x *shareMember) bool { return x == m })
	g.membersChanged()
	if _, ok := g.target[m.id]; ok {
		t := maps.Clone(g.target)
		delete(t, m.id)
		g.target = t
	}
	g.groupEpoch++
	g.fenced = why
	g.subscribed = g.subscribedCounts()
	if c := w.byID[m.client]; c != nil {
		c.changed()
	}
	state := ""
	if len(g.members) == 0 {
		state = " The group is Empty."
	}
	w.record(kafka.KindGroupStateChanged, m.client, "", false, fmt.Sprintf(
		"%s: the coordinator removes member %s and bumps the group epoch to %d; the next heartbeat computes the target without it.%s",
		why, m.id, g.groupEpoch, state))
}

func (g *shareGroup) touch(m *shareMember) {
	if c := g.w.byID[m.client]; c != nil {
		c.changed()
	}
}

// scheduleSession (scheduleShareGroupSessionTimeout) restarts the member's
// session: group.share.session.timeout.ms without a heartbeat fences it.
func (g *shareGroup) scheduleSession(m *shareMember) {
	w := g.w
	w.clock.cancel(m.session)
	m.session = w.clock.after(w.sc.SessionTimeoutMs, true, func() {
		if g.members[m.id] != m {
			return
		}
		who := g.memberName(m)
		w.record(kafka.KindSessionExpired, m.client, "", false, fmt.Sprintf(
			"%s sent no heartbeat for group.share.session.timeout.ms (%d ms): its session expires.", who, w.sc.SessionTimeoutMs))
		g.fence(m, "the session of "+who+" expired")
	})
}

// memberName is how the trace names a member: its client's id, or, for a
// member its client restarted away from, "c1's earlier member c1-1a2b3c4d".
func (g *shareGroup) memberName(m *shareMember) string {
	if c := g.w.byID[m.client]; c != nil && c.memberID != m.id {
		return fmt.Sprintf("%s's earlier member %s", m.client, m.id)
	}
	return m.client
}

// memberOf is the coordinator's record of the client's member.
func (g *shareGroup) memberOf(c *client) *shareMember {
	if c.memberID == "" {
		return nil
	}
	return g.members[c.memberID]
}

// shareConfig is a share-partition's settings from the scenario.
func shareConfig(sc *scenario.Scenario) sharepart.Config {
	return sharepart.Config{LockMs: sc.Share.RecordLockMs, DeliveryLimit: sc.Share.DeliveryCountLimit, MaxInFlight: sc.Share.MaxRecordLocks}
}
