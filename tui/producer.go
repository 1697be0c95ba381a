package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// The producer pane: where records go before any consumer sees them. It
// exists only for scenarios with producers (model.GroupView.Flow()), as its
// own pane that tab reaches; the lab opens on it for such scenarios.

// hasFlow reports whether the scenario has a data path to draw.
func (a App) hasFlow() bool { return a.view().HasFlow() }

// nextPane is the pane tab moves to: the producer pane only when there is
// one to show.
func (a App) nextPane() pane {
	next := (a.focus + 1) % paneCount
	if next == paneFlow && !a.hasFlow() {
		next = (next + 1) % paneCount
	}
	return next
}

// firstPane is where focus starts: the pane the scenario names (lab:
// {pane: brokers}: the producer pane with the broker map beside it), or
// the producer story when there is one.
func (a App) firstPane() pane {
	switch a.sim.Scenario().Pane {
	case scenario.PaneGrid:
		return paneGrid
	case scenario.PaneProtocol:
		return paneProtocol
	case scenario.PaneNumbers:
		return paneNumbers
	}
	if a.hasFlow() {
		return paneFlow
	}
	return paneGrid
}

// brokerPaneMinWidth is the terminal width from which the broker map gets
// its own pane beside the producers.
const brokerPaneMinWidth = 120

// flowGridMinBody is the body height from which the grid stays on screen
// above the producer pane.
const flowGridMinBody = 30

// flowBody is the lab with the producer pane in focus: a shorter grid over
// the producers and partitions, with the broker map beside them when wide.
func (a App) flowBody(h int) string {
	w := a.width
	f := a.view().Flow()
	if h < flowGridMinBody {
		// Short terminals: the partition rows already name each owner in
		// its letter and colour; the grid is one tab away. A scenario that
		// opens on the brokers (lab: {pane: brokers}) shows their map.
		if a.sim.Scenario().Pane == scenario.PaneBrokers {
			bp := a.brokers(f)
			bp.scroll = a.flowScroll
			a.memo.flowMax = bp.maxScroll(h - 2)
			return box(&a.styles, "Brokers · replicas, leader first · tab: next pane", bp.Render(w-4, h-2), w, h, true)
		}
		fp := producerPane{f: f, letters: a.info.letters, brokers: a.brokers(f), st: &a.styles, scroll: a.flowScroll}
		a.memo.flowMax = fp.maxScroll(w-4, h-2)
		return box(&a.styles, "Producers · tab: next pane", fp.Render(w-4, h-2), w, h, true)
	}
	g := a.grid()
	gridH := min(2*len(g.Members)+4, max(6, h*2/5))
	lines := strings.Split(renderGrid(g, &a.styles, w-4, gridH-2), "\n")
	gridH = min(gridH, len(lines)+2)
	grid := box(&a.styles, a.gridTitle(g), lines, w, gridH, false)
	restH := h - gridH
	if w >= brokerPaneMinWidth {
		bw := min(48, w/3)
		producers := producerPane{f: f, letters: a.info.letters, brokersBeside: true, st: &a.styles, scroll: a.flowScroll}
		brokers := a.brokers(f)
		brokers.scroll = a.flowScroll
		a.memo.flowMax = max(producers.maxScroll(w-bw-4, restH-2), brokers.maxScroll(restH-2))
		left := box(&a.styles, "Producers · tab: next pane", producers.Render(w-bw-4, restH-2), w-bw, restH, true)
		right := box(&a.styles, "Brokers · replicas, leader first", brokers.Render(bw-4, restH-2), bw, restH, false)
		return grid + "\n" + besides(left, right)
	}
	fp := producerPane{f: f, letters: a.info.letters, brokers: a.brokers(f), st: &a.styles, scroll: a.flowScroll}
	a.memo.flowMax = fp.maxScroll(w-4, restH-2)
	lines = fp.Render(w-4, restH-2)
	return grid + "\n" + box(&a.styles, "Producers · tab: next pane", lines, w, restH, true)
}

// producerPane is the producer pane's data: the model's data path after
// the step (model.FlowView) and the members' roster letters (a partition's
// owner in its colour).
type producerPane struct {
	f       *model.FlowView
	letters map[string]int
	// brokersBeside: the broker pane is on screen too; else one line of
	// broker health takes its place.
	brokersBeside bool
	brokers       brokerPane // for that line
	st            *Styles
	scroll        int // partition rows scrolled off the top (scroll.go)
}

// Render is the pane in w × h cells, most important first so a short pane
// cuts the least useful lines: the producers and their latest record, then
// each partition's flow and lag, then the latest key's murmur2 path.
func (fp producerPane) Render(w, h int) []string {
	out, rows, route := fp.parts(w)
	return fp.rest(out, rows, route, h-len(out), w, h)
}

