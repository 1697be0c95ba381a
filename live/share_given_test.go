package live

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// simulatedShare is a share scenario's end: each member's partitions by
// member id (as kadm describes them), and the group epoch.
func simulatedShare(t *testing.T, sc *scenario.Scenario) (strategies.Assignment, int32) {
	t.Helper()
	sim, err := model.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	end := sim.Step(sim.Len() - 1)
	v := sim.View(sim.Len() - 1)
	out := strategies.Assignment{}
	for _, m := range v.Members {
		if !m.InGroup {
			continue
		}
		a := map[string][]int32{}
		for t, ps := range end.Owned[m.ID] {
			if len(ps) > 0 {
				a[t] = ps
			}
		}
		out[m.MemberID] = a
	}
	return out, end.Generation
}

// realShare is kadm's description without empty topics.
func realShare(d kadm.DescribedShareGroup) strategies.Assignment {
	out := real(d)
	for id, a := range out {
		for t, ps := range a {
			if len(ps) == 0 {
				delete(a, t)
			}
		}
		out[id] = a
	}
	return out
}

// Issue 22: kviz live --scenario of a share group writes its given start
// (model/scenario/given_share.go): members with their real member ids,
// member epochs and shared partitions, the group and assignment epochs, and
// the share-partitions' start offsets and log ends. Simulated as it is, the
// import stays what kfake's group is (a given start changes nothing by
// itself); simulated with the change a real franz-go share consumer then
// makes (it leaves), it predicts what kfake's coordinator shows after it.
// kfake's assignor walks members in id order where Kafka's hashes them
// (share_test.go), so the prediction is held to kfake's answer exactly
// where Kafka's rule gives one answer whatever the ids: one partition
// (every member shares it), and a lone member left with both.
func TestShareImportPredictsTheGroup(t *testing.T) {
	for _, tc := range []struct {
		name       string
		partitions int32
		members    []string
		leaver     string
	}{
		{"one partition, three members, one leaves", 1, []string{"s1", "s2", "s3"}, "s1"},
		{"two partitions, two members, one leaves", 2, []string{"s1", "s2"}, "s2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := livetest.Start(t, tc.partitions, "orders")
			produce(t, c, "orders", tc.partitions, 12)
			adm, r := probe(t, c), dialTest(t, c)
			consumers := map[string]*livetest.Consumer{}
			for _, id := range tc.members {
				consumers[id] = c.ShareConsumer(t, "s", id, kgo.ConsumeTopics("orders"))
			}
			d := waitShare(t, adm, "s", shareSettled(len(tc.members)))
			g, err := r.Group(context.Background(), "s")
			if err != nil {
				t.Fatal(err)
			}
			d = waitShare(t, adm, "s", shareSettled(len(tc.members)))
			yml, sc, notes, err := g.Import()
			if err != nil {
				t.Fatal(err)
			}
			if !scenario.IsShare(sc) || sc.Generation != *g.GroupEpoch || sc.StartAssignmentEpoch() != *g.AssignmentEpoch || len(sc.Members) != len(tc.members) {
				t.Fatalf("imported group epoch %d, assignment epoch %d, %d members; read %d, %d\n%s", sc.Generation, sc.StartAssignmentEpoch(), len(sc.Members), *g.GroupEpoch, *g.AssignmentEpoch, yml)
			}
			for _, m := range sc.Members {
				gm := findMember(g, m.MemberID)
				if gm == nil || *gm.MemberEpoch != m.StartEpoch(sc) || AssignmentString(gm.Assignment) != AssignmentString(assignmentOf(m.Owned)) {
					t.Errorf("member %s imported as %+v, read %+v", m.ID, m, gm)
				}
			}
			for _, o := range g.Offsets {
				i := slices.IndexFunc(sc.Share.Partitions, func(sp scenario.SharePartitionState) bool {
					return sp.TP == kafka.TP{Topic: o.Topic, Partition: o.Partition}
				})
				if o.StartOffset != nil && (i < 0 || !sc.Share.Partitions[i].Initialised || sc.Share.Partitions[i].StartOffset != *o.StartOffset || sc.Share.Partitions[i].LogEnd != *o.LogEnd) {
					t.Errorf("%s-%d: start offset %d, log end %d read; imported %+v", o.Topic, o.Partition, *o.StartOffset, *o.LogEnd, sc.Share.Partitions)
				}
			}
			if !strings.Contains(strings.Join(notes, "\n"), "in-flight records' states are the share coordinator's") {
				t.Errorf("the notes should say record states are not read: %q", notes)
			}
			// As it is: the given start is the real group.
			got, epoch := simulatedShare(t, sc)
			if assignmentText(got) != assignmentText(realShare(d)) || epoch != d.GroupEpoch {
				t.Errorf("the import simulated as it is ends at epoch %d with %s; kfake holds %d with %s\n%s", epoch, assignmentText(got), d.GroupEpoch, assignmentText(realShare(d)), yml)
			}
			// A member leaves: the prediction is kfake's next assignment.
			leaver := sc.Members[slices.IndexFunc(sc.Members, func(m scenario.MemberSpec) bool { return m.ID == tc.leaver })]
			consumers[tc.leaver].Stop()
			after := waitShare(t, adm, "s", shareSettled(len(tc.members)-1))
			what := sc.Clone()
			what.Timeline = []scenario.Event{{AtMs: 1000, Kind: "leave", Member: leaver.ID}}
			got, epoch = simulatedShare(t, what)
			if assignmentText(got) != assignmentText(realShare(after)) {
				t.Errorf("%s leaves: predicted %s, kfake %s", leaver.ID, assignmentText(got), assignmentText(realShare(after)))
			}
			t.Logf("%s leaves: predicted group epoch %d, kfake %d (kfake bumps the epoch its own way)", leaver.ID, epoch, after.GroupEpoch)
			c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
		})
	}
}

