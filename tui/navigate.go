package tui

import tea "charm.land/bubbletea/v2"

// goTo moves the cursor, clamped to the timeline. Stepping is instant: the
// whole trace is precomputed.
func (a *App) goTo(i int) {
	i = a.quizStop(i) // quiz mode stops before a reveal
	a.step = max(0, min(i, a.sim.Len()-1))
	a.keepSelection()
	if a.mode == modeWhatIf {
		a.mode = modeLab // a preview is about one moment; moving on closes it
	}
}

// nextShown is the next step in direction dir that is worth a keystroke:
// routine heartbeats that change nothing are skipped (the model flags
// them), so a minute of virtual time is a minute of stepping, not three
// hundred presses. It returns i itself at either end.
func (a *App) nextShown(i, dir int) int {
	if j := a.info.nextShown(i, dir); j >= 0 {
		return j
	}
	if dir > 0 && i < a.sim.Len()-1 {
		return a.sim.Len() - 1 // only routine steps remain: show the last
	}
	return i
}

// jumpRebalance moves to the start of the next round of a rebalance (a
// cooperative dance stops twice), or back to the start of the one before
// the cursor.
func (a *App) jumpRebalance(dir int) {
	if a.counting() {
		a.setStatus("still counting the rebalances: try again in a moment", false)
		return
	}
	stops := a.info.roundStarts()
	if dir > 0 {
		for _, s := range stops {
			if s > a.step {
				a.goTo(s)
				a.setStatus("", false) // an old "no later rebalance" must not outlive a key that worked
				return
			}
		}
		a.setStatus("no later rebalance", false)
		return
	}
	for i := len(stops) - 1; i >= 0; i-- {
		if stops[i] < a.step {
			a.goTo(stops[i])
			a.setStatus("", false)
			return
		}
	}
	a.setStatus("no earlier rebalance", false)
}

// togglePlay starts or pauses autoplay. Each start bumps playGen, so the
// tick of the previous session dies on arrival: toggling fast never runs
// two loops at once.
func (a App) togglePlay() (tea.Model, tea.Cmd) {
	a.playing = !a.playing
	a.playGen++
	if !a.playing {
		a.setStatus("paused", false)
		return a, nil
	}
	if a.nextShown(a.step, +1) == a.step {
		a.step = 0 // playing from the end replays from the start
	}
	a.setStatus("playing at "+a.speedLabel(), false)
	return a, a.tick()
}

// moveSelection moves the member cursor within the current view's members.
func (a *App) moveSelection(delta int) {
	ms := a.view().Members
	if len(ms) == 0 {
		return
	}
	order := rowOrder(a.view()) // as the grid lists them
	cur := 0
	for k, i := range order {
		if ms[i].ID == a.selected {
			cur = k
		}
	}
	a.selected = ms[order[max(0, min(cur+delta, len(ms)-1))]].ID
}

func (a *App) setStatus(s string, bad bool) { a.status, a.statusBad, a.statusMode = s, bad, a.mode }

// shownStatus is the status unless it was a hint of a mode since closed.
func (a *App) shownStatus() string {
	if a.statusMode != modeLab && a.statusMode != a.mode {
		return ""
	}
	return a.status
}

// keepSelection selects the first member when nobody is selected yet (the
// group starts empty) so that d, x, r and w work without a hunt for ↓. A
// selected member that is not in this step stays selected: it comes back.
func (a *App) keepSelection() {
	if a.selected != "" {
		return
	}
	if ms := a.view().Members; len(ms) > 0 {
		a.selected = ms[0].ID
	}
}
