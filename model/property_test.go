package model_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// setups are the strategy/protocol pairs the random groups run under.
var setups = [][2]string{
	{"range", "eager"}, {"roundrobin", "eager"}, {"sticky", "eager"},
	{"cooperative-sticky", "cooperative"}, {"cooperative-sticky", "eager"},
	{"uniform", "consumer"}, {"range-server", "consumer"},
}

func registeredSetups() [][2]string {
	var out [][2]string
	for _, s := range setups {
		if _, err := strategies.Lookup(s[0]); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// genScenario draws a random group and timeline as scenario YAML.
func genScenario(t *rapid.T, setup [2]string) string {
	var b strings.Builder
	brokers := rapid.IntRange(1, 3).Draw(t, "brokers")
	fmt.Fprintf(&b, "seed: %d\ncluster: {brokers: %d}\n", rapid.Int64().Draw(t, "seed"), brokers)
	topics := []string{"t0"}
	fmt.Fprintf(&b, "topics: {t0: %d", rapid.IntRange(1, 8).Draw(t, "p0"))
	if rapid.Bool().Draw(t, "two topics") {
		topics = append(topics, "t1")
		fmt.Fprintf(&b, ", t1: %d", rapid.IntRange(1, 4).Draw(t, "p1"))
	}
	fmt.Fprintf(&b, "}\ngroup: {id: g%d, strategy: %s, protocol: %s}\nmembers:\n",
		rapid.IntRange(0, 99).Draw(t, "group"), setup[0], setup[1])
	n := rapid.IntRange(1, 4).Draw(t, "members")
	ids := []string{}
	migratable := map[string]bool{}
	subs := func(label string) string {
		if len(topics) == 1 || rapid.Bool().Draw(t, label) {
			return "[" + strings.Join(topics, ", ") + "]"
		}
		return "[" + rapid.SampledFrom(topics).Draw(t, label+" topic") + "]"
	}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("c%d", i)
		ids = append(ids, id)
		inst := ""
		if rapid.IntRange(0, 3).Draw(t, "static "+id) == 0 {
			inst = ", instance: i" + id
		}
		own, timeouts := assignorList(t, setup, id), memberTimeouts(t, setup, id)
		// A member may change its protocol when nothing it sets is classic-only.
		migratable[id] = own == "" && !strings.Contains(timeouts, "session")
		sub := "topics: " + subs("subs "+id)
		if rapid.IntRange(0, 4).Draw(t, "pattern "+id) == 0 {
			sub = fmt.Sprintf("pattern: %q", rapid.SampledFrom(patterns).Draw(t, "pattern of "+id))
		}
		fmt.Fprintf(&b, "  - {id: %s, %s%s%s%s}\n", id, sub, inst, own, timeouts)
	}
	b.WriteString("timeline:\n")
	at := int64(0)
	exists := map[string]bool{}
	for _, tp := range topics {
		exists[tp] = true
	}
	stopped := map[string]bool{} // by a leave or crash, as far as the timeline says
	for e := rapid.IntRange(0, 7).Draw(t, "events"); e > 0; e-- {
		at += rapid.Int64Range(1, 60000).Draw(t, "gap")
		kind := rapid.SampledFrom(randomKinds).Draw(t, "kind")
		who := rapid.SampledFrom(ids).Draw(t, "who")
		switch {
		case (kind == "leave" || kind == "crash") && stopped[who]:
			kind = "restart" // the parser refuses a leave or crash of a stopped member
		case kind == "leave" || kind == "crash":
			stopped[who] = true
		case kind == "restart":
			stopped[who] = false
		}
		switch kind {
		case "join":
			id := fmt.Sprintf("c%d", len(ids)+1)
			ids = append(ids, id)
			migratable[id] = true
			fmt.Fprintf(&b, "  - {at_ms: %d, join: {id: %s, topics: %s}}\n", at, id, subs("subs "+id))
		case "stall":
			fmt.Fprintf(&b, "  - {at_ms: %d, stall: {id: %s, ms: %d}}\n", at, who, rapid.Int64Range(1000, 400000).Draw(t, "ms"))
		case "subscribe":
			if rapid.IntRange(0, 3).Draw(t, "resub pattern") == 0 {
				fmt.Fprintf(&b, "  - {at_ms: %d, subscribe: {id: %s, pattern: %q}}\n", at, who, rapid.SampledFrom(patterns).Draw(t, "resub to"))
				break
			}
			fmt.Fprintf(&b, "  - {at_ms: %d, subscribe: {id: %s, topics: %s}}\n", at, who, subs("resub"))
		case "create_topic", "delete_topic":
			// t0 stays (add_partitions grows it); t1..t3 come and go, and
			// come back: a name deleted may be created again, a new topic
			// with a new id (model/topic_ids.go; checkTrace judges owners
			// by topic id under the consumer protocol, by name under the
			// classic one).
			name := rapid.SampledFrom([]string{"t1", "t2", "t3"}).Draw(t, "topic event")
			if exists[name] {
				delete(exists, name)
				fmt.Fprintf(&b, "  - {at_ms: %d, delete_topic: %s}\n", at, name)
				break
			}
			exists[name] = true
			fmt.Fprintf(&b, "  - {at_ms: %d, create_topic: {topic: %s, partitions: %d}}\n", at, name, rapid.IntRange(1, 4).Draw(t, "new partitions"))
		case "add_partitions":
			fmt.Fprintf(&b, "  - {at_ms: %d, add_partitions: {topic: t0, count: %d}}\n", at, rapid.IntRange(1, 12).Draw(t, "count"))
		case "fail_broker", "recover_broker":
			fmt.Fprintf(&b, "  - {at_ms: %d, %s: %d}\n", at, kind, rapid.IntRange(0, brokers-1).Draw(t, "broker"))
		case "remove_members":
			if rapid.Bool().Draw(t, "remove all") {
				fmt.Fprintf(&b, "  - {at_ms: %d, remove_members: all}\n", at)
			} else {
				fmt.Fprintf(&b, "  - {at_ms: %d, remove_members: {instances: [i%s]}}\n", at, who)
			}
		case "disconnect":
			fmt.Fprintf(&b, "  - {at_ms: %d, disconnect: {id: %s, ms: %d}}\n", at, who, rapid.Int64Range(1000, 120000).Draw(t, "cut ms"))
		case "restart":
			// Sometimes a rolling upgrade or downgrade (KIP-848's online
			// migration) instead of a plain bounce.
			if proto := rapid.SampledFrom([]string{"", "", "consumer", "classic"}).Draw(t, "restart protocol"); proto != "" && migratable[who] {
				fmt.Fprintf(&b, "  - {at_ms: %d, restart: {id: %s, protocol: %s}}\n", at, who, proto)
				break
			}
			fmt.Fprintf(&b, "  - {at_ms: %d, restart: %s}\n", at, who)
		default:
			fmt.Fprintf(&b, "  - {at_ms: %d, %s: %s}\n", at, kind, who)
		}
	}
	return b.String()
}

// randomKinds are the events random scenarios draw: every kind the
// scenario format has. (remove_members and disconnect were left out while
// two faults they found stood, issue 23: a member removed while its
// SyncGroup answer was in flight counted as an owner, and a consumer
// closing while cut off left no step, so the trace ended with it running
// beside a group that had expired or fenced it; admin_removal_test.go
// keeps both.)
var randomKinds = slices.Clone(scenario.EventKinds)

// patterns are what random pattern members subscribe to: valid in both
// java.util.regex and RE2J, so a rolling restart to the other protocol
// keeps them, and each matches t0, which never goes: a pattern matching
// nothing is an empty subscription, which Kafka's sticky assignors can
// loop on (AbstractStickyAssignor.allSubscriptionsEqual re-initialises on
// an empty set, so an empty member first in map order gets partitions it
// does not subscribe to, refuses them and rejoins, forever; kviz shows it).
var patterns = []string{"t.*", "t[0-2]", "t0|t3"}

// memberTimeouts sometimes gives a member its own timeouts (Kafka sends
// them in each JoinGroup): heartbeats of several intervals, sessions and
// rebalance timeouts that differ.
func memberTimeouts(t *rapid.T, setup [2]string, id string) string {
	if rapid.IntRange(0, 3).Draw(t, "own timeouts "+id) != 0 {
		return ""
	}
	out := fmt.Sprintf(", max_poll_interval_ms: %d", rapid.SampledFrom([]int64{30000, 120000, 300000, 600000}).Draw(t, "max poll "+id))
	if setup[1] != "consumer" {
		session := rapid.SampledFrom([]int64{6000, 10000, 45000}).Draw(t, "session "+id)
		out += fmt.Sprintf(", session_timeout_ms: %d, heartbeat_interval_ms: %d", session,
			rapid.SampledFrom([]int64{1000, 2000, 3000}).Draw(t, "heartbeat "+id))
	}
	return out
}

// assignorList sometimes gives a classic member its own assignor list, so
// the vote, mixed eager/cooperative members and INCONSISTENT_GROUP_PROTOCOL
// get exercised.
func assignorList(t *rapid.T, setup [2]string, id string) string {
	if setup[1] == "consumer" || rapid.IntRange(0, 3).Draw(t, "own list "+id) != 0 {
		return ""
	}
	lists := [][]string{{"range", "cooperative-sticky"}, {"cooperative-sticky"}, {setup[0]}, {"roundrobin", setup[0]}}
	var ok []string
	for _, l := range rapid.SampledFrom(lists).Draw(t, "list "+id) {
		if _, err := strategies.Lookup(l); err == nil {
			ok = append(ok, l)
		}
	}
	if len(ok) == 0 {
		return ""
	}
	return ", strategies: [" + strings.Join(ok, ", ") + "]"
}

// TestRandomGroups checks, after every step of random scenarios over all
// three protocols: no partition has two consumers; the classic state
// machine only makes Kafka's transitions; generations and epochs never go
// back; and once events stop the group is Stable with everything consumed.
func TestRandomGroups(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		sim, src := drawSim(t, available)
		checkTrace(t, sim, src)
	})
}

