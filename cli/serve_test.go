package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
)

// Bad input stops kviz serve before it listens, with one line and exit 2.
func TestServeBadInput(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "trainer.pub")
	require.NoError(t, os.WriteFile(keys, []byte("# the trainer\nssh-ed25519 not-base64 x\n"), 0o600))
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\ntopics: {orders: 6}\ntimeline:\n  - {at_ms: 10, leav: c1}\n"), 0o600))
	hostKey := filepath.Join(dir, "host_key")
	for want, args := range map[string][]string{
		"--max-sessions must be at least 1, got 0":        {"--max-sessions", "0"},
		"must not be negative":                            {"--idle-timeout", "-1s"},
		`no demo "nope"`:                                  {"--demo", "nope"},
		"nope.yaml: no such file":                         {filepath.Join(dir, "nope.yaml")},
		"bad.yaml:4:":                                     {bad},
		"trainer.pub:2: not an authorized_keys line":      {"--trainer-key", keys},
		"--trainer-key " + filepath.Join(dir, "none.pub"): {"--trainer-key", filepath.Join(dir, "none.pub")},
	} {
		code, out, errOut := runKviz(t, append([]string{"serve", "--addr", "127.0.0.1:0", "--host-key", hostKey}, args...)...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, want, "%v", args)
		assert.NoFileExists(t, hostKey, "nothing is made before the input is good")
	}
}

// The room opens on --demo, else the first FILE; every FILE that is not a
// demo: goes to the labs' pickers (issue 19 item 14).
func TestRoomScenarioKeepsEveryFile(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.yaml"), filepath.Join(dir, "two.yaml")
	for _, f := range []string{one, two} {
		require.NoError(t, os.WriteFile(f, mustDemo(t, "example-01-range"), 0o600))
	}
	open, named, err := roomScenario("", []string{one, "demo:lab", two})
	require.NoError(t, err)
	require.Len(t, named, 2)
	assert.Same(t, named[0], open, "the first file opens, and is the picker's")
	assert.Equal(t, one, named[0].Scenario().File)
	assert.Equal(t, two, named[1].Scenario().File)

	open, named, err = roomScenario("example-11-failover", []string{two})
	require.NoError(t, err)
	assert.Equal(t, "example-11-failover", open.Scenario().Name)
	require.Len(t, named, 1)
	assert.Equal(t, two, named[0].Scenario().File)

	open, named, err = roomScenario("", nil)
	require.NoError(t, err)
	assert.Empty(t, named)
	assert.NotNil(t, open)
}

func mustDemo(t *testing.T, name string) []byte {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok)
	return data
}
