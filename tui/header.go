package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// headerLines are two lines: who and where (group, coordinator, protocol,
// strategy), then where we are (state, generation, time, step, playback).
// Each line keeps its order at every width; when it does not fit it gives
// up, one step at a time, wide separators, then labels, then long values,
// then its least needed parts, so 120 columns lose a word, not the layout.
func (a App) headerLines() []string {
	where := a.width
	badge := a.roomBadge() // in a room: following the trainer, or not
	if badge != "" {
		where -= textWidth(badge) + 3
	}
	parts := a.headerWhere()
	second, form := fitHeaderForm(parts, &a.styles, max(where, 0))
	if a.busy() {
		if with := drawHeader(append(parts, a.busyPart()), &a.styles, form); textWidth(with) <= max(where, 0) {
			second = with
		}
	}
	if badge != "" {
		second = " " + badge + a.styles.Faint.Render(" │") + second
	}
	return []string{fitHeader(a.headerWho(), &a.styles, a.width), fit(second, a.width)}
}

// headerPart is one "label value" of a header line. Short forms are used
// when the line is too wide; a part with a drop rank goes when even the
// short forms do not fit (lowest rank first).
type headerPart struct {
	label, shortLabel string // shortLabel "" = the value alone
	value, shortValue string // shortValue "" = value
	look              partLook
	drop              int // 0: always kept
	// joined parts follow the one before without a separator
	// ("generation 3  leader c3").
	joined bool
}

// partLook is how a header part is painted.
type partLook int

const (
	lookKV      partLook = iota // faint label, bright value
	lookTitle                   // the program's name
	lookState                   // the group state, lit
	lookPaused                  // playback, paused
	lookPlaying                 // playback, running
	lookBusy                    // a recomputation under way
)

func (a App) headerWho() []headerPart {
	v := a.view()
	coord := "no leader for __consumer_offsets-" + strconv.Itoa(int(v.CoordinatorPartition))
	short := "no coordinator"
	if v.CoordinatorBroker >= 0 {
		coord = fmt.Sprintf("broker %d · __consumer_offsets-%d", v.CoordinatorBroker, v.CoordinatorPartition)
		short = fmt.Sprintf("broker %d", v.CoordinatorBroker)
	}
	if c := a.readCoordinator(); c != nil { // the live lab: the one the cluster named
		coord = fmt.Sprintf("broker %d (read) · __consumer_offsets-%d", c.ID, v.CoordinatorPartition)
		short = fmt.Sprintf("broker %d", c.ID)
	}
	parts := []headerPart{
		{value: "kviz", look: lookTitle},
		{label: "group", value: v.GroupID},
		{label: "coordinator", shortLabel: "coord", value: coord, shortValue: short, drop: 1},
		{label: "protocol", value: protocolLabel(v.Protocol), shortValue: string(v.Protocol)},
		{label: "strategy", value: v.Strategy},
	}
	if sc := a.sim.Scenario(); sc != nil && sc.KafkaVersionLabel() != "" {
		parts = append(parts, headerPart{label: "kafka", shortLabel: "kafka", value: sc.KafkaVersionLabel()}) // group.kafka_version
	}
	return parts
}

// Every value of the second line is padded to the widest it takes in the
// run (the last step's time, the step count, the longest state name and
// member id), so stepping never moves its parts nor changes its form.
func (a App) headerWhere() []headerPart {
	v, last := a.view(), a.sim.View(a.sim.Len()-1)
	states := kafka.GroupStates(v.State.Machine(v.Protocol))
	stateW := 0
	for _, s := range states {
		stateW = max(stateW, textWidth(string(s)))
	}
	gen := func(n int32) string {
		return pad(strconv.Itoa(int(n)), max(len(strconv.Itoa(int(last.Generation))), len(strconv.Itoa(int(n)))))
	}
	parts := []headerPart{{value: " " + pad(string(v.State), stateW) + " ", look: lookState}}
	if m := v.State.Machine(v.Protocol); m == kafka.ProtocolConsumer || m == kafka.ProtocolShare { // the group's kind now (a migration changes it); a share group has epochs too
		parts = append(parts,
			headerPart{label: "group epoch", shortLabel: "epoch", value: gen(v.Generation)},
			headerPart{label: "assignment epoch", shortLabel: "target", value: gen(v.AssignmentEpoch), joined: true, drop: 1})
	} else {
		parts = append(parts, headerPart{label: "generation", shortLabel: "gen", value: gen(v.Generation)})
		// The leader's place stays while the group has none ("—").
		leader := v.Leader
		if leader == "" {
			leader = "—"
		}
		parts = append(parts, headerPart{label: "leader", shortLabel: "leader", value: pad(leader, a.info.idWidth()), joined: true, drop: 2})
	}
	play := headerPart{value: "❚❚ paused  " + a.speedLabel(), shortValue: "❚❚ " + a.speedLabel(), look: lookPaused}
	if a.playing {
		play = headerPart{value: "▶ playing " + a.speedLabel(), shortValue: "▶ " + a.speedLabel(), look: lookPlaying}
	}
	clock := headerPart{label: "t", shortLabel: "t", value: pad(model.FormatMs(v.TimeMs), textWidth(model.FormatMs(last.TimeMs)))}
	if a.seat.following {
		// The trainer plays, and the timeline shows the time: beside the
		// room's badge a follower's header gives those up, never the step.
		play.drop, clock.drop = 4, 3
	}
	steps := strconv.Itoa(a.sim.Len() - 1)
	parts = append(parts,
		clock,
		// 0-based, as kviz export --step and kviz quiz count
		headerPart{label: "step", shortLabel: "step", value: pad(fmt.Sprintf("%d/%s", a.step, steps), 2*len(steps)+1)},
		play)
	return parts
}

