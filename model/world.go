package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// Simulated latencies. Requests and responses each take netMs, so every
// exchange shows as ordered, readable steps.
const (
	netMs          = 2
	retryBackoffMs = 100  // retry.backoff.ms
	retryMaxMs     = 1000 // retry.backoff.max.ms
	metadataMaxAge = 300000
	// settleLimitMs bounds how long the group may heartbeat without a change
	// and without settling, after the timeline ends, before the simulation
	// gives up with an error.
	settleLimitMs = 2 * 3600 * 1000
	maxSteps      = 5_000_000
)

// world is the simulation while it runs: the clock, the cluster, the
// coordinator and the clients. Sim keeps what it recorded.
type world struct {
	ctx      context.Context // the run gives up once it is done
	sc       *scenario.Scenario
	clock    clock
	rng      *rand.Rand
	assignor strategies.Assignor
	// upgradeAssignor: the server-side assignor of a classic scenario's
	// group after an online upgrade (serverAssignor).
	upgradeAssignor strategies.Assignor
	consumer        bool // KIP-848 protocol
	eager           bool

	// moments are the data path's steps to record (flow_moments.go).
	moments []dataMoment
	// until, when set, ends the run early once it reports true (a
	// forecast's fork: forecastStop).
	until func() bool

	topics   map[string]int32
	topicGen int           // bumps when a partition count changes
	topicLog []topicChange // every count change, in time order (len = topicGen)
	// newTopicsImage is the metadata image version (topicGen+1) of the
	// last topic creation, 1 before any: GroupMetadataManager's
	// lastMetadataImageWithNewTopics (pattern_regex.go).
	newTopicsImage int
	// topicIDs is each topic name's current id (topic_ids.go): 0 for the
	// scenario's topics, one more at every creation under that name, so a
	// topic deleted and created again has a new one, as in Kafka.
	topicIDs map[string]int

	clients []*client // in start order
	byID    map[string]*client

	classic       *classicGroup
	consumerGroup *consumerGroup
	cluster       *cluster
	share         *shareGroup // a share group's coordinator and share-partitions (share_group.go); nil otherwise

	hist *history
	err  error // the first internal error (an invalid transition): the run stops

	unsettled    *client    // quiet: the client last found unsettled
	nextQuietTry int64      // quiet.go: no jump is tried before this time
	lastSig      *cycleSig  // quiet.go: the run one cycle ago
	lastReplay   *replaySig // quiet_replay.go: the run one cycle ago
	quietSteps   int        // QuietStretch steps recorded
}

func newWorld(sc *scenario.Scenario) (*world, error) {
	lookup := strategies.Lookup
	if scenario.IsShare(sc) {
		lookup = strategies.LookupAny // simple: the share protocol's (share_group.go)
	}
	a, err := lookup(sc.Strategy)
	if err != nil {
		return nil, err
	}
	if !strategies.Supports(a, kafka.Protocol(sc.Protocol)) {
		return nil, fmt.Errorf("%s cannot run under the %s protocol", sc.Strategy, sc.Protocol)
	}
	w := &world{
		sc:       sc,
		rng:      newWorldRand(sc),
		assignor: a,
		consumer: scenario.IsConsumer(sc),
		eager:    sc.Protocol == string(kafka.ProtocolEager),
		topics:   map[string]int32{},
		byID:     map[string]*client{},

		newTopicsImage: 1,
	}
	for t, n := range sc.Topics {
		w.topics[t] = n
	}
	w.cluster, err = newCluster(w)
	if err != nil {
		return nil, err
	}
	// Both kinds exist: the one w.consumer names is the group; the other
	// stays empty unless a migration (migration.go) swaps them.
	w.consumerGroup, w.classic = newConsumerGroup(w), newClassicGroup(w)
	w.hist = newHistory(w)
	if scenario.IsShare(sc) {
		w.share = newShareGroup(w)
	}
	return w, nil
}

