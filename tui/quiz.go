package tui

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model"
)

// Quiz mode (z, kviz play --quiz): before the step that reveals a
// rebalance's outcome the lab stops and asks. The model writes the
// questions (model.Sim.Quiz); this file only keeps the session's answers
// and score, stops the cursor and draws the box.

// quizState is the quiz of one lab session. Answers belong to the
// simulation they were given on; the score outlives a re-simulation.
type quizState struct {
	on        bool
	sim       simulation // the simulation the questions are for
	loading   simulation // the simulation whose questions are being written
	questions []model.Question
	answers   []int  // per question: the choice (0-based), -1 = not answered
	revealed  []bool // per question: its answer has been shown (answered alone, or the trainer revealed it)
	right     int
	answered  int
}

// quizSource is what a simulation offers when it can ask questions (the
// real model does; a scripted test model need not).
type quizSource interface {
	Quiz() []model.Question
}

// QuizAnswerMsg answers the question on screen with choice Choice
// (0-based), as pressing its key does. A session that follows another
// (kviz serve) sends it to pass an answer along.
type QuizAnswerMsg struct{ Choice int }

// QuizModeMsg turns quiz mode on or off, as z does.
type QuizModeMsg struct{ On bool }

// quizDoneMsg brings a simulation's questions back from their command:
// the model re-simulates the scenario under the other assignors for the
// wrong choices, which takes a second on a thousand-member group.
type quizDoneMsg struct {
	sim       simulation
	seq       int // the request it answers
	questions []model.Question
}

// WithQuiz returns the lab with quiz mode on or off (kviz play --quiz).
// The questions are written at once: the program has not started yet.
func (a App) WithQuiz(on bool) App {
	a.quiz.on = on
	if cmd := a.quizLoad(); cmd != nil {
		a.onQuizDone(cmd().(quizDoneMsg))
	}
	return a
}

// quizReady: the questions on hand are the simulation's on screen.
func (a *App) quizReady() bool { return a.quiz.sim == a.sim }

// quizLoad is the command that writes the questions of the simulation on
// screen, when quiz mode needs them and nobody is writing them yet.
func (a *App) quizLoad() tea.Cmd {
	if !a.quiz.on || a.quizReady() || a.quiz.loading == a.sim {
		return nil
	}
	sim := a.sim
	a.quiz.loading = sim
	seq := a.replies.send(replyQuiz)
	return func() tea.Msg {
		var qs []model.Question
		if src, ok := sim.(quizSource); ok {
			qs = src.Quiz()
		}
		return quizDoneMsg{sim: sim, seq: seq, questions: qs}
	}
}

// onQuizDone installs the questions if their simulation is still on screen.
func (a *App) onQuizDone(msg quizDoneMsg) {
	if !a.replies.take(replyQuiz, msg.seq) || msg.sim != a.sim {
		return // superseded: the scenario changed meanwhile, its own load is on its way
	}
	a.quiz.sim, a.quiz.loading, a.quiz.questions = msg.sim, nil, msg.questions
	a.quiz.answers = make([]int, len(msg.questions))
	a.quiz.revealed = make([]bool, len(msg.questions))
	for i := range a.quiz.answers {
		a.quiz.answers[i] = -1
	}
	a.quizRoomPast()
	if a.quiz.on && a.status == quizPreparing {
		a.setStatus(a.quizCount(), false)
	}
}

const quizPreparing = "quiz on: writing the questions…"

func (a *App) quizCount() string {
	if len(a.quiz.questions) == 0 {
		return "quiz on, but this scenario has nothing to predict"
	}
	return fmt.Sprintf("quiz on: %d questions; the lab stops before each reveal", len(a.quiz.questions))
}

// withQuizLoad adds the quiz's load to what a key press returns: any key
// may have replaced the simulation (an event, a strategy switch).
func withQuizLoad(m tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	a, ok := m.(App)
	if !ok {
		return m, cmd
	}
	if load := a.quizLoad(); load != nil {
		return a, tea.Batch(cmd, load)
	}
	return a, cmd
}

// quizOpen is the question asked at the current step and not revealed
// yet, or -1: on screen with its choices, and hiding what would answer it
// (quizHides). In a room it stays open after an answer, until the trainer
// reveals it.
func (a *App) quizOpen() int {
	if !a.quiz.on || !a.quizReady() {
		return -1
	}
	for k, q := range a.quiz.questions {
		if q.Step == a.step && !a.quiz.revealed[k] {
			return k
		}
	}
	return -1
}

