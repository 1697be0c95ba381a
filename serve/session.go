package serve

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kvizlab/kviz/tui"
)

// labSession is one SSH session's program: the lab, plus what a room adds
// around it (the idle and session clocks, the closing room, and, for the
// trainer, publishing what the lab shows).
type labSession struct {
	app       tui.App
	room      *Room
	id        string
	trainer   bool
	shown     tui.RoomState // what the trainer's lab published last
	following bool          // what the room was told of an attendee's lab
	voted     tui.QuizVote  // the answer the room was told last

	idle, maxTime time.Duration
	clock         clock
	lastActive    time.Time
	width, height int

	ending string // why the session ends; the lab is gone from the screen
}

type (
	idleCheckMsg   struct{}
	timeUpMsg      struct{}
	roomClosingMsg struct{}
	endMsg         struct{}
)

// farewell is how long the reason a session ends stays on screen.
const farewell = 1500 * time.Millisecond

func (m labSession) Init() tea.Cmd {
	cmds := []tea.Cmd{m.app.Init()}
	if m.idle > 0 {
		cmds = append(cmds, tick(m.clock, m.idle, idleCheckMsg{}))
	}
	if m.maxTime > 0 {
		cmds = append(cmds, tick(m.clock, m.maxTime, timeUpMsg{}))
	}
	if m.trainer {
		m.room.publish(m.id, m.app.RoomState()) // followers see the trainer's opening screen at once
	}
	return tea.Batch(cmds...)
}

func (m labSession) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case endMsg:
		return m, tea.Quit
	case idleCheckMsg:
		if left := m.idle - m.clock.Now().Sub(m.lastActive); left > 0 {
			return m, tick(m.clock, left, idleCheckMsg{})
		}
		if m.trainer && m.room.Attendees() > 0 || !m.trainer && m.app.Following() && m.room.TrainerHere() {
			// A trainer talking to a room is not idle, and neither is
			// an attendee watching them.
			return m, tick(m.clock, m.idle, idleCheckMsg{})
		}
		return m.end(fmt.Sprintf("no key pressed for %s: this session ends. Connect again any time.", m.idle))
	case timeUpMsg:
		return m.end(fmt.Sprintf("this session has lasted %s, the room's limit: it ends.", m.maxTime))
	case roomClosingMsg:
		return m.end("the room is closing. Thank you for coming!")
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.lastActive = m.clock.Now()
	case tea.KeyPressMsg, tea.MouseMsg, tea.PasteMsg:
		m.lastActive = m.clock.Now()
	case tui.RoomState:
		if m.app.Following() {
			m.lastActive = m.clock.Now() // watching the trainer is not idling
		}
	}
	if m.ending != "" {
		return m, nil
	}
	next, cmd := m.app.Update(msg)
	m.app = next.(tui.App)
	if st := m.app.RoomState(); m.trainer && !st.Same(m.shown) {
		m.shown = st
		if _, fromRoom := msg.(tui.RoomState); !fromRoom {
			m.room.publish(m.id, st) // another trainer's state came from the room already
		}
	}
	if !m.trainer && m.app.Following() != m.following {
		m.following = m.app.Following()
		m.room.follows(m.id, m.following)
	}
	if v, ok := m.app.QuizVote(); ok && v != m.voted {
		m.voted = v
		m.room.answer(m.id, v)
	}
	return m, cmd
}

// end shows why the session ends, then quits.
func (m labSession) end(why string) (tea.Model, tea.Cmd) {
	if m.ending != "" {
		return m, nil
	}
	m.ending = why
	return m, tick(m.clock, farewell, endMsg{})
}

func (m labSession) View() tea.View {
	if m.ending == "" {
		return m.app.View()
	}
	msg := lipgloss.NewStyle().Bold(true).Render("kviz") + "  " + m.ending
	v := tea.NewView(lipgloss.Place(max(m.width, 1), max(m.height, 1), lipgloss.Center, lipgloss.Center, msg))
	v.AltScreen = true
	return v
}
