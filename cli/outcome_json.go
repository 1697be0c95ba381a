package cli

import (
	"encoding/json"
	"io"
	"strconv"

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

type gapJSON struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Ms        int64  `json:"ms"`
}

type roundJSON struct {
	Generation int32 `json:"generation"`
	StartMs    int64 `json:"start_ms"`
	EndMs      int64 `json:"end_ms"`
}

type balanceJSON struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// outcomeJSON is the part of whatif's and compare's output that reads a
// model.Outcome.
type outcomeJSON struct {
	Before     assignmentJSON `json:"before"`
	After      assignmentJSON `json:"after"`
	Moves      moveList       `json:"moves"`
	Moved      int            `json:"moved"`
	Rounds     int            `json:"rounds"`
	RoundList  []roundJSON    `json:"round_list"`
	Rebalanced bool           `json:"rebalanced"`
	Settled    bool           `json:"settled"`
	StartMs    int64          `json:"start_ms"`
	SettledMs  int64          `json:"settled_ms"`
	WorstGapMs int64          `json:"worst_gap_ms"`
	TotalGapMs int64          `json:"total_gap_ms"`
	Gaps       gapList        `json:"gaps"`
	Balance    balanceJSON    `json:"balance"`
}

func newOutcomeJSON(o model.Outcome) outcomeJSON {
	return outcomeJSON{Before: assignmentJSON(o.Before), After: assignmentJSON(o.After), Moves: o.Moves, Moved: o.Moved,
		Rounds: len(o.Rounds), RoundList: roundsJSON(o.Rounds), Rebalanced: o.Rebalanced, Settled: o.Settled,
		StartMs: o.StartMs, SettledMs: o.SettledMs, WorstGapMs: o.WorstGapMs, TotalGapMs: o.TotalGapMs,
		Gaps: o.Gaps, Balance: balanceJSON{o.Balance.Min, o.Balance.Max}}
}

// The outcome's large parts (at Kafka's scale, 500,000 partitions in each
// of before, after, moves and gaps) write themselves: the bytes
// encoding/json writes for the same values (keys sorted, strings
// HTML-escaped), without its reflection over a million small values.

// assignmentJSON is holdings as encoding/json writes them as a
// map[string]map[string][]int32 (kafka.Holdings.Assignment): members in id
// order already, each one's topics in byte order.
type assignmentJSON kafka.Holdings

func (a assignmentJSON) MarshalJSON() ([]byte, error) {
	var s jsonSink
	a.stream(&s)
	return s.b, nil
}

