package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// TestKIP848RandomEventSequences checks Kafka's consumer-protocol rules on
// every step of random KIP-848 groups and timelines (joins, leaves, crashes,
// restarts, stalls, subscription changes, partition growth, broker
// failures), read from the JSONL a script sees: no partition owned twice;
// member epochs never above the group (or assignment) epoch and never going
// back but to rejoin (0) or leave (-1, -2); a member's callbacks agree with
// what it owns, revoking before assigning (AbstractMembershipManager.revokeAndAssign);
// the group state is ConsumerGroup.maybeUpdateGroupState of the step; and
// every member target names is in member_epochs.
func TestKIP848RandomEventSequences(t *testing.T) {
	var consumer [][2]string
	for _, s := range registeredSetups() {
		if s[1] == "consumer" {
			consumer = append(consumer, s)
		}
	}
	if len(consumer) == 0 {
		t.Skip("no server-side assignor registered")
	}
	rapid.Check(t, func(t *rapid.T) {
		src := genScenario(t, rapid.SampledFrom(consumer).Draw(t, "setup"))
		sim := simGenerated(t, src)
		checkKIP848Trace(t.Fatalf, sim, jsonSteps(t, sim), src)
	})
}

// checkKIP848Trace checks the rules on every step; fatalf reports the first
// broken one.
//
// Owners are judged by topic id (heldIDs): a member still revoking the
// deleted t1-0 while another is given the new t1-0 owns another partition.
func checkKIP848Trace(fatalf func(string, ...any), sim *model.Sim, trace []jsonStep, src string) {
	epochs := map[string]int32{}
	ids := newHeldIDs()
	cbs := newCallbackLedger()
	if len(trace) > 0 {
		// a given start's members hold their partitions from before time 0
		for m, topics := range trace[0].Owned {
			cbs.held[m] = ownedNames(topics)
		}
	}
	for i, st := range trace {
		fail := func(format string, args ...any) {
			fatalf("step %d (%d ms, %s %s): %s\n%s", st.Step, st.TimeMs, st.Kind, st.Member, fmt.Sprintf(format, args...), src)
		}
		// After a downgrade (KIP-848's online migration) the group is a
		// classic group: its steps carry no epochs.
		classic := !st.GroupState.Consumer()
		if st.AssignmentEpoch == nil && !classic {
			fail("no assignment_epoch")
		}
		owner := map[string]string{}
		for _, h := range ids.owners(sim.Step(i), sim.View(i).Topics) {
			if o, dup := owner[h.key]; dup {
				fail("%s owned by %s and %s", h.key, o, h.member)
			}
			owner[h.key] = h.member
		}
		if classic {
			epochs = map[string]int32{}
			if err := cbs.step(st); err != "" {
				fail("%s", err)
			}
			continue
		}
		for m, e := range st.MemberEpochs {
			if e > st.Generation || e > *st.AssignmentEpoch {
				fail("%s at epoch %d, above group epoch %d / assignment epoch %d", m, e, st.Generation, *st.AssignmentEpoch)
			}
			if old, ok := epochs[m]; ok && e < old && e > 0 {
				fail("%s's epoch went back from %d to %d", m, old, e)
			}
		}
		epochs = st.MemberEpochs
		if want := derivedState(st); st.GroupState != want {
			fail("group state %s; group epoch %d, assignment epoch %d, members %v %v give %s",
				st.GroupState, st.Generation, *st.AssignmentEpoch, st.MemberEpochs, st.MemberStates, want)
		}
		for m := range st.Target {
			if _, ok := st.MemberEpochs[m]; !ok {
				fail("target names %s, member_epochs does not (%v)", m, st.MemberEpochs)
			}
		}
		if err := cbs.step(st); err != "" {
			fail("%s", err)
		}
	}
}

// callbackLedger follows each member's rebalance callbacks: what they say it
// holds, and whether the last one was onPartitionsAssigned with no answer
// from the coordinator since.
type callbackLedger struct {
	held     map[string][]string
	assigned map[string]bool
	classic  map[string]bool // the process runs the classic protocol (it sent a JoinGroup)
}