// quizPending is the open question still waiting for this lab's answer, or
// -1. A trainer's pick is not an answer (the trainer reveals); an attendee
// who answered and then went on alone answers for themself (f).
func (a *App) quizPending() int {
	if k := a.quizOpen(); k >= 0 && (a.quiz.answers[k] < 0 || a.seat.leads || !a.seat.following) {
		return k
	}
	return -1
}

// quizRevealed is the question revealed at the current step, or -1.
func (a *App) quizRevealed() int {
	if !a.quiz.on || !a.quizReady() {
		return -1
	}
	for k, q := range a.quiz.questions {
		if q.RevealStep == a.step && a.quiz.revealed[k] {
			return k
		}
	}
	return -1
}

// quizHides is what the panes leave out while a question is open (the
// model's model.Question.Hides).
func (a *App) quizHides() (model.QuizHides, bool) {
	if k := a.quizOpen(); k >= 0 {
		return a.quiz.questions[k].Hides, true
	}
	return model.QuizHides{}, false
}

// quizStop is where a move from the cursor to step i ends in quiz mode: at
// the first unanswered question on the way, and not past the one on
// screen. Moving back is never stopped. A stop pauses autoplay.
func (a *App) quizStop(i int) int {
	if !a.quiz.on || i <= a.step {
		return i
	}
	if !a.quizReady() {
		a.playing = false
		a.setStatus(quizPreparing, false)
		return a.step // a moment: the questions of this simulation are on their way
	}
	for k, q := range a.quiz.questions {
		if a.quiz.revealed[k] || q.Step < a.step || q.Step >= i {
			continue
		}
		a.playing = false
		switch {
		case q.Step == a.step && a.seat.leads:
			a.setStatus(a.revealHint(), false)
		case q.Step == a.step:
			a.setStatus(fmt.Sprintf("answer first: press 1–%d", len(q.Choices)), false)
		default:
			a.setStatus("quiz: predict, then reveal", false)
		}
		return q.Step
	}
	return i
}

// onQuizKey handles z, 1–4 and the trainer's reveal. It reports whether
// it used the key.
func (a *App) onQuizKey(msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, a.keys.Quiz):
		a.toggleQuiz()
		return true
	case key.Matches(msg, a.keys.Reveal):
		a.revealQuiz()
		return true
	case key.Matches(msg, a.keys.Answer):
		n, _ := strconv.Atoi(msg.String())
		a.answerQuiz(n - 1)
		return true
	}
	return false
}

// toggleQuiz is z. Turning it on asks withQuizLoad for the questions.
func (a *App) toggleQuiz() {
	a.quiz.on = !a.quiz.on
	switch {
	case !a.quiz.on:
		a.setStatus(fmt.Sprintf("quiz off · score %d/%d", a.quiz.right, a.quiz.answered), false)
	case a.quizReady():
		a.setStatus(a.quizCount(), false)
	default:
		a.setStatus(quizPreparing, false)
	}
}

// answerQuiz records choice c for the question on screen, scores it and
// moves to the step that reveals it.
func (a *App) answerQuiz(c int) {
	k := a.quizPending()
	if k < 0 {
		if a.quizOpen() >= 0 {
			a.setStatus("answered — the trainer reveals", false)
		} else if a.quiz.on {
			a.setStatus("no question on screen", false)
		} else {
			a.setStatus("press z for quiz mode", false)
		}
		return
	}
	q := a.quiz.questions[k]
	if c < 0 || c >= len(q.Choices) {
		a.setStatus(fmt.Sprintf("choose 1–%d", len(q.Choices)), true)
		return
	}
	answers := append([]int(nil), a.quiz.answers...) // App copies must not share it
	answers[k] = c
	a.quiz.answers = answers
	if a.seat.leads {
		a.setStatus("your pick is not scored — "+a.revealHint(), false)
		return // the trainer reveals with the reveal key (roomquiz.go)
	}
	if a.waitsForTrainer() {
		return // the trainer reveals, and the reveal scores (roomquiz.go)
	}
	a.score(k)
	a.status = ""
	a.reveal(k)
}

// score counts the answer given to question k.
func (a *App) score(k int) {
	a.quiz.answered++
	if a.quiz.answers[k] == a.quiz.questions[k].Answer {
		a.quiz.right++
	}
}

// reveal shows question k's answer: the lab moves to the step that settles it.
func (a *App) reveal(k int) {
	revealed := append([]bool(nil), a.quiz.revealed...) // App copies must not share it
	revealed[k] = true
	a.quiz.revealed = revealed
	a.goTo(a.quiz.questions[k].RevealStep)
}
