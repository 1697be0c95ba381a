package tui

import (
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// quizApp is the lab on a shipped demo, quiz mode off, and the model's
// questions for it (the test reads them from the model, not the screen).
func quizApp(t *testing.T, name string, w, h int) (App, []model.Question) {
	t.Helper()
	data, ok := demo.Get(name)
	require.True(t, ok)
	sc, err := scenario.Parse(name+".yaml", data)
	require.NoError(t, err)
	sim, err := model.Simulate(sc)
	require.NoError(t, err)
	qs := sim.Quiz()
	require.GreaterOrEqual(t, len(qs), 2, "the demo needs two questions for this test")
	a, _ := drive(t, NewFromSim(sim), tea.WindowSizeMsg{Width: w, Height: h})
	return a, qs
}

// pressZ presses z and delivers the questions its command writes, as the
// program would a moment later.
func pressZ(t *testing.T, a App) App {
	t.Helper()
	m, cmd := a.Update(press("z"))
	return deliver(m, cmd).(App)
}

// answerKey is the key of choice i (0-based).
func answerKey(i int) string { return strconv.Itoa(i + 1) }

func TestQuizStopsAsksRevealsAndScores(t *testing.T) {
	a, qs := quizApp(t, "lab", 80, 24)
	m, cmd := a.Update(press("z"))
	require.NotNil(t, cmd, "z writes the questions in a command")
	a = m.(App)
	assert.Equal(t, quizPreparing, a.status)
	a, _ = drive(t, a, keys("G")...)
	assert.Equal(t, 0, a.Step(), "no stepping until the questions are in")
	a, _ = drive(t, a, cmd())
	assert.Contains(t, a.status, "quiz on: ")

	// Jumping to the end stops at the first question.
	a, _ = drive(t, a, keys("G")...)
	q, ok := a.QuizQuestion()
	require.True(t, ok, "no question on screen at step %d", a.Step())
	assert.Equal(t, qs[0], q)
	assert.Equal(t, qs[0].Step, a.Step())
	assert.Contains(t, screen(a), q.Text)
	assert.Contains(t, screen(a), "1) "+q.Choices[0])
	assertFits(t, a, 80, 24)

	// It does not step past it until answered; help and the other keys work.
	a, _ = drive(t, a, keys("n", "right", "space", "G", "]")...)
	assert.Equal(t, qs[0].Step, a.Step(), "stepped past an unanswered question")
	a, _ = drive(t, a, keys("?")...)
	assert.Contains(t, screen(a), "answer the quiz", "the help lists the quiz keys")
	a, _ = drive(t, a, keys("?")...)
	_, cmd = drive(t, a, keys("q")...)
	require.NotNil(t, cmd)
	assert.IsType(t, tea.QuitMsg{}, cmd(), "q still quits")

	// The right answer reveals the step and scores.
	a, _ = drive(t, a, keys(answerKey(q.Answer))...)
	assert.Equal(t, q.RevealStep, a.Step())
	right, answered := a.QuizScore()
	assert.Equal(t, [2]int{1, 1}, [2]int{right, answered})
	assert.Contains(t, screen(a), "✓ right")
	assert.Contains(t, screen(a), "score 1/1")
	_, pending := a.QuizQuestion()
	assert.False(t, pending)

	// On to the next question; a wrong answer is marked and scored.
	a, _ = drive(t, a, keys("G")...)
	q2, ok := a.QuizQuestion()
	require.True(t, ok)
	assert.Equal(t, qs[1], q2)
	wrong := (q2.Answer + 1) % len(q2.Choices)
	a, _ = drive(t, a, keys(answerKey(wrong))...)
	assert.Equal(t, q2.RevealStep, a.Step())
	right, answered = a.QuizScore()
	assert.Equal(t, [2]int{1, 2}, [2]int{right, answered})
	assert.Contains(t, screen(a), "✗ wrong")
	assert.Contains(t, screen(a), "you said "+q2.Choices[wrong])
	assertFits(t, a, 80, 24)

	// Stepping back to an answered question does not ask it again.
	a, _ = drive(t, a, keys("g")...)
	a, _ = drive(t, a, keys("G")...)
	assert.Equal(t, qs[2].Step, a.Step(), "the third question, not the first two again")
}

func TestQuizKeyOutOfRangeAndWithoutQuestion(t *testing.T) {
	a, qs := quizApp(t, "lab", 120, 40)
	a, _ = drive(t, a, keys("3")...)
	assert.Contains(t, a.status, "press z")
	a = pressZ(t, a)
	a, _ = drive(t, a, keys("G")...)
	q, ok := a.QuizQuestion()
	require.True(t, ok)
	assertFits(t, a, 120, 40)
	if len(q.Choices) < 4 {
		a, _ = drive(t, a, keys("4")...)
		assert.Equal(t, qs[0].Step, a.Step(), "a choice that does not exist answers nothing")
		assert.True(t, a.statusBad)
	}
	// z turns it off: stepping runs free again.
	a, _ = drive(t, a, keys("z")...)
	assert.Contains(t, a.status, "quiz off · score 0/0")
	a, _ = drive(t, a, keys("G")...)
	assert.Equal(t, a.sim.Len()-1, a.Step())
	assert.NotContains(t, screen(a), "Quiz ·")
}

// Autoplay pauses at a question.
func TestQuizStopsAutoplay(t *testing.T) {
	a, qs := quizApp(t, "lab", 80, 24)
	a = a.WithQuiz(true)
	a, _ = drive(t, a, keys("p")...)
	require.True(t, a.Playing())
	for i := 0; i < a.sim.Len() && a.Playing(); i++ {
		a, _ = drive(t, a, tickMsg{gen: a.playGen})
	}
	assert.False(t, a.Playing())
	assert.Equal(t, qs[0].Step, a.Step())
	_, ok := a.QuizQuestion()
	assert.True(t, ok)
}

// Another session (kviz serve's followers) answers with a message.
func TestQuizAnswerMsg(t *testing.T) {
	a, qs := quizApp(t, "lab", 80, 24)
	m, cmd := a.Update(QuizModeMsg{On: true})
	require.NotNil(t, cmd)
	a, _ = drive(t, m.(App), cmd())
	a, _ = drive(t, a, keys("G")...)
	require.Equal(t, qs[0].Step, a.Step())
	a, _ = drive(t, a, QuizAnswerMsg{Choice: qs[0].Answer})
	assert.Equal(t, qs[0].RevealStep, a.Step())
	right, answered := a.QuizScore()
	assert.Equal(t, [2]int{1, 1}, [2]int{right, answered})
}

// A scripted model that asks nothing: quiz mode says so and changes nothing.
func TestQuizOnAModelWithoutQuestions(t *testing.T) {
	a := pressZ(t, fakeApp(t, 80, 24))
	assert.Contains(t, a.status, "nothing to predict")
	a, _ = drive(t, a, keys("G")...)
	assert.Equal(t, a.sim.Len()-1, a.Step())
}

// An inserted event makes a new simulation: its questions are written
// again, the score stays.
func TestQuizReloadsAfterAnEvent(t *testing.T) {
	a, qs := quizApp(t, "lab", 80, 24)
	a = pressZ(t, a)
	a, _ = drive(t, a, keys("G", answerKey(qs[0].Answer))...)
	before := a.sim
	a, _ = drive(t, a, keys("a", "enter")...) // a asks the id, then the topics
	m, cmd := a.Update(press("enter"))
	require.NotNil(t, cmd, "the member's join is simulated in a command")
	m, cmd = m.Update(runJob(t, cmd))
	a = m.(App)
	require.True(t, before != a.sim, "a adds a member: a new simulation")
	require.NotNil(t, cmd, "the new simulation's questions are written in a command")
	a = deliver(a, cmd).(App)
	assert.True(t, a.quizReady())
	right, answered := a.QuizScore()
	assert.Equal(t, [2]int{1, 1}, [2]int{right, answered})
}

// Every shipped demo's questions and verdicts fit a presenter's screen.
func TestQuizFitsEveryDemo(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, name := range demo.Names() {
			t.Run(name+"/"+strconv.Itoa(size[0]), func(t *testing.T) {
				data, _ := demo.Get(name)
				sc, err := scenario.Parse(name+".yaml", data)
				require.NoError(t, err)
				sim, err := model.Simulate(sc)
				require.NoError(t, err)
				a, _ := drive(t, NewFromSim(sim).WithQuiz(true), tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, q := range sim.Quiz() {
					a, _ = drive(t, a, keys("G")...)
					require.Equal(t, q.Step, a.Step())
					assert.Contains(t, screen(a), q.Choices[len(q.Choices)-1][:min(8, len(q.Choices[len(q.Choices)-1]))])
					assertFits(t, a, size[0], size[1])
					a, _ = drive(t, a, keys(answerKey(q.Answer))...)
					assert.Contains(t, screen(a), "✓ right")
					assertFits(t, a, size[0], size[1])
				}
			})
		}
	}
}
