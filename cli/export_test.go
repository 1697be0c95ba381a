package cli

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The goldens are a frame of the default demo just after its first
// rebalance; `go test ./cli -run Export -update` refreshes them.
var exportArgs = []string{"export", "demo:lab", "--step", "40", "--width", "100", "--height", "30"}

func TestExportSVGGolden(t *testing.T) {
	code, out, errOut := runKviz(t, append(exportArgs, "--format", "svg")...)
	require.Equal(t, 0, code, errOut)
	require.NoError(t, xml.Unmarshal([]byte(out), new(struct{ XMLName xml.Name })), "the SVG is XML")
	golden.RequireEqual(t, []byte(out))
}

func TestExportTxtGolden(t *testing.T) {
	code, out, errOut := runKviz(t, append(exportArgs, "--format", "txt")...)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	assert.Len(t, lines, 30)
	assert.Contains(t, lines[1], "step 40/", "--step and the header count from 0 alike")
	assert.NotContains(t, out, "\x1b")
	golden.RequireEqual(t, []byte(out))
}

func TestExportANSIKeepsTheEscapes(t *testing.T) {
	code, out, _ := runKviz(t, append(exportArgs, "--format", "ansi")...)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "\x1b[")
	_, txt, _ := runKviz(t, append(exportArgs, "--format", "txt")...)
	assert.Contains(t, out, "Assignment")
	assert.Contains(t, txt, "Assignment")
}

func TestExportAtMsAndOutputFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "frame.txt")
	code, stdout, errOut := runKviz(t, "export", "demo:lab", "--at-ms", "45000", "-o", out)
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, stdout)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(data), "t 45.000 s", "-o's extension picks txt; the step is the last at or before 45 s")
	assert.NotContains(t, string(data), "<svg")
}

func TestExportCastIsAsciicastV2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lab.cast")
	code, _, errOut := runKviz(t, "export", "demo:lab", "--width", "80", "--height", "24", "-o", out)
	require.Equal(t, 0, code, errOut)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	require.True(t, sc.Scan())
	var head struct{ Version, Width, Height int }
	require.NoError(t, json.Unmarshal(sc.Bytes(), &head))
	assert.Equal(t, 2, head.Version)
	assert.Equal(t, 80, head.Width)
	assert.Equal(t, 24, head.Height)
	var frames []string
	prev := -1.0
	for sc.Scan() {
		var ev [3]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		at := ev[0].(float64)
		assert.Greater(t, at, prev, "time moves on")
		assert.Equal(t, "o", ev[1])
		if prev >= 0 {
			assert.InDelta(t, 0.9, at-prev, 1e-9, "the lab's 1× autoplay: 900 ms a step")
		}
		prev = at
		frames = append(frames, ev[2].(string))
	}
	require.NoError(t, sc.Err())
	assert.Greater(t, len(frames), 10)
	stepOf := regexp.MustCompile(`step (\d+)/(\d+)`)
	first := stepOf.FindStringSubmatch(ansi.Strip(frames[0]))
	last := stepOf.FindStringSubmatch(ansi.Strip(frames[len(frames)-1]))
	require.NotNil(t, first)
	require.NotNil(t, last)
	assert.Equal(t, "0", first[1], "the recording starts at the first step (the header counts from 0)")
	assert.Equal(t, last[2], last[1], "and ends on the last")
}

func TestExportBadInput(t *testing.T) {
	for want, args := range map[string][]string{
		"--step 9999: demo:lab has steps 0..":                         {"export", "demo:lab", "--step", "9999"},
		"--step and --at-ms both pick the step":                       {"export", "demo:lab", "--step", "1", "--at-ms", "5"},
		`--format "png": choose svg, txt, ansi, cast`:                 {"export", "demo:lab", "--format", "png"},
		"--width and --height must be":                                {"export", "demo:lab", "--width", "0"},
		"--at-ms must not be negative":                                {"export", "demo:lab", "--at-ms", "-3"},
		"export needs exactly one scenario":                           {"export"},
		`no demo "nope"`:                                              {"export", "demo:nope"},
		"(the lab needs 60×20), got 59×40":                            {"export", "demo:lab", "--width", "59"},
		"got 120×19":                                                  {"export", "demo:lab", "--height", "19"},
		"kviz export writes .svg, .txt, .ansi, .cast files, not .png": {"export", "demo:lab", "-o", filepath.Join(t.TempDir(), "x.png")},
		"is a .svg file but --format is txt":                          {"export", "demo:lab", "--format", "txt", "-o", filepath.Join(t.TempDir(), "x.svg")},
	} {
		code, out, errOut := runKviz(t, args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, want, "%v", args)
	}
}
