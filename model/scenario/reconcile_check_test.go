package scenario_test

import (
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A fault in a target is refused at the line of what is wrong: the topic's
// key for a topic, the partition's own line for a partition.
func TestReconcileFaultLines(t *testing.T) {
	head := "topics: {t0: 4}\ngroup: {strategy: uniform, group_epoch: 3}\nmembers:\n  - id: c1\n    target:\n"
	for _, c := range []struct{ yaml, want string }{
		{head + "      t9:\n        - 0\n", `s.yaml:6: members.target: c1's target names the unknown topic "t9" (did you mean "t0"?)`},
		{head + "      t0:\n        - 1\n        - 7\n", "s.yaml:8: members.target: c1's target names t0-7, which does not exist: t0 has 4 partitions (0..3)"},
		{head + "      t0: [1]\n    member_epoch: -1\n", "s.yaml:7: members.member_epoch: c1's epoch must be 1..3 (the assignment epoch), got -1 (leaving): a member reaches an epoch only once a target exists for it"},
	} {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s\n got %v\nwant %s", c.yaml, err, c.want)
		}
	}
}

// Without group.group_epoch a given start begins at group epoch 1, and its
// members at member epoch 1, the assignment epoch: the invariants of that
// epoch hold for them as for a file that writes group_epoch: 1.
func TestReconcileWithoutGroupEpochIsAtEpochOne(t *testing.T) {
	for _, members := range []string{
		"  - {id: c1, owned: {t0: [0, 1]}, target: {t0: [1]}}\n",
		"  - {id: c1, owned: {t0: [0]}, revoking: {t0: [1]}}\n",
	} {
		for _, group := range []string{"{strategy: uniform}", "{strategy: uniform, group_epoch: 1}"} {
			_, err := scenario.Parse("s.yaml", []byte("topics: {t0: 2}\ngroup: "+group+"\nmembers:\n"+members))
			if err == nil {
				t.Errorf("group %s, %s: accepted a member at the assignment epoch outside its target", group, members)
			}
		}
	}
}

// The check itself: the first fault, in the order epoch, target, revoking,
// owned; a member that passes adds its target to the others'.
func TestCheckReconcilingOrderAndTargets(t *testing.T) {
	sc := &scenario.Scenario{Topics: map[string]int32{"t0": 4}, Protocol: "consumer", Generation: 3, AssignmentEpoch: 2}
	tp := func(p int32) kafka.TP { return kafka.TP{Topic: "t0", Partition: p} }
	targets := map[kafka.TP]string{}
	c1 := scenario.MemberSpec{ID: "c1", Topics: []string{"t0"}, Owned: []kafka.TP{tp(0)}, Target: []kafka.TP{tp(0), tp(1)}}
	if f := scenario.CheckReconciling(sc, c1, 2, targets, nil); f != nil {
		t.Fatalf("c1: %v", f)
	}
	if targets[tp(1)] != "c1" {
		t.Fatalf("c1's target is not recorded: %v", targets)
	}
	c2 := scenario.MemberSpec{ID: "c2", Topics: []string{"t0"}, Owned: []kafka.TP{tp(2)}, Target: []kafka.TP{tp(1)}, Revoking: []kafka.TP{tp(3)}}
	for _, c := range []struct {
		epoch int64
		want  scenario.FaultKind
	}{{0, scenario.EpochOutOfRange}, {3, scenario.EpochOutOfRange}, {1, scenario.TargetPartition}} {
		if f := scenario.CheckReconciling(sc, c2, c.epoch, targets, nil); f == nil || f.Kind != c.want || f.Member != "c2" {
			t.Errorf("epoch %d: %+v, want kind %d", c.epoch, f, c.want)
		}
	}
	c2.Target = []kafka.TP{tp(2)}
	if f := scenario.CheckReconciling(sc, c2, 2, targets, nil); f == nil || f.Kind != scenario.RevokingAtTarget {
		t.Errorf("revoking at the assignment epoch: %+v", f)
	}
	c2.Revoking, c2.Owned = nil, []kafka.TP{tp(2), tp(3)}
	if f := scenario.CheckReconciling(sc, c2, 2, targets, nil); f == nil || f.Kind != scenario.OwnedOutsideTarget {
		t.Errorf("owned outside the target: %+v", f)
	}
	if f := scenario.CheckReconciling(sc, c2, 1, targets, nil); f != nil || targets[tp(2)] != "c2" {
		t.Errorf("behind the assignment epoch c2 may still own t0-3: %v, %v", f, targets)
	}
}
