package cli

import (
	"encoding/json"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/stretchr/testify/require"
)

// The outcome's hand-written parts write what encoding/json writes for the
// plain values, odd strings included.
func TestOutcomeJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	odd := []string{"c1", "a<b", "a>b", "a&b", "quote\"back\\slash", "tab\there", "é\u2028x", "bad\xffutf8", ""}
	a := kafka.Assignment{"c2": {}, "c0": nil}
	var moves []kafka.Move
	var gaps []model.Gap
	for i, s := range odd {
		a[s] = map[string][]int32{s: {int32(i), 7}, "t": nil, "u": {}}
		moves = append(moves, kafka.Move{Topic: s, Partition: int32(i), From: s, To: odd[(i+1)%len(odd)]})
		gaps = append(gaps, model.Gap{Topic: s, Partition: int32(-i), Ms: int64(i) << 40})
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"assignment", assignmentJSON(a), a},
		{"nil assignment", assignmentJSON(nil), kafka.Assignment(nil)},
		{"empty assignment", assignmentJSON{}, kafka.Assignment{}},
		{"moves", moveList(moves), movesJSON(moves)},
		{"no moves", moveList(nil), movesJSON(nil)},
		{"gaps", gapList(gaps), gaps},
		{"no gaps", gapList(nil), []model.Gap{}},
	} {
		got, err := json.Marshal(c.got)
		require.NoError(t, err, c.name)
		want, err := json.Marshal(c.want)
		require.NoError(t, err, c.name)
		if c.name == "gaps" { // model.Gap has no tags: the twins name its fields
			want, err = json.Marshal(gapsAsJSON(gaps))
			require.NoError(t, err)
		}
		require.Equal(t, string(want), string(got), c.name)
	}
}

func gapsAsJSON(gs []model.Gap) []gapJSON {
	out := []gapJSON{}
	for _, g := range gs {
		out = append(out, gapJSON{g.Topic, g.Partition, g.Ms})
	}
	return out
}
