package tui

import (
	"time"
)

// The lab seen from outside a terminal: kviz export and the v key draw the
// screen through View, so a frame for slides is exactly what the lab shows.

// Sized is the lab on a width × height screen, as after a resize.
func (a App) Sized(width, height int) App {
	a.width, a.height = width, height
	a.help.SetWidth(width)
	return a
}

// AtStep is the lab moved to step i (clamped to the timeline), as if the
// user had stepped there.
func (a App) AtStep(i int) App {
	a.goTo(i)
	return a
}

// AtMs is the lab at the last step at or before virtual time ms.
func (a App) AtMs(ms int64) App { return a.AtStep(stepAt(a.sim, ms)) }

// Steps is the number of steps on the timeline.
func (a App) Steps() int { return a.sim.Len() }

// Frame is the screen's content: lines with escape codes, as View draws it.
func (a App) Frame() string { return a.View().Content }

// PlaySteps are the steps autoplay shows from the current one to the end
// (the current one first), and the time between two of them at the lab's
// speed: a recording of pressing p.
func (a App) PlaySteps() (steps []int, every time.Duration) {
	steps = []int{a.step}
	for i := a.step; ; {
		next := a.nextShown(i, +1)
		if next == i {
			break
		}
		steps = append(steps, next)
		i = next
	}
	return steps, a.interval()
}