// parts are the pane's lines: the producers' and readers' (always shown),
// the partition rows and the murmur2 path of the latest keyed record.
func (fp producerPane) parts(w int) (out, rows, route []string) {
	f, st := fp.f, fp.st
	if f.Err != "" {
		out = append(out, fit(st.brushes.bad.paint("the data path stopped: "+f.Err), w))
	}
	for _, p := range f.Producers {
		out = append(out, fit(fp.producerLine(p), w))
		if p.BatchesSent > 0 || len(p.Queues) > 0 {
			for _, l := range fp.batchLines(p) {
				out = append(out, fit(l, w))
			}
		}
		if p.HotLine != "" {
			out = append(out, fit(st.brushes.warn.paint(fmt.Sprintf("  ▲ hot key %q: %.0f%% of its records, all to p%d", p.HotKey, 100*p.HotShare, p.HotPartition))+
				st.brushes.faint.paint(" · "+p.HotLine), w))
		}
	}
	for _, r := range f.Readers {
		out = append(out, fit(fp.readerLine(r), w))
	}
	if !fp.brokersBeside { // one line of broker health instead
		out = append(out, fit(fp.brokers.summary(), w))
	}
	return out, fp.partitionRows(w), fp.routeLines(f, w)
}

// partitionRows are every topic's header and partition rows.
func (fp producerPane) partitionRows(w int) []string {
	f := fp.f
	rows := []string{}
	maxLag := int64(lagScaleFloor)
	for _, t := range f.Topics {
		for _, p := range t.Partitions {
			maxLag = max(maxLag, lagOf(p))
		}
	}
	for _, t := range f.Topics {
		rows = append(rows, fp.partitionHeader(t.Name, w))
		for _, p := range t.Partitions {
			rows = append(rows, fp.partitionRow(p, t, maxLag, w))
		}
	}
	return rows
}

// rest is Render after its parts.
func (fp producerPane) rest(out, rows, route []string, room, w, h int) []string {
	st := fp.st
	if room >= len(rows)+len(route) {
		out = append(out, rows...)
		if room > len(rows)+len(route) {
			out = append(out, "")
		}
		out = append(out, route...)
		if legend := wrap(flowLegend, w); h-len(out) > len(legend) {
			out = append(out, "")
			for _, l := range legend {
				out = append(out, st.brushes.faint.paint(l))
			}
		}
		return out
	}
	// Too short for all: the murmur2 path first (the lesson of a keyed
	// record), then the partition rows, scrolled by the pane's keys; the
	// producers scroll too when they leave less than a few rows.
	if room < minScrollRoom {
		return scrolled(append(slices.Clone(out), fp.body(rows, route)...), h, fp.scroll, w, st)
	}
	return append(out, scrolled(fp.body(rows, route), room, fp.scroll, w, st)...)
}

// minScrollRoom is the fewest rows the partitions scroll in under the
// producers; with less, the whole pane scrolls.
const minScrollRoom = 8

// body is what scrolls when the pane is too short: the route, then the rows.
func (fp producerPane) body(rows, route []string) []string {
	if len(route) == 0 {
		return rows
	}
	return append(append(slices.Clone(route), ""), rows...)
}

// maxScroll is how far the pane scrolls in w × h.
func (fp producerPane) maxScroll(w, h int) int {
	head, rows, route := fp.parts(w)
	room := h - len(head)
	switch {
	case room >= len(rows)+len(route):
		return 0
	case room < minScrollRoom:
		return scrollMax(len(head)+len(fp.body(rows, route)), h)
	}
	return scrollMax(len(fp.body(rows, route)), room)
}

// flowLegend reads the partition rows.
const flowLegend = "▲ hot: twice the mean rate of the topic's busy partitions · in: records/s landing · lag: log end − committed, " +
	"in the owner's colour (— before any commit) · re-read: records processed twice (after a crash, nothing was committed)"

// producerLine is one producer: its name, topic, partitioner, records sent
// and why its latest record went where it did.
func (fp producerPane) producerLine(p model.ProducerView) string {
	st := fp.st
	version := p.Version
	if version == "" {
		version = "latest"
	}
	head := st.Bold.Render(p.Name) + st.brushes.faint.paint(" → ") + p.Topic +
		st.brushes.faint.paint(fmt.Sprintf(" · %s, Kafka %s · %s sent", p.Partitioner, version, count(p.Records)))
	if p.LastPartition < 0 {
		return head + st.brushes.faint.paint(" · nothing yet")
	}
	return head + st.brushes.faint.paint(" · latest: ") + p.LastLine
}

