package strategies

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The one version notion knows releases up to the newest VersionChanges
// lists (any patch of it) and refuses later ones; 4.3's consumer-protocol
// changes are on from 4.3.0, and the default stays the newest release kviz
// models whole.
func TestReleasesKvizKnows(t *testing.T) {
	for _, s := range []string{"4.2", "4.3", "4.3.2"} {
		_, err := ParseClientVersion(s)
		assert.NoError(t, err, s)
	}
	for _, s := range []string{"4.4", "5.0", "10.0.1"} {
		_, err := ParseClientVersion(s)
		assert.ErrorContains(t, err, "kviz knows Kafka releases up to 4.3", s)
	}
	v43, err := ParseClientVersion("4.3")
	require.NoError(t, err)
	v42, _ := ParseClientVersion("4.2.1")
	for name, on := range map[string]func(ClientVersion) bool{
		"batching": ClientVersion.BatchesAssignments, "epoch 1": ClientVersion.GroupEpochStartsAtOne, "KIP-1251": ClientVersion.AssignmentEpochs,
	} {
		assert.True(t, on(v43), name)
		assert.False(t, on(v42), name)
		assert.Equal(t, on(LatestClientVersion), on(ClientVersion{}), name+": the zero value is the latest")
	}
	assert.Equal(t, ClientVersion{4, 1, 0}, LatestClientVersion, "4.3's default assignor offload is not modelled")
	assert.Contains(t, VersionHelp(), "  4.3    coordinator: a KIP-848 target is computed at most once per\n         group.consumer.assignment.interval.ms")
	for _, line := range strings.Split(VersionHelp(), "\n") {
		assert.LessOrEqual(t, len(line), helpWidth, line)
	}
}
