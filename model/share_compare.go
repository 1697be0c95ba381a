package model

import (
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
// scenario when the variant names none).
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
	return cp
}
