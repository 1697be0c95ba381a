package tui

import (
	"strings"

	"github.com/kvizlab/kviz/model"
)

// timelineLine is a one-line map of the whole run: rebalances as thick
// spans, scenario events as ticks, the cursor as a dot. It shows a room
// where in the story the screen is, and how long the group was unsettled.
func (a App) timelineLine(w int) string {
	st := &a.styles
	b := &st.brushes
	end := a.sim.View(a.sim.Len() - 1).TimeMs
	left, right := " 0 s ", " "+model.FormatMs(end)+" "
	n := w - textWidth(left) - textWidth(right)
	if n < 10 || end <= 0 {
		return ""
	}
	col := func(ms int64) int { return int(min(max(ms, 0)*int64(n-1)/end, int64(n-1))) }
	cells := make([]byte, n) // 0 = quiet, 1 = rebalancing, 2 = event
	hides, quiz := a.quizHides()
	for _, r := range a.info.rebalances {
		endMs := r.EndMs
		if quiz { // an open question: no span past the step (model.QuizHides)
			shown, ended := hides.Seen(r)
			if !shown {
				continue
			}
			if !ended {
				endMs = a.view().TimeMs
			}
		}
		for c := col(r.StartMs); c <= col(endMs); c++ {
			cells[c] = 1
		}
	}
	for _, ev := range a.sim.Scenario().Timeline {
		cells[col(ev.AtMs)] = 2
	}
	cursor := col(a.view().TimeMs)
	p := painter{sb: &strings.Builder{}}
	for c, k := range cells {
		switch {
		case c == cursor:
			p.add(b.selected, "●")
		case k == 2:
			p.add(b.bad, "┃")
		case k == 1:
			p.add(b.warn, "━")
		default:
			p.add(b.faint, "─")
		}
	}
	p.flush()
	return b.faint.paint(left) + p.sb.String() + b.faint.paint(right)
}
