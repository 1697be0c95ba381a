package live

import (
	"context"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 23 item 6: each member's protocol. kfake keeps a classic group and
// a consumer group apart (a ConsumerGroupHeartbeat to a group with classic
// members is refused, 68_consumer_group_heartbeat), so on kfake each kind is
// read on its own, and the mixed group of KIP-848's online migration is a
// recorded ConsumerGroupDescribe answer below.
func TestEachMemberSaysItsProtocol(t *testing.T) {
	c := livetest.Start(t, 4, "orders")
	c.Consumer(t, "gc", "c1", kgo.ConsumeTopics("orders"))
	c.Consumer(t, "gk", "k1", kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer())
	c.WaitStable(t, "gc", 1)
	c.WaitStable(t, "gk", 1)
	r := dialTest(t, c)
	for group, want := range map[string]string{"gc": MemberClassic, "gk": MemberConsumer} {
		g, err := r.Group(context.Background(), group)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Members {
			if m.MemberType == nil || *m.MemberType != want {
				t.Errorf("%s: member %s has type %v, want %s", group, m.MemberID, m.MemberType, want)
			}
		}
		if g.Mixed() {
			t.Errorf("%s reads as mixed", group)
		}
		var b strings.Builder
		if err := WriteTable(&b, g); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "UPGRADED") {
			t.Errorf("%s: UPGRADED printed for a group of one protocol (Kafka prints it only for a mixed one):\n%s", group, b.String())
		}
	}
	c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
}

// mixedGroup is what Kafka 4 answers to ConsumerGroupDescribe in the middle
// of a rolling upgrade: c1 restarted with group.protocol=consumer, c2 still
// runs the classic protocol (MemberType 0).
func mixedGroup(t *testing.T) *Group {
	t.Helper()
	id := [16]byte{1, 2, 3}
	rg := kmsg.NewConsumerGroupDescribeResponseGroup()
	rg.Group, rg.State, rg.Epoch, rg.AssignmentEpoch, rg.AssignorName = "shop", "Stable", 5, 5, "uniform"
	for _, spec := range []struct {
		id, client string
		typ        int8
		parts      []int32
	}{{"m-c1", "c1", 1, []int32{0, 1}}, {"m-c2", "c2", 0, []int32{2, 3}}} {
		m := kmsg.NewConsumerGroupDescribeResponseGroupMember()
		m.MemberID, m.ClientID, m.ClientHost, m.MemberEpoch, m.MemberType = spec.id, spec.client, "/10.0.0.1", 5, spec.typ
		m.SubscribedTopics = []string{"orders"}
		tp := kmsg.NewAssignmentTopicPartition()
		tp.TopicID, tp.Topic, tp.Partitions = id, "orders", spec.parts
		m.Assignment.TopicPartitions = []kmsg.AssignmentTopicPartition{tp}
		m.TargetAssignment.TopicPartitions = []kmsg.AssignmentTopicPartition{tp}
		rg.Members = append(rg.Members, m)
	}
	g, err := FromConsumer(rg, 1, map[[16]byte]string{id: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	g.AddCluster(map[string]int32{"orders": 4}, nil, nil)
	return g
}

func TestAMixedGroupShowsUpgradedAndImportsTheClassicMember(t *testing.T) {
	g := mixedGroup(t)
	if !g.Mixed() || *g.Members[0].MemberType != MemberConsumer || *g.Members[1].MemberType != MemberClassic {
		t.Fatalf("member types %v %v", g.Members[0].MemberType, g.Members[1].MemberType)
	}
	var b strings.Builder
	if err := WriteTable(&b, g); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], "TARGET-ASSIGNMENT    UPGRADED") || !strings.HasSuffix(lines[1], " true") || !strings.HasSuffix(lines[2], " false") {
		t.Errorf("the members block should end in Kafka 4's UPGRADED column:\n%s", b.String())
	}
	// the table reads back, member types and all
	back, err := ParseDescribe("t.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !back.Mixed() || *back.Members[1].MemberType != MemberClassic {
		t.Errorf("read back: %+v", back.Members)
	}
	// The given start carries each member's protocol
	// (model/scenario/given_mixed.go): c2 is imported as a classic member
	// of the consumer group, c1 as a consumer-protocol one.
	yml, sc, notes, err := g.Import()
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Members) != 2 || !strings.Contains(strings.Join(notes, "\n"), "c2 runs the classic protocol in a consumer group") {
		t.Errorf("the import should say c2 is a classic member: %q", notes)
	}
	if strings.Contains(strings.Join(notes, "\n"), "c1 runs the classic") {
		t.Errorf("c1 runs the consumer protocol: %q", notes)
	}
	if p1, p2 := sc.MemberProtocol(sc.Members[0].Settings), sc.MemberProtocol(sc.Members[1].Settings); p1 != scenario.ProtocolConsumer || p2 != scenario.ProtocolClassic {
		t.Errorf("imported protocols c1 %s, c2 %s; want consumer and classic", p1, p2)
	}
	if !strings.Contains(string(yml), "protocol: classic") || scenario.ClassicMembers(sc) != 1 {
		t.Errorf("the scenario file should say c2's protocol:\n%s", yml)
	}
	// Simulated, the import is the mixed group Kafka runs: c2 heartbeats
	// with generation 5 (its member epoch) and, when c1 (the last
	// consumer-protocol member) leaves, the group is downgraded to a
	// classic group that c2 then has alone.
	sc.Timeline = []scenario.Event{{AtMs: 10000, Kind: "leave", Member: "c1"}}
	sim, err := model.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	var beat, converted bool
	for i := 0; i < sim.Len(); i++ {
		st := sim.Step(i)
		beat = beat || st.Kind == "HeartbeatRequest" && st.Member == "c2" && strings.Contains(st.Text, "generation 5")
		converted = converted || st.Kind == "GroupConverted" && strings.Contains(st.Text, "into a classic group")
	}
	end := sim.Step(sim.Len() - 1)
	if !beat || !converted || end.GroupState != "Stable" || AssignmentString(end.Owned["c2"]) != AssignmentString(map[string][]int32{"orders": {0, 1, 2, 3}}) {
		t.Errorf("the imported mixed group: c2 heartbeats at generation 5 %v, downgraded %v, end %s with %v", beat, converted, end.GroupState, end.Owned)
	}
}
