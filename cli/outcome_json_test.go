package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/stretchr/testify/require"
)

// The outcome's hand-written parts write what encoding/json writes for the
// plain values, odd strings included.
func TestOutcomeJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	// The last two sort one way in Kafka's order (UTF-16) and the other
	// in JSON's (bytes).
	odd := []string{"c1", "a<b", "a>b", "a&b", "quote\"back\\slash", "tab\there", "é\u2028x", "bad\xffutf8", "", "x\uff21", "x\U0001F600"}
	a := kafka.Assignment{"c2": {}, "c0": nil}
	var moves []kafka.Move
	var gaps []model.Gap
	for i, s := range odd {
		a[s] = map[string][]int32{s: {int32(i), 7}, "t": nil, "u": {}}
		moves = append(moves, kafka.Move{Topic: s, Partition: int32(i), From: s, To: odd[(i+1)%len(odd)]})
		gaps = append(gaps, model.Gap{Topic: s, Partition: int32(-i), Ms: int64(i) << 40})
	}
	a["both"] = map[string][]int32{"x\uff21": {1}, "x\U0001F600": {2}, "c1": {3}}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"assignment", assignmentJSON(kafka.HoldingsOf(a)), kafka.HoldingsOf(a).Assignment()},
		{"no assignment", assignmentJSON{}, kafka.Assignment(nil)},
		{"empty assignment", assignmentJSON(kafka.HoldingsOf(kafka.Assignment{})), kafka.Assignment{}},
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

// whatif's streamed object is the bytes encoding/json writes for its head
// with the outcome embedded, also when the outcome is large enough to be
// written in pieces (jsonSink).
func TestWhatIfStreamsWhatEncodingJSONWrites(t *testing.T) {
	for _, n := range []int{0, 3, 40000} {
		a, b := kafka.Assignment{}, kafka.Assignment{}
		var moves []kafka.Move
		var gaps []model.Gap
		for i := 0; i < n; i++ {
			m, tp := fmt.Sprintf("c%d", i%97), fmt.Sprintf("t<%d>", i%13)
			a[m] = map[string][]int32{tp: {int32(i)}}
			b[m] = map[string][]int32{tp: {int32(i), int32(i + 1)}}
			moves = append(moves, kafka.Move{Topic: tp, Partition: int32(i), From: m})
			gaps = append(gaps, model.Gap{Topic: tp, Partition: int32(i), Ms: int64(i)})
		}
		o := model.Outcome{Before: kafka.HoldingsOf(a), After: kafka.HoldingsOf(b), Moves: moves, Moved: n, Gaps: gaps, Rebalanced: n > 0,
			Rounds: []model.Round{{Generation: 2, StartMs: 1, EndMs: 9}}, Balance: model.Balance{Min: 1, Max: 2}}
		j := whatIfJSON{whatIfHead{Event: map[string]any{"kind": "leave", "member": "c&1"}, AtMs: 5, Strategy: "range",
			Timings: []scenario.Timing{{Key: "k"}}, Client: "x"}, newOutcomeJSON(o)}
		var got bytes.Buffer
		require.NoError(t, j.write(&got))
		want, err := json.Marshal(struct {
			whatIfHead
			outcomeJSON
		}{j.whatIfHead, j.outcome})
		require.NoError(t, err)
		require.Equal(t, string(want)+"\n", got.String(), "%d partitions", n)
	}
}
