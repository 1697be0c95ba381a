package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `/` selects a member by id, and by a partition it consumes; the same
// words again walk to the next match; a miss keeps the prompt open.
func TestFindSelects(t *testing.T) {
	a := realDrive(demoApp(t, 120, 40), press("G"))
	find := func(a App, q string) App {
		msgs := []tea.Msg{press("/")}
		msgs = append(msgs, typeText(q)...)
		return realDrive(a, append(msgs, press("enter"))...)
	}
	got := find(a, "c3")
	assert.Equal(t, "c3", got.Selected())
	assert.Nil(t, got.prompt)

	v := got.view()
	require.NotEmpty(t, v.Members[0].Owned)
	tp := v.Members[0].Owned[0]
	q := fmt.Sprintf("%s-%d", tp.Topic, tp.Partition)
	got = find(got, q)
	assert.Equal(t, v.Members[0].ID, got.Selected(), "the owner of %s", q)
	assert.Contains(t, screen(got), q+": "+v.Members[0].ID+" (1 of 1)")

	all := find(a, "c")
	next := find(all, "c")
	assert.NotEqual(t, all.Selected(), next.Selected(), "the same words find the next match")
	again := realDrive(next, press("/"), press("enter"))
	assert.NotEqual(t, next.Selected(), again.Selected(), "enter alone repeats the search")

	miss := find(a, "nobody")
	require.NotNil(t, miss.prompt, "a miss keeps the prompt open")
	assert.Contains(t, screen(miss), `no member or partition matches "nobody"`)
}