func (a assignmentJSON) stream(s *jsonSink) {
	h := kafka.Holdings(a)
	if h.IsZero() {
		s.b = append(s.b, "null"...)
		return
	}
	b := append(s.b, '{')
	for i := range h.Len() {
		s.b = b
		s.spill()
		b = s.b
		if i > 0 {
			b = append(b, ',')
		}
		id, topics := h.Member(i)
		b = appendJSONString(b, id)
		b = append(b, ':', '{')
		for j, tp := range kafka.ByName(topics) {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, tp.Topic)
			b = append(b, ':', '[')
			for k, p := range tp.Partitions {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(p), 10)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	s.b = append(b, '}')
}

// moveList is moves as the twins print them (as movesJSON): from/to null
// for nobody, [] for none.
type moveList []kafka.Move

func (ms moveList) MarshalJSON() ([]byte, error) {
	s := jsonSink{b: make([]byte, 0, 2+len(ms)*64)}
	ms.stream(&s)
	return s.b, nil
}

func (ms moveList) stream(s *jsonSink) {
	b := append(s.b, '[')
	for i, m := range ms {
		if s.w != nil && len(b) >= spillAt {
			s.b = b
			s.spill()
			b = s.b
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"topic":`...)
		b = appendJSONString(b, m.Topic)
		b = append(b, `,"partition":`...)
		b = strconv.AppendInt(b, int64(m.Partition), 10)
		b = append(b, `,"from":`...)
		b = appendOrNull(b, m.From)
		b = append(b, `,"to":`...)
		b = appendOrNull(b, m.To)
		b = append(b, '}')
	}
	s.b = append(b, ']')
}

// gapList is the outcome's gaps ([] for none).
type gapList []model.Gap

func (gs gapList) MarshalJSON() ([]byte, error) {
	s := jsonSink{b: make([]byte, 0, 2+len(gs)*48)}
	gs.stream(&s)
	return s.b, nil
}

func (gs gapList) stream(s *jsonSink) {
	b := append(s.b, '[')
	for i, g := range gs {
		if s.w != nil && len(b) >= spillAt {
			s.b = b
			s.spill()
			b = s.b
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"topic":`...)
		b = appendJSONString(b, g.Topic)
		b = append(b, `,"partition":`...)
		b = strconv.AppendInt(b, int64(g.Partition), 10)
		b = append(b, `,"ms":`...)
		b = strconv.AppendInt(b, g.Ms, 10)
		b = append(b, '}')
	}
	s.b = append(b, ']')
}

// jsonSink collects JSON in b and, with a writer, hands it on in pieces:
// an outcome at Kafka's scale is 60 MB, which encoding/json would copy
// four times over (and check once) before the first byte is written.
type jsonSink struct {
	w   io.Writer // nil: keep everything in b
	b   []byte
	err error
}

// spillAt is the size at which a sink with a writer writes b out.
const spillAt = 1 << 16

func (s *jsonSink) spill() {
	if s.w == nil || len(s.b) < spillAt {
		return
	}
	s.write()
}

// write hands b on, keeping the first error.
func (s *jsonSink) write() {
	if s.err == nil {
		_, s.err = s.w.Write(s.b)
	}
	s.b = s.b[:0]
}

// raw appends v as encoding/json writes it (v always encodes).
func (s *jsonSink) raw(v any) {
	j, err := json.Marshal(v)
	if err != nil && s.err == nil {
		s.err = err
	}
	s.b = append(s.b, j...)
}

// writeFields writes the outcome's fields, each led by a comma, in
// outcomeJSON's order, as encoding/json would within the object they
// are embedded in.
func (o outcomeJSON) writeFields(s *jsonSink) {
	field := func(name string) { s.b = append(append(append(s.b, ",\""...), name...), "\":"...) }
	field("before")
	o.Before.stream(s)
	field("after")
	o.After.stream(s)
	field("moves")
	o.Moves.stream(s)
	for _, f := range []struct {
		name string
		v    any
	}{{"moved", o.Moved}, {"rounds", o.Rounds}, {"round_list", o.RoundList}, {"rebalanced", o.Rebalanced},
		{"settled", o.Settled}, {"start_ms", o.StartMs}, {"settled_ms", o.SettledMs},
		{"worst_gap_ms", o.WorstGapMs}, {"total_gap_ms", o.TotalGapMs}} {
		field(f.name)
		s.raw(f.v)
	}
	field("gaps")
	o.Gaps.stream(s)
	field("balance")
	s.raw(o.Balance)
}

// appendOrNull is id as a JSON string, null for nobody ("").
func appendOrNull(b []byte, id string) []byte {
	if id == "" {
		return append(b, "null"...)
	}
	return appendJSONString(b, id)
}

// appendJSONString is s as encoding/json writes it: printable ASCII that
// needs no escape as it is, anything else through encoding/json itself.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// roundsJSON is a rebalance's rounds ([] for none).
func roundsJSON(rounds []model.Round) []roundJSON {
	out := []roundJSON{}
	for _, r := range rounds {
		out = append(out, roundJSON{r.Generation, r.StartMs, r.EndMs})
	}
	return out
}

// movesJSON is moves as the twins print them ([] for none).
func movesJSON(moves []kafka.Move) []moveJSON {
	out := []moveJSON{}
	for _, m := range moves {
		out = append(out, moveJSON{Topic: m.Topic, Partition: m.Partition, From: orNull(m.From), To: orNull(m.To)})
	}
	return out
}

func orNull(id string) *string {
	if id == "" {
		return nil
	}
	return &id
}
