package model

import (
	"slices"
	"strings"
	"sync"

	"github.com/kvizlab/kviz/model/kafka"
)

// ownershipScan walks the history once and cuts it into rebalances and
// outages. It keeps who consumes what up to date from the members whose
// views changed (the history logs only those), so its cost follows the
// changes, not steps × partitions.
type ownershipScan struct {
	consumer bool
	// mixed: members of both protocols (KIP-848's online migration): the
	// group's kind is read from each step's state, and both tallies kept.
	mixed bool

	views   *stateCursor[*MemberView] // the members after the step being read
	targets *stateCursor[targetEntry] // consumer protocol: the targets, by tids
	tids    *targetNames
	tidsMu  *sync.Mutex      // guards tids while a run still adds to them (forecastStop)
	topics  []TopicView      // the topics of the last snapshot seen
	parts   map[string]int32 // topic -> partition count
	subs    map[string]int   // topic -> subscriptions naming it (of lists)
	lists   map[string]int   // a subscription (its topics joined by NUL) -> consuming members with it
	// lastTopics and lastKey: the subscription last counted, and its key
	lastTopics []string
	lastKey    string
	x          *tpIndex       // numbers the partitions densely for owner and before
	owner      ownerTable     // partition -> member consuming it now ("" nobody)
	holds      map[string]int // member id -> partitions owner gives it
	views1     map[string]int // member id -> positions (clients) with a view of that id
	undo       []ownerChange  // this step's changes to owner, to see the step before
	// pending are the step's subscription changes, counted once its
	// members' owners are (subscribeAll), so a group's first views do not
	// mark every partition unconsumed only for its owner to take it back.
	pending []subChange
	outPre  ownerTable // owners just before the open outage began
	since   tpSlots    // subscribed partitions nobody consumes, since when
	// gap is the time each partition went unconsumed within the rebalance
	// or outage under way (cur or out): dense, turned into its UnownedMs
	// map once, when it closes, not hashed at every accrual.
	gap    tpSlots
	down   map[string]int   // in-group members that are not consuming (crashed, stalled), by member id
	groupN int              // members the coordinator counts
	busy   int              // classic: in-group members joining, rejoining or waiting for a partition
	giving int              // in-group members inside a revoke or lost callback
	stable map[int32]int    // consumer protocol: in-group members STABLE at each member epoch
	at     int64            // time of the step being read
	startG int32            // generation when the open rebalance started
	prevG  int32            // generation (group epoch) at the previous snapshot
	prevS  kafka.GroupState // group state at the previous snapshot
	before ownerTable       // last consumers when the open rebalance started
	cur    *Rebalance       // the rebalance under way
	round  *Round           // its round under way (nil between classic rounds)
	prevI  int              // the previous step read
	prevAt int64            // and its time
	out    *Outage          // the outage under way
	done   []Rebalance      // completed rebalances
	outs   []Outage         // completed outages

	// gone: topics deleted during the run. Created again, such a topic's
	// partition may be consumed by two members at once, by name: one given
	// the new topic's, one still revoking the old one's (topic_ids.go), so
	// owner, which holds one member, is checked against the views there.
	gone map[string]bool
}

// isConsumer: the group is a consumer group at this step.
func (s *ownershipScan) isConsumer(g groupSnap) bool {
	if s.mixed {
		return g.state.Consumer()
	}
	return s.consumer
}

func newOwnershipScan(consumer bool) *ownershipScan {
	return &ownershipScan{consumer: consumer, parts: map[string]int32{}, subs: map[string]int{}, lists: map[string]int{},
		x: newTPIndex(), holds: map[string]int{}, views1: map[string]int{}, stable: map[int32]int{}, down: map[string]int{}}
}

func (s *ownershipScan) run(steps []stepRec, views *viewLog, targets *targetLog, tids *targetNames) {
	s.begin(views, targets, tids)
	s.feed(steps, 0)
	s.end()
}

