package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A lab in a room served over SSH (kviz serve). With a trainer, every
// other lab follows the trainer's: the same simulation (demo, inserted
// events, strategy, protocol) at the same step, until its user presses f to
// explore on their own from there; f again rejoins. The room (package
// serve) carries RoomState from the trainer's lab to the others as a
// Bubble Tea message.

// RoomState is what a following lab takes from the trainer's: the
// simulation itself (immutable, so the labs share it rather than
// re-simulate) and the step on screen.
//
// With quiz mode on in the trainer's lab, it is on in the following labs:
// the same simulation asks the same question at the same step. Their
// answers go back through the room (QuizVote), which counts them for the
// trainer (QuizTally).
type RoomState struct {
	sim  simulation
	info *simInfo
	step int
	quiz bool
}

// Step is the step on the trainer's screen.
func (s RoomState) Step() int { return s.step }

// Same reports whether two states show the same thing (a lab publishes
// only changes).
func (s RoomState) Same(o RoomState) bool { return s == o }

// RoomState is what this lab shows, for the labs following it.
func (a App) RoomState() RoomState {
	return RoomState{sim: a.sim, info: a.info, step: a.step, quiz: a.quiz.on}
}

// seat is this lab's place in a room.
type seat struct {
	inRoom     bool // a trainer leads the room: f is offered
	following  bool
	trainer    RoomState // the trainer's last state, to rejoin
	hasTrainer bool      // trainer holds something: the trainer has been here
	away       bool      // the trainer has been here and no trainer is connected now

	leads bool      // this is the trainer's lab
	count RoomCount // the trainer's view of the room
	votes QuizTally // the room's answers to the trainer's latest question
}

// TrainerPresence is the room telling an attendee's lab whether a trainer
// is connected: while none is, the lab says the trainer is away (and still
// shows the trainer's last step); when one comes back it goes on from there.
type TrainerPresence struct{ Here bool }

// RoomCount is how many attendees the trainer's lab has, and how many of
// them follow it now.
type RoomCount struct{ Following, Attendees int }

// OverSSH is the lab for a remote session: v would write on the server's
// disk, so it is not offered.
func (a App) OverSSH() App {
	a.keys.SaveFrame.SetEnabled(false)
	a.keys.WriteScenario.SetEnabled(false)
	return a
}

// Follower is the lab of an attendee in a room with a trainer: it opens
// following the trainer.
func (a App) Follower() App {
	a.seat = seat{inRoom: true, following: true}
	a.keys.Follow.SetEnabled(true)
	a.setStatus("the trainer has not joined yet — f to explore on your own", false)
	return a
}

// Trainer is the lab of the room's trainer: it drives, and its header
// counts who follows. With the room's last state (the trainer's session
// before a dropped connection), it goes on from there instead of sending
// the whole room back to the start.
func (a App) Trainer(last *RoomState) App {
	a.seat = seat{leads: true}
	a.keys.Reveal.SetEnabled(true)
	if last != nil {
		a.follow(*last)
		// The room's question is on screen again at once, not after
		// the first key: the attendees' answers wait for the reveal.
		a = a.WithQuiz(last.quiz)
	}
	return a
}

// Following reports whether the lab follows the trainer now.
func (a App) Following() bool { return a.seat.following }

// onRoomState takes the trainer's new state; a lab on its own keeps it for
// when it rejoins.
func (a *App) onRoomState(s RoomState) {
	if a.seat.leads {
		a.follow(s) // another session with the trainer's key drives: both show it
		return
	}
	first := !a.seat.hasTrainer
	a.seat.trainer, a.seat.hasTrainer = s, true
	if !a.seat.following {
		return
	}
	a.follow(s)
	if first {
		a.setStatus("following the trainer — f to explore on your own", false)
	}
}

// onTrainerPresence says so when the trainer drops out of the room and
// when they are back.
func (a *App) onTrainerPresence(p TrainerPresence) {
	if !a.seat.inRoom {
		return
	}
	switch {
	case !p.Here && a.seat.hasTrainer && !a.seat.away:
		a.seat.away = true
		a.setStatus("trainer away — the room waits at the trainer's last step (f to explore on your own)", false)
	case p.Here && a.seat.away:
		a.seat.away = false
		a.setStatus("the trainer is back", false)
	}
}

// follow shows the trainer's simulation at the trainer's step.
func (a *App) follow(s RoomState) {
	if a.sim != s.sim {
		a.installSim(s.sim, s.info) // a recompute of the student's own is dropped
		if a.mode == modeCompare {
			a.mode = modeLab // its table was of the simulation just replaced
		}
	}
	a.playing = false // the trainer's steps arrive as they happen
	a.playGen++
	a.quiz.on = false // no quiz stop: the trainer's step is where the room is
	a.goTo(s.step)
	a.quiz.on = s.quiz
	a.quizRoomPast() // the trainer went on: what was asked before is revealed
}

// toggleFollow leaves the trainer (the lab goes on from this very state,
// its own fork from now on) or rejoins.
func (a *App) toggleFollow() {
	if a.seat.following {
		a.seat.following = false
		a.setStatus(fmt.Sprintf("on your own from step %d — f follows the trainer again", a.step), false)
		return
	}
	a.seat.following = true
	if a.seat.hasTrainer {
		a.follow(a.seat.trainer)
	}
	a.setStatus("following the trainer — f to explore on your own", false)
}

// heldByTrainer reports whether a key would move this lab away from the
// trainer's state (a step, an event, another strategy or protocol). While
// following, such a key only says how to go on alone.
func (a *App) heldByTrainer(msg tea.KeyPressMsg) bool {
	if !a.seat.following {
		return false
	}
	k := &a.keys
	for _, b := range []key.Binding{k.Next, k.Prev, k.First, k.Last, k.NextRebalance, k.PrevRebalance, k.Play,
		k.AddMember, k.Leave, k.Crash, k.Restart, k.AddPartitions, k.RemoveMembers, k.Disconnect, k.Wakeup, k.RestartAs,
		k.Strategy, k.Protocol} {
		if key.Matches(msg, b) {
			a.setStatus("the trainer drives — f to explore on your own", true)
			return true
		}
	}
	return false
}

// roomBadge is the header's mark of a lab in a room ("" outside one).
func (a App) roomBadge() string {
	switch {
	case a.seat.leads:
		c := a.seat.count
		return a.styles.Title.Render(fmt.Sprintf("★ trainer · %d of %d following", c.Following, c.Attendees))
	case !a.seat.inRoom:
		return ""
	case a.seat.following && a.seat.away:
		return a.styles.Faint.Render("◌ trainer away")
	case a.seat.following:
		return a.styles.Title.Render("◉ following the trainer")
	default:
		return a.styles.Faint.Render("○ on your own · f rejoins")
	}
}
