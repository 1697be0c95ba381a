package serve

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// clock is the time a room's sessions keep: the idle timeout, the session
// limit, the farewell. The server's is the wall clock; tests inject a
// manual one and move it, so the room's timing is tested without sleeping.
type clock interface {
	Now() time.Time
	// After delivers once d has passed on this clock.
	After(d time.Duration) <-chan time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time                         { return time.Now() }
func (wallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// tick is tea.Tick on clock c: msg after d.
func tick(c clock, d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		<-c.After(d)
		return msg
	}
}
