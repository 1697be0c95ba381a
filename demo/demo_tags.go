package demo

import (
	"slices"
	"strconv"

	"github.com/kvizlab/kviz/model/scenario"
)

// Demo tags besides the strategy, the protocol and "example N".
const (
	TagProducers = "producers" // a data path: producers, offsets, lag
	TagCluster   = "cluster"   // brokers fail or come back
	TagStatic    = "static"    // static members (group.instance.id)
	TagGiven     = "given"     // starts from a given state, no join phase
	TagCompare   = "compare"   // opens with compare mode ready
	TagMigration = "migration" // members of both protocols: KIP-848's online migration
	TagRecords   = "records"   // a share group's record-lock lab: records written, fetched, acknowledged
	TagPattern   = "pattern"   // a member subscribes to a pattern: subscribe(Pattern), KIP-848's regex
)

// demoTags say what a demo is about, derived from its scenario: its
// strategy and protocol, "example 9" per worked example, and the tags above
// where they apply.
func demoTags(sc *scenario.Scenario) []string {
	tags := []string{sc.Strategy, sc.Protocol}
	if v := sc.KafkaVersionLabel(); v != "" {
		tags = append(tags, "kafka "+v) // group.kafka_version, when the demo names one
	}
	for _, n := range sc.Examples {
		tags = append(tags, "example "+strconv.Itoa(n))
	}
	for _, t := range []struct {
		tag string
		on  bool
	}{
		{TagProducers, sc.Flow != nil},
		{TagCluster, slices.ContainsFunc(sc.Timeline, func(ev scenario.Event) bool {
			return ev.Kind == "fail_broker" || ev.Kind == "recover_broker"
		})},
		{TagStatic, slices.ContainsFunc(sc.Members, func(m scenario.MemberSpec) bool { return m.Instance != "" }) ||
			slices.ContainsFunc(sc.Timeline, func(ev scenario.Event) bool { return ev.Kind == "join" && ev.Instance != "" })},
		{TagGiven, sc.GivenStart()},
		{TagCompare, sc.Open == scenario.OpenCompare},
		{TagMigration, sc.Mixed()},
		{TagRecords, slices.ContainsFunc(sc.Timeline, func(ev scenario.Event) bool { return ev.Share != nil })},
		{TagPattern, slices.ContainsFunc(sc.Members, func(m scenario.MemberSpec) bool { return m.Settings.Pattern != "" }) ||
			slices.ContainsFunc(sc.Timeline, func(ev scenario.Event) bool { return ev.Settings.Pattern != "" })},
	} {
		if t.on {
			tags = append(tags, t.tag)
		}
	}
	return tags
}