// run plays the scenario until the timeline is done and the group is quiet.
func (w *world) run() error {
	if w.share != nil && w.sc.GivenStart() {
		return w.runShareGiven() // given_share.go
	}
	if w.share != nil {
		return w.runShare() // share_client.go
	}
	if w.sc.GivenStart() {
		w.startGiven() // already Stable: step 0 shows it
	}
	w.record(kafka.KindGroupStateChanged, "", "", false, w.openingText())
	w.scheduleMoments()
	for _, m := range w.sc.Members {
		if w.sc.GivenStart() {
			break
		}
		spec := m
		w.clock.after(0, false, func() { w.startClient(spec.ID, spec.Instance, spec.Topics, spec.Strategies, spec.Settings) })
	}
	return w.play(w.apply, w.quiet, w.quietStretch)
}

// play schedules the timeline (apply runs each event) and runs the clock
// until the timeline is done and quiet holds; stretch jumps a quiet
// stretch's heartbeats (quiet.go). A share group plays with its own apply
// and quiet (runShare).
func (w *world) play(apply func(scenario.Event), quiet func() bool, stretch func() bool) error {
	for i := range w.sc.Timeline {
		ev := w.sc.Timeline[i]
		w.clock.at(ev.AtMs, func() { apply(ev) })
	}
	lastEvent := int64(0)
	if n := len(w.sc.Timeline); n > 0 {
		lastEvent = w.sc.Timeline[n-1].AtMs
	}
	for n := 0; ; n++ {
		if w.err != nil {
			return w.err
		}
		if n%1024 == 0 && w.ctx != nil && w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		if w.until != nil && w.until() {
			return nil
		}
		if w.clock.now >= lastEvent && w.clock.nonRoutine == w.idleMarks() && quiet() {
			return nil
		}
		stretch()
		e := w.clock.next()
		if e == nil {
			return nil
		}
		// Only heartbeats left, nothing changed for settleLimitMs, and yet
		// the group is not quiet: it never will be.
		if e.routine && w.clock.nonRoutine == 0 && e.at > lastEvent+settleLimitMs && e.at > w.hist.lastChangeAt+settleLimitMs {
			return fmt.Errorf("the group did not settle within %d ms after the last timeline event (last change: %s)", settleLimitMs, w.hist.lastChange())
		}
		e.run()
		if w.hist.len() > maxSteps {
			return &StepCapError{Steps: maxSteps, AtMs: w.clock.now, EveryHeartbeat: w.sc.EveryHeartbeat}
		}
	}
}

// idleMarks counts the queued events that only mark a moment for the quiet
// stretches (the earliest heartbeat that schedules a regex refresh,
// pattern_regex.go's armRegexDue): a settled group's run ends with them
// queued, since what comes then changes nothing.
func (w *world) idleMarks() int {
	if w.consumer && w.consumerGroup != nil && w.consumerGroup.regex.due != nil {
		return 1
	}
	return 0
}

// StepCapError is a run stopped by the step cap: a guard against a loop in
// the model, never reached by a valid scenario (quiet stretches are jumped,
// quiet.go). The scenario is as good as refused: exit code 2.
type StepCapError struct {
	Steps int
	AtMs  int64 // the virtual time reached
	// EveryHeartbeat: the run did not jump quiet stretches, as asked.
	EveryHeartbeat bool
}

func (e *StepCapError) Error() string {
	hint := "is the scenario looping?"
	if e.EveryHeartbeat {
		hint = "every heartbeat was run, as asked (--every-heartbeat): without it quiet stretches are jumped"
	}
	return fmt.Sprintf("the simulation passed %d steps by %s of virtual time (t=%d ms); %s", e.Steps, spanText(e.AtMs), e.AtMs, hint)
}

// at schedules a timeline event at an absolute time.
func (c *clock) at(t int64, run func()) *event { return c.after(t-c.now, false, run) }

// quiet reports whether the group has settled: nothing but heartbeats left.
func (w *world) quiet() bool {
	if w.cluster.coordinator() < 0 {
		return true // nothing moves until a broker recovers
	}
	// The group first: while it rebalances it answers at once, and this
	// runs after every event.
	if w.consumer && !w.consumerGroup.settled() || !w.consumer && !w.classic.settled() {
		return false
	}
	if c := w.unsettled; c != nil && !c.settled() {
		return false // the client that was not last time, asked first
	}
	for _, c := range w.clients {
		if !c.settled() {
			w.unsettled = c
			return false
		}
	}
	return true
}

