package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kvizlab/kviz/model"
)

// headerLines are two lines: who and where (group, coordinator, protocol,
// strategy), then where we are (state, generation, time, step, playback).
// On narrow terminals the labels shrink before anything is cut.
func (a App) headerLines() []string {
	full := a.headerVariant(false)
	for i := range full {
		if textWidth(full[i]) > a.width {
			full[i] = fit(a.headerVariant(true)[i], a.width)
		}
	}
	return full
}

func (a App) headerVariant(short bool) []string {
	v := a.view()
	st := &a.styles
	sep := st.Faint.Render("  │  ")
	if short {
		sep = st.Faint.Render(" │ ")
	}
	kv := func(k, short2, val string) string {
		if short {
			k = short2
		}
		if k == "" {
			return st.Value.Render(val)
		}
		return st.Label.Render(k+" ") + st.Value.Render(val)
	}
	coord := "no leader for __consumer_offsets-" + strconv.Itoa(int(v.CoordinatorPartition))
	if v.CoordinatorBroker >= 0 {
		coord = fmt.Sprintf("broker %d · __consumer_offsets-%d", v.CoordinatorBroker, v.CoordinatorPartition)
	}
	proto := protocolLabel(v.Protocol)
	if short {
		proto = string(v.Protocol)
	}
	line1 := st.Title.Render(" kviz") + sep + kv("group", "", v.GroupID) + sep + kv("coordinator", "coord", coord) + sep +
		kv("protocol", "", proto) + sep + kv("strategy", "", v.Strategy)
	if short { // what matters most first: a narrow terminal cuts the tail
		line1 = st.Title.Render(" kviz") + sep + kv("", "", v.GroupID) + sep + kv("", "", proto) + sep +
			kv("", "", v.Strategy) + sep + kv("", "coord", coord)
	}

	gen := kv("generation", "gen", strconv.Itoa(int(v.Generation)))
	if v.Protocol == model.ProtocolConsumer {
		gen = kv("group epoch", "epoch", strconv.Itoa(int(v.Generation))) + "  " +
			kv("assignment epoch", "target", strconv.Itoa(int(v.AssignmentEpoch)))
	} else if v.Leader != "" {
		gen += "  " + kv("leader", "leader", v.Leader)
	}
	play := st.Faint.Render("❚❚ paused " + a.speedLabel())
	if a.playing {
		play = st.Good.Render("▶ playing " + a.speedLabel())
	}
	if short {
		play = st.Faint.Render("❚❚ " + a.speedLabel())
		if a.playing {
			play = st.Good.Render("▶ " + a.speedLabel())
		}
	}
	step := kv("step", "step", fmt.Sprintf("%d/%d", a.step+1, a.sim.Len()))
	line2 := " " + st.StateLit.Render(" "+string(v.State)+" ") + sep + gen + sep + kv("t", "t", formatMs(v.TimeMs)) + sep + step + sep + play
	if short {
		line2 = " " + st.StateLit.Render(" "+string(v.State)+" ") + sep + step + sep + kv("t", "t", formatMs(v.TimeMs)) + sep + play + sep + gen
	}
	if badge := a.roomBadge(); badge != "" {
		line2 = " " + badge + sep + strings.TrimPrefix(line2, " ")
	}
	return []string{line1, line2}
}

// protocolLabel names the protocol the way Kafka's docs do.
func protocolLabel(p model.Protocol) string {
	switch p {
	case model.ProtocolEager:
		return "classic, eager"
	case model.ProtocolCooperative:
		return "classic, cooperative"
	case model.ProtocolConsumer:
		return "consumer (KIP-848)"
	}
	return string(p)
}

// narrationLines are the step's sentence (two lines at most) and, when the
// user just did something, what happened.
func (a App) narrationLines() []string {
	s := a.sim.StepLine(a.step)
	st := &a.styles
	text := s.Text
	if failed(s.Error) && !strings.Contains(text, s.Error) {
		text += "  [" + s.Error + "]"
	}
	lines := wrap(text, a.width-3)
	limit := 2
	if a.status != "" {
		limit = 1
	}
	if len(lines) > limit {
		lines = lines[:limit]
		lines[limit-1] = fit(lines[limit-1], a.width-4) + "…"
	}
	var out []string
	for _, l := range lines {
		out = append(out, st.Accent.Render(" ▌")+st.Narration.Render(l))
	}
	if a.status != "" {
		style := st.Faint
		if a.statusBad {
			style = st.Bad
		}
		out = append(out, fit(style.Render(" » "+a.status), a.width))
	}
	for len(out) < 2 {
		out = append(out, "")
	}
	return out
}
