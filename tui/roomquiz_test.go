package tui

import (
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run delivers msg and then what its command brings back (the quiz's
// questions), as the program would.
func run(t *testing.T, a App, msg tea.Msg) App {
	t.Helper()
	m, cmd := a.Update(msg)
	for cmd != nil {
		next := cmd()
		if next == nil {
			break
		}
		if _, ok := next.(tea.BatchMsg); ok {
			break
		}
		m, cmd = m.Update(next)
	}
	return m.(App)
}

// Issue 19 item 13: the trainer reveals with a key of its own and is not
// scored; an attendee's question and choice stay on screen until the
// reveal, and the score moves only then.
func TestTheTrainerRevealsTheRoomsQuestion(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		w, h := size[0], size[1]
		trainer, qs := quizApp(t, "lab", w, h)
		trainer = trainer.Trainer(nil).WithQuiz(true).AtStep(qs[0].Step)
		q0 := qs[0]
		wrong := (q0.Answer + 1) % len(q0.Choices)
		follower, _ := quizApp(t, "lab", w, h)
		follower = run(t, follower.Follower(), trainer.RoomState())
		silent, _ := quizApp(t, "lab", w, h)
		silent = run(t, silent.Follower(), trainer.RoomState())

		q, ok := follower.QuizQuestion()
		require.True(t, ok, "the trainer's question is on the follower's screen")
		assert.Equal(t, q0.Text, q.Text)

		// The attendee answers: the question and the choice stay, unscored.
		follower = run(t, follower, press(answerKey(wrong)))
		assert.Equal(t, q0.Step, follower.Step(), "an answer waits for the trainer to reveal")
		scr := screen(follower)
		assert.Contains(t, scr, q0.Text, "%dx%d: the question stays until the reveal", w, h)
		assert.Contains(t, scr, "your answer "+answerKey(wrong)+") "+q0.Choices[wrong])
		assert.Contains(t, scr, "the trainer reveals")
		right, answered := follower.QuizScore()
		assert.Equal(t, [2]int{0, 0}, [2]int{right, answered}, "the score would tell whether the answer was right")
		assertFits(t, follower, w, h)
		vote, ok := follower.QuizVote()
		require.True(t, ok)
		follower = run(t, follower, press(answerKey(q0.Answer)))
		assert.Equal(t, vote, mustVote(t, follower), "one answer a question")

		other := QuizVote{sim: vote.sim, step: vote.step, choice: q0.Answer}
		stale := QuizVote{sim: vote.sim, step: vote.step + 1, choice: 0} // another question's
		trainer = run(t, trainer, TallyOf(vote, []QuizVote{vote, other, other, stale}, 5))
		counts := make([]int, len(q0.Choices))
		counts[wrong], counts[q0.Answer] = 1, 2
		assert.Contains(t, screen(trainer), "room: 1) ×"+strconv.Itoa(counts[0])+"  2) ×"+strconv.Itoa(counts[1]))
		assert.Contains(t, screen(trainer), "3 of 5 answered")
		assert.Contains(t, screen(trainer), "0 reveals")

		// The trainer's pick is not scored and reveals nothing.
		trainer = run(t, trainer, press(answerKey(q0.Answer)))
		assert.Equal(t, q0.Step, trainer.Step(), "a trainer's pick does not reveal")
		right, answered = trainer.QuizScore()
		assert.Equal(t, [2]int{0, 0}, [2]int{right, answered}, "the trainer's pick is scored")
		assert.Contains(t, screen(trainer), "not scored")
		trainer = run(t, trainer, press("n"))
		assert.Equal(t, q0.Step, trainer.Step(), "the trainer steps past an unrevealed question")

		// The reveal key.
		trainer = run(t, trainer, press("0"))
		assert.Equal(t, q0.RevealStep, trainer.Step(), "0 reveals")
		assert.Contains(t, screen(trainer), "answer "+answerKey(q0.Answer)+") "+q0.Choices[q0.Answer], "%dx%d: the answer", w, h)
		follower = run(t, follower, trainer.RoomState())
		assert.Equal(t, q0.RevealStep, follower.Step())
		assert.Contains(t, screen(follower), "✗ wrong", "the follower sees the verdict on its own answer")
		right, answered = follower.QuizScore()
		assert.Equal(t, [2]int{0, 1}, [2]int{right, answered}, "scored at the reveal")
		silent = run(t, silent, trainer.RoomState())
		assert.Contains(t, screen(silent), "you did not answer")
		right, answered = silent.QuizScore()
		assert.Equal(t, [2]int{0, 0}, [2]int{right, answered})
		assertFits(t, silent, w, h)
	}
}

func mustVote(t *testing.T, a App) QuizVote {
	t.Helper()
	v, ok := a.QuizVote()
	require.True(t, ok)
	return v
}

// An attendee's 0 is not the trainer's reveal, and a lab outside a room
// has no reveal key at all.
func TestOnlyTheTrainerReveals(t *testing.T) {
	trainer, qs := quizApp(t, "lab", 120, 40)
	trainer = trainer.Trainer(nil).WithQuiz(true).AtStep(qs[0].Step)
	follower, _ := quizApp(t, "lab", 120, 40)
	follower = run(t, follower.Follower(), trainer.RoomState())
	follower = run(t, follower, press("0"))
	assert.Equal(t, qs[0].Step, follower.Step())
	_, open := follower.QuizQuestion()
	assert.True(t, open, "an attendee's 0 revealed the question")
	assert.False(t, follower.keys.Reveal.Enabled())
	assert.True(t, trainer.keys.Reveal.Enabled())
	solo, _ := quizApp(t, "lab", 120, 40)
	assert.False(t, solo.keys.Reveal.Enabled())
	solo = run(t, pressZ(t, solo), press("G"))
	solo = run(t, solo, press("0"))
	_, open = solo.QuizQuestion()
	assert.True(t, open)
}

// Issue 19 item 13: a trainer who drops out and comes back finds the
// room's question on screen at once, unrevealed, and the reveal still
// reaches the room; a trainer who comes back after a reveal sees the
// verdict.
func TestTheRoomsQuestionSurvivesATrainerReconnect(t *testing.T) {
	trainer, qs := quizApp(t, "lab", 120, 40)
	trainer = trainer.Trainer(nil).WithQuiz(true).AtStep(qs[0].Step)
	last := trainer.RoomState()

	back, _ := quizApp(t, "lab", 120, 40)
	back = back.Trainer(&last)
	assert.Equal(t, qs[0].Step, back.Step())
	q, ok := back.QuizQuestion()
	require.True(t, ok, "the question is back without a key")
	assert.Equal(t, qs[0].Text, q.Text)
	assert.Contains(t, screen(back), "0 reveals")
	back = run(t, back, press("0"))
	assert.Equal(t, qs[0].RevealStep, back.Step())

	revealed := back.RoomState()
	again, _ := quizApp(t, "lab", 120, 40)
	again = again.Trainer(&revealed)
	assert.Contains(t, screen(again), "revealed", "the verdict after a reconnect")
	_, ok = again.QuizQuestion()
	assert.False(t, ok)
}

// The trainer's full help lists the reveal key, and still fits.
func TestTheTrainersHelpListsTheReveal(t *testing.T) {
	for _, size := range presenterSizes {
		trainer, _ := quizApp(t, "lab", size[0], size[1])
		trainer = run(t, trainer.Trainer(nil), press("?"))
		assert.Contains(t, screen(trainer), "reveal (trainer)")
		assertFits(t, trainer, size[0], size[1])
		solo, _ := quizApp(t, "lab", size[0], size[1])
		assert.NotContains(t, screen(run(t, solo, press("?"))), "reveal (trainer)", "only the trainer reveals")
	}
}
