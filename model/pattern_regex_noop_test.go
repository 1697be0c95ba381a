package model_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// A refresh that changes no resolution still runs and moves the refresh's
// time and metadata version on (GroupMetadataManager.
// handleRegularExpressionsResult writes every regex's record; ConsumerGroup.
// lastResolvedRegularExpressionVersion reads them back). Here the creation
// of audit, which "orders-.*" does not match, makes the next heartbeat past
// 10 s run such a refresh (maybeUpdateRegularExpressions, condition 3.2:
// lastMetadataImageWithNewTopics). When orders-b is deleted later, a
// deletion is no new topic: the resolution keeps orders-b (the group drops
// it from its subscription through the metadata, not the regex) until the
// periodic refresh, group.consumer.regex.refresh.interval.ms (10 minutes)
// after the no-op one, from Kafka 4.1; under 4.0, until a topic is created.
func TestRegexRefreshThatChangesNothingMovesTheVersionOn(t *testing.T) {
	needStrategy(t, "uniform")
	for _, tc := range []struct {
		version string
		want    []int64 // when RegexResolved steps come
	}{
		{"4.1", []int64{6, 620_018}},
		{"4.0", []int64{6}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			sim := simYAML(t, "rx.yaml", `seed: 1
cluster: {brokers: 3}
topics: {orders-a: 2, orders-b: 2, other: 1}
group: {id: g, strategy: uniform, protocol: consumer, kafka_version: "`+tc.version+`"}
members:
  - {id: c1, pattern: "orders-.*"}
  - {id: c2, pattern: "orders-.*"}
timeline:
  - {at_ms: 20000, create_topic: {topic: audit, partitions: 1}}
  - {at_ms: 40000, delete_topic: orders-b}
`)
			var at []int64
			for _, st := range steps(sim, kafka.KindRegexResolved, "") {
				at = append(at, st.TimeMs)
			}
			assert.Equal(t, tc.want, at)
			last := steps(sim, kafka.KindRegexResolved, "")
			if tc.version == "4.1" {
				assert.True(t, strings.Contains(last[len(last)-1].Text, `"orders-.*" matches [orders-a].`), last[len(last)-1].Text)
			}
			deleted := stepWith(t, sim, kafka.KindGroupStateChanged, "", "subscribed topic orders-b was deleted")
			assert.Less(t, deleted.TimeMs, int64(41_000), "the subscription drops orders-b through the metadata at once")

			every := *sim.Scenario()
			every.EveryHeartbeat = true
			full, err := model.Simulate(&every)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := changes(sim), changes(full); !reflect.DeepEqual(a, b) {
				t.Fatalf("jumping quiet stretches changed the trace (%d vs %d changing steps)", len(a), len(b))
			}
		})
	}
}
