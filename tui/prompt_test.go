package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func backspaces(n int) []tea.Msg {
	out := make([]tea.Msg, n)
	for i := range out {
		out[i] = tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	return out
}

// a asks for the id (the group's next free name) and the topics (all of
// them), says why, and inserts what was answered.
func TestAddMemberPromptAsks(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "a")...)
	out := screen(a)
	assert.Contains(t, out, "add a member (1/2)")
	assert.Contains(t, out, "id: c5")
	assert.Contains(t, out, "c5 is the next free id in the group's style")
	assert.Contains(t, out, "esc cancels")
	assertFits(t, a, 80, 24)

	a, _ = drive(t, a, backspaces(2)...)
	a, _ = drive(t, a, typeText("qa-1")...) // q and j are letters here
	a, _ = drive(t, a, press("enter"))
	assert.Contains(t, screen(a), "topics: orders")
	assert.Contains(t, screen(a), "every topic of the group")
	a, _ = drive(t, a, press("enter"))
	require.Len(t, a.Scenario().Timeline, 1)
	ev := a.Scenario().Timeline[0]
	assert.Equal(t, "join", ev.Kind)
	assert.Equal(t, "qa-1", ev.Member)
	assert.Equal(t, []string{"orders"}, ev.Topics)
	assert.Nil(t, a.prompt, "the prompt closes")
	assert.Contains(t, screen(a), "qa-1 joins (subscribed to orders)")
}

func TestPromptEscCancels(t *testing.T) {
	for _, k := range []string{"a", "t"} {
		a := fakeApp(t, 80, 24)
		a, _ = drive(t, a, keys("n", "n", "n", k, "enter", "esc")...)
		assert.Empty(t, a.Scenario().Timeline, "%s then esc inserts nothing", k)
		assert.Nil(t, a.prompt)
		assert.Contains(t, screen(a), "cancelled")
	}
}

// A refused answer keeps the prompt open with the reason; fixing it goes on.
func TestPartitionsPromptRefusesThenAccepts(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n", "t")...)
	out := screen(a)
	assert.Contains(t, out, "topic: orders")
	assert.Contains(t, out, "topics: orders (6)")
	a, _ = drive(t, a, press("enter"))
	assert.Contains(t, screen(a), "partitions: 12", "the default doubles the topic")
	a, _ = drive(t, a, backspaces(2)...)
	a, _ = drive(t, a, typeText("lots")...)
	a, _ = drive(t, a, press("enter"))
	require.NotNil(t, a.prompt, "a bad count keeps the prompt open")
	assert.Contains(t, screen(a), `"lots" is not a number of partitions`)
	assert.Empty(t, a.Scenario().Timeline)

	a, _ = drive(t, a, backspaces(4)...)
	a, _ = drive(t, a, typeText("9")...)
	a, _ = drive(t, a, press("enter"))
	require.Len(t, a.Scenario().Timeline, 1)
	assert.Equal(t, int32(9), a.Scenario().Timeline[0].Count)
	assert.Equal(t, "orders", a.Scenario().Timeline[0].Topic)
}

// An unknown topic is refused by name, with the topics there are.
func TestPartitionsPromptUnknownTopic(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("t")...)
	a, _ = drive(t, a, backspaces(6)...)
	a, _ = drive(t, a, typeText("nope")...)
	a, _ = drive(t, a, keys("enter", "enter")...)
	require.NotNil(t, a.prompt)
	assert.Contains(t, screen(a), `no topic "nope" (topics: orders)`)
}

// On the real model: the default id follows the scenario's own style.
func TestAddMemberPromptOnTheRealModel(t *testing.T) {
	a := shippedDemoApp(t, "example-11-failover", 120, 40)
	a = realDrive(a, keys("G", "a")...)
	assert.Contains(t, screen(a), "id: d", "a, b, c are followed by d")
	a = realDrive(a, keys("enter", "enter")...)
	require.NotEmpty(t, a.Scenario().Timeline)
	last := a.Scenario().Timeline[len(a.Scenario().Timeline)-1]
	assert.Equal(t, "d", last.Member)
	assert.Equal(t, "d", a.Selected())
}

// d and x on a member that is not running say so and insert nothing.
func TestLeaveOfAStoppedMemberIsRefused(t *testing.T) {
	a := demoApp(t, 120, 40)
	a = realDrive(a, press("G"))
	var stopped string
	for _, m := range a.view().Members {
		if !m.Live() {
			stopped = m.ID
		}
	}
	require.NotEmpty(t, stopped, "the lab demo ends with a crashed member")
	for a.Selected() != stopped {
		a = realDrive(a, press("j"))
	}
	for _, k := range []string{"d", "x"} {
		before := len(a.Scenario().Timeline)
		a = realDrive(a, press(k))
		assert.Len(t, a.Scenario().Timeline, before, "%s inserts nothing", k)
		assert.Contains(t, screen(a), "» "+stopped+" is not running")
	}
}
