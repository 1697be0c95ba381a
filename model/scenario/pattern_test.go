package scenario_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/scenario"
)

// Patterns kviz takes are those whose meaning is the same in Go's regexp
// and the member's syntax: java.util.regex for the classic
// subscribe(Pattern) (SubscriptionState.matchesSubscribedPattern), RE2J for
// KIP-848's SubscribedTopicRegex (GroupMetadataManager.refreshRegularExpressions).
func TestCheckPatternSyntaxes(t *testing.T) {
	for _, c := range []struct {
		src    string
		syntax string
		ok     bool
	}{
		{"orders-.*", scenario.SyntaxJava, true},
		{"(?i)orders-[0-9]+", scenario.SyntaxJava, true},
		{`\Qorders.\E[a-z]{2,3}`, scenario.SyntaxJava, true},
		{`(?<name>orders)-\d`, scenario.SyntaxJava, true},
		{`\pL+`, scenario.SyntaxJava, true},
		{`(orders)\1`, scenario.SyntaxJava, false},    // a backreference in Java, octal in Go
		{`[a-z&&[^e]]+`, scenario.SyntaxJava, false},  // intersection in Java
		{`[[:alpha:]]+`, scenario.SyntaxJava, false},  // a union in Java, POSIX in Go
		{`(?U)orders.*`, scenario.SyntaxJava, false},  // UNICODE_CHARACTER_CLASS vs ungreedy
		{`orders{,3}`, scenario.SyntaxJava, false},    // a literal in Go, an error in Java
		{`(?P<n>orders)`, scenario.SyntaxJava, false}, // Java refuses it
		{`\p{Latin}`, scenario.SyntaxJava, false},     // a script name differs
		{`orders(?=-1)`, scenario.SyntaxJava, false},  // lookahead: Go cannot match it
		{`\v`, scenario.SyntaxJava, false},            // vertical whitespace vs tab
		{"ordérs", scenario.SyntaxJava, false},        // not ASCII
		{"", scenario.SyntaxJava, false},              // matches nothing
		{`[[:alpha:]]+`, scenario.SyntaxRE2J, true},   // RE2J is RE2's syntax
		{`(?P<n>orders)-.*`, scenario.SyntaxRE2J, true},
		{`(?<n>orders)`, scenario.SyntaxRE2J, false},
		{`orders(?!-1)`, scenario.SyntaxRE2J, false},
	} {
		why := scenario.CheckPattern(c.src, c.syntax)
		assert.Equal(t, c.ok, why == "", "%q (%s): %s", c.src, c.syntax, why)
	}
}

func TestCompilePatternMatchesWholeName(t *testing.T) {
	// Matcher.matches(): the whole topic name, in both syntaxes.
	re, err := scenario.CompilePattern("orders|orders-1")
	require.NoError(t, err)
	got := scenario.MatchTopics(re, map[string]int32{"orders": 1, "orders-1": 1, "orders-10": 1, "my-orders": 1})
	assert.Equal(t, []string{"orders", "orders-1"}, got)
}

