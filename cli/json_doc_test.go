package cli

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeSection is the README's text from the line holding start to the
// next blank line.
func readmeSection(t *testing.T, start string) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	text := string(data)
	i := strings.Index(text, start)
	require.GreaterOrEqual(t, i, 0, "the README has no %q", start)
	rest := text[i:]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// documented reports the keys of obj the section does not name (as `key`
// or "key").
func undocumented(section string, obj map[string]any) []string {
	var out []string
	for k := range obj {
		if !regexp.MustCompile("[`\"]" + regexp.QuoteMeta(k) + "[`\"]").MatchString(section) {
			out = append(out, k)
		}
	}
	return out
}

// Issue 20 item 9: the JSON whatif and compare print holds to the keys
// their README rows document.
func TestWhatIfAndCompareJSONAreDocumented(t *testing.T) {
	code, out, errOut := run(t, "", "whatif", "demo:example-09-cooperative-join", "--at-ms", "100", "--leave", "c1")
	require.Equal(t, 0, code, errOut)
	var w map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &w))
	require.Empty(t, undocumented(readmeSection(t, "| `kviz whatif FILE"), w), "whatif keys the README does not name")

	code, out, errOut = run(t, "", "compare", "demo:example-09-cooperative-join", "--at-ms", "100", "--leave", "c1")
	require.Equal(t, 0, code, errOut)
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	section := readmeSection(t, "| `kviz compare FILE")
	require.Empty(t, undocumented(section, c), "compare keys the README does not name")
	whatifSection := readmeSection(t, "| `kviz whatif FILE")
	for _, row := range c["strategies"].([]any) {
		r := row.(map[string]any)
		for _, k := range undocumented(section, r) {
			require.Empty(t, undocumented(whatifSection, map[string]any{k: nil}), "compare row key %q is documented neither as a row key nor as whatif's", k)
		}
	}
}

// ... and so does kviz live's.
func TestLiveJSONIsDocumented(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2")
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "g", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var g map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &g))
	section := readmeSection(t, "JSON (`--format json`)")
	require.Empty(t, undocumented(section, g), "live keys the README does not name")
	for _, m := range g["members"].([]any) {
		require.Empty(t, undocumented(section, m.(map[string]any)), "member keys the README does not name")
	}
	for _, cf := range g["configs"].([]any) {
		require.Empty(t, undocumented(section, cf.(map[string]any)), "config keys the README does not name")
	}
}

// ... a share group's too, and the offsets' keys.
func TestLiveShareJSONIsDocumented(t *testing.T) {
	c := shareGroup(t, "s1", "s2")
	code, out, errOut := run(t, "", "live", "--bootstrap-server", c.ListenAddrs()[0], "--group", "s", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var g map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &g))
	section := readmeSection(t, "JSON (`--format json`)")
	require.Empty(t, undocumented(section, g), "share group keys the README does not name")
	for _, m := range g["members"].([]any) {
		require.Empty(t, undocumented(section, m.(map[string]any)), "share member keys the README does not name")
	}
	for _, o := range g["offsets"].([]any) {
		require.Empty(t, undocumented(section, o.(map[string]any)), "share offset keys the README does not name")
	}
}

// Issue 20 item 9: one name for one thing. kviz live's JSON names each
// member by the id its import (and so whatif and compare) gives it, and
// its strategy and rebalance protocol are what whatif on the import calls
// strategy and protocol.
func TestLiveJSONNamesWhatTheImportNames(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2")
	addr := c.ListenAddrs()[0]
	code, out, errOut := run(t, "", "live", "--bootstrap-server", addr, "--group", "g", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var g struct {
		Strategy          *string `json:"strategy"`
		RebalanceProtocol string  `json:"rebalance_protocol"`
		Members           []struct {
			ID string `json:"id"`
		} `json:"members"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &g))
	file := importLive(t, c, "g")
	for _, m := range g.Members {
		code, w, errOut := run(t, "", "whatif", file, "--leave", m.ID, "--format", "json")
		require.Equal(t, 0, code, "whatif --leave %s (live's id): %s", m.ID, errOut)
		var wj map[string]any
		require.NoError(t, json.Unmarshal([]byte(w), &wj))
		require.NotNil(t, g.Strategy)
		require.Equal(t, *g.Strategy, wj["strategy"])
		require.Equal(t, g.RebalanceProtocol, wj["protocol"])
		require.Contains(t, wj["before"], m.ID, "whatif names the member as live does")
	}
}

// The demos' and simulate's JSON hold to their documented keys too.
func TestDemosAndJSONLAreDocumented(t *testing.T) {
	code, out, errOut := run(t, "", "demos", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var ds []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &ds))
	section := readmeSection(t, "| `kviz demos")
	for _, d := range ds {
		require.Empty(t, undocumented(section, d), "demo keys the README does not name")
	}
	jsonl := readmeSection(t, "`kviz simulate --format jsonl` writes")
	for _, demo := range []string{"demo:lab", "demo:kip848-upgrade"} {
		code, out, errOut = run(t, "", "simulate", demo, "--format", "jsonl")
		require.Equal(t, 0, code, errOut)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var step map[string]any
			require.NoError(t, json.Unmarshal([]byte(line), &step))
			require.Empty(t, undocumented(jsonl, step), "%s: JSONL keys the README does not name", demo)
		}
	}
}
