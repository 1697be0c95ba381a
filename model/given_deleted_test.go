package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// A classic member may own partitions of a topic deleted before time 0,
// as a real group's does until its next rebalance. The leader's
// assignmentSnapshot still counts the topic, so its metadata refresh
// (metadata.max.age.ms) sees the change and it rejoins; the assignors
// ignore the gone partitions and the owner revokes them: under the
// cooperative protocol that revocation asks for one more round
// (ConsumerCoordinator.onJoinComplete: owned minus assigned).
func TestGivenStartOwningADeletedTopic(t *testing.T) {
	sim := simYAML(t, "gone.yaml", `topics: {t0: 4}
group: {strategy: cooperative-sticky, generation: 3}
members:
  - {id: c1, topics: [t0, gone], owned: {t0: [0, 1], gone: [0]}}
  - {id: c2, topics: [t0], owned: {t0: [2, 3]}}
`)
	if st := sim.Step(0); !owns(st, "c1", "gone", 0) {
		t.Fatalf("c1 starts holding gone-0: %v", st.Owned)
	}
	refresh := steps(sim, kafka.KindMetadataRefreshed, "c1")
	if len(refresh) != 1 || refresh[0].TimeMs != 300_000 || !strings.Contains(refresh[0].Text, "no longer exists") {
		t.Fatalf("the leader rejoins at its metadata refresh (300 s), seeing the topic gone: %v", refresh)
	}
	revoked := steps(sim, kafka.KindPartitionsRevoked, "c1")
	if len(revoked) != 1 || !strings.Contains(revoked[0].Text, "[gone-0]") || strings.Contains(revoked[0].Text, "another member") {
		t.Fatalf("c1 revokes gone-0 and only it, to nobody: %v", revoked)
	}
	end := last(sim)
	assertOwned(t, end, owned{"c1": {"t0": {0, 1}}, "c2": {"t0": {2, 3}}})
	if _, still := end.Owned["c1"]["gone"]; still || end.Generation != 5 {
		t.Errorf("end: generation %d, owners %v; want gone-0 revoked and the follow-up round done (generation 5)", end.Generation, end.Owned)
	}
	for _, st := range steps(sim, kafka.KindAssignmentComputed, "") {
		if strings.Contains(st.Text, "gone") {
			t.Errorf("the assignor got gone-0: %s", st.Text)
		}
	}
}

func TestDeletedTopicOwnedErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		// not subscribed: a name that exists nowhere
		{"topics: {t0: 2}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, owned: {gone: [0]}}\n", `s.yaml:4: members.owned: unknown topic "gone"`},
		// KIP-848: the coordinator's metadata no longer resolves it
		{"topics: {t0: 2}\ngroup: {strategy: uniform, group_epoch: 2}\nmembers:\n  - {id: c1, topics: [t0, gone], owned: {gone: [0]}}\n", `s.yaml:4: members.owned: unknown topic "gone"`},
	} {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
	sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 2}\ngroup: {generation: 2}\nmembers:\n  - {id: c1, topics: [t0, gone], owned: {t0: [0], gone: [3]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := scenario.Format(sc)
	if err != nil {
		t.Fatal(err)
	}
	again, err := scenario.Parse("again.yaml", out)
	if err != nil || !slices.Contains(again.Members[0].Owned, kafka.TP{Topic: "gone", Partition: 3}) {
		t.Errorf("round trip: %v\n%s", err, out)
	}
}