func TestParsePatternErrorsNameTheLine(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"topics: {orders-1: 2}\nmembers:\n  - id: c1\n    pattern: \"[a-z&&[^e]]+\"\n", "s.yaml:4: members: c1: pattern"},
		{"topics: {orders-1: 2}\ngroup: {protocol: consumer, strategy: uniform}\nmembers:\n  - id: c1\n    pattern: \"(?<n>o).*\"\n", "RE2J"},
		{"topics: {orders-1: 2}\nmembers:\n  - id: c1\n    topics: [orders-1]\n    pattern: \"orders-.*\"\n", "s.yaml:4: members: give topics or pattern, not both"},
		{"topics: {orders-1: 2}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 10, create_topic: {topic: orders-1, partitions: 2}}\n", "s.yaml:4: create_topic: topic \"orders-1\" already exists at 10 ms"},
		{"topics: {orders-1: 2}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 10, delete_topic: orders-2}\n", "s.yaml:4: delete_topic: no topic \"orders-2\" exists at 10 ms"},
		{"topics: {orders-1: 2}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 10, delete_topic: orders-1}\n  - {at_ms: 20, add_partitions: {topic: orders-1, count: 4}}\n", "s.yaml:5: add_partitions: unknown topic"},
		{"topics: {orders-1: 2}\nmembers: [{id: c1}]\ntimeline:\n  - {at_ms: 10, subscribe: {id: c1, pattern: \"a\\\\1\"}}\n", "s.yaml:4: c1: pattern"},
		{"topics: {t0: 2}\nmembers: [{id: c1}]\nproducers: [{topic: t0, rate: 10}]\ntimeline:\n  - {at_ms: 10, create_topic: {topic: t1, partitions: 1}}\n", "s.yaml:5: create_topic: kviz's data path"},
	} {
		_, err := scenario.Parse("s.yaml", []byte(c.yaml))
		require.Error(t, err, c.yaml)
		assert.Contains(t, err.Error(), c.want)
	}
}

func TestParseTopicLifecycle(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte(`
topics: {orders-1: 2, audit: 1}
members:
  - {id: c1, pattern: "orders-.*"}
timeline:
  - {at_ms: 10, create_topic: {topic: orders-2, partitions: 3}}
  - {at_ms: 20, add_partitions: {topic: orders-2, count: 5}}
  - {at_ms: 30, delete_topic: orders-1}
  - {at_ms: 40, create_topic: {topic: orders-1, partitions: 1}}
  - {at_ms: 50, subscribe: {id: c1, pattern: "audit"}}
`))
	require.NoError(t, err)
	assert.Equal(t, []string{"orders-1"}, sc.Members[0].Topics, "what the pattern matches at time 0")
	assert.Equal(t, map[string]int32{"orders-1": 1, "orders-2": 5, "audit": 1}, scenario.TopicsBefore(sc, scenario.Event{AtMs: 60}))
	assert.Equal(t, map[string]int32{"orders-2": 5, "audit": 1}, scenario.TopicsBefore(sc, scenario.Event{AtMs: 35}))
	// Format writes it all back, and the file reads the same.
	out, err := scenario.Format(sc)
	require.NoError(t, err)
	for _, want := range []string{`pattern: orders-.*`, `create_topic: {topic: orders-2, partitions: 3}`, `delete_topic: orders-1`, `subscribe: {id: c1, pattern: audit}`} {
		assert.Contains(t, string(out), want)
	}
	again, err := scenario.Parse("again.yaml", out)
	require.NoError(t, err)
	assert.Equal(t, sc.Timeline[4].Settings.Pattern, again.Timeline[4].Settings.Pattern)
	assert.False(t, strings.Contains(string(out), "topics: [orders-1]"), "a pattern member lists no topics")
}

func TestInsertedTopicEventsAreChecked(t *testing.T) {
	sc, err := scenario.Parse("s.yaml", []byte("topics: {t0: 2}\nmembers: [{id: c1}]\n"))
	require.NoError(t, err)
	assert.NoError(t, scenario.CheckEvent(sc, scenario.Event{AtMs: 5, Kind: "create_topic", Topic: "t1", Count: 2}))
	assert.ErrorContains(t, scenario.CheckEvent(sc, scenario.Event{AtMs: 5, Kind: "create_topic", Topic: "t0", Count: 2}), "TOPIC_ALREADY_EXISTS")
	assert.ErrorContains(t, scenario.CheckEvent(sc, scenario.Event{AtMs: 5, Kind: "delete_topic", Topic: "t9"}), "UNKNOWN_TOPIC_OR_PARTITION")
	assert.ErrorContains(t, scenario.CheckEvent(sc, scenario.Event{AtMs: 5, Kind: "create_topic", Topic: "bad name", Count: 1}), "may only contain")
}
