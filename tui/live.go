package tui

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// LiveSnapshot is one read of a real group as the live lab shows it: the
// group imported as a scenario, what moved since the previous read, and the
// lag. The lab only reads it; whoever reads the cluster (kviz live, over
// package live) makes it, so the lab needs no Kafka client.
type LiveSnapshot struct {
	Scenario *scenario.Scenario // the group as read, a given start
	State    string             // the group's state as the cluster reported it
	// Settled: the group is at rest (Stable or Empty). Showable: the read
	// can stand for the group on screen (a settled group, or a KIP-848
	// group at any moment); a classic group mid-rebalance shows members
	// without assignments, so the lab keeps the last showable read.
	Settled, Showable bool
	// Changes are the owners (scenario ids) that changed since the read
	// handed to the reader as prev.
	Changes []kafka.Move
	// Lags is each partition's lag, in the group's offset order.
	Lags []PartitionLag
	// Coordinator is the group coordinator the cluster named (FindCoordinator,
	// the describe's answering broker); nil when the source does not say.
	// The brokers pane shows it instead of the one the model places.
	Coordinator *LiveCoordinator
	// Origin is the reader's own record of this read, handed back to it
	// as prev; the lab never looks inside.
	Origin any
}

// LiveCoordinator is the coordinator a read named: its broker id, and that
// broker as the imported scenario numbers brokers (0.. in id order), -1
// when it is not among them (a pasted describe names no brokers).
type LiveCoordinator struct {
	ID    int32
	Index int
}

// PartitionLag is one partition's lag: its log end minus the group's
// committed offset; nil without a commit.
type PartitionLag struct {
	kafka.TP
	Lag *int64
}

// lagOf is the known lags by partition, for the grid's lag row.
func (s *LiveSnapshot) lagOf() func(kafka.TP) (int64, bool) {
	known := make(map[kafka.TP]int64, len(s.Lags))
	for _, o := range s.Lags {
		if o.Lag != nil {
			known[o.TP] = *o.Lag
		}
	}
	return func(tp kafka.TP) (int64, bool) { n, ok := known[tp]; return n, ok }
}

// LiveRead reads the live group again; prev is the last good read shown
// (never nil), so the snapshot can say what changed.
type LiveRead func(ctx context.Context, prev *LiveSnapshot) (*LiveSnapshot, error)

// Live is the lab on a real group: the group imported as a scenario from
// its state, read again every interval, with one line on top saying where
// it comes from, what changed since the last read and the lag. A failed
// read keeps the last picture and says "disconnected, retrying". i imports
// the group at "now": the simulator stops following the cluster, so d, x,
// a, w and c answer on the real group.
type Live struct {
	app      App
	read     LiveRead // nil: a fixed group (from a saved describe output)
	every    time.Duration
	timeout  time.Duration
	source   string
	snap     *LiveSnapshot // the last good read
	stable   *LiveSnapshot // the last read of a settled group: what the lab shows
	moved    []kafka.Move  // the last read that changed owners, and when
	movedAt  time.Time
	shown    *scenario.Scenario
	err      error // the last read failed
	imported bool  // i: the simulator no longer follows the cluster
	readAt   time.Time
	reads    int
	width    int
	height   int
}

// liveReadMsg is a read's result.
type liveReadMsg struct {
	snap *LiveSnapshot
	err  error
	at   time.Time
}

// liveTickMsg asks for the next read.
type liveTickMsg struct{}

// NewLive opens the lab on a first read of the group. read may be nil for
// a group that does not change (read from a saved output).
func NewLive(first *LiveSnapshot, source string, read LiveRead, every, timeout time.Duration) (Live, error) {
	app, err := New(first.Scenario)
	if err != nil {
		return Live{}, err
	}
	app.keys.Import.SetEnabled(true)
	l := Live{app: app, read: read, every: every, timeout: timeout, source: source, snap: first,
		stable: first, shown: first.Scenario, readAt: time.Now(), reads: 1, width: app.width, height: app.height}
	l.mark()
	return l, nil
}

// Init starts the app and the refresh clock.
func (l Live) Init() tea.Cmd { return tea.Batch(l.app.Init(), l.next()) }

