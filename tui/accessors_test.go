package tui

import (
	"charm.land/lipgloss/v2"
	"github.com/kvizlab/kviz/model"
)

// Accessors only the tests read.

// QuizQuestion is the question waiting for an answer on screen, if any.
func (a App) QuizQuestion() (model.Question, bool) {
	if k := a.quizPending(); k >= 0 {
		return a.quiz.questions[k], true
	}
	return model.Question{}, false
}

// QuizScore is how many answers were right, of how many given.
func (a App) QuizScore() (right, answered int) { return a.quiz.right, a.quiz.answered }

// Playing reports whether autoplay runs.
func (a App) Playing() bool { return a.playing }

// Lab is the lab under the live line.
func (l Live) Lab() App { return l.app }

// MemberCell is a member's colour as a filled cell (a partition it holds).
func (s Styles) MemberCell(i int) lipgloss.Style { return s.memberCell[i%len(s.memberCell)] }