func newCallbackLedger() *callbackLedger {
	return &callbackLedger{held: map[string][]string{}, assigned: map[string]bool{}, classic: map[string]bool{}}
}

// step checks one step; it returns what is wrong, or "".
func (l *callbackLedger) step(st jsonStep) string {
	m := st.Member
	switch st.Kind {
	case kafka.KindMemberStarted, kafka.KindMemberCrashed, kafka.KindMemberStopped:
		if st.Kind != kafka.KindMemberStarted || !strings.Contains(st.Text, "is not running") {
			delete(l.held, m) // a new process, or none: no partitions, no listener
		}
		l.assigned[m] = false
		l.classic[m] = false
	case kafka.KindJoinGroupRequest:
		l.classic[m] = true
		l.assigned[m] = false
	case kafka.KindConsumerGroupHeartbeatResponse, kafka.KindJoinGroupResponse, kafka.KindSyncGroupResponse, kafka.KindHeartbeatResponse:
		// (the classic responses: a classic member of the group, after a migration)
		l.assigned[m] = false
	case kafka.KindPartitionsRevoked, kafka.KindPartitionsLost:
		if st.Kind == kafka.KindPartitionsRevoked && l.assigned[m] && !l.classic[m] && !strings.Contains(st.Text, "it is closing") {
			return m + " revokes after assigning in one reconciliation (revokeAndAssign revokes first)"
		}
		for _, p := range callbackPartitions(st.Text) {
			if !slices.Contains(l.held[m], p) {
				return fmt.Sprintf("%s gives up %s, which its callbacks never gave it (%v)", m, p, l.held[m])
			}
		}
		l.held[m] = slices.DeleteFunc(l.held[m], func(p string) bool { return slices.Contains(callbackPartitions(st.Text), p) })
	case kafka.KindPartitionsAssigned:
		for _, p := range callbackPartitions(st.Text) {
			if slices.Contains(l.held[m], p) {
				return fmt.Sprintf("%s is assigned %s again", m, p)
			}
			l.held[m] = append(l.held[m], p)
		}
		l.assigned[m] = true
		// A zombie (the coordinator removed it, an administrator say, and
		// it has not heard yet) takes what it was last given, which the
		// group does not count as consumed (world.orphan).
		if _, held := st.MemberEpochs[m]; !held {
			break
		}
		if got := ownedNames(st.Owned[m]); !sameNames(got, l.held[m]) {
			return fmt.Sprintf("%s owns %v after onPartitionsAssigned, its callbacks say %v", m, got, l.held[m])
		}
	}
	return ""
}

// callbackPartitions reads "c1 calls onPartitionsRevoked([t0-1, t1-0]): ..." .
func callbackPartitions(text string) []string {
	i, j := strings.Index(text, "(["), strings.Index(text, "])")
	if i < 0 || j <= i+2 {
		return nil
	}
	return strings.Split(text[i+2:j], ", ")
}

func ownedNames(topics map[string][]int32) []string {
	var out []string
	for topic, ps := range topics {
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s-%d", topic, p))
		}
	}
	return out
}

func sameNames(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestKIP848EveryDemoUnderTheConsumerProtocol runs every shipped demo under
// uniform and range-server with the consumer protocol and checks the same
// rules on every step (issue 13 item 5: the state rule on every demo).
func TestKIP848EveryDemoUnderTheConsumerProtocol(t *testing.T) {
	ran := 0
	for _, strategy := range []string{"uniform", "range-server"} {
		if _, err := strategies.Lookup(strategy); err != nil {
			continue
		}
		for _, name := range demo.Names() {
			data, _ := demo.Get(name)
			sc, err := scenario.Parse(name+".yaml", data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if sc, err = sc.WithStrategy(strategy, "consumer"); err != nil {
				continue // member assignor lists: not a consumer-protocol group
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				t.Fatalf("%s under %s: %v", name, strategy, err)
			}
			ran++
			checkKIP848Trace(t.Fatalf, sim, jsonSteps(t, sim), "demo:"+name+" under "+strategy)
		}
	}
	if ran == 0 {
		t.Skip("no server-side assignor registered")
	}
}
