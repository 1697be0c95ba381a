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
	second := fitHeader(a.headerWhere(), &a.styles, max(where, 0))
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

func (a App) headerWhere() []headerPart {
	v := a.view()
	parts := []headerPart{{value: " " + string(v.State) + " ", look: lookState}}
	if v.State.Machine(v.Protocol) == kafka.ProtocolConsumer { // the group's kind now (a migration changes it)
		parts = append(parts,
			headerPart{label: "group epoch", shortLabel: "epoch", value: strconv.Itoa(int(v.Generation))},
			headerPart{label: "assignment epoch", shortLabel: "target", value: strconv.Itoa(int(v.AssignmentEpoch)), joined: true, drop: 1})
	} else {
		parts = append(parts, headerPart{label: "generation", shortLabel: "gen", value: strconv.Itoa(int(v.Generation))})
		if v.Leader != "" {
			parts = append(parts, headerPart{label: "leader", shortLabel: "leader", value: v.Leader, joined: true, drop: 2})
		}
	}
	play := headerPart{value: "❚❚ paused " + a.speedLabel(), shortValue: "❚❚ " + a.speedLabel(), look: lookPaused}
	if a.playing {
		play = headerPart{value: "▶ playing " + a.speedLabel(), shortValue: "▶ " + a.speedLabel(), look: lookPlaying}
	}
	parts = append(parts,
		headerPart{label: "t", shortLabel: "t", value: model.FormatMs(v.TimeMs)},
		headerPart{label: "step", shortLabel: "step", value: fmt.Sprintf("%d/%d", a.step, a.sim.Len()-1)}, // 0-based, as kviz export --step and kviz quiz count
		play)
	if a.busy() {
		// The screen stays live on the simulation before; this says a new
		// one is on its way.
		spin := a.spin.View()
		parts = append(parts, headerPart{value: spin + " simulating…", shortValue: spin + " sim…", look: lookBusy})
	}
	return parts
}

// fitHeader draws the richest form of the line that fits w.
func fitHeader(parts []headerPart, st *Styles, w int) string {
	level := headerForm{}
	line := drawHeader(parts, st, level)
	for _, next := range []headerForm{{thin: true}, {thin: true, shortLabels: true}, {thin: true, shortLabels: true, shortValues: true}} {
		if textWidth(line) <= w {
			return line
		}
		level = next
		line = drawHeader(parts, st, level)
	}
	for rank := maxDropRank(parts); rank > 0 && textWidth(line) > w; rank-- {
		level.dropFrom = rank
		line = drawHeader(parts, st, level)
	}
	return fit(line, w)
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