func (w *world) openingText() string {
	coord := w.cluster.coordinator()
	where := fmt.Sprintf("broker %d", coord)
	if coord < 0 {
		where = "no broker (all replicas down)"
	}
	if w.sc.GivenStart() {
		coord := fmt.Sprintf("%s, leader of __consumer_offsets partition %d", where, w.cluster.groupPartition)
		if t := caughtText(w.sc, coord); t != "" {
			return t
		}
		return scenario.GivenText(w.sc, coord)
	}
	return fmt.Sprintf("Group %s (%s, %s protocol) starts empty; its coordinator is %s, leader of __consumer_offsets partition %d.",
		w.sc.GroupID, w.sc.Strategy, w.sc.Protocol, where, w.cluster.groupPartition)
}

// fail stops the run with an internal error (a bug, never a panic).
func (w *world) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("t=%d ms: %s", w.clock.now, fmt.Sprintf(format, args...))
	}
}

// record appends one step to the trace, with the state as it is now.
func (w *world) record(kind kafka.StepKind, member, errName string, routine bool, text string) {
	w.hist.record(kind, member, errName, routine, text)
}

// recordLazy is record with a sentence written only when read (history.go).
func (w *world) recordLazy(kind kafka.StepKind, member, errName string, routine bool, lazy func() string) {
	w.hist.recordLazy(kind, member, errName, routine, "", lazy)
}

// newMemberID makes a coordinator- (classic) or client- (KIP-848) made id:
// the client or instance id, "-", and 8 hex digits from the scenario's seed
// (Kafka uses a random UUID; 8 digits keep the lab readable).
func (w *world) newMemberID(prefix string) string {
	return fmt.Sprintf("%s-%08x", prefix, w.rng.Uint32())
}

// apply runs one timeline event.
func (w *world) apply(ev scenario.Event) {
	c := w.byID[ev.Member]
	switch ev.Kind {
	case "join":
		// A join of a stopped member starts it again with the join's
		// configuration: that is how a rolling bounce changes assignors.
		if c != nil && c.alive() {
			w.record(kafka.KindMemberStarted, ev.Member, "", false, fmt.Sprintf("%s is already running; the join does nothing.", ev.Member))
			return
		}
		w.startClient(ev.Member, ev.Instance, ev.Topics, ev.Strategies, ev.Settings)
	case "fail_broker":
		w.cluster.fail(ev.Broker)
	case "recover_broker":
		w.cluster.recover(ev.Broker)
	case "add_partitions":
		w.addPartitions(ev.Topic, ev.Count)
	case "remove_members":
		w.removeMembers(ev)
	case "create_topic":
		w.createTopic(ev.Topic, ev.Count)
	case "delete_topic":
		w.deleteTopic(ev.Topic)
	default:
		if c == nil {
			w.record(kafka.KindMemberStarted, ev.Member, "", false, fmt.Sprintf("There is no member %s; the %s does nothing.", ev.Member, ev.Kind))
			return
		}
		w.memberEvent(c, ev)
	}
}

func (w *world) memberEvent(c *client, ev scenario.Event) {
	if (ev.Kind == "leave" || ev.Kind == "crash") && !c.running {
		w.notRunning(c, ev)
		return
	}
	switch ev.Kind {
	case "leave":
		c.leave()
	case "crash":
		c.crash()
	case "restart":
		c.restartAs(ev.Settings.Protocol)
	case "stall":
		c.stall(ev.Ms)
	case "subscribe":
		if ev.Settings.Pattern != "" {
			c.subscribePattern(ev.Settings.Pattern)
			return
		}
		c.subscribe(ev.Topics)
	case "commit":
		c.commit(ev.Generation)
	case "disconnect":
		c.disconnect(ev.Ms)
	case "wakeup":
		c.wakeup()
	}
}

// notRunning handles a leave or crash of a member whose process does not
// run: nothing is sent, so no request step may show one. The parser refuses
// such an entry when the timeline alone decides it; the event Sim.Insert
// adds is refused with just the fact ("c2 is not running"). Any other (a
// member fenced meanwhile, or stopped by an inserted event) does nothing,
// and the trace says so.
func (w *world) notRunning(c *client, ev scenario.Event) {
	if ev.Inserting {
		w.err = fmt.Errorf("%s is not running", c.id)
		return
	}
	w.record(kafka.KindMemberStopped, c.id, "", false, fmt.Sprintf("%s is not running (%s): the timeline's %s does nothing.", c.id, c.status, ev.Kind))
}