// byClient is an assignment keyed by client id (a joiner's member id is
// its client's own, which the simulation cannot know).
func byClient(a strategies.Assignment, clientOf map[string]string) string {
	out := strategies.Assignment{}
	for id, m := range a {
		out[clientOf[id]] = m
	}
	return assignmentText(out)
}

// A share consumer joining the imported group: on one partition Kafka's
// rule gives every member a share whatever the ids, and kfake agrees.
func TestShareImportPredictsAJoin(t *testing.T) {
	c := livetest.Start(t, 1, "orders")
	adm, r := probe(t, c), dialTest(t, c)
	for _, id := range []string{"s1", "s2"} {
		c.ShareConsumer(t, "s", id, kgo.ConsumeTopics("orders"))
	}
	waitShare(t, adm, "s", shareSettled(2))
	g, err := r.Group(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	_, sc, _, err := g.Import()
	if err != nil {
		t.Fatal(err)
	}
	c.ShareConsumer(t, "s", "s3", kgo.ConsumeTopics("orders"))
	after := waitShare(t, adm, "s", shareSettled(3))
	what := sc.Clone()
	what.Timeline = []scenario.Event{{AtMs: 1000, Kind: "join", Member: "s3", Topics: []string{"orders"}}}
	sim, err := model.Simulate(what)
	if err != nil {
		t.Fatal(err)
	}
	end, v := sim.Step(sim.Len()-1), sim.View(sim.Len()-1)
	got := strategies.Assignment{}
	simClient := map[string]string{}
	for _, m := range v.Members {
		got[m.MemberID], simClient[m.MemberID] = end.Owned[m.ID], m.ID
	}
	realClient := map[string]string{}
	for _, m := range after.Members {
		realClient[m.MemberID] = m.ClientID
	}
	if byClient(got, simClient) != byClient(realShare(after), realClient) {
		t.Errorf("s3 joins: predicted %s, kfake %s", byClient(got, simClient), byClient(realShare(after), realClient))
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}

func assignmentOf(tps []kafka.TP) map[string][]int32 {
	out := map[string][]int32{}
	for _, tp := range tps {
		out[tp.Topic] = append(out[tp.Topic], tp.Partition)
	}
	return out
}
