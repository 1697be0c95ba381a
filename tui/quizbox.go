package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model"
)

// quizTall is the height from which the quiz gets a framed box with the
// step's narration; below it the quiz takes the narration's own lines, so
// the grid keeps its rows (the members are what the room must predict).
const quizTall = 30

// quizLines is drawn in place of the narration: the question waiting on
// screen, or the verdict on the one just revealed; nil when there is
// neither.
func (a App) quizLines() []string {
	tall := a.height >= quizTall
	inner := a.width - 4
	if !tall {
		inner = a.width - 3 // after the narration's " ▌"
	}
	var lines []string
	var title string
	if k := a.quizOpen(); k >= 0 {
		q := a.quiz.questions[k]
		title = fmt.Sprintf("Quiz · question %d of %d · %s", k+1, len(a.quiz.questions), a.quizAsk(k))
		lines = append(a.questionLines(q, inner, tall), a.ownAnswerLine(k, inner)...)
		lines = append(lines, a.roomVotesLines(q, inner)...)
	} else if k := a.quizRevealed(); k >= 0 {
		title = fmt.Sprintf("Quiz · question %d of %d revealed", k+1, len(a.quiz.questions))
		lines = append(a.verdictLines(k, inner, tall), a.roomVotesLines(a.quiz.questions[k], inner)...)
	} else {
		return nil
	}
	st := &a.styles
	score := fmt.Sprintf("score %d/%d", a.quiz.right, a.quiz.answered)
	if !tall {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = st.Accent.Render(" ▌") + l
		}
		return out // the score is in the hint or the verdict line
	}
	if !a.seat.leads { // the trainer is not scored
		title += " · " + score
	}
	return strings.Split(box(st, title, lines, a.width, len(lines)+2, true), "\n")
}

// questionLines are the step's narration (tall screens), the question and
// its choices; on a short screen the question and the choices share a
// line when they fit.
func (a App) questionLines(q model.Question, w int, tall bool) []string {
	st := &a.styles
	var lines []string
	if tall {
		for _, l := range clip(wrap(a.sim.StepLine(a.step).Text, w), 2, w) {
			lines = append(lines, st.Faint.Render(l))
		}
	}
	choices := a.choiceLines(q.Choices, w)
	ask := st.Bold.Render(q.Text)
	if !tall && len(choices) == 1 && textWidth(ask)+5+textWidth(choices[0]) <= w {
		return []string{ask + "     " + choices[0], a.quizHint(a.quizOpen(), w)}
	}
	for _, l := range wrap(q.Text, w) {
		lines = append(lines, st.Bold.Render(l))
	}
	if !tall && len(choices) > 1 {
		choices = a.pairedChoices(q.Choices, w) // short screens: two to a line
	}
	return append(lines, choices...)
}

// quizAsk is what the open question k waits for: an answer, or (a room's)
// the trainer's reveal.
func (a App) quizAsk(k int) string {
	n := len(a.quiz.questions[k].Choices)
	switch {
	case a.seat.leads:
		return fmt.Sprintf("the room answers 1–%d · %s reveals", n, a.keys.Reveal.Help().Key)
	case a.quiz.answers[k] >= 0:
		return "answered · the trainer reveals"
	}
	return fmt.Sprintf("press 1–%d", n)
}

// quizHint is the short screen's second line: what to press, the score.
func (a App) quizHint(k, w int) string {
	return fit(a.styles.Faint.Render(fmt.Sprintf("quiz · %s · score %d/%d", a.quizAsk(k), a.quiz.right, a.quiz.answered)), w)
}

// pairedChoices lays up to four choices out two to a line.
func (a App) pairedChoices(choices []string, w int) []string {
	half := w / 2
	var out []string
	for i := 0; i < len(choices); i += 2 {
		line := pad(fit(a.choice(i, choices[i]), half-1), half)
		if i+1 < len(choices) {
			line += fit(a.choice(i+1, choices[i+1]), w-half)
		}
		out = append(out, line)
	}
	return out
}

func (a App) choice(i int, text string) string {
	return a.styles.Accent.Render(strconv.Itoa(i+1)+")") + " " + a.styles.Value.Render(text)
}

// verdictLines are right or wrong and the model's explanation.
func (a App) verdictLines(k, w int, tall bool) []string {
	st := &a.styles
	q := a.quiz.questions[k]
	got := a.quiz.answers[k]
	var verdict string
	switch {
	case a.seat.leads || got < 0: // the trainer's pick is not scored; an attendee may not have answered
		verdict = st.Label.Render("answer ") + a.choice(q.Answer, q.Choices[q.Answer])
		if got >= 0 {
			verdict += st.Faint.Render(" · your pick " + q.Choices[got] + ", not scored")
		} else if !a.seat.leads {
			verdict += st.Faint.Render(" · you did not answer")
		}
	case got == q.Answer:
		verdict = st.Good.Render("✓ right")
	default:
		verdict = st.Bad.Render("✗ wrong") + st.Faint.Render(" — you said "+q.Choices[got])
	}
	room := 2 // lines of explanation on a short screen: the grid keeps the rest
	if tall {
		room = 6
	} else {
		verdict += st.Faint.Render(fmt.Sprintf(" · score %d/%d", a.quiz.right, a.quiz.answered))
	}
	lines := []string{verdict + "  " + st.Bold.Render(fit(q.Text, max(w-textWidth(verdict)-2, 10)))}
	for _, l := range clip(wrap(q.Explain, w), room, w) {
		lines = append(lines, st.Narration.Render(l))
	}
	return lines
}

// choiceLines lays the choices out on one line when they fit, else one per
// line.
func (a App) choiceLines(choices []string, w int) []string {
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = a.choice(i, c)
	}
	if one := strings.Join(parts, "     "); textWidth(one) <= w {
		return []string{one}
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = fit(p, w)
	}
	return out
}

// clip keeps the first n lines of at most w cells, marking a cut with "…".
func clip(lines []string, n, w int) []string {
	if len(lines) <= n {
		return lines
	}
	out := append([]string(nil), lines[:n]...)
	out[n-1] = fit(out[n-1], w-2) + " …"
	return out
}

// quizHeader adds the score to the header's second line while quiz mode
// is on, when it fits.
func (a App) quizHeader(header []string) []string {
	if !a.quiz.on || len(header) < 2 || a.seat.leads { // the trainer is not scored
		return header
	}
	tag := a.styles.Faint.Render("  │  ") + a.styles.Label.Render("quiz ") +
		a.styles.Value.Render(fmt.Sprintf("%d/%d", a.quiz.right, a.quiz.answered))
	if textWidth(header[1])+textWidth(tag) <= a.width {
		header = append([]string(nil), header...)
		header[1] += tag
	}
	return header
}
