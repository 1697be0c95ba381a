package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// The text twin of the lab's share grid: under each step that changed a
// share-partition's records, who holds which, exactly the words the grid
// draws (model.ShareRecords.Line), and under no other step.
func TestSimulateTextSaysWhoHoldsWhichRecords(t *testing.T) {
	code, out, errOut := run(t, "", "simulate", "demo:share-three-members")
	require.Equal(t, 0, code, errOut)
	data, _ := demo.Get("share-three-members")
	sc, err := scenario.Parse("share-three-members.yaml", data)
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)

	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var printed []model.ShareRecords // as of the last step line
	step, shareLines := -1, 0
	for k, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, shareIndent) {
			shareLines++
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(l[:5]))
		require.NoError(t, err, l)
		// The lines under the step before are the share-partitions it (or a
		// routine step before it) changed.
		var want []string
		for _, sr := range model.ChangedShareRecords(printed, sim.ShareRecords(n)) {
			want = append(want, shareIndent+sr.Line())
		}
		var got []string
		for j := k + 1; j < len(lines) && strings.HasPrefix(lines[j], shareIndent); j++ {
			got = append(got, lines[j])
		}
		assert.Equal(t, want, got, "under step %d", n)
		printed, step = sim.ShareRecords(n), n
	}
	require.Greater(t, step, 0)
	assert.Greater(t, shareLines, 10)
	assert.Regexp(t, `\n {18}t0-0  start 0  c1 ▮▮▮ 0–2 \(lock 29\.\d s\)  c3 ▮▮▮ 3–5 \(lock 29\.\d s\)\n`, out, "after c3's fetch")
	assert.Contains(t, out, "\n"+shareIndent+"t0-0  start 5  ready 5 (delivered 1 of 5)\n", "c3's release")

	// JSONL keeps its shape: the holder is in share_partitions already.
	code, jl, _ := run(t, "", "simulate", "demo:share-three-members", "--format", "jsonl")
	require.Equal(t, 0, code)
	for _, l := range strings.Split(strings.TrimSpace(jl), "\n") {
		require.True(t, strings.HasPrefix(l, "{"), "only JSON lines: %s", l)
		var st map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &st))
	}
}

// Other groups' text is one line a step, as before.
func TestSimulateTextOfOtherGroupsHasNoShareLines(t *testing.T) {
	_, out, _ := run(t, "", "simulate", "demo:kip848-join")
	assert.NotContains(t, out, "\n"+shareIndent)
}