// busyPart says a new simulation is on its way (the screen stays live on
// the one before); it follows the second line where it fits, so that it
// never changes the line's form.
func (a App) busyPart() headerPart {
	spin := a.spin.View()
	return headerPart{value: spin + " simulating…", shortValue: spin + " sim…", look: lookBusy}
}

// fitHeader draws the richest form of the line that fits w.
func fitHeader(parts []headerPart, st *Styles, w int) string {
	line, _ := fitHeaderForm(parts, st, w)
	return line
}

// fitHeaderForm is fitHeader and the form it chose.
func fitHeaderForm(parts []headerPart, st *Styles, w int) (string, headerForm) {
	level := headerForm{}
	line := drawHeader(parts, st, level)
	for _, next := range []headerForm{{thin: true}, {thin: true, shortLabels: true}, {thin: true, shortLabels: true, shortValues: true}} {
		if textWidth(line) <= w {
			return line, level
		}
		level = next
		line = drawHeader(parts, st, level)
	}
	for rank := maxDropRank(parts); rank > 0 && textWidth(line) > w; rank-- {
		level.dropFrom = rank
		line = drawHeader(parts, st, level)
	}
	return fit(line, w), level
}

// headerForm is how much a header line has given up.
type headerForm struct {
	thin, shortLabels, shortValues bool
	dropFrom                       int // parts with drop >= this are left out (0: none)
}

func maxDropRank(parts []headerPart) int {
	n := 0
	for _, p := range parts {
		n = max(n, p.drop)
	}
	return n
}

func drawHeader(parts []headerPart, st *Styles, f headerForm) string {
	sep := st.Faint.Render("  │  ")
	if f.thin {
		sep = st.Faint.Render(" │ ")
	}
	var out []string
	for _, p := range parts {
		if f.dropFrom > 0 && p.drop >= f.dropFrom {
			continue
		}
		label, value := p.label, p.value
		if f.shortLabels {
			label = p.shortLabel
		}
		if f.shortValues && p.shortValue != "" {
			value = p.shortValue
		}
		var s string
		switch {
		case p.look == lookTitle:
			s = st.Title.Render(value)
		case p.look == lookState:
			s = st.StateLit.Render(value)
		case p.look == lookPaused:
			s = st.Faint.Render(value)
		case p.look == lookPlaying:
			s = st.Good.Render(value)
		case p.look == lookBusy:
			s = st.Accent.Render(value)
		case label == "":
			s = st.Value.Render(value)
		default:
			s = st.Label.Render(label+" ") + st.Value.Render(value)
		}
		if p.joined && len(out) > 0 {
			out[len(out)-1] += "  " + s
			continue
		}
		out = append(out, s)
	}
	return " " + strings.Join(out, sep)
}

// protocolLabel names the protocol the way Kafka's docs do.
func protocolLabel(p kafka.Protocol) string {
	switch p {
	case kafka.ProtocolEager:
		return "classic, eager"
	case kafka.ProtocolCooperative:
		return "classic, cooperative"
	case kafka.ProtocolConsumer:
		return "consumer (KIP-848)"
	}
	return string(p)
}

// narrationLines are the step's sentence, wrapped (at least two lines, so
// the layout stays put for most steps; the longest sentences take up to
// four), and, when the user just did something, what happened. A prompt
// takes their place while it asks.
func (a App) narrationLines() []string {
	if a.prompt != nil {
		return a.promptLines()
	}
	s := a.sim.StepLine(a.step)
	st := &a.styles
	text := s.Text
	if failed(s.Error) && !strings.Contains(text, s.Error) {
		text += "  [" + s.Error + "]"
	}
	n := maxNarrationLines
	if a.mode == modePicker {
		text, n = a.picker.notes(), 2 // what to watch in the demo under the cursor
	}
	lines := wrapN(text, a.width-3, n)
	var out []string
	for _, l := range lines {
		out = append(out, st.Accent.Render(" ▌")+st.Narration.Render(l))
	}
	for len(out) < 2 {
		out = append(out, "")
	}
	if status := a.shownStatus(); status != "" {
		style := st.Faint
		if a.statusBad {
			style = st.Bad
		}
		out = append(out, fit(style.Render(" » "+status), a.width))
	}
	return out
}

// maxNarrationLines bounds the narration; no step of the shipped demos
// needs more at 80 columns.
const maxNarrationLines = 4
