package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// m, u, W and R insert issue 23's events as a scenario's timeline holds
// them, at the moment on screen, through the path every key takes.
func TestIssue23EventKeys(t *testing.T) {
	for _, c := range []struct {
		keys  []string
		kind  string
		check func(t *testing.T, a App)
	}{
		{[]string{"m", "enter"}, "remove_members", func(t *testing.T, a App) {
			assert.True(t, a.Scenario().Timeline[0].All, "c1 is dynamic: the default removes every member")
		}},
		{[]string{"u", "enter"}, "disconnect", func(t *testing.T, a App) {
			ev := a.Scenario().Timeline[0]
			assert.Equal(t, "c1", ev.Member)
			assert.Equal(t, int64(60000), ev.Ms)
		}},
		{[]string{"Z"}, "wakeup", func(t *testing.T, a App) { assert.Equal(t, "c1", a.Scenario().Timeline[0].Member) }},
		{[]string{"R"}, "restart", func(t *testing.T, a App) {
			ev := a.Scenario().Timeline[0]
			assert.Equal(t, "c1", ev.Member)
			assert.Equal(t, "consumer", ev.Settings.Protocol, "a classic member rolls to the consumer protocol")
		}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			a := fakeApp(t, 80, 24)
			a, _ = drive(t, a, keys(append([]string{"n", "n", "n"}, c.keys...)...)...)
			require.Len(t, a.Scenario().Timeline, 1)
			assert.Equal(t, c.kind, a.Scenario().Timeline[0].Kind)
			assert.Equal(t, int64(6001), a.Scenario().Timeline[0].AtMs)
			c.check(t, a)
		})
	}
}

func TestRemoveMembersPromptRefusesNothing(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "m")...)
	a.prompt.input.SetValue(" , ")
	a, _ = drive(t, a, keys("enter")...)
	assert.Empty(t, a.Scenario().Timeline)
	assert.Contains(t, screen(a), "give group.instance.ids")
}
