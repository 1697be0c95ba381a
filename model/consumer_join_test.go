package model_test

import (
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
)

// Issue 23 item 4. Kafka decides a joining member's epoch and state in the
// same batch of records as the group epoch bump and the target
// (GroupMetadataManager.consumerGroupHeartbeat runs CurrentAssignmentBuilder
// before anything is written), so no step shows a member at epoch 0: the
// joiner appears at the epoch and state its reconciliation gives, from the
// bump's step on. That holds for a new member, for a static member taking
// its slot back, and under 4.3's batching, where the joiner reconciles to
// the last target while the new one waits.
func TestKIP848JoinerIsWrittenWithItsEpoch(t *testing.T) {
	needStrategy(t, "uniform")
	for _, name := range []string{"kip848-join", "kip848-static-crash", "kip848-batching"} {
		sim := simDemo(t, name)
		js := jsonSteps(t, sim)
		bumps := 0
		for i, st := range js {
			for m, e := range st.MemberEpochs {
				if e == 0 {
					t.Fatalf("%s step %d (%s): %s at epoch 0 (%s), a state the coordinator never holds", name, i, st.Kind, m, st.MemberStates[m])
				}
			}
			if st.Kind == kafka.KindGroupStateChanged && len(st.Text) > 12 && st.Text[len(st.Text)-8:] == " joined." {
				bumps++
				// The joiner is in the bump's step already.
				if len(st.MemberEpochs) == 0 {
					t.Fatalf("%s step %d: %q shows no member", name, i, st.Text)
				}
			}
		}
		if bumps == 0 {
			t.Errorf("%s: no join bump seen", name)
		}
	}
}
