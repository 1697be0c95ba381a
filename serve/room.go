package serve

import (
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/tui"
)

// Room is the sessions of one server: it admits them up to its cap and
// carries the trainer's lab to the labs that follow it.
//
// In quiz mode the trainer's question travels with the trainer's state
// (tui.RoomState, through publish); an attendee's answer comes back as a
// vote, and the room sends the trainer the count per choice.
type Room struct {
	max int

	mu       sync.Mutex
	sessions map[string]*seat
	state    tui.RoomState // the trainer's last state
	hasState bool
	asked    tui.QuizVote // the latest answer's question: its count goes to a trainer who comes back
	hasAsked bool
	closing  bool
}

// seat is one session in the room. Its mailbox holds the newest trainer
// state not yet delivered: a slow session skips states instead of holding
// up the trainer (p.Send blocks until the program takes the message).
type seat struct {
	trainer   bool
	following bool // an attendee's lab follows the trainer now
	vote      tui.QuizVote
	voted     bool
	program   *tea.Program
	mailbox   chan tui.RoomState
	counts    chan tui.RoomCount       // the trainer's: the newest count of followers
	tallies   chan tui.QuizTally       // the trainer's: the newest count of answers
	presence  chan tui.TrainerPresence // an attendee's: whether a trainer is here
	done      chan struct{}
}

// errRoomFull is what a session over the cap is told.
type errRoomFull int

func (e errRoomFull) Error() string {
	if e == 1 {
		return "the room is full (1 attendee)"
	}
	return fmt.Sprintf("the room is full (%d attendees)", int(e))
}

func newRoom(max int) *Room { return &Room{max: max, sessions: map[string]*seat{}} }

// enter admits session id, or says why not; following: its lab opens
// following the trainer.
func (r *Room) enter(id string, trainer, following bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closing:
		return fmt.Errorf("the room is closing")
	case !trainer && r.attendeesLocked() >= r.max:
		// The cap is the attendees': a trainer is never refused for a
		// full room (their laptop dropped, the room filled meanwhile).
		return errRoomFull(r.attendeesLocked())
	}
	r.sessions[id] = &seat{trainer: trainer, following: following}
	return nil
}

// attendeesLocked counts the sessions that are not a trainer's.
func (r *Room) attendeesLocked() int {
	n := 0
	for _, s := range r.sessions {
		if !s.trainer {
			n++
		}
	}
	return n
}

// Attendees is the number of attendee sessions in the room.
func (r *Room) Attendees() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attendeesLocked()
}

// trainersLocked counts the trainers' sessions whose lab is on screen.
func (r *Room) trainersLocked() int {
	n := 0
	for _, s := range r.sessions {
		if s.trainer && s.program != nil {
			n++
		}
	}
	return n
}

// TrainerHere reports whether a trainer's lab is in the room.
func (r *Room) TrainerHere() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.trainersLocked() > 0
}

// presenceLocked tells every attendee whether a trainer is in the room.
func (r *Room) presenceLocked() {
	p := tui.TrainerPresence{Here: r.trainersLocked() > 0}
	for _, s := range r.sessions {
		if !s.trainer && s.presence != nil {
			replace(s.presence, p)
		}
	}
}

// sit attaches a session's program; a follower gets the trainer's state at once.
func (r *Room) sit(id string, p *tea.Program) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok || s.program != nil {
		return
	}
	s.program, s.done = p, make(chan struct{})
	s.mailbox, s.counts, s.tallies = make(chan tui.RoomState, 1), make(chan tui.RoomCount, 1), make(chan tui.QuizTally, 1)
	s.presence = make(chan tui.TrainerPresence, 1)
	go s.deliver()
	if r.hasState && !s.trainer {
		s.post(r.state)
	}
	r.countLocked()
	r.presenceLocked()
	if s.trainer && r.hasAsked {
		r.tallyLocked() // a trainer back from a dropped connection sees how the room answered
	}
}

// last is the trainer's last state, if a trainer has been here.
func (r *Room) last() *tui.RoomState {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.hasState {
		return nil
	}
	st := r.state
	return &st
}

// follows records whether an attendee's lab follows the trainer now.
func (r *Room) follows(id string, following bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok && s.following != following {
		s.following = following
		r.countLocked()
	}
}

// answer records an attendee's answer to the trainer's question and sends
// the trainers the new count.
func (r *Room) answer(id string, v tui.QuizVote) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok {
		return
	}
	s.vote, s.voted = v, true
	r.asked, r.hasAsked = v, true
	r.tallyLocked()
}

// tallyLocked sends the trainers the count of answers to the latest
// question answered. Only attendees vote: a trainer's pick is not counted.
func (r *Room) tallyLocked() {
	var votes []tui.QuizVote
	attendees := 0
	for _, o := range r.sessions {
		if o.trainer {
			continue
		}
		attendees++
		if o.voted {
			votes = append(votes, o.vote)
		}
	}
	t := tui.TallyOf(r.asked, votes, attendees)
	for _, o := range r.sessions {
		if o.trainer && o.tallies != nil {
			replace(o.tallies, t)
		}
	}
}

// countLocked sends the trainers how many attendees follow them.
func (r *Room) countLocked() {
	var c tui.RoomCount
	for _, s := range r.sessions {
		if !s.trainer {
			c.Attendees++
			if s.following {
				c.Following++
			}
		}
	}
	for _, s := range r.sessions {
		if s.trainer && s.counts != nil {
			replace(s.counts, c)
		}
	}
}

// leave frees the session's place.
func (r *Room) leave(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		if s.done != nil {
			close(s.done)
		}
		delete(r.sessions, id)
		r.countLocked()
		if s.trainer {
			r.presenceLocked()
		} else if r.hasAsked {
			r.tallyLocked() // one attendee fewer
		}
	}
}

// Len is the number of sessions in the room.
func (r *Room) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// publish is a trainer's lab (session from) showing something new: every
// other lab gets it, a second trainer's too (laptop and projector drive
// together).
func (r *Room) publish(from string, st tui.RoomState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state, r.hasState = st, true
	for id, s := range r.sessions {
		if id != from && s.program != nil {
			s.post(st)
		}
	}
}

// close stops admitting and tells every session the room is closing.
func (r *Room) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closing = true
	for _, s := range r.sessions {
		if s.program != nil {
			go s.program.Send(roomClosingMsg{})
		}
	}
}

// post replaces what waits in the mailbox with st.
func (s *seat) post(st tui.RoomState) { replace(s.mailbox, st) }

// replace puts v in a one-slot channel in place of what waits there. It
// cannot block: the room's lock is held by every writer.
func replace[T any](ch chan T, v T) {
	select {
	case <-ch:
	default:
	}
	ch <- v
}

func (s *seat) deliver() {
	for {
		select {
		case <-s.done:
			return
		case st := <-s.mailbox:
			s.program.Send(st)
		case c := <-s.counts:
			s.program.Send(c)
		case t := <-s.tallies:
			s.program.Send(t)
		case p := <-s.presence:
			s.program.Send(p)
		}
	}
}
