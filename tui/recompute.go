package tui

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model/scenario"
)

// Keys that need a new simulation (an inserted event, another strategy or
// protocol) answer at once: the simulation runs as a command while the
// screen stays live on the one before, navigation keys included, and the
// header says "simulating…". Every request is tagged with the lab's
// request count; a newer key supersedes the one still running, whose
// result is then dropped. It builds on what the older one was about to
// show, so s pressed twice goes two strategies on, and x after s crashes
// the member under the new strategy (if x fails, the switch still shows).

// job is one recomputation under way.
type job struct {
	seq   int
	label string  // what the status line says it is doing
	prev  *job    // the job whose result it builds on, nil: the simulation on screen
	ask   *prompt // the prompt waiting for its answer (a, t), nil for none
	// strategy and protocol of the result: known up front, so s and e can
	// be pressed again before it is done.
	strategy, protocol string
	// scenario is the scenario it simulates, when known up front (s, e):
	// a newer s or e needs nothing else from it.
	scenario *scenario.Scenario

	// install sets the cursor and the status once the result is on screen;
	// nowMs is the virtual time on screen just before.
	install func(a *App, next simulation, nowMs int64)
	fail    func(a *App, err error)

	stopped atomic.Bool     // superseded and no newer job waits for it
	ctx     context.Context // done once stopped: the model gives up mid-run
	cancel  context.CancelFunc
	done    chan struct{} // closed when result and err are set
	result  simulation
	info    *simInfo // built in the background too: it reads the whole run
	err     error
}

// jobDoneMsg brings a finished job back, with its request's tag.
type jobDoneMsg struct {
	seq int
	job *job
}

// errSuperseded ends a job that a newer key made useless before it ran.
var errSuperseded = errors.New("superseded")

// stop marks j, and what it waits for, as unneeded: a job not yet running
// its simulation skips it.
func (j *job) stop() {
	for ; j != nil; j = j.prev {
		j.halt()
	}
}

// halt stops j alone: it skips its simulation, or gives it up mid-run.
func (j *job) halt() {
	j.stopped.Store(true)
	if j.cancel != nil {
		j.cancel()
	}
}

// wait is the job's outcome, once it has one.
func (j *job) wait() (simulation, error) {
	<-j.done
	return j.result, j.err
}

// newJob is a job that builds on what the screen will show once the job
// still running (if any) is done.
func (a *App) newJob(label string) *job {
	j := &job{seq: a.replies.next(), label: label, prev: a.job, done: make(chan struct{})}
	j.ctx, j.cancel = context.WithCancel(context.Background())
	sc := a.sim.Scenario()
	j.strategy, j.protocol = sc.Strategy, sc.Protocol
	if a.job != nil {
		j.strategy, j.protocol = a.job.strategy, a.job.protocol
	}
	return j
}

// baseScenario is the scenario the next job starts from when it is known
// now: the one on screen, or the one the running job simulates; nil when
// that job inserts an event (its scenario comes with its result).
func (a *App) baseScenario() *scenario.Scenario {
	if a.job == nil {
		return a.sim.Scenario()
	}
	return a.job.scenario
}

// start runs j in the background: op gets the simulation j builds on (nil
// when j.scenario is set: it needs none). The status line says what runs.
func (a *App) start(j *job, op func(ctx context.Context, base simulation) (simulation, error)) tea.Cmd {
	if j.scenario != nil && j.prev != nil {
		j.prev.stop() // j simulates from scratch: nothing it needs is still running
		j.prev = nil
	}
	if a.slot == nil {
		a.slot = make(chan struct{}, 1) // an App not made by newApp
	}
	base, slot := a.sim, a.slot
	a.setJob(j)
	a.setStatus(j.label+"…", false)
	cmd := func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				j.result, j.err = nil, fmt.Errorf("the simulation failed: %v", r)
			}
			close(j.done)
			msg = jobDoneMsg{seq: j.seq, job: j}
		}()
		if j.prev != nil {
			prev, err := j.prev.wait()
			if err != nil {
				j.err = err
				return
			}
			base = prev
		}
		// One simulation at a time: a burst of keys would otherwise run
		// them all at once, and the last, the one that counts, would share
		// the cores with the ones it superseded. (A job holding the slot
		// waits for nothing, so waiting for prev first cannot deadlock.)
		slot <- struct{}{}
		defer func() { <-slot }()
		if j.stopped.Load() {
			j.err = errSuperseded
			return
		}
		ctx := j.ctx
		if ctx == nil {
			ctx = context.Background() // a job not made by newJob
		}
		next, err := op(ctx, base)
		if err != nil {
			j.err = err
			return
		}
		j.result, j.info = next, newSimInfo(next)
		j.info.prepare(next)
		return
	}
	return tea.Batch(cmd, a.spinStart())
}

