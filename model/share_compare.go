package model

import (
	"fmt"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
	"github.com/kvizlab/kviz/strategies"
)

// ShareVariants are compare's rows for a share group: its one assignor,
// simple, as each release family wrote it — 4.0 (every member gets every
// partition), 4.1 (hash plus round-robin, KAFKA-18757) and 4.2 and later
// (balanced sharing, KAFKA-19362). The 4.2+ row runs the scenario's own
// release when that is 4.2 or later. Each row runs the whole engine of
// its release: its share defaults and configs differ where Kafka's did.
func ShareVariants(sc *scenario.Scenario) []Variant {
	late := strategies.ClientVersion{Major: 4, Minor: 2}
	if v := sc.KafkaVersion.OrLatest(); v.AtLeast(4, 2, 0) {
		late = v
	}
	return []Variant{
		{Strategy: "simple", KafkaVersion: strategies.ClientVersion{Major: 4}, Label: "4.0"},
		{Strategy: "simple", KafkaVersion: strategies.ClientVersion{Major: 4, Minor: 1}, Label: "4.1"},
		{Strategy: "simple", KafkaVersion: late, Label: "4.2+"},
	}
}

// WithVersion is the variant's scenario under its release (the same
// scenario when the variant names none). A share scenario's script is
// written for its own release: another release may never deliver to a
// member the records it acknowledges (4.0 gives every member every
// partition, 4.1 hashes members onto partitions), so under another release
// such an acknowledgement is answered as Kafka answers it,
// INVALID_RECORD_STATE, and skipped (Sim.SkippedAcks), not refused.
func (v Variant) WithVersion(sc *scenario.Scenario) *scenario.Scenario {
	if v.KafkaVersion == (strategies.ClientVersion{}) {
		return sc
	}
	cp := sc.Clone()
	if sh := cp.Share; sh != nil && sh.MaxRecordLocks == scenario.ShareRecordLocksDefault(sc.KafkaVersion) {
		// Not given (a default is not written back: scenario.Format): the
		// release's own, 200 in 4.0.
		sh.MaxRecordLocks = scenario.ShareRecordLocksDefault(v.KafkaVersion)
	}
	cp.KafkaVersion = v.KafkaVersion
	if cp.Share != nil && v.KafkaVersion.OrLatest() != sc.KafkaVersion.OrLatest() {
		sh := *cp.Share
		sh.SkipForeignAcks = true
		cp.Share = &sh
	}
	return cp
}

// SkippedAck is a script's acknowledgement a run answered with
// INVALID_RECORD_STATE and skipped: the member did not hold those records
// under the run's release (a compare row under another release).
type SkippedAck struct {
	Line    int   // the timeline entry's line in the scenario file
	AtMs    int64 // when it was sent
	Member  string
	TP      kafka.TP
	Offsets []int64
	Why     string // what the member held instead, in words
}

// SkippedAcks are the acknowledgements the run skipped (nil for any run
// but a share compare row under another release than the scenario's).
func (s *Sim) SkippedAcks() []SkippedAck { return s.skipped }

// refuseAck handles an acknowledgement of records c does not hold: the
// scenario's mistake (the run stops with the entry's line), or, under
// another release than the script's, Kafka's answer, counted.
func (g *shareGroup) refuseAck(c *client, ev scenario.Event, tp kafka.TP, why string) {
	w := g.w
	if !w.sc.Share.SkipForeignAcks {
		w.err = fmt.Errorf("%s:%d: acknowledge: %s", w.sc.File, ev.Line(), why)
		return
	}
	g.skipped = append(g.skipped, SkippedAck{Line: ev.Line(), AtMs: ev.AtMs, Member: c.id, TP: tp, Offsets: ev.Share.Offsets, Why: why})
	c.reply(false, func() {
		w.record(kafka.KindShareAcknowledgeResponse, c.id, "INVALID_RECORD_STATE", false, fmt.Sprintf(
			"%s: under Kafka %s %s does not hold them (%s), so the broker answers INVALID_RECORD_STATE and nothing changes; the script's acknowledgement (line %d) is skipped.",
			offsetsListWord(ev.Share.Offsets), w.sc.KafkaVersion.OrLatest(), c.id, why, ev.Line()))
	})
}

// OffsetsText names offsets as a narration does: "offset 3", "offsets 0–2, 5".
func OffsetsText(offs []int64) string { return offsetsListWord(offs) }