// begin readies the scan to read a history's steps (feed) as they come.
func (s *ownershipScan) begin(views *viewLog, targets *targetLog, tids *targetNames) {
	s.views, s.targets, s.tids = newCursor(views), newCursor(targets), tids
}

// feed reads steps[from:], steps recorded already (a step's state never
// changes once recorded, so a run under way can be read as it goes:
// forecastStop).
func (s *ownershipScan) feed(steps []stepRec, from int) {
	for i := from; i < len(steps); i++ {
		r := &steps[i]                        // (its fields the run never changes: at, ver, g)
		if i > 0 && r.ver == steps[i-1].ver { // a routine heartbeat changes nothing
			continue
		}
		s.at = r.at
		s.undo = s.undo[:0]
		s.readTopics(r.g.topics)
		s.views.advance(i, func(_ int, old, v *MemberView) { s.replace(old, v) })
		s.countSubscriptions()
		s.advance(i, *r.g)
		s.prevI, s.prevAt = i, r.at
	}
}

// end closes the reading: a rebalance or outage still open at the end of
// the run keeps what accrued so far.
func (s *ownershipScan) end() {
	switch {
	case s.cur != nil:
		s.cur.UnownedMs = s.gap.table(s.x)
	case s.out != nil:
		s.out.UnownedMs = s.gap.table(s.x)
	}
}

// unowned starts tp's clock: subscribed and nobody consumes it.
func (s *ownershipScan) unowned(k tpKey) {
	s.since.put(k, s.at)
}

// readTopics notes partitions added to subscribed topics: unconsumed until
// someone is assigned them.
func (s *ownershipScan) readTopics(topics []TopicView) {
	if sameTopics(topics, s.topics) {
		return
	}
	s.topics = topics
	if total := 0; len(s.owner) == 0 && len(s.parts) == 0 {
		// The first topics: size the owners' rows once, not by
		// growing them to 500,000.
		for _, t := range topics {
			ti := s.x.topic(t.Name)
			for int(ti) >= len(s.owner) {
				s.owner = append(s.owner, nil)
			}
			s.owner[ti] = make([]string, t.Partitions)
			total += int(t.Partitions)
		}
		s.undo = make([]ownerChange, 0, total) // a given start's first step sets every owner
		s.since.reserve(s.owner, total)
		s.gap.reserve(s.owner, total)
	}
	s.dropDeleted(topics)
	for _, t := range topics {
		old := s.parts[t.Name]
		if t.Partitions <= old {
			continue
		}
		s.parts[t.Name] = t.Partitions
		if s.subs[t.Name] > 0 {
			s.markUnowned(t.Name, old, t.Partitions)
		}
	}
}

// dropDeleted stops counting the partitions of topics deleted during the
// run (delete_topic): a gap ends with its topic, as the views count it.
func (s *ownershipScan) dropDeleted(topics []TopicView) {
	if len(s.parts) <= len(topics) {
		return // only a deletion shrinks the list
	}
	live := make(map[string]bool, len(topics))
	for _, t := range topics {
		live[t.Name] = true
	}
	for name, n := range s.parts {
		if live[name] {
			continue
		}
		ti := s.x.topic(name)
		for p := int32(0); p < n; p++ {
			k := keyOf(ti, p)
			if from, ok := s.since.take(k); ok {
				s.accrue(k, from)
			}
		}
		delete(s.parts, name)
		if s.gone == nil {
			s.gone = map[string]bool{}
		}
		s.gone[name] = true
	}
}

