package live

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// agreeMember is one member of a KIP-848 group caught mid-reconcile, as a
// file writes it and as a describe shows it.
type agreeMember struct {
	id            string
	topics        []string
	owned, target map[string][]int32
	epoch         *int32
}

// yaml is the member as a file writes it, on one line.
func (m agreeMember) yaml() string {
	parts := []string{"id: " + m.id, "topics: [" + strings.Join(m.topics, ", ") + "]"}
	for _, kv := range []struct {
		key string
		tps map[string][]int32
	}{{"owned", m.owned}, {"target", m.target}} {
		if kv.tps == nil {
			continue
		}
		var ts []string
		for _, t := range strategies.SortedTopics(kv.tps) {
			ts = append(ts, fmt.Sprintf("%s: %s", t, strings.ReplaceAll(fmt.Sprint(kv.tps[t]), " ", ", ")))
		}
		parts = append(parts, kv.key+": {"+strings.Join(ts, ", ")+"}")
	}
	if m.epoch != nil {
		parts = append(parts, fmt.Sprintf("member_epoch: %d", *m.epoch))
	}
	return "  - {" + strings.Join(parts, ", ") + "}\n"
}

// Each invariant a given start caught mid-reconcile keeps has one message:
// the parser refuses a file that breaks it with the message at the line it
// is on, the live import repairs a describe that breaks it and notes the
// same message, then what it did. (A describe shows no revocations, so
// "revoking only below the assignment epoch" is the parser's alone.)
func TestReconcileFaultsSayTheSameInFileAndImport(t *testing.T) {
	o := []string{"orders"}
	cases := []struct {
		name        string
		assignEpoch int32 // group epoch 5
		members     []agreeMember
		line        int // of the fault in the file
	}{
		{"epoch -2", 4, []agreeMember{{id: "c1", topics: o, owned: map[string][]int32{"orders": {0}}, epoch: ptr(int32(-2))}}, 4},
		{"epoch 0", 5, []agreeMember{{id: "c1", topics: o, epoch: ptr(int32(0))}}, 4},
		{"epoch ahead", 4, []agreeMember{{id: "c1", topics: o, epoch: ptr(int32(5))}}, 4},
		{"unknown topic", 4, []agreeMember{{id: "c1", topics: o, epoch: ptr(int32(3)), target: map[string][]int32{"gone": {0}, "orders": {1}}}}, 4},
		{"partition beyond", 4, []agreeMember{{id: "c1", topics: o, epoch: ptr(int32(3)), target: map[string][]int32{"orders": {1, 9}}}}, 4},
		{"two targets", 4, []agreeMember{
			{id: "c1", topics: o, epoch: ptr(int32(3)), target: map[string][]int32{"orders": {0, 1}}},
			{id: "c2", topics: o, epoch: ptr(int32(3)), target: map[string][]int32{"orders": {1, 2}}}}, 5},
		{"unsubscribed", 5, []agreeMember{{id: "c1", topics: o, owned: map[string][]int32{"orders": {0}}, target: map[string][]int32{"audit": {0}, "orders": {0}}}}, 4},
		{"owned outside target", 4, []agreeMember{
			{id: "c1", topics: o, owned: map[string][]int32{"orders": {2}}, target: map[string][]int32{"orders": {2, 3}}},
			{id: "c2", topics: o, owned: map[string][]int32{"orders": {0, 1}}, target: map[string][]int32{"orders": {1}}, epoch: ptr(int32(4))}}, 5},
		{"assignment epoch ahead", 7, []agreeMember{{id: "c1", topics: o, owned: map[string][]int32{"orders": {0}}}}, 2},
	}
	faultLine := regexp.MustCompile(`^s\.yaml:(\d+): (.*)$`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := fmt.Sprintf("topics: {audit: 2, orders: 4}\ngroup: {strategy: uniform, group_epoch: 5, assignment_epoch: %d}\nmembers:\n", c.assignEpoch)
			g := &Group{Group: "g", Type: Consumer, ProtocolType: "consumer", Protocol: "uniform", State: "Reconciling",
				GroupEpoch: ptr(int32(5)), AssignmentEpoch: ptr(c.assignEpoch), Topics: map[string]int32{"audit": 2, "orders": 4}}
			for _, m := range c.members {
				file += m.yaml()
				g.Members = append(g.Members, Member{MemberID: "id-" + m.id, ClientID: m.id, Topics: m.topics,
					Assignment: m.owned, Target: m.target, MemberEpoch: m.epoch})
			}
			_, err := scenario.Parse("s.yaml", []byte(file))
			require.Error(t, err, file)
			got := faultLine.FindStringSubmatch(err.Error())
			require.NotNil(t, got, "%v", err)
			require.Equal(t, fmt.Sprint(c.line), got[1], "%v\n%s", err, file)
			msg := got[2]

			yml, _, notes, err := g.Import() // it parses what it writes
			require.NoError(t, err, "the import repairs what it notes:\n%s", yml)
			var said []string
			for _, n := range notes {
				if strings.HasPrefix(n, msg+" (") && strings.HasSuffix(n, ")") {
					said = append(said, n)
				}
			}
			require.Len(t, said, 1, "the file says\n  %s\nthe import's notes:\n  %s", msg, strings.Join(notes, "\n  "))

		})
	}
}

// A revocation at the assignment epoch, which a describe never shows, is
// repaired too: the import takes the partitions as released.
func TestRepairTakesSomethingAway(t *testing.T) {
	spec := scenario.MemberSpec{ID: "c1", Owned: []kafka.TP{{Topic: "t", Partition: 0}}, Revoking: []kafka.TP{{Topic: "t", Partition: 1}}}
	epoch, did := repair(&spec, &scenario.ReconcileFault{Kind: scenario.RevokingAtTarget, Member: "c1"}, 3, 3)
	require.Equal(t, int64(3), epoch)
	require.Equal(t, "imported as released", did)
	require.Nil(t, spec.Revoking)
}
