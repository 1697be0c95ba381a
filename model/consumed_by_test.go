package model

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model/kafka"
)

// consumedBy is classify's PartitionConsumed, written as a filter for the
// rebalance scan's sake: on any view the two agree, partition for
// partition and in order.
func TestConsumedByIsWhatClassifyConsumes(t *testing.T) {
	statuses := []kafka.MemberStatus{kafka.StatusJoining, kafka.StatusActive, kafka.StatusRejoining, kafka.StatusStalled,
		kafka.StatusCrashed, kafka.StatusLeft, kafka.StatusFenced}
	tps := func(t *rapid.T, name string) []kafka.TP {
		var out []kafka.TP
		for _, topic := range []string{"a", "b"} {
			for p := int32(0); p < 6; p++ {
				if rapid.Bool().Draw(t, name+" "+topic) {
					out = append(out, kafka.TP{Topic: topic, Partition: p})
				}
			}
		}
		return out // a sorted set, as every view's lists are
	}
	rapid.Check(t, func(t *rapid.T) {
		v := &MemberView{Status: rapid.SampledFrom(statuses).Draw(t, "status"),
			Owned: tps(t, "owned"), Revoking: tps(t, "revoking"), Pending: tps(t, "pending")}
		if rapid.Bool().Draw(t, "unrevoked") {
			v.MemberState = kafka.MUnrevoked
		}
		got, want := consumedBy(v), collect(v, kafka.PartitionConsumed)
		if len(got) != len(want) {
			t.Fatalf("consumedBy %v, classify %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("consumedBy %v, classify %v", got, want)
			}
		}
	})
}