// replace swaps one member's old view for its new one. Subscriptions go
// first, the new one before the old, so a topic the member stays subscribed
// to never looks unwanted for a moment.
func (s *ownershipScan) replace(old, v *MemberView) {
	var was []kafka.TP // what old consumed, once: a revoking member's is collected anew each time
	if old != nil {
		was = consumedBy(old)
	}
	is := consumedBy(v)
	if s.sameConsumption(old, v, was, is) {
		// Most changes leave what a member consumes alone (a state, a
		// generation): only the tallies move.
		s.count(old, -1)
		s.count(v, 1)
		return
	}
	if resubscribed := old != nil && consuming(old.Status) && consuming(v.Status) && sameNames(old.Topics, v.Topics); !resubscribed {
		// (The same subscription again nets to nothing, a thousand
		// topics' counts untouched.)
		if consuming(v.Status) {
			s.subscribeAll(v.Topics, 1)
		}
		if old != nil && consuming(old.Status) {
			s.subscribeAll(old.Topics, -1)
		}
	}
	if old != nil {
		s.count(old, -1)
		topic, ti := "", int32(0) // a member's partitions come topic by topic
		for _, tp := range was {
			if tp.Topic != topic {
				topic, ti = tp.Topic, s.x.topic(tp.Topic)
			}
			if s.owner.get(ti, tp.Partition) == old.ID {
				s.undo = append(s.undo, ownerChange{ti, tp.Partition, old.ID})
				next := ""
				if s.gone[tp.Topic] {
					next = s.otherConsumer(tp, old.ID)
				}
				s.owner.set(ti, tp.Partition, next)
				s.holds[old.ID]--
				if next != "" {
					s.holds[next]++
				} else if s.wanted(tp) {
					s.unowned(keyOf(ti, tp.Partition))
				}
			}
		}
	} else {
		s.views1[v.ID]++
	}
	s.count(v, 1)
	gained := 0
	topic, ti := "", int32(0)
	for _, tp := range is {
		if tp.Topic != topic {
			topic, ti = tp.Topic, s.x.topic(tp.Topic)
		}
		if k := keyOf(ti, tp.Partition); s.since.len() > 0 {
			if from, ok := s.since.take(k); ok {
				s.accrue(k, from)
			}
		}
		was := s.owner.get(ti, tp.Partition)
		s.undo = append(s.undo, ownerChange{ti, tp.Partition, was})
		s.owner.set(ti, tp.Partition, v.ID)
		if was != v.ID {
			gained++
			if was != "" {
				s.holds[was]--
			}
		}
	}
	s.holds[v.ID] += gained
}

// otherConsumer is a member other than skip whose view consumes tp, or "".
func (s *ownershipScan) otherConsumer(tp kafka.TP, skip string) string {
	for _, v := range s.views.state {
		if v != nil && v.ID != skip && slices.Contains(consumedBy(v), tp) {
			return v.ID
		}
	}
	return ""
}

// consumedBy is what a member consumes: what it holds, less what its
// revoke or lost callback is giving up (fetching is paused for those).
// sameConsumption: v consumes what old did, under the same subscription,
// and holds all of it now, so replacing old by v changes no owner and no
// gap.
// (was and is: what each consumes.)
func (s *ownershipScan) sameConsumption(old, v *MemberView, was, is []kafka.TP) bool {
	if old == nil || old.ID != v.ID || consuming(old.Status) != consuming(v.Status) || !sameNames(old.Topics, v.Topics) {
		return false
	}
	if !sameSlice(was, is) && !slices.Equal(was, is) {
		return false
	}
	if s.views1[v.ID] == 1 && s.holds[v.ID] == len(is) {
		// The member's only view holds every owner entry in its name,
		// all of them inside what it consumes: as many as it consumes
		// means all of it.
		return true
	}
	for _, tp := range is {
		if s.owner.get(s.x.topic(tp.Topic), tp.Partition) != v.ID {
			return false
		}
	}
	return true
}

