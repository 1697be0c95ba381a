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

func TestTheTrainersQuestionReachesTheRoomAndTheVotesComeBack(t *testing.T) {
	trainer, qs := quizApp(t, "lab", 120, 40)
	trainer = trainer.Trainer(nil).WithQuiz(true).AtStep(qs[0].Step)
	follower, _ := quizApp(t, "lab", 120, 40)
	follower = run(t, follower.Follower(), trainer.RoomState())

	q, ok := follower.QuizQuestion()
	require.True(t, ok, "the trainer's question is on the follower's screen")
	assert.Equal(t, qs[0].Text, q.Text)

	follower = run(t, follower, press("1"))
	assert.Equal(t, qs[0].Step, follower.Step(), "an answer waits for the trainer to reveal")
	assert.Contains(t, screen(follower), "answer sent")
	vote, ok := follower.QuizVote()
	require.True(t, ok)

	other := QuizVote{sim: vote.sim, step: vote.step, choice: 1}
	stale := QuizVote{sim: vote.sim, step: vote.step + 1, choice: 0} // another question's
	trainer = run(t, trainer, TallyOf(vote, []QuizVote{vote, other, other, stale}, 5))
	assert.Contains(t, screen(trainer), "room: 1) ×1  2) ×2")
	assert.Contains(t, screen(trainer), "3 of 5 answered")

	trainer = run(t, trainer, press(strconv.Itoa(qs[0].Answer+1)))
	assert.Equal(t, qs[0].RevealStep, trainer.Step(), "the trainer's answer reveals")
	follower = run(t, follower, trainer.RoomState())
	assert.Equal(t, qs[0].RevealStep, follower.Step())
	assert.Contains(t, screen(follower), "revealed", "the follower sees the verdict on its own answer")
}
