package strategies

import (
	"testing"

	"pgregory.net/rapid"
)

// FranzGo's sticky family, run twice as a group rebalances: the second
// round starts from what the first assigned. The cooperative balancer
// never hands a partition from one live owner to another in one round:
// exactly the owned partitions it gives nobody are Withheld from their
// owner, and the next round (they revoked) places every partition.
func TestFranzGoCooperativeWithholdsWhatMoves(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapidGroup(t, false)
		first, err := FranzGo("cooperative-sticky", g)
		if err != nil {
			t.Fatal(err)
		}
		checkValidAssignment(t, g, first.Assignment)
		if len(first.Withheld) != 0 {
			t.Fatalf("a fresh group owns nothing to withhold: %v", first.Withheld)
		}
		// one member leaves, one joins: partitions move
		again := againGroup(g, first.Assignment)
		again.Members = append(again.Members[1:], Member{ID: "z9", Topics: again.Members[0].Topics, Generation: NoGeneration})
		second, err := FranzGo("cooperative-sticky", again)
		if err != nil {
			t.Fatal(err)
		}
		owner := map[TopicPartition]string{}
		for _, m := range again.Members {
			for _, tp := range m.Owned {
				owner[tp] = m.ID
			}
		}
		withheld := map[TopicPartition]string{}
		for _, w := range second.Withheld {
			withheld[w.TopicPartition] = w.From
			if owner[w.TopicPartition] != w.From || w.To != "" {
				t.Fatalf("withheld %+v: its owner is %q", w, owner[w.TopicPartition])
			}
		}
		for id, ts := range second.Assignment {
			for topic, ps := range ts {
				for _, p := range ps {
					tp := TopicPartition{topic, p}
					if o, ok := owner[tp]; ok && o != id {
						t.Fatalf("%s moves from %s to %s in one cooperative round", tp, o, id)
					}
					if _, ok := withheld[tp]; ok {
						t.Fatalf("%s is both withheld and assigned", tp)
					}
				}
			}
		}
		// after revoking what was withheld, the follow-up places everything
		followUp := againGroup(again, second.Assignment)
		third, err := FranzGo("cooperative-sticky", followUp)
		if err != nil {
			t.Fatal(err)
		}
		checkValidAssignment(t, followUp, third.Assignment)
	})
}

func TestFranzGoKnowsTheClassicAssignorsOnly(t *testing.T) {
	for _, name := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
		if _, ok := FranzGoBalancer(name); !ok {
			t.Errorf("no franz-go %s", name)
		}
	}
	if _, err := FranzGo("uniform", Group{}); err == nil {
		t.Error("franz-go has no server-side assignor")
	}
}