// drawSim draws a random scenario under one of the setups and simulates it.
func drawSim(t *rapid.T, available [][2]string) (*model.Sim, string) {
	src := genScenario(t, rapid.SampledFrom(available).Draw(t, "setup"))
	return simGenerated(t, src), src
}

// simGenerated parses and simulates a generated scenario.
func simGenerated(t *rapid.T, src string) *model.Sim {
	sc, err := scenario.Parse("random.yaml", []byte(src))
	if err != nil {
		t.Fatalf("generated scenario does not parse: %v\n%s", err, src)
	}
	sim, err := model.Simulate(sc)
	if kafkaLivelock(err, sc) {
		t.Skipf("Kafka loops on this scenario (kafkaLivelock): %v", err)
	}
	if err != nil {
		t.Fatalf("simulate: %v\n%s", err, src)
	}
	return sim
}

// kafkaLivelock reports a run stopped by the step cap in the one loop
// Kafka itself has that the generator can draw. A static member comes back
// into a Stable group subscribed to less than its stored assignment: the
// vote does not change, so there is no rebalance (KIP-345;
// GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin), and
// it gets the old assignment back. The assignment does not match its
// subscription, so it rejoins (ConsumerCoordinator.onJoinComplete,
// requestRejoin). A follower's unchanged JoinGroup in a Stable group is
// answered as before (classicGroupJoinExistingMember), forever. Any other
// scenario that reaches the cap still fails.
func kafkaLivelock(err error, sc *scenario.Scenario) bool {
	var capped *model.StepCapError
	if !errors.As(err, &capped) {
		return false
	}
	static := map[string]bool{}
	for _, m := range sc.Members {
		static[m.ID] = m.Instance != ""
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" {
			static[ev.Member] = ev.Instance != ""
		}
		if ev.Kind == "subscribe" && static[ev.Member] {
			return true
		}
	}
	return false
}

