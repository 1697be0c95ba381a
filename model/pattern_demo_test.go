package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// demo:pattern-classic tells what its notes say: a classic pattern
// subscriber matches at its metadata refresh (metadata.max.age.ms from its
// start: ConsumerCoordinator.maybeUpdateSubscriptionMetadata →
// SubscriptionState.subscribeFromPattern) and before each rejoin
// (ConsumerCoordinator.poll fetches fresh metadata for a pattern
// subscription), never in between.
func TestPatternClassicDemo(t *testing.T) {
	sim := simDemo(t, "pattern-classic")
	created := stepWith(t, sim, kafka.KindTopicCreated, "", "orders-eu")
	assert.Equal(t, int64(60000), created.TimeMs)
	for _, st := range steps(sim, kafka.KindJoinGroupRequest, "") {
		assert.False(t, st.TimeMs > 60000 && st.TimeMs < 300000, "nobody rejoins before its refresh: %s", st.Text)
	}
	for _, m := range []string{"c1", "c2"} {
		st := stepWith(t, sim, kafka.KindMetadataRefreshed, m, "orders-eu")
		assert.Equal(t, int64(300000), st.TimeMs, m)
	}
	assert.Empty(t, steps(sim, kafka.KindMetadataRefreshed, "c3"), "c3 is 30 s younger: its own refresh is not due")
	rematch := stepWith(t, sim, kafka.KindSubscriptionChanged, "c3", "fresh metadata before it rejoins", "orders-eu")
	assert.Greater(t, rematch.TimeMs, int64(300000))
	for _, st := range steps(sim, kafka.KindPartitionsRevoked, "") {
		assert.Less(t, st.TimeMs, int64(60000), "the new topic revokes nothing: %s", st.Text)
	}
	end := last(sim)
	assert.Equal(t, kafka.Stable, end.GroupState)
	for _, m := range []string{"c1", "c2", "c3"} {
		assert.Len(t, end.Owned[m]["orders-eu"], 1, "%s gets one of orders-eu's three partitions", m)
		assert.Empty(t, end.Owned[m]["refunds"], "refunds does not match")
		assert.Empty(t, end.Owned[m]["payments"], "payments does not match")
	}
}

// demo:pattern-regex tells what its notes say, as GroupMetadataManager runs
// KIP-848's regexes: a refresh at the first heartbeat after a creation and
// at most every REGEX_BATCH_REFRESH_MIN_INTERVAL_MS (10 s); a deletion
// reaches the group through the metadata (onNewMetadataImage) and leaves
// the resolution until the next refresh, which the next creation of any
// topic schedules.
func TestPatternRegexDemo(t *testing.T) {
	sim := simDemo(t, "pattern-regex")
	var resolved []string
	var at []int64
	for _, st := range steps(sim, kafka.KindRegexResolved, "") {
		resolved = append(resolved, st.Text[strings.Index(st.Text, `"orders-.*" matches`):])
		at = append(at, st.TimeMs)
	}
	require.Len(t, resolved, 4, "%v", resolved)
	assert.Contains(t, resolved[0], "[orders-us]")
	assert.Contains(t, resolved[1], "[orders-eu orders-us]")
	assert.True(t, at[1] > 60000 && at[1] < 65000, "the first heartbeat after the creation: %d", at[1])
	assert.Contains(t, resolved[2], "[orders-asia orders-eu orders-us]")
	assert.Greater(t, at[2], at[1]+10000, "10 s between refreshes")
	assert.Contains(t, resolved[3], "[orders-asia orders-eu]")
	assert.Greater(t, at[3], int64(90000), "the deletion refreshes nothing; refunds' creation does")

	gone := stepWith(t, sim, kafka.KindGroupStateChanged, "", "subscribed topic orders-us was deleted")
	assert.Less(t, gone.TimeMs, int64(90000))
	stepAfter(t, sim, gone, kafka.KindPartitionsRevoked, "c1", "orders-us")
	stepAfter(t, sim, gone, kafka.KindPartitionsRevoked, "c2", "orders-us")

	end := last(sim)
	assert.Equal(t, kafka.KStable, end.GroupState)
	for _, m := range []string{"c1", "c2"} {
		assert.Len(t, end.Owned[m]["orders-eu"], 1, m)
		assert.Len(t, end.Owned[m]["orders-asia"], 1, m)
		assert.Empty(t, end.Owned[m]["orders-us"], m)
		assert.Empty(t, end.Owned[m]["refunds"], m)
	}
}