func (l Live) next() tea.Cmd {
	if l.read == nil {
		return nil
	}
	return tea.Tick(l.every, func(time.Time) tea.Msg { return liveTickMsg{} })
}

func (l Live) readCmd() tea.Cmd {
	read, prev, timeout := l.read, l.stable, l.timeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		snap, err := read(ctx, prev)
		return liveReadMsg{snap: snap, err: err, at: time.Now()}
	}
}

// Update handles the reads and i; everything else is the lab's.
func (l Live) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.width, l.height = msg.Width, msg.Height
		return l.forward(tea.WindowSizeMsg{Width: msg.Width, Height: max(msg.Height-1, 1)})
	case liveTickMsg:
		return l, l.readCmd()
	case liveReadMsg:
		return l, tea.Batch(l.onRead(msg), l.next())
	case tea.KeyPressMsg:
		if key.Matches(msg, l.app.keys.Import) {
			return l, l.toggleImport()
		}
	}
	return l.forward(msg)
}

func (l Live) forward(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := l.app.Update(msg)
	l.app = m.(App)
	if !l.imported && (l.app.Scenario() != l.shown || l.app.job != nil) {
		// a key changed the simulation, or is changing it in the
		// background (an event, a strategy): that is an experiment on the
		// group as it was, so it stops following (a read arriving now
		// would otherwise replace the simulation the key works on)
		l.imported = true
		l.mark()
	}
	return l, cmd
}

func (l *Live) onRead(msg liveReadMsg) tea.Cmd {
	if msg.err != nil {
		l.err = msg.err
		return nil
	}
	l.err, l.snap, l.readAt, l.reads = nil, msg.snap, msg.at, l.reads+1
	if !msg.snap.Showable {
		l.mark()   // the lag is the newest read's; the owners stay the last settled read's
		return nil // mid-rebalance: the lab keeps the last settled group; the live line says so
	}
	l.stable = msg.snap
	if len(msg.snap.Changes) > 0 {
		l.moved, l.movedAt = msg.snap.Changes, msg.at
	}
	var cmd tea.Cmd
	if !l.imported {
		cmd = l.show(msg.snap.Scenario)
	}
	l.mark()
	return cmd
}

// mark puts the reads on the grid while the lab follows the cluster: the
// owners the last moving read changed (the live line says when; they stay
// marked while they still own what they took) and the newest read's lag
// per partition. An imported what-if has neither: it is a simulation.
func (l *Live) mark() {
	if l.imported {
		l.app.liveMarks = nil
		return
	}
	l.app.liveMarks = &liveMarks{changes: l.moved, lag: l.snap.lagOf(), coordinator: l.snap.Coordinator}
}

// show puts a new import on screen, keeping the lab's own state (size,
// selection, pane).
// Compare mode or a what-if preview open on the lab recompute on it.
func (l *Live) show(sc *scenario.Scenario) tea.Cmd {
	sim, err := simulateModel(context.Background(), sc)
	if err != nil {
		l.err = fmt.Errorf("the group cannot be simulated: %v", err)
		return nil
	}
	l.app.setSim(sim)
	l.app.step = 0
	l.shown = sc
	return l.app.afterNewSim()
}

func (l *Live) toggleImport() tea.Cmd {
	if l.imported {
		l.imported = false
		cmd := l.show(l.stable.Scenario)
		l.mark()
		l.app.setStatus("following the cluster again", false)
		return cmd
	}
	l.imported = true
	l.mark()
	l.app.setStatus(fmt.Sprintf("imported the group as read at %s: d, x, a, w, c answer on it; i follows the cluster again",
		l.readAt.Format("15:04:05")), false)
	return nil
}

// View is the live line over the lab.
func (l Live) View() tea.View {
	v := l.app.View()
	v.Content = l.liveLine() + "\n" + v.Content
	return v
}