// count keeps the tallies that say whether the group has settled.
func (s *ownershipScan) count(v *MemberView, d int) {
	if !v.InGroup {
		return
	}
	s.groupN += d
	if !consuming(v.Status) {
		if s.down[v.MemberID] += d; s.down[v.MemberID] == 0 {
			delete(s.down, v.MemberID)
		}
	}
	if v.Status == kafka.StatusRejoining && len(v.Revoking) > 0 && len(consumedBy(v)) < len(v.Owned) {
		s.giving += d
	}
	if s.consumer || s.mixed {
		if v.MemberState == kafka.MStable {
			s.stable[v.MemberEpoch] += d
		}
		if !s.mixed {
			return
		}
	}
	if v.Status == kafka.StatusJoining || v.Status == kafka.StatusRejoining || len(v.Pending) > 0 {
		s.busy += d
	}
}

// subscribeAll counts a member in or out of a subscription. Members share
// subscriptions (10,000 members of 1,000 topics, all alike): the topics'
// counts move only when the first member of a subscription comes or the
// last goes, so a topic's count is the subscriptions naming it, nonzero
// exactly when a member's is.
func (s *ownershipScan) subscribeAll(topics []string, d int) {
	s.pending = append(s.pending, subChange{topics, d})
}

// subChange is one member's subscription counted in (d = 1) or out (-1).
type subChange struct {
	topics []string
	d      int
}

// countSubscriptions counts the step's subscription changes: every new one
// before any old, so that a topic a member stays subscribed to never looks
// unwanted for a moment. All happen at the step's time, so the order of
// owners and subscriptions within it leaves every gap as it was.
func (s *ownershipScan) countSubscriptions() {
	for _, d := range []int{1, -1} {
		for _, c := range s.pending {
			if c.d == d {
				s.countSubscription(c.topics, d)
			}
		}
	}
	s.pending = s.pending[:0]
}

func (s *ownershipScan) countSubscription(topics []string, d int) {
	if !sameNames(topics, s.lastTopics) {
		s.lastTopics, s.lastKey = topics, strings.Join(topics, "\x00") // (no topic name holds a NUL)
	}
	n := s.lists[s.lastKey]
	if n+d == 0 {
		delete(s.lists, s.lastKey)
	} else {
		s.lists[s.lastKey] = n + d
	}
	if n == 0 || n+d == 0 {
		for _, t := range topics {
			s.subscribe(t, d)
		}
	}
}

func (s *ownershipScan) subscribe(topic string, d int) {
	n := s.subs[topic]
	s.subs[topic] = n + d
	switch {
	case n == 0 && d > 0:
		s.markUnowned(topic, 0, s.parts[topic])
	case n+d == 0:
		ti := s.x.topic(topic)
		for p := int32(0); p < s.parts[topic]; p++ {
			k := keyOf(ti, p)
			if from, ok := s.since.take(k); ok {
				s.accrue(k, from)
			}
		}
	}
}

// markUnowned starts the clock on partitions [lo, hi) of a subscribed topic
// that nobody consumes.
func (s *ownershipScan) markUnowned(topic string, lo, hi int32) {
	ti := s.x.topic(topic)
	for p := lo; p < hi; p++ {
		if s.owner.get(ti, p) == "" {
			s.unowned(keyOf(ti, p))
		}
	}
}

func (s *ownershipScan) wanted(tp kafka.TP) bool {
	return s.subs[tp.Topic] > 0 && tp.Partition < s.parts[tp.Topic]
}

// accrue adds the time a partition went unconsumed, from `from` to now, to
// the rebalance or outage under way (only the part inside it).
func (s *ownershipScan) accrue(k tpKey, from int64) {
	switch {
	case s.cur != nil:
		if f := max(from, s.cur.StartMs); s.at > f {
			s.gap.add(k, s.at-f)
		}
	case s.out != nil:
		if f := max(from, s.out.StartMs); s.at > f {
			s.gap.add(k, s.at-f)
		}
	}
}

