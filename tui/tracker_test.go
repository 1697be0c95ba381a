package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTrackerTakesOnlyTheReplyAwaited(t *testing.T) {
	var tr tracker
	first := tr.send(replyCompare)
	second := tr.send(replyCompare)
	quiz := tr.send(replyQuiz)
	assert.False(t, tr.take(replyCompare, first), "superseded")
	assert.False(t, tr.take(replyCompare, quiz), "another kind's tag")
	assert.True(t, tr.take(replyCompare, second))
	assert.False(t, tr.awaits(replyCompare), "answered")
	assert.False(t, tr.take(replyCompare, second), "answered once")
	assert.True(t, tr.awaits(replyQuiz))
	tr.drop(replyQuiz)
	assert.False(t, tr.take(replyQuiz, quiz), "dropped: its simulation went")
	copied := tr
	copied.send(replyWhatIf)
	assert.False(t, tr.awaits(replyWhatIf), "an App's copy has its own tracker")
}

// Compare opened, closed and opened again at another step: the first
// request was given up (its context cancelled) when the second was made.
// Its reply, arriving first, is stale and must not take the screen; the
// second's is shown.
func TestAStaleCompareReplyIsDropped(t *testing.T) {
	var m tea.Model = demoApp(t, 140, 40)
	m, first := m.Update(press("c"))
	m, _ = m.Update(press("c"))
	m, _ = m.Update(press("n"))
	m, second := m.Update(press("c"))
	require.NotNil(t, first)
	require.NotNil(t, second)
	m = deliver(m, first)
	a := m.(App)
	assert.Nil(t, a.compare, "the stale reply is not shown")
	assert.True(t, a.busy(), "the second is still awaited")
	m = deliver(m, second)
	a = m.(App)
	require.NotNil(t, a.compare)
	assert.Equal(t, a.compareMoment(), a.compare.AtMs)
	for _, r := range a.compare.Rows {
		assert.NoError(t, r.Err, r.Strategy)
	}
}