// unlistedAtUpgrade is Kafka's one window of two owners the generator can
// draw: what a classic member still holds beyond its stored assignment when
// a consumer-protocol member upgrades the group. ConsumerGroup.fromClassicGroup
// takes only the stored assignment as the member's, and a rebalance
// interrupted while completing has emptied it
// (resetAndPropagateAssignmentWithError) while the cooperative client kept
// its partitions, so the new group's target can hand them to another member
// at once. The upgrade's step names them; they stay exempt only while the
// member holds them without a break.
func unlistedAtUpgrade(st model.Step, held []holding) map[holding]bool {
	out := map[holding]bool{}
	for _, h := range held {
		if !slices.Contains(st.Target[h.member][h.tp.Topic], h.tp.Partition) {
			out[h] = true
		}
	}
	return out
}

// stillHeld keeps the holdings of was that held still lists.
func stillHeld(was map[holding]bool, held []holding) map[holding]bool {
	if len(was) == 0 {
		return nil
	}
	out := map[holding]bool{}
	for _, h := range held {
		if was[h] {
			out[h] = true
		}
	}
	return out
}

func checkTrace(t *rapid.T, sim *model.Sim, src string) {
	var prev model.Step
	epochs := map[string]int32{}
	ids := newHeldIDs()
	var unlisted map[holding]bool
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		held := ids.owners(st, sim.View(i).Topics)
		if i > 0 && st.Kind == kafka.KindGroupConverted && st.GroupState.Consumer() && !prev.GroupState.Consumer() {
			unlisted = unlistedAtUpgrade(st, held)
		}
		unlisted = stillHeld(unlisted, held)
		owner := map[string]string{}
		for _, h := range held {
			if o, dup := owner[h.key]; dup && !unlisted[h] && !unlisted[holding{o, h.key, h.tp}] {
				t.Fatalf("step %d: %s owned by %s and %s\n%s", i, h.key, o, h.member, src)
			}
			owner[h.key] = h.member
		}
		if i > 0 {
			reloaded := st.Kind == "CoordinatorMoved"
			// A migration (GroupConverted) changes the group's kind.
			converted := prev.GroupState.Consumer() != st.GroupState.Consumer()
			if converted && st.Kind != kafka.KindGroupConverted {
				t.Fatalf("step %d (%s): the group turns from %s to %s without a GroupConverted step\n%s", i, st.Kind, prev.GroupState, st.GroupState, src)
			}
			consumer := st.GroupState.Consumer()
			if !consumer && !reloaded && !converted && prev.GroupState != st.GroupState && !model.ValidClassicTransition(prev.GroupState, st.GroupState) {
				t.Fatalf("step %d: invalid transition %s -> %s\n%s", i, prev.GroupState, st.GroupState, src)
			}
			if st.Generation < prev.Generation && !(reloaded && !consumer) && !converted {
				t.Fatalf("step %d: generation went back from %d to %d\n%s", i, prev.Generation, st.Generation, src)
			}
		}
		for m, e := range st.MemberEpochs {
			if old, ok := epochs[m]; ok && e >= 0 && old > e && e != 0 {
				t.Fatalf("step %d: %s's epoch went back from %d to %d\n%s", i, m, old, e, src)
			}
		}
		epochs = map[string]int32{}
		for m, e := range st.MemberEpochs {
			if e > 0 {
				epochs[m] = e
			}
		}
		prev = st
	}
	checkSettled(t, sim, src)
}

