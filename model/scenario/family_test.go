package scenario

import (
	"slices"
	"testing"
)

// A classic given start under the consumer protocol is Kafka's online
// upgrade: group epoch = generation, each member at it owning its classic
// assignment; and back, the downgrade: generation = group epoch.
func TestGivenStartCrossesProtocolFamilies(t *testing.T) {
	classic, err := Parse("c.yaml", []byte(`topics: {t: 4, gone: 1}
group: {strategy: cooperative-sticky, generation: 7, leader: c2}
members:
  - {id: c1, member_id: c1-a, owned: {t: [0, 1]}, strategies: [cooperative-sticky, range]}
  - {id: c2, member_id: c2-b, owned: {t: [2, 3]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	up, err := classic.AcrossFamilies("uniform", "")
	if err != nil {
		t.Fatal(err)
	}
	if up.Protocol != "consumer" || up.Generation != 7 || up.StartAssignmentEpoch() != 7 || up.Classic != (ClassicStart{}) {
		t.Fatalf("upgrade: %s at %d/%d, classic %+v", up.Protocol, up.Generation, up.StartAssignmentEpoch(), up.Classic)
	}
	for i, m := range up.Members {
		if !slices.Equal(m.Owned, classic.Members[i].Owned) || m.Strategies != nil || m.StartEpoch(up) != 7 || !slices.Equal(m.StartTarget(), m.Owned) {
			t.Errorf("upgraded member %+v", m)
		}
	}
	roundTrip(t, up)
	if classic.Members[0].Strategies == nil || classic.Protocol != "cooperative" {
		t.Error("the original changed")
	}
	if note := classic.FamilyNote("uniform", ""); note == "" || classic.FamilyNote("range", "") != "" {
		t.Errorf("family notes %q / %q", note, classic.FamilyNote("range", ""))
	}

	kip, err := Parse("k.yaml", []byte(`topics: {t: 4}
group: {strategy: uniform, group_epoch: 9, assignment_epoch: 8}
members:
  - {id: k1, owned: {t: [0]}, member_epoch: 7, revoking: {t: [1]}, target: {t: [0]}}
  - {id: k2, owned: {t: [2, 3]}, target: {t: [1, 2, 3]}}
`))
	if err != nil {
		t.Fatal(err)
	}
	down, err := kip.AcrossFamilies("range", "")
	if err != nil {
		t.Fatal(err)
	}
	if down.Protocol != "eager" || down.Generation != 9 || down.AssignmentEpoch != 0 {
		t.Fatalf("downgrade: %s at %d", down.Protocol, down.Generation)
	}
	for i, m := range down.Members {
		if !slices.Equal(m.Owned, kip.Members[i].Owned) || m.Target != nil || m.Revoking != nil || m.MemberEpoch != 0 {
			t.Errorf("downgraded member %+v", m)
		}
	}
	roundTrip(t, down)
}
