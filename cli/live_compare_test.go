package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
)

// importLive writes `kviz live --scenario` of the group to a file.
func importLive(t *testing.T, c *livetest.Cluster, group string) string {
	t.Helper()
	code, yml, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", group, "--scenario")
	require.Equal(t, 0, code, errOut)
	path := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yml), 0o644))
	return path
}

type compareRows struct {
	Compares   string `json:"compares"`
	Strategies []struct {
		Strategy string                        `json:"strategy"`
		Protocol string                        `json:"protocol"`
		Error    *string                       `json:"error"`
		Found    bool                          `json:"found"`
		Start    string                        `json:"start"`
		Before   map[string]map[string][]int32 `json:"before"`
	} `json:"strategies"`
}

// Issue 20 item 4: compare on an imported group runs every strategy, each
// in its own protocol family from the same real state.
func TestCompareOnAnImportRunsEveryStrategyFamily(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  kgo.Opt
	}{{"classic", kgo.Balancers(kgo.CooperativeStickyBalancer())}, {"consumer", kgo.ServerSideBalancer()}} {
		t.Run(tc.name, func(t *testing.T) {
			c := livetest.Start(t, 6, "orders")
			for _, id := range []string{"c1", "c2", "c3"} {
				c.Consumer(t, "g", id, kgo.ConsumeTopics("orders"), tc.opt)
			}
			c.WaitStable(t, "g", 3)
			path := importLive(t, c, "g")
			var out compareRows
			runJSON(t, &out, "compare", path, "--leave", "c2")
			require.Len(t, out.Strategies, 5)
			var before string
			converted := 0
			for _, r := range out.Strategies {
				require.Nil(t, r.Error, "%s: %v", r.Strategy, r.Error)
				assert.True(t, r.Found, r.Strategy)
				b, _ := json.Marshal(r.Before)
				if before == "" {
					before = string(b)
				}
				assert.Equal(t, before, string(b), "%s starts from the same owners", r.Strategy)
				if r.Start != "" {
					converted++
					assert.Contains(t, r.Start, "converted from the", r.Strategy)
				}
			}
			if tc.name == "classic" {
				assert.Equal(t, 1, converted, "uniform runs the upgraded start")
			} else {
				assert.Equal(t, 4, converted, "the classic strategies run the downgraded start")
			}
			assert.Equal(t, "what if c2 leaves at 0.000 s", out.Compares)

			runJSON(t, &out, "compare", path)
			assert.Contains(t, out.Compares, "nothing to compare: the group starts settled at")
			code, table, errOut := run(t, "", "compare", path, "--format", "table")
			require.Equal(t, 0, code, errOut)
			assert.NotContains(t, table, "no rebalance then")
			assert.Contains(t, table, "give an event")
		})
	}
}

// whatif on an import lists each timing it used and where it came from.
func TestWhatIfOnAnImportSaysItsTimings(t *testing.T) {
	c := livetest.Start(t, 6, "orders")
	for _, id := range []string{"c1", "c2"} {
		c.Consumer(t, "g", id, kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	}
	c.WaitStable(t, "g", 2)
	code, yml, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--scenario",
		"--session-timeout", "2s", "--heartbeat-interval", "100ms")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, yml, "session_timeout_ms: 2000")
	path := filepath.Join(t.TempDir(), "live.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yml), 0o644))
	var w struct {
		Timings []struct {
			Kafka   string `json:"kafka"`
			ValueMs int64  `json:"value_ms"`
			Source  string `json:"source"`
		} `json:"timings"`
		SettledMs int64 `json:"settled_ms"`
	}
	runJSON(t, &w, "whatif", path, "--at-ms", "0", "--crash", "c2")
	got := map[string]string{}
	for _, tm := range w.Timings {
		got[tm.Kafka] = tm.Source
	}
	assert.Equal(t, "flag --session-timeout", got["session.timeout.ms"])
	assert.Equal(t, "flag --heartbeat-interval", got["heartbeat.interval.ms"])
	assert.Equal(t, "Kafka default", got["max.poll.interval.ms"])
	assert.Equal(t, "Kafka default", got["group.initial.rebalance.delay.ms"], "kfake has no such broker config to read")
	assert.Less(t, w.SettledMs, int64(3000))
	code, text, _ := run(t, "", "whatif", path, "--at-ms", "0", "--crash", "c2", "--format", "text")
	require.Equal(t, 0, code)
	assert.Contains(t, text, "session.timeout.ms 2000 ms (flag --session-timeout)")
	code, _, errOut = run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--scenario", "--client", "kafka-python")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--client must be one of java, franz-go, librdkafka")
}

// Issue 20 item 8: on an imported file whatif takes a member's real member
// id, --at-ms defaults to the file's start, and partitions never shrink.
func TestWhatIfOnAnImportTakesMemberIDs(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2", "c3")
	path := importLive(t, c, "g")
	var memberID string
	for _, m := range c.GroupInfo("g").Members {
		if m.ClientID == "c2" {
			memberID = m.MemberID
		}
	}
	var w struct {
		Event map[string]any                `json:"event"`
		After map[string]map[string][]int32 `json:"after"`
	}
	runJSON(t, &w, "whatif", path, "--leave", memberID)
	assert.Equal(t, "c2", w.Event["member"])
	assert.Empty(t, w.After["c2"])
	code, _, errOut := run(t, "", "whatif", path, "--add-partitions", "orders:3")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "orders has 6 partitions at 0 ms; partitions are only ever added")
	code, _, errOut = run(t, "", "whatif", "demo:lab", "--leave", "c1")
	assert.Equal(t, 2, code, "a run from empty still needs --at-ms")
	assert.Contains(t, errOut, "whatif needs --at-ms")
}