// advance opens and closes rebalances and outages after step i.
func (s *ownershipScan) advance(i int, g groupSnap) {
	switch {
	case s.cur == nil && s.starts(i, g):
		r := &Rebalance{StartStep: i, StartMs: s.at}
		before := s.ownersBefore()
		if s.out != nil && s.out.StartMs >= s.at-netMs {
			// The outage is the trigger's own network hop: a member that
			// dropped its partitions (left, timed out) one request before
			// the coordinator started the join phase. It is this
			// rebalance's beginning.
			// (Its gaps so far, in s.gap, are the rebalance's.)
			r.StartStep, r.StartMs = s.out.StartStep, s.out.StartMs
			before, s.out = s.outPre, nil
		}
		s.closeOutage(i)
		s.cur, s.before, s.startG = r, before, g.generation
		s.round = &Round{StartStep: r.StartStep, StartMs: r.StartMs, Generation: g.generation}
	case s.cur != nil && s.settled(g):
		s.finish(i, g)
	case s.cur != nil:
		s.nextRound(i, g)
	}
	s.prevG, s.prevS = g.generation, g.state
	if s.cur != nil {
		return
	}
	switch {
	case s.out == nil && s.since.len() > 0 && g.state != kafka.Empty && g.state != kafka.KEmpty:
		// (An empty group is still starting: its members are on their way
		// into the first join phase, nothing was consumed yet.)
		s.out = &Outage{StartStep: i, StartMs: s.at}
		s.outPre = s.ownersBefore()
	case s.out != nil && s.since.len() == 0:
		s.closeOutage(i)
	}
}

// starts: a join phase began (classic) or the group epoch went up
// (KIP-848). A classic member that revokes before it rejoins (a
// subscription change, the leader seeing new partitions) starts it a
// network hop earlier: its partitions stop being consumed at the
// revocation. (A KIP-848 member revokes before it heartbeats only when it
// closes or unsubscribes; the hop before the epoch bump is folded in by
// advance, and a static member's temporary leave bumps nothing.)
func (s *ownershipScan) starts(i int, g groupSnap) bool {
	switch {
	case i == 0:
		return false
	case s.isConsumer(g):
		return g.generation > s.prevG
	case s.giving > 0:
		return true
	}
	return g.state == kafka.PreparingRebalance || g.state == kafka.CompletingRebalance
}

// settled: the group is Stable and every member of it is done (classic), or
// every member is STABLE at the assignment epoch, which has caught up with
// the group epoch (KIP-848: the group state itself lags a step behind the
// epoch bump in the trace). An emptied group has nothing left to settle.
func (s *ownershipScan) settled(g groupSnap) bool {
	if s.isConsumer(g) {
		if s.groupN == 0 {
			return g.assignEpoch == g.generation
		}
		return g.state == kafka.KStable && g.assignEpoch == g.generation && s.stable[g.assignEpoch] == s.groupN &&
			s.consumedByUp(g)
	}
	if g.generation <= s.startG {
		// No join phase has completed: a coordinator failover threw the
		// one under way away, and the members join again. Still the
		// same rebalance.
		return false
	}
	return g.state == kafka.Empty || (g.state == kafka.Stable && s.busy == 0)
}

// consumedByUp: every subscribed partition is consumed, but for those
// targeted at members that are down (crashed, their session not yet
// expired). The coordinator marks a member STABLE when it answers it, a
// network hop before the member takes its partitions.
func (s *ownershipScan) consumedByUp(g groupSnap) bool {
	if s.since.len() == 0 {
		return true
	}
	down := map[tpKey]bool{}
	targets := s.targets.seek(s.views.step)
	if s.tidsMu != nil { // the run goes on beside the scan (forecastStop)
		s.tidsMu.Lock()
		defer s.tidsMu.Unlock()
	}
	for id := range s.down {
		if p, ok := s.tids.pos[id]; ok && int(p) < len(targets) {
			for _, tp := range s.tids.decode(targets[p]) {
				down[keyOf(s.x.topic(tp.Topic), tp.Partition)] = true
			}
		}
	}
	for _, k := range s.since.keys {
		if !down[k] {
			return false
		}
	}
	return true
}

