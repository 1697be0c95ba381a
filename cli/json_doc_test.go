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