// checkSettled: the last step is Stable (or Empty) with every partition of a
// subscribed topic consumed.
func checkSettled(t *rapid.T, sim *model.Sim, src string) {
	st := sim.Step(sim.Len() - 1)
	v := sim.View(sim.Len() - 1)
	wanted := map[string]bool{}
	running := 0
	for _, m := range v.Members {
		if m.Status == kafka.StatusActive || m.Status == kafka.StatusJoining || m.Status == kafka.StatusRejoining || m.Status == kafka.StatusStalled {
			running++
			for _, tp := range m.Topics {
				wanted[tp] = true
			}
		}
	}
	if running == 0 || v.CoordinatorBroker < 0 {
		return // nobody left, or no coordinator until a broker recovers
	}
	if st.GroupState != kafka.Stable && st.GroupState != kafka.KStable {
		t.Fatalf("the group ends %s, want Stable\n%s", st.GroupState, src)
	}
	var missing []string
	for _, tv := range v.Topics {
		if !wanted[tv.Name] {
			continue
		}
		for p := int32(0); p < tv.Partitions; p++ {
			found := false
			for _, ps := range st.Owned {
				for _, q := range ps[tv.Name] {
					found = found || q == p
				}
			}
			if !found {
				missing = append(missing, fmt.Sprintf("%s-%d", tv.Name, p))
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 && (blindLeader(sim) || upgradedUnassigned(sim)) {
		return
	}
	if len(missing) > 0 {
		t.Fatalf("the group ends with %v unconsumed (owned %v)\n%s", missing, st.Owned, src)
	}
}

// blindLeader: a static member came back into a Stable group after the last
// assignment. Its changed subscription triggers nothing (KIP-345), and a
// returning leader gets SkipAssignment (KIP-814) and keeps no metadata
// snapshot (ConsumerCoordinator.onLeaderElected returns before taking one),
// so new partitions or topics wait for the next rebalance.
func blindLeader(sim *model.Sim) bool {
	lastAssign, lastSkip := -1, -1
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		switch {
		case st.Kind == "AssignmentComputed":
			lastAssign = i
		case st.Kind == "MemberReplaced":
			lastSkip = i
		}
	}
	return lastSkip > lastAssign
}

// upgradedUnassigned: the group was converted (KIP-848's online migration)
// after the last assignment. An upgrade takes the members' last classic
// assignments as their targets (ConsumerGroup.fromClassicGroup): empty ones
// in the first generation, or after a rebalance interrupted in
// CompletingRebalance emptied them, and nothing recomputes them until the
// group epoch moves. A downgrade by a static member taking over a slot
// starts no rebalance, and the classic group's leader does not know it
// leads, so partitions added meanwhile wait for the next rebalance.
func upgradedUnassigned(sim *model.Sim) bool {
	converted, computed := -1, -1
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		switch st.Kind {
		case kafka.KindGroupConverted:
			converted = i
		case kafka.KindAssignmentComputed:
			// A classic leader's assignment counts in a classic group
			// only: one answered before an upgrade goes nowhere.
			if (st.Member == "") == st.GroupState.Consumer() {
				computed = i
			}
		}
	}
	return converted > computed
}

// stoppedByTimeline reports whether the timeline's events up to ms leave
// member stopped (an inserted event runs after those of its millisecond).
func stoppedByTimeline(sc *scenario.Scenario, member string, ms int64) bool {
	stopped := false
	for _, ev := range sc.Timeline {
		if ev.AtMs > ms || ev.Member != member {
			continue
		}
		switch ev.Kind {
		case "leave", "crash":
			stopped = true
		case "restart", "join":
			stopped = false
		}
	}
	return stopped
}

// stoppedAround reports whether member's process is stopped (crashed, left
// or fenced) just before ms or at some step at ms.
func stoppedAround(sim *model.Sim, member string, ms int64) bool {
	for i := sim.Len() - 1; i >= 0; i-- {
		st := sim.Step(i)
		if st.TimeMs > ms {
			continue
		}
		for _, m := range sim.View(i).Members {
			if m.ID == member && (m.Status == kafka.StatusCrashed || m.Status == kafka.StatusLeft || m.Status == kafka.StatusFenced) {
				return true
			}
		}
		if st.TimeMs < ms {
			return false
		}
	}
	return false
}

// TestRandomInserts: a what-if inserted at any step's time gives a trace
// that keeps every invariant, and never breaks the simulation.
func TestRandomInserts(t *testing.T) {
	available := registeredSetups()
	rapid.Check(t, func(t *rapid.T) {
		setup := rapid.SampledFrom(available).Draw(t, "setup")
		src := genScenario(t, setup)
		sc, err := scenario.Parse("random.yaml", []byte(src))
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		sim, err := model.Simulate(sc)
		if err != nil {
			t.Fatalf("simulate: %v\n%s", err, src)
		}
		at := sim.Step(rapid.IntRange(0, sim.Len()-1).Draw(t, "step")).TimeMs
		v := sim.View(sim.Len() - 1)
		ids := []string{"c9"}
		for _, m := range v.Members {
			ids = append(ids, m.ID)
		}
		ev := scenario.Event{AtMs: at, Kind: rapid.SampledFrom(randomKinds).Draw(t, "kind"),
			Member: rapid.SampledFrom(ids).Draw(t, "member"), Topic: "t0",
			Count: int32(rapid.IntRange(1, 12).Draw(t, "count")), Ms: rapid.Int64Range(1, 400000).Draw(t, "ms"),
			Broker: rapid.IntRange(0, sc.Brokers-1).Draw(t, "broker")}
		if ev.Kind == "join" && rapid.Bool().Draw(t, "static join") {
			ev.Instance = "i" + ev.Member
		}
		if ev.Kind == "subscribe" {
			ev.Topics = []string{"t0"}
		}
		if ev.Kind == "create_topic" {
			ev.Topic = "t5"
		}
		if ev.Kind == "delete_topic" {
			// t0 never goes (patterns: every pattern matches it).
			ev.Topic = rapid.SampledFrom([]string{"t1", "t2", "t3"}).Draw(t, "delete")
		}
		if ev.Kind == "remove_members" {
			ev.Instances = []string{"i" + ev.Member}
			ev.All = rapid.Bool().Draw(t, "remove all")
		}
		fork, err := sim.Insert(ev)
		if err != nil && err.Error() == ev.Member+" is not running" && (ev.Kind == "leave" || ev.Kind == "crash") {
			if !stoppedAround(sim, ev.Member, at) && !stoppedByTimeline(sc, ev.Member, at) {
				t.Fatalf("insert %+v: %v, but %s runs then\n%s", ev, err, ev.Member, src)
			}
			return
		}
		if err != nil {
			// The timeline's own rule refuses an event of a member that
			// has not joined by then, as the parser would; nothing else.
			if ev.Kind != "join" && !startedBy(sc, ev.Member, ev.AtMs) &&
				strings.Contains(err.Error(), fmt.Sprintf("no member %q has joined", ev.Member)) {
				return
			}
			// Partitions are only ever added: a what-if that does not grow
			// the topic is refused.
			if ev.Kind == "add_partitions" && strings.Contains(err.Error(), "partitions are only ever added") {
				return
			}
			// A topic that does not exist then cannot be deleted.
			if ev.Kind == "delete_topic" && strings.Contains(err.Error(), "no topic") {
				return
			}
			t.Fatalf("insert %+v: %v\n%s", ev, err, src)
		}
		checkTrace(t, fork, fmt.Sprintf("%s\n(inserted %+v)", src, ev))
		// The forecast's fork stops once the outcome is known
		// (forecastStop): the outcome is the whole run's.
		f, err := sim.Forecast(ev)
		if err != nil {
			t.Fatalf("forecast %+v: %v, but the whole run ran\n%s", ev, err, src)
		}
		if want := fork.OutcomeOfEvent(ev.AtMs); !reflect.DeepEqual(f.Outcome, want) {
			t.Fatalf("forecast %+v:\n got %+v\nwant %+v (the whole run's)\n%s", ev, f.Outcome, want, src)
		}
	})
}

// startedBy: the scenario starts member id at time 0 or joins it by ms.
func startedBy(sc *scenario.Scenario, id string, ms int64) bool {
	for _, m := range sc.Members {
		if m.ID == id {
			return true
		}
	}
	for _, ev := range sc.Timeline {
		if ev.Kind == "join" && ev.Member == id && ev.AtMs <= ms {
			return true
		}
	}
	return false
}