// nextRound keeps the rounds of the rebalance under way: the JoinGroup/
// SyncGroup rounds (generations) of the classic protocol, the target epochs
// of KIP-848. Classic: a round ends when the group is Stable at a
// generation above the last round's, and the next begins with the next join
// phase (a cooperative follow-up's, after the revocations that ask for it);
// a join phase that begins again before any SyncGroup made its generation
// Stable (the leader died during the sync) ends one round and begins
// another. KIP-848: each group-epoch bump begins a round.
func (s *ownershipScan) nextRound(i int, g groupSnap) {
	switch {
	case s.isConsumer(g) && s.round == nil:
		// A migrating group became a consumer group between two classic
		// rounds: its first target epoch begins one.
		s.round = &Round{StartStep: i, StartMs: s.at, Generation: g.generation}
	case s.isConsumer(g):
		if g.generation > s.round.Generation {
			s.closeRound(s.prevI, s.round.Generation)
			s.round = &Round{StartStep: i, StartMs: s.at, Generation: g.generation}
		}
	case s.round == nil:
		if g.state == kafka.PreparingRebalance {
			s.round = &Round{StartStep: i, StartMs: s.at}
		}
	case g.state == kafka.PreparingRebalance && s.prevS == kafka.CompletingRebalance:
		s.closeRound(s.prevI, g.generation)
		s.round = &Round{StartStep: i, StartMs: s.at}
	case g.state == kafka.Stable && g.generation > s.lastRoundGen():
		s.closeRound(i, g.generation)
		s.round = nil
	}
}

// closeRound ends the round under way at step i, at generation gen.
func (s *ownershipScan) closeRound(i int, gen int32) {
	r := *s.round
	r.EndStep, r.Generation = i, gen
	r.EndMs = s.at
	if i == s.prevI && i != s.cur.EndStep {
		r.EndMs = s.prevAt
	}
	s.cur.Rounds = append(s.cur.Rounds, r)
}

// lastRoundGen is the generation of the last round completed, or the one
// the rebalance started at.
func (s *ownershipScan) lastRoundGen() int32 {
	if n := len(s.cur.Rounds); n > 0 {
		return s.cur.Rounds[n-1].Generation
	}
	return s.startG
}

func (s *ownershipScan) finish(i int, g groupSnap) {
	for j, k := range s.since.keys {
		s.accrue(k, s.since.vals[j])
	}
	r := s.cur
	r.EndStep, r.EndMs, r.Generation = i, s.at, g.generation
	if s.round != nil || len(r.Rounds) == 0 {
		if s.round == nil { // settled with no round of its own (cannot happen in Kafka; stay whole)
			s.round = &Round{StartStep: r.StartStep, StartMs: r.StartMs}
		}
		s.closeRound(i, g.generation)
	}
	s.round = nil
	r.UnownedMs = s.gap.table(s.x)
	r.Moves = diffTables(s.before, s.owner, s.x)
	r.Moved = kafka.Taken(r.Moves)
	s.done = append(s.done, *r)
	s.cur, s.before = nil, nil
}

func (s *ownershipScan) closeOutage(i int) {
	if s.out == nil {
		return
	}
	for j, k := range s.since.keys {
		s.accrue(k, s.since.vals[j])
	}
	s.out.EndStep, s.out.EndMs = i, s.at
	s.out.UnownedMs = s.gap.table(s.x)
	if worst, _ := s.out.UnownedMs.stats(); worst > 0 { // a partition went unconsumed for a while: worth a record
		s.outs = append(s.outs, *s.out)
	}
	s.out = nil
}

// tpKey is a partition in the scan's tpIndex: the topic's index in the
// high half, the partition number in the low, hashed as one word.
type tpKey uint64

func keyOf(topic, partition int32) tpKey { return tpKey(uint32(topic))<<32 | tpKey(uint32(partition)) }

type ownerChange struct {
	topic, partition int32  // in the scan's tpIndex
	was              string // "" when nobody consumed it
}