func (l Live) liveLine() string {
	st := &l.app.styles
	sep := st.Faint.Render(" · ")
	var badge, source string
	switch {
	case l.err != nil:
		return fit(st.Bad.Render(" DISCONNECTED, retrying every "+l.every.String()+" ")+" "+st.Bad.Render(oneLineErr(l.err)), l.width)
	case l.imported:
		badge, source = st.Warn.Render(" IMPORTED "), st.Faint.Render("simulating from "+l.shown.GroupID+" as read at "+l.readAt.Format("15:04:05"))
	case l.read == nil:
		badge, source = st.Accent.Render(" SAVED "), st.Faint.Render("from "+l.source)
	default:
		badge, source = st.Good.Render(" LIVE "), st.Faint.Render(l.source+" · read "+l.readAt.Format("15:04:05"))
	}
	if l.snap == nil {
		return fit(badge+" "+source, l.width)
	}
	// The lag is what an engineer looks for first: it keeps its room, the
	// largest partitions first, and the moves, then the source, then the
	// state give way (issue 20 item 11: at 80 columns the largest lag
	// shows, not "…").
	const (
		segSource = iota
		segState
		segMoves
		segLag
	)
	segs := []string{source, l.stateText(), l.movesText(), ""}
	join := func() string {
		line := badge
		first := true
		for _, s := range segs {
			switch {
			case s == "":
			case first:
				line, first = line+" "+s, false
			default:
				line += sep + s
			}
		}
		return line
	}
	lags := l.lagParts()
	for n := len(lags.parts); n >= 1; n-- {
		if segs[segLag] = lags.text(n); textWidth(join()) <= l.width {
			return join()
		}
	}
	segs[segLag] = lags.text(1)
	for _, i := range []int{segMoves, segSource, segState} {
		over := textWidth(join()) - l.width
		if over <= 0 {
			break
		}
		if keep := textWidth(segs[i]) - over; keep >= 8 {
			segs[i] = cut(segs[i], keep)
			break
		}
		segs[i] = ""
	}
	return fit(join(), l.width)
}

// stateText is the group's state when it is not settled; "" when it is.
func (l Live) stateText() string {
	if l.snap.Settled {
		return ""
	}
	return l.app.styles.Warn.Render("group " + l.snap.State + ": showing the last settled read")
}

// movesText is the last read that moved partitions: marked while it is the
// newest read.
func (l Live) movesText() string {
	st := &l.app.styles
	if len(l.moved) == 0 {
		return "no moves yet"
	}
	var ms []string
	for _, m := range l.moved {
		ms = append(ms, m.String())
	}
	text := fmt.Sprintf("%d moved %s: %s", len(l.moved), l.movedAt.Format("15:04:05"), strings.Join(ms, ", "))
	if l.movedAt.Equal(l.readAt) {
		return st.Warn.Render(text)
	}
	return text
}

// liveLags is the newest read's lag for the live line: the total and each
// lagging partition, largest first.
type liveLags struct {
	known bool // some partition has a commit
	total int64
	parts []string // "orders-3 900", largest lag first
}

func (l Live) lagParts() liveLags {
	var out liveLags
	type lagged struct {
		tp kafka.TP
		n  int64
	}
	var ls []lagged
	for _, o := range l.snap.Lags {
		out.known = out.known || o.Lag != nil
		if o.Lag != nil && *o.Lag != 0 {
			out.total += *o.Lag
			ls = append(ls, lagged{o.TP, *o.Lag})
		}
	}
	slices.SortStableFunc(ls, func(a, b lagged) int { return cmp.Compare(b.n, a.n) })
	for _, x := range ls {
		out.parts = append(out.parts, fmt.Sprintf("%s %d", x.tp, x.n))
	}
	return out
}

// text is the lag with its n largest partitions ("lag 1200: orders-3 900
// orders-1 300"), and how many more lag when n leaves some out.
func (ll liveLags) text(n int) string {
	switch {
	case !ll.known:
		return "lag unknown (no committed offsets)"
	case len(ll.parts) == 0:
		return "lag 0"
	}
	n = min(n, len(ll.parts))
	text := fmt.Sprintf("lag %d: %s", ll.total, strings.Join(ll.parts[:n], " "))
	if more := len(ll.parts) - n; more > 0 {
		text += fmt.Sprintf(" +%d more", more)
	}
	return text
}

func oneLineErr(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

// Imported reports whether the simulator stopped following the cluster.
func (l Live) Imported() bool { return l.imported }
