package cli

import (
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// moveJSON is one move as the twins print it: from/to null for nobody.
type moveJSON struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	From      *string `json:"from"`
	To        *string `json:"to"`
}

type roundJSON struct {
	Generation int32 `json:"generation"`
	StartMs    int64 `json:"start_ms"`
	EndMs      int64 `json:"end_ms"`
}

type gapJSON struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Ms        int64  `json:"ms"`
}

type balanceJSON struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// outcomeJSON is the part of whatif's and compare's output that reads a
// model.Outcome.
type outcomeJSON struct {
	Before     kafka.Assignment `json:"before"`
	After      kafka.Assignment `json:"after"`
	Moves      []moveJSON       `json:"moves"`
	Moved      int              `json:"moved"`
	Rounds     int              `json:"rounds"`
	RoundList  []roundJSON      `json:"round_list"`
	Rebalanced bool             `json:"rebalanced"`
	Settled    bool             `json:"settled"`
	StartMs    int64            `json:"start_ms"`
	SettledMs  int64            `json:"settled_ms"`
	WorstGapMs int64            `json:"worst_gap_ms"`
	TotalGapMs int64            `json:"total_gap_ms"`
	Gaps       []gapJSON        `json:"gaps"`
	Balance    balanceJSON      `json:"balance"`
}

func newOutcomeJSON(o model.Outcome) outcomeJSON {
	j := outcomeJSON{Before: o.Before, After: o.After, Moved: o.Moved,
		Rounds: len(o.Rounds), Rebalanced: o.Rebalanced, Settled: o.Settled,
		StartMs: o.StartMs, SettledMs: o.SettledMs, WorstGapMs: o.WorstGapMs, TotalGapMs: o.TotalGapMs,
		Balance: balanceJSON{o.Balance.Min, o.Balance.Max}}
	j.Moves, j.RoundList = movesJSON(o.Moves), roundsJSON(o.Rounds)
	j.Gaps = []gapJSON{}
	for _, g := range o.Gaps {
		j.Gaps = append(j.Gaps, gapJSON{g.Topic, g.Partition, g.Ms})
	}
	return j
}

// movesJSON is moves as the twins print them ([] for none).
func movesJSON(moves []kafka.Move) []moveJSON {
	out := []moveJSON{}
	for _, m := range moves {
		out = append(out, moveJSON{Topic: m.Topic, Partition: m.Partition, From: orNull(m.From), To: orNull(m.To)})
	}
	return out
}

// roundsJSON is a rebalance's rounds ([] for none).
func roundsJSON(rounds []model.Round) []roundJSON {
	out := []roundJSON{}
	for _, r := range rounds {
		out = append(out, roundJSON{r.Generation, r.StartMs, r.EndMs})
	}
	return out
}

func orNull(id string) *string {
	if id == "" {
		return nil
	}
	return &id
}