// startClient starts a consumer process (or restarts a stopped one).
func (w *world) startClient(id, instance string, topics, strats []string, cfg scenario.MemberSettings) {
	c := w.byID[id]
	if c == nil {
		c = newClient(w, id, instance, topics)
		w.clients = append(w.clients, c)
		w.byID[id] = c
	} else {
		c.reset(instance, topics)
	}
	c.configure(cfg)
	c.setStrategies(strats)
	c.start()
}

func (w *world) addPartitions(topic string, count int32) {
	old := w.topics[topic]
	if count <= old {
		w.record(kafka.KindCreatePartitions, "", "", false, fmt.Sprintf(
			"%s already has %d partitions; Kafka can only add partitions, so asking for %d changes nothing (InvalidPartitionsException).", topic, old, count))
		return
	}
	w.topics[topic] = count
	w.cluster.grow(topic, count)
	w.topicGen++
	w.topicLog = append(w.topicLog, topicChange{w.clock.now, topic, count, false})
	w.hist.topicsChanged()
	w.record(kafka.KindCreatePartitions, "", "", false, fmt.Sprintf("%s grows from %d to %d partitions.", topic, old, count))
	if w.share != nil {
		w.share.topicsChanged()
	} else if w.consumer {
		w.consumerGroup.topicsChanged()
	} else {
		w.classic.topicsChanged()
	}
}

// sortedTopicNames is the topic list in Java order.
func (w *world) sortedTopicNames() []string { return strategies.SortedTopics(w.topics) }

// existing drops partitions of topics that no longer exist or beyond the count.
func (w *world) existing(tps []kafka.TP) []kafka.TP { return existingIn(w.topics, tps) }

// existingIn drops partitions of topics not in counts or beyond their count.
func existingIn(counts map[string]int32, tps []kafka.TP) []kafka.TP {
	var out []kafka.TP
	for _, tp := range tps {
		if n, ok := counts[tp.Topic]; ok && tp.Partition < n {
			out = append(out, tp)
		}
	}
	return out
}

// subscribedTopics is the cluster's metadata for the topics anyone subscribes to.
func (w *world) subscribedTopics(members []strategies.Member) map[string]int32 {
	return subscribedIn(w.topics, members)
}

// subscribedIn is counts for the topics anyone subscribes to that exist.
func subscribedIn(counts map[string]int32, members []strategies.Member) map[string]int32 {
	out := map[string]int32{}
	eachSubscribedTopic(members, func(t string) bool {
		if n, ok := counts[t]; ok {
			out[t] = n
		}
		return true
	})
	return out
}

// eachSubscribedTopic calls f for the topics of each run of members that
// share a subscription (members mostly do: one pass per distinct run),
// until f returns false.
func eachSubscribedTopic(members []strategies.Member, f func(topic string) bool) {
	var last []string
	for _, m := range members {
		if last != nil && slices.Equal(m.Topics, last) {
			continue
		}
		last = m.Topics
		for _, t := range m.Topics {
			if !f(t) {
				return
			}
		}
	}
}

// clientName maps a member id to the client id the lab shows.
func (w *world) clientName(memberID string) string {
	for _, c := range w.clients {
		if c.memberID == memberID {
			return c.id
		}
	}
	if !w.consumer {
		return w.classic.clientOf(memberID)
	}
	return memberID
}

// heartbeatPeriod is the cycle every member's heartbeats repeat in: the
// least common multiple of their intervals (members may set their own
// heartbeat.interval.ms), the group's interval when they share it.
func (w *world) heartbeatPeriod() int64 {
	p := w.sc.HeartbeatIntervalMs
	for _, c := range w.clients {
		if !c.running {
			continue
		}
		if hb := c.heartbeatInterval(); hb != p {
			p = p / gcd(p, hb) * hb
			if p > MaxQuietPeriodMs {
				return MaxQuietPeriodMs
			}
		}
	}
	return p
}

// MaxQuietPeriodMs bounds heartbeatPeriod: past it no stretch is jumped
// (quietStretch needs ten periods before the next event).
const MaxQuietPeriodMs = scenario.MaxTimelineMs

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
