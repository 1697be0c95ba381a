package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// shareGroup starts a share group "s" of real franz-go share consumers on
// one partition and waits until every member holds it.
func shareGroup(t *testing.T, members ...string) *livetest.Cluster {
	t.Helper()
	c := livetest.Start(t, 1, "solo")
	for _, id := range members {
		c.ShareConsumer(t, "s", id, kgo.ConsumeTopics("solo"))
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ClientID("probe"))
	require.NoError(t, err)
	defer cl.Close()
	adm := kadm.NewClient(cl)
	require.Eventually(t, func() bool {
		ds, err := adm.DescribeShareGroups(context.Background(), "s")
		if err != nil || len(ds["s"].Members) != len(members) {
			return false
		}
		for _, m := range ds["s"].Members {
			if len(m.Assignment["solo"]) != 1 {
				return false
			}
		}
		return true
	}, 15*time.Second, 50*time.Millisecond)
	return c
}

// Issue 22 item 4: kviz live describes a share group in JSON and as
// kafka-share-groups.sh's table, and its --assign-input is what kviz assign
// --strategy simple predicts from; --scenario writes its given start.
func TestLiveDescribesAShareGroup(t *testing.T) {
	c := shareGroup(t, "s1", "s2")
	addr := c.ListenAddrs()[0]
	code, out, errOut := run(t, "", "live", "--bootstrap-server", addr, "--group", "s", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var g live.Group
	require.NoError(t, json.Unmarshal([]byte(out), &g))
	assert.Equal(t, live.Share, g.Type)
	assert.Equal(t, "simple", g.Protocol)
	require.Len(t, g.Members, 2)
	for _, m := range g.Members {
		assert.Equal(t, map[string][]int32{"solo": {0}}, m.Assignment, "both share the one partition")
		require.NotNil(t, m.MemberType)
		assert.Equal(t, live.MemberShare, *m.MemberType)
	}
	assert.NotEmpty(t, g.TopicIDs["solo"])

	code, out, errOut = run(t, "", "live", "--bootstrap-server", addr, "--group", "s", "--format", "table")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^GROUP +COORDINATOR \(ID\) +STATE +GROUP-EPOCH +ASSIGNMENT-EPOCH +#MEMBERS$`, out)
	assert.Regexp(t, `(?m)^s +.*solo +0 +.* 2 +s1,s2$`, out)

	code, in, errOut := run(t, "", "live", "--bootstrap-server", addr, "--group", "s", "--assign-input")
	require.Equal(t, 0, code, errOut)
	code, out, errOut = run(t, in, "assign", "--strategy", "simple", "--kafka-version", "4.2", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var a map[string]map[string][]int32
	require.NoError(t, json.Unmarshal([]byte(out), &a))
	require.Len(t, a, 2)
	for _, m := range g.Members {
		assert.Equal(t, []int32{0}, a[m.MemberID]["solo"], "the simple assignor keeps both on the partition")
	}

	// --scenario writes the share group's given start
	// (model/scenario/given_share.go), which kviz simulate runs.
	code, yml, errOut := run(t, "", "live", "--bootstrap-server", addr, "--group", "s", "--scenario")
	require.Equal(t, 0, code, errOut)
	sc, err := scenario.Parse("s.yaml", []byte(yml))
	require.NoError(t, err, yml)
	require.True(t, scenario.IsShare(sc), yml)
	require.Len(t, sc.Members, 2)
	assert.True(t, g.GroupEpoch != nil && *g.GroupEpoch == sc.Generation, yml)
	for _, m := range sc.Members {
		assert.Equal(t, []kafka.TP{{Topic: "solo", Partition: 0}}, m.Owned, "both share the one partition")
		assert.NotNil(t, findLiveMember(g, m.MemberID), "the real member id %s", m.MemberID)
	}
	f := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(f, []byte(yml), 0o644))
	code, out, errOut = run(t, "", "simulate", f)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "a given state: no joins")
	c.AssertSentOnly(t, "kviz", live.ReadOnlyKeys)
}

func findLiveMember(g live.Group, id string) *live.Member {
	for i := range g.Members {
		if g.Members[i].MemberID == id {
			return &g.Members[i]
		}
	}
	return nil
}
