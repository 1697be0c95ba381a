package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func runKviz(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(args, bytes.NewReader(nil), &out, &errb)
	return code, out.String(), errb.String()
}

// A bad scenario is reported with its line, exit 2, and nothing reaches
// stdout: no escape sequence, no alt screen.
func TestPlayBadFileFailsBeforeAnyScreen(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	assert.NoError(t, os.WriteFile(bad, []byte("name: x\ntopics: {orders: 6}\ntimeline:\n  - {at_ms: 10, leav: c1}\n"), 0o600))
	code, out, errOut := runKviz(t, "play", bad)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Regexp(t, `^kviz: .*bad\.yaml:\d+: .+\n$`, errOut)
}

func TestPlayMissingFile(t *testing.T) {
	code, out, errOut := runKviz(t, "play", filepath.Join(t.TempDir(), "nope.yaml"))
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "nope.yaml: no such file")
}

func TestPlayNeedsAFile(t *testing.T) {
	code, _, errOut := runKviz(t, "play")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "play needs a scenario file (or demo:NAME)")
}

// With several files the lab opens on the first and lists every one in
// its picker (issue 19 item 14): each is read and simulated before the
// screen changes, so a bad second file is its own error.
func TestPlaySeveralFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	assert.NoError(t, os.WriteFile(bad, []byte("name: x\ntopics: {orders: 6}\ntimeline:\n  - {at_ms: 10, leav: c1}\n"), 0o600))
	code, out, errOut := runKviz(t, "play", "demo:lab", bad)
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Regexp(t, `^kviz: .*bad\.yaml:\d+: .+\n$`, errOut)
	code, _, errOut = runKviz(t, "play", "demo:lab", filepath.Join(dir, "nope.yaml"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "nope.yaml: no such file")
	code, _, errOut = runKviz(t, "play", "demo:lab", "demo:example-11-failover")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "the lab needs a terminal; for a text trace run: kviz simulate demo:lab")
}

func TestPlayUnknownDemo(t *testing.T) {
	code, _, errOut := runKviz(t, "play", "demo:nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no demo "nope"`)
}

// Without a terminal the lab says where to go instead of drawing into a pipe.
// Reaching that message proves the default scenario loaded and simulated.
func TestLabWithoutTerminal(t *testing.T) {
	for _, args := range [][]string{nil, {"play", "demo:lab"}, {"play", "demo:lab", "--quiz"}} {
		code, out, errOut := runKviz(t, args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "the lab needs a terminal; for a text trace run: kviz simulate demo:lab")
	}
}

// The shell completes demo: names for play, with their titles.
func TestPlayCompletesDemoNames(t *testing.T) {
	code, out, _ := runKviz(t, "__complete", "play", "demo:example-1")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "demo:example-11-failover\tExample 11")
	assert.NotContains(t, out, "demo:lab")
	assert.Contains(t, out, ":4\n", "no file names after demo: (ShellCompDirectiveNoFileComp)")

	_, out, _ = runKviz(t, "__complete", "play", "")
	for _, name := range []string{"demo:lab", "demo:producers"} {
		assert.Contains(t, out, name+"\t")
	}
	assert.Contains(t, out, ":0\n", "and files otherwise")
}