// ownersBefore is who consumed what before the step being read.
func (s *ownershipScan) ownersBefore() ownerTable {
	out := s.owner.clone()
	for k := len(s.undo) - 1; k >= 0; k-- {
		c := s.undo[k]
		out.set(c.topic, c.partition, c.was)
	}
	return out
}

// tpSlots is a map from partitions (tpKeys) to int64, as dense rows: a
// topic's row holds each partition's place (plus one; 0 absent) in keys
// and vals, which list the entries in no particular order. Lookups index
// two slices instead of hashing, and emptying it costs its entries, not
// the 500,000 slots a map keeps once it has grown.
type tpSlots struct {
	rows [][]int32
	keys []tpKey
	vals []int64
}

func (t *tpSlots) len() int { return len(t.keys) }

// at is k's place in keys, or -1.
func (t *tpSlots) at(k tpKey) int {
	ti, p := int(k>>32), int(uint32(k))
	if ti < len(t.rows) && p < len(t.rows[ti]) {
		return int(t.rows[ti][p]) - 1
	}
	return -1
}

// reserve makes room for every partition of the topics rows has (one row
// per topic index, at its partition count; total in all) at once: grown to
// 500,000 entries by doubling, the lists were a scan's largest copies, and
// room never written costs no memory the process touches.
func (t *tpSlots) reserve(rows [][]string, total int) {
	sizes := make([]int32, len(rows))
	for ti, r := range rows {
		sizes[ti] = int32(len(r))
	}
	t.reserveSizes(sizes, total)
}

// reserveSizes is reserve for rows of the given sizes.
func (t *tpSlots) reserveSizes(sizes []int32, total int) {
	t.rows = make([][]int32, len(sizes))
	for ti, n := range sizes {
		t.rows[ti] = make([]int32, n)
	}
	t.keys, t.vals = make([]tpKey, 0, total), make([]int64, 0, total)
}

// put sets k to v.
func (t *tpSlots) put(k tpKey, v int64) {
	if j := t.at(k); j >= 0 {
		t.vals[j] = v
		return
	}
	ti, p := int(k>>32), int(uint32(k))
	for ti >= len(t.rows) {
		t.rows = append(t.rows, nil)
	}
	if row := t.rows[ti]; p >= len(row) {
		t.rows[ti] = append(row, make([]int32, p+1-len(row))...)
	}
	t.keys, t.vals = append(t.keys, k), append(t.vals, v)
	t.rows[ti][p] = int32(len(t.keys))
}

// add adds v to k's value (0 when absent).
func (t *tpSlots) add(k tpKey, v int64) {
	if j := t.at(k); j >= 0 {
		t.vals[j] += v
		return
	}
	t.put(k, v)
}

// take removes k, returning its value.
func (t *tpSlots) take(k tpKey) (int64, bool) {
	j := t.at(k)
	if j < 0 {
		return 0, false
	}
	v := t.vals[j]
	last := len(t.keys) - 1
	if j != last { // the last entry takes k's place
		lk := t.keys[last]
		t.keys[j], t.vals[j] = lk, t.vals[last]
		t.rows[lk>>32][uint32(lk)] = int32(j + 1)
	}
	t.rows[k>>32][uint32(k)] = 0
	t.keys, t.vals = t.keys[:last], t.vals[:last]
	return v, true
}

// table empties t into a PartitionMs over x's numbering: copies of its
// lists (memory moved, not 460,000 entries hashed), its own kept for the
// next rebalance or outage.
func (t *tpSlots) table(x *tpIndex) PartitionMs {
	out := PartitionMs{x: x, names: x.names[:len(x.names):len(x.names)], keys: slices.Clone(t.keys), vals: slices.Clone(t.vals)}
	for _, k := range t.keys {
		t.rows[k>>32][uint32(k)] = 0
	}
	t.keys, t.vals = t.keys[:0], t.vals[:0]
	return out
}
