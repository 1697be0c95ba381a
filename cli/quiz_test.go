package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuizJSONContract(t *testing.T) {
	code, out, errOut := run(t, "", "quiz", "demo:lab", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var doc map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	qs := doc["questions"]
	require.NotEmpty(t, qs)
	for _, q := range qs {
		for _, k := range []string{"step", "reveal_step", "kind", "text", "choices", "answer", "explain"} {
			assert.Contains(t, q, k)
		}
		choices := q["choices"].([]any)
		assert.GreaterOrEqual(t, len(choices), 2)
		assert.LessOrEqual(t, len(choices), 4)
		answer := int(q["answer"].(float64))
		assert.True(t, answer >= 0 && answer < len(choices), "answer %d of %d", answer, len(choices))
		assert.Less(t, q["step"].(float64), q["reveal_step"].(float64))
	}
}

func TestQuizTextMarksTheAnswer(t *testing.T) {
	code, out, errOut := run(t, "", "quiz", "demo:example-09-cooperative-join")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "How many rounds will this rebalance take?")
	assert.Contains(t, out, "* 2) 2 rounds")
}

func TestQuizWithNothingToAsk(t *testing.T) {
	path := writeScenario(t, "topics: {t0: 2}\ngroup: {id: g, strategy: range}\n")
	code, out, errOut := run(t, "", "quiz", path, "--format", "json")
	require.Equal(t, 0, code, errOut)
	assert.JSONEq(t, `{"questions": []}`, out)
	code, out, _ = run(t, "", "quiz", path)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "no questions")
}

func TestQuizBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"quiz"},
		{"quiz", "demo:lab", "--format", "yaml"},
		{"quiz", "demo:nope"},
		{"quiz", "/no/such/file.yaml"},
	} {
		code, _, errOut := run(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %q", errOut)
	}
}