// setJob makes j the recomputation on its way (nil: none), the one whose
// reply is awaited.
func (a *App) setJob(j *job) {
	a.job = j
	if j == nil {
		a.replies.drop(replyJob)
		return
	}
	a.replies.await(replyJob, j.seq)
}

// onJobDone installs a job's result, if it is the newest job.
func (a *App) onJobDone(msg jobDoneMsg) tea.Cmd {
	j := a.job
	if j == nil || j != msg.job || !a.replies.take(replyJob, msg.seq) { // the very job (an App copied in a test has its own), and its tag
		return nil // superseded, or the lab moved to another simulation meanwhile
	}
	a.job = nil
	if j.err == nil {
		a.show(j)
		return a.afterNewSim()
	}
	// j built on keys before it: the newest of those that worked is what
	// the screen shows (x pressed twice crashes the member once, and says
	// why the second cannot).
	for p := j.prev; p != nil; p = p.prev {
		if p.err == nil && p.result != nil {
			a.show(p)
			j.fail(a, j.err)
			return a.afterNewSim()
		}
	}
	j.fail(a, j.err)
	return a.resumeWaiting()
}

// cancelJob drops the newest job; what it built on is still wanted: if
// that is done already (its result was dropped for the newest one), it
// goes on screen now, else it is the job waited for again.
func (a *App) cancelJob() tea.Cmd {
	j := a.job
	a.setJob(nil)
	p := j.prev
	j.halt() // not stop(): p is still wanted
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
		if p.err != nil {
			p.fail(a, p.err)
			return nil
		}
		a.show(p)
		return a.afterNewSim()
	default:
		a.setJob(p)
		return nil
	}
}

// show puts a finished job's result on screen.
func (a *App) show(j *job) {
	now := a.view().TimeMs
	a.installSim(j.result, j.info)
	j.install(a, j.result, now)
}

// afterNewSim restarts what shows the simulation on screen from another
// angle: compare mode compares the new one, a what-if preview forecasts on it.
func (a *App) afterNewSim() tea.Cmd {
	switch a.mode {
	case modeCompare:
		return a.compareCmd(a.compareMoment())
	case modeWhatIf:
		return a.whatIfCmd()
	}
	return nil
}

// resumeWaiting starts what compare mode or a what-if preview opened
// during a recompute waits for, when that recompute failed: the panel
// shows the simulation that stays.
func (a *App) resumeWaiting() tea.Cmd {
	switch {
	case a.mode == modeCompare && a.compare == nil && !a.replies.awaits(replyCompare):
		return a.compareCmd(a.compareMoment())
	case a.mode == modeWhatIf && a.whatIf != nil && a.whatIf.Outcomes == nil && !a.replies.awaits(replyWhatIf):
		return a.whatIfCmd()
	}
	return nil
}

// busy reports whether a command is computing something the screen waits for.
func (a App) busy() bool {
	switch {
	case a.job != nil:
		return true
	case a.mode == modeCompare && a.compare == nil && a.replies.awaits(replyCompare):
		return true
	case a.mode == modeWhatIf && a.whatIf != nil && a.whatIf.Outcomes == nil && a.replies.awaits(replyWhatIf):
		return true
	}
	return a.quiz.on && a.quiz.loading != nil && a.quiz.loading == a.sim && a.replies.awaits(replyQuiz)
}

// newSpinner is the indicator's spinner: ticking only while the lab is busy.
func newSpinner() spinner.Model { return spinner.New(spinner.WithSpinner(spinner.MiniDot)) }

// spinStart sets the indicator turning. Starting it while it turns is
// harmless: the spinner drops ticks of an older tag.
func (a *App) spinStart() tea.Cmd { return a.spin.Tick }

// onSpin turns the indicator one frame, and lets it stop once idle.
func (a *App) onSpin(msg spinner.TickMsg) tea.Cmd {
	if !a.busy() {
		return nil
	}
	var cmd tea.Cmd
	a.spin, cmd = a.spin.Update(msg)
	return cmd
}

// panelContext is the context of a new compare or what-if request: the
// one before it is given up.
func (a *App) panelContext() context.Context {
	a.stopPanel()
	ctx, cancel := context.WithCancel(context.Background())
	a.panelCancel = cancel
	return ctx
}

// stopPanel gives up the compare or what-if work under way, if any.
func (a *App) stopPanel() {
	if a.panelCancel != nil {
		a.panelCancel()
		a.panelCancel = nil
	}
}
