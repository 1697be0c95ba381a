package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
)

// A trainer starts from a shipped demo: --yaml prints its file, found as
// demo:NAME finds it (a number, a prefix).
func TestDemosYAMLPrintsTheFile(t *testing.T) {
	code, out, errOut := run(t, "", "demos", "--yaml", "10")
	require.Equal(t, 0, code, errOut)
	data, _ := demo.Get("example-10-static-restart")
	assert.Equal(t, string(data), out)
	code, _, errOut = run(t, "", "demos", "--yaml", "7")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `demo "7" is ambiguous: example-07-roundrobin-leave, example-07-sticky-leave`)
}

func TestScenarioArgumentsFindDemosByNumberAndPrefix(t *testing.T) {
	code, byNumber, errOut := run(t, "", "simulate", "demo:10")
	require.Equal(t, 0, code, errOut)
	_, byName, _ := run(t, "", "simulate", "demo:example-10-static-restart")
	assert.Equal(t, byName, byNumber)
	code, _, errOut = run(t, "", "quiz", "demo:exampel-10")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `(did you mean "example-10"?)`)
}
