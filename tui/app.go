// Package tui is the interactive lab: a Bubble Tea v2 program that draws a
// model.Sim one step at a time. It computes nothing about Kafka itself:
// every assignment, state and what-if comes from model/ and strategies/.
package tui

import (
	"context"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// pane is which part of the screen has focus (tab cycles it).
type pane int

const (
	paneGrid pane = iota
	paneProtocol
	paneNumbers
	paneFlow // producers and brokers: only in scenarios with producers (producer.go)
	paneCount
)

func (p pane) String() string {
	return [...]string{"grid", "protocol", "numbers", "producers"}[p]
}

// mode is what the body of the screen shows.
type mode int

const (
	modeLab     mode = iota // the grid and panes
	modeCompare             // strategies side by side
	modeWhatIf              // preview of the selected member leaving or crashing
	modePicker              // the demo picker (picker.go)
)

// speeds are the autoplay rates; the interval is baseTick divided by them.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8}

const (
	baseTick     = 900 * time.Millisecond
	defaultSpeed = 2 // index of 1×
	minWidth     = 60
	minHeight    = 20
)

// App is the lab's only tea.Model. Panes are plain render functions of its
// state; the simulation is immutable and replaced, never edited, when an
// event is inserted or the strategy or protocol changes.
type App struct {
	keys   keymap.KeyMap
	help   help.Model
	styles Styles
	isDark bool

	width, height int

	sim      simulation
	simulate simulateFunc // for re-simulating under another strategy or protocol
	info     *simInfo
	step     int

	// savedEvents is the timeline's length when opened or last written
	// (W), and quitAsked whether q already warned about the rest
	// (writescenario.go).
	savedEvents int
	quitAsked   bool

	flowScroll int // rows the producer and broker panes are scrolled (scroll.go)

	selected string // member id, so the selection survives steps where members come and go
	// findQuery is the last search (`/`, find.go) and findTopic the topic
	// of the partition it named ("" for a member search).
	findQuery, findTopic string

	playing bool
	playGen int // tags tick messages: a tick from an earlier play session is dropped
	speed   int

	focus     pane
	mode      mode
	status    string // one line of feedback on the last action
	statusBad bool
	// statusMode is the mode the status was given in: a hint of the
	// what-if preview ("d commits the leave") goes when the preview does.
	statusMode mode

	compare *compareTable
	whatIf  *whatIfPreview
	quiz    quizState      // predict, then reveal (quiz.go)
	picker  *demoPicker    // open in modePicker
	files   []scenarioFile // the scenario files the lab was started with (picker_files.go)
	prompt  *prompt        // a question on the status lines (prompt.go); nil when none

	seat seat // in a room served over SSH (follow.go)

	liveMarks *liveMarks // the live lab's marks on the opening step's grid (gridlive.go)

	memo *memo

	// Recomputations run as commands (recompute.go): the newest one, and
	// the slot one of them holds while it simulates.
	job  *job
	slot chan struct{} // held by the job simulating; the App's copies share it
	// replies tags every background request and says which reply is
	// awaited (tracker.go); the spinner turns while one is.
	replies tracker
	// panelCancel gives up the compare or what-if work under way when a
	// newer request or another simulation makes it useless.
	panelCancel context.CancelFunc
	spin        spinner.Model
}

// tickMsg advances autoplay; gen must match the app's playGen.
type tickMsg struct{ gen int }

// New opens the lab on a scenario. It simulates it first, so a scenario the
// model rejects is reported before any screen appears.
func New(sc *scenario.Scenario) (app App, err error) {
	defer func() {
		// A model bug must not take the terminal down: report it before
		// the screen is ever touched.
		if r := recover(); r != nil {
			app, err = App{}, fmt.Errorf("the simulation failed: %v", r)
		}
	}()
	sim, err := simulateModel(context.Background(), sc)
	if err != nil {
		return App{}, err
	}
	return newApp(sim), nil
}

// NewFromSim opens the lab on a finished simulation.
func NewFromSim(sim *model.Sim) App { return newApp(modelSim{sim}) }

func newApp(sim simulation) App {
	a := App{
		memo:     newMemo(),
		spin:     newSpinner(),
		slot:     make(chan struct{}, 1),
		simulate: simulateModel,
		keys:     keymap.DefaultKeyMap(),
		help:     help.New(),
		isDark:   true,
		speed:    defaultSpeed,
		width:    80,
		height:   24,
	}
	a.keys.Import.SetEnabled(false) // kviz live's key: the live lab turns it on (live.go)
	a.keys.Follow.SetEnabled(false) // only in a room with a trainer (follow.go)
	a.keys.Reveal.SetEnabled(false) // only the trainer's, in a room (follow.go)
	a.styles = NewStyles(true).WithNoColor(os.Getenv("NO_COLOR") != "")
	a.help.Styles = help.DefaultStyles(true)
	if countLater(sim) {
		a.installSim(sim, newSimInfoQuick(sim)) // Init counts the rebalances (ledgerlater.go)
	} else {
		a.setSim(sim)
	}
	a.keepSelection()
	a.markSaved()
	a.focus = a.firstPane()
	if sim.Scenario().Open == scenario.OpenCompare {
		a.mode = modeCompare // Init computes it: the scenario is a strategy contrast
		a.replies.send(replyCompare)
	}
	return a
}

// setSim installs a (new) simulation and keeps the cursor in range.
func (a *App) setSim(sim simulation) { a.installSim(sim, newSimInfo(sim)) }

// installSim is setSim with the simulation's info already read (a
// background job reads it). A job still running was for the simulation
// before: it is dropped.
func (a *App) installSim(sim simulation, info *simInfo) {
	if a.job != nil {
		a.job.stop()
		a.setJob(nil)
	}
	a.sim = sim
	a.info = info
	a.step = min(a.step, sim.Len()-1)
	a.compare = nil
	// what is on its way is about the simulation before
	a.replies.drop(replyCompare)
	a.replies.drop(replyWhatIf)
	a.stopPanel()
}

// view is the group after the current step.
func (a *App) view() *model.GroupView { return a.sim.View(a.step) }

// Step is the index of the current step (for tests and the CLI).
func (a App) Step() int { return a.step }

// Scenario is the scenario on screen, with the events inserted so far.
func (a App) Scenario() *scenario.Scenario { return a.sim.Scenario() }

// Selected is the selected member's id.
func (a App) Selected() string { return a.selected }

// Init asks the terminal for its background colour; until it answers (or
// if it never does) the lab uses its dark styles. A scenario that opens in
// compare mode (lab: {open: compare}) compares the rebalance its first
// event sets off.
func (a App) Init() tea.Cmd {
	if a.mode == modeCompare && a.compare == nil {
		return tea.Batch(tea.RequestBackgroundColor, a.compareRun(context.Background(), a.firstEventMs(), a.replies.awaited(replyCompare)))
	}
	return tea.Batch(tea.RequestBackgroundColor, a.countRebalances())
}

// firstEventMs is the time of the scenario's first timeline event (0 with none).
func (a App) firstEventMs() int64 {
	if tl := a.sim.Scenario().Timeline; len(tl) > 0 {
		return tl[0].AtMs
	}
	return 0
}

func (a *App) setTheme(isDark bool, noColor bool) {
	a.isDark = isDark
	a.styles = NewStyles(isDark).WithNoColor(noColor)
	a.help.Styles = help.DefaultStyles(isDark)
}

// noColorProfile is true for outputs that drop colour entirely.
func noColorProfile(p colorprofile.Profile) bool {
	return p == colorprofile.Ascii || p == colorprofile.NoTTY
}

// interval is the autoplay delay at the current speed.
func (a *App) interval() time.Duration {
	return time.Duration(float64(baseTick) / speeds[a.speed])
}

func (a *App) tick() tea.Cmd {
	gen := a.playGen
	return tea.Tick(a.interval(), func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// speedLabel is "1×", "0.5×", ...
func (a *App) speedLabel() string { return fmt.Sprintf("%g×", speeds[a.speed]) }

// MinSize is the smallest terminal the lab draws in: below it the screen
// only asks for a larger one (an export says so as an error instead).
func MinSize() (width, height int) { return minWidth, minHeight }