// routeLines explains the newest keyed record step by step: key bytes →
// murmur2 → toPositive → mod N → partition.
func (fp producerPane) routeLines(f *model.FlowView, w int) []string {
	for _, p := range f.Producers {
		if len(p.Route) == 0 {
			continue
		}
		out := []string{fp.st.PaneTitle.Render("latest keyed record of " + p.Name)}
		for _, s := range p.Route {
			out = append(out, fit("  "+s, w))
		}
		return out
	}
	return nil
}

// Column widths of a partition row; the two bars share what is left.
const (
	colPart  = 4 // "p12"
	colRate  = 7 // "1.2k/s"
	colEnd   = 8
	colLag   = 7
	colOwner = 5
	colDup   = 9
)

func barWidths(w int) (rate, lag int) {
	fixed := colPart + 2 + colRate + 1 + colEnd + 1 + colLag + 1 + colOwner + 1 + colDup + 4
	free := max(w-fixed, 6)
	return free / 2, free - free/2
}

// partitionHeader is a topic's name over the columns of its rows.
func (fp producerPane) partitionHeader(name string, w int) string {
	st := fp.st
	rb, lb := barWidths(w)
	cols := fmt.Sprintf(" %*s %*s %-*s %*s %-*s %s", colRate, "in", colEnd, "log end", lb, "lag", colLag, "", colOwner, "owner", "re-read")
	title := fit(st.brushes.title.paint(name)+st.brushes.faint.paint(" · records"), 1+colPart+1+rb)
	return fit(pad(title, 1+colPart+1+rb)+st.brushes.faint.paint(cols), w)
}

// partitionRow is one partition: a bar of the records it holds (hot ones,
// by the rate records land, marked), that rate, its log-end offset, a lag
// bar in the owner's colour, the owner and the records read twice.
func (fp producerPane) partitionRow(p model.FlowPartition, t model.FlowTopic, maxLag int64, w int) string {
	st := fp.st
	rb, lb := barWidths(w)
	var maxEnd int64
	for _, q := range t.Partitions {
		maxEnd = max(maxEnd, q.LogEnd)
	}
	mark := " "
	countBar := bar(float64(p.LogEnd), float64(maxEnd), rb)
	if p.Hot {
		mark = st.brushes.bad.paint("▲")
		countBar = st.brushes.warn.paint(countBar)
	}
	lagBrush, owner := st.brushes.faint, st.brushes.faint.paint(pad("—", colOwner))
	if idx, ok := fp.letters[p.Owner]; ok && p.Owner != "" {
		lagBrush = st.brushes.fg[idx%len(st.brushes.fg)]
		owner = lagBrush.paint(pad(string(rosterGlyphs[idx%len(rosterGlyphs)])+" "+p.Owner, colOwner))
	}
	lagText := count(lagOf(p))
	if !p.LagKnown {
		lagText = "—"
	}
	dup := ""
	if p.Duplicates > 0 {
		dup = st.brushes.warn.paint(count(p.Duplicates))
	}
	leader := ""
	if p.Leader < 0 {
		leader = st.brushes.bad.paint(" offline")
	}
	line := fmt.Sprintf("%s%-*s %s %*s %*s %s %*s %s %s%s", mark, colPart, fmt.Sprintf("p%d", p.Partition), countBar,
		colRate, rate(p.PerSec), colEnd, count(p.LogEnd), lagBrush.paint(bar(float64(lagOf(p)), float64(maxLag), lb)),
		colLag, lagText, owner, pad(dup, colDup), leader)
	return fit(line, w)
}

// lagScaleFloor is the smallest full lag bar: a lag of 2 is not a full bar.
// Lag bars share one scale across topics, so lags compare at a glance;
// record-count bars are per topic, so a hot partition stands out in its own.
const lagScaleFloor = 100

// lagOf is what the lag bar shows: the lag, or nothing while the group has
// no committed offset (the row says "—").
func lagOf(p model.FlowPartition) int64 {
	if p.LagKnown {
		return p.Lag
	}
	return 0
}

// bar draws v of max in w cells with eighth-block precision.
func bar(v, maxV float64, w int) string {
	if w <= 0 {
		return ""
	}
	if maxV <= 0 || v <= 0 {
		return strings.Repeat(" ", w)
	}
	eighths := int(v / maxV * float64(w*8))
	eighths = max(1, min(eighths, w*8))
	s := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return pad(s, w)
}

// count prints a count compactly: 950, 12.3k, 4.5M.
func count(n int64) string {
	switch {
	case n < 10_000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

func rate(r float64) string {
	if r >= 10_000 {
		return fmt.Sprintf("%.0fk/s", r/1000)
	}
	return fmt.Sprintf("%.0f/s", r)
}
