package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model/scenario"
)

func TestNextMemberIDKeepsTheGroupsStyle(t *testing.T) {
	members := func(ids ...string) []scenario.MemberSpec {
		var out []scenario.MemberSpec
		for _, id := range ids {
			out = append(out, scenario.MemberSpec{ID: id})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		members []string
		joins   []string
		want    string
	}{
		{"capitals from zero", []string{"C0", "C1", "C2"}, nil, "C3"},
		{"lower case from one", []string{"c1", "c2", "c3"}, nil, "c4"},
		{"a joiner counts", []string{"c1"}, []string{"c2", "c3"}, "c4"},
		{"a gap is not filled: the next is past the highest", []string{"c1", "c5"}, nil, "c6"},
		{"zero padded", []string{"c0001", "c0002", "c0200"}, nil, "c0201"},
		{"long prefix", []string{"consumer-1", "consumer-2"}, nil, "consumer-3"},
		{"the commonest prefix wins", []string{"app-1", "c1", "c2"}, nil, "c3"},
		{"letters", []string{"a", "b", "c"}, nil, "d"},
		{"capital letters", []string{"A", "B"}, nil, "C"},
		{"names without numbers", []string{"alice", "bob"}, nil, "c1"},
		{"empty group", nil, nil, "c1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &scenario.Scenario{Members: members(tc.members...)}
			for _, id := range tc.joins {
				sc.Timeline = append(sc.Timeline, scenario.Event{Kind: "join", Member: id})
			}
			assert.Equal(t, tc.want, scenario.NextMemberID(sc))
		})
	}
}

func TestNextMemberIDIsFree(t *testing.T) {
	// "c3" is taken by a name outside the style's count: skip it.
	sc := &scenario.Scenario{Members: []scenario.MemberSpec{{ID: "c1"}, {ID: "c2"}}}
	sc.Timeline = []scenario.Event{{Kind: "join", Member: "x"}}
	assert.Equal(t, "c3", scenario.NextMemberID(sc))
	sc.Members = append(sc.Members, scenario.MemberSpec{ID: "c03"})
	assert.Equal(t, "c04", scenario.NextMemberID(sc), "zero padding is the style once one id has it")
}
