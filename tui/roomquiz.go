package tui

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model"
)

// The quiz in a room: the trainer's question is on every following lab
// (RoomState carries quiz mode, the shared simulation the questions); an
// attendee's answer stays on the trainer's step, with the question and the
// choice on screen, and goes to the trainer as a vote. The room (package
// serve) counts the votes. The trainer reveals with a key of its own (the
// trainer's pick, if any, is not scored), which moves every following lab
// to the step that settles the answer.

// QuizVote is an attendee's answer to the question asked at a step of a
// simulation.
type QuizVote struct {
	sim          simulation
	step, choice int
}

// QuizTally is the room's answers to one question: how many chose each
// choice (0-based), of how many attendees.
type QuizTally struct {
	sim       simulation
	step      int
	Counts    []int
	Attendees int
}

// TallyOf counts the votes that answer v's question.
func TallyOf(v QuizVote, votes []QuizVote, attendees int) QuizTally {
	t := QuizTally{sim: v.sim, step: v.step, Attendees: attendees}
	for _, o := range votes {
		if o.sim != v.sim || o.step != v.step || o.choice < 0 {
			continue
		}
		for len(t.Counts) <= o.choice {
			t.Counts = append(t.Counts, 0)
		}
		t.Counts[o.choice]++
	}
	return t
}

// QuizVote is this lab's answer to the question at its step, while it
// follows the trainer.
func (a App) QuizVote() (QuizVote, bool) {
	if !a.seat.following || !a.quiz.on || !a.quizReady() {
		return QuizVote{}, false
	}
	for k, q := range a.quiz.questions {
		if q.Step == a.step && a.quiz.answers[k] >= 0 {
			return QuizVote{sim: a.sim, step: q.Step, choice: a.quiz.answers[k]}, true
		}
	}
	return QuizVote{}, false
}

// waitsForTrainer is true when an answer must not move the lab on: a
// following lab's reveal comes with the trainer's next step.
func (a *App) waitsForTrainer() bool {
	if !a.seat.following {
		return false
	}
	a.setStatus("answer sent — the trainer reveals", false)
	return true
}

// revealQuiz is the trainer's reveal key: the open question's answer is
// shown to the whole room (every following lab takes the reveal step).
func (a *App) revealQuiz() {
	k := a.quizOpen()
	if k < 0 {
		if a.quiz.on {
			a.setStatus("no question on screen to reveal", false)
		} else {
			a.setStatus("press z for quiz mode", false)
		}
		return
	}
	a.reveal(k)
	a.setStatus("revealed to the room", false)
}

// revealHint is what the trainer presses to reveal.
func (a *App) revealHint() string {
	return fmt.Sprintf("the room answers; %s reveals", a.keys.Reveal.Help().Key)
}

// quizRoomPast marks revealed, in a room, every question asked before the
// step on screen: the trainer has moved the room past them (a lab that
// joins late, a trainer's lab after a reconnect, a reveal arriving). An
// attendee's answer is scored then, not before: the score on screen must
// not tell whether the answer was right.
func (a *App) quizRoomPast() {
	if !a.seat.inRoom && !a.seat.leads || !a.quizReady() {
		return
	}
	var revealed []bool
	for k, q := range a.quiz.questions {
		if q.Step < a.step && !a.quiz.revealed[k] {
			if revealed == nil {
				revealed = append([]bool(nil), a.quiz.revealed...) // App copies must not share it
			}
			revealed[k] = true
			if !a.seat.leads && a.quiz.answers[k] >= 0 {
				a.score(k) // an attendee's answer counts when the trainer reveals it
			}
		}
	}
	if revealed != nil {
		a.quiz.revealed = revealed
	}
}

// ownAnswerLine is, under a question still open, the choice this lab made
// and who reveals it.
func (a App) ownAnswerLine(k, w int) []string {
	got := a.quiz.answers[k]
	if got < 0 {
		return nil
	}
	choice := a.choice(got, a.quiz.questions[k].Choices[got])
	note := " · the trainer reveals"
	if a.seat.leads {
		note = " · not scored · " + a.keys.Reveal.Help().Key + " reveals"
	}
	return []string{fit(a.styles.Label.Render("your answer ")+choice+a.styles.Faint.Render(note), w)}
}

func (a *App) onQuizTally(t QuizTally) {
	if a.seat.leads {
		a.seat.votes = t
	}
}

// roomVotesLines are, in the trainer's quiz box, how the room answered q.
func (a App) roomVotesLines(q model.Question, w int) []string {
	t := a.seat.votes
	if !a.seat.leads || t.sim != a.sim || t.step != q.Step {
		if a.seat.leads && a.seat.count.Attendees > 0 {
			return []string{a.styles.Faint.Render(fmt.Sprintf("room: no answer yet · %d in the room", a.seat.count.Attendees))}
		}
		return nil
	}
	parts, answered := make([]string, 0, len(q.Choices)), 0
	for i := range q.Choices {
		n := 0
		if i < len(t.Counts) {
			n = t.Counts[i]
		}
		answered += n
		parts = append(parts, fmt.Sprintf("%d) ×%d", i+1, n))
	}
	line := fmt.Sprintf("room: %s · %d of %d answered", strings.Join(parts, "  "), answered, t.Attendees)
	return []string{fit(a.styles.Accent.Render(line), w)}
}
