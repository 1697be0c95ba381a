package tui

import (
	"fmt"
	"strings"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
)

// protocolPane is the protocol pane's data: the group after the step on
// screen and the run's step lines up to it.
type protocolPane struct {
	v    *model.GroupView
	sim  simulation
	info *simInfo
	step int
	memo *memo // the message lines kept
	st   *Styles
}

// protocolPane is the pane at the current step.
func (a App) protocolPane() protocolPane {
	return protocolPane{v: a.view(), sim: a.sim, info: a.info, step: a.step, memo: a.memo, st: &a.styles}
}

// Render is the pane in w × h cells: the state diagram with the current
// state lit and the last transition's cause, the message sequence (latest
// at the bottom) and the listener callbacks.
func (p protocolPane) Render(w, h int) []string {
	v := p.v
	st := p.st
	out := []string{p.stateDiagram(v, w)}
	if cause := p.lastTransition(); cause != "" {
		// Two lines where the pane is tall enough to spare one.
		n := 1
		if h >= 12 {
			n = 2
		}
		// w-1: a wrapped word that ends on the pane's last cell reads as cut
		for i, l := range wrapN("last change: "+cause, w-1, n) {
			if i == 0 {
				l = st.Label.Render("last change: ") + strings.TrimPrefix(l, "last change: ")
			}
			out = append(out, l)
		}
	}
	callbacks := p.callbacksLine(v, w)
	cbLines := 0
	if callbacks != "" {
		cbLines = 1
	}
	room := h - len(out) - cbLines - 1
	if room > 0 {
		out = append(out, st.PaneTitle.Render("messages")+st.Faint.Render("  members ⇄ coordinator, latest last"))
		out = append(out, p.messageLines(w, room)...)
	}
	if cbLines > 0 && len(out) < h {
		out = append(out, callbacks)
	}
	return out
}

// callbacksLine is each running member's last listener callback, on one
// line cut to w ("" when there is none). A crashed member's last callback
// is history. Members past the edge are not drawn at all: on a
// 200-member group, styling every one of them to cut all but a few
// costs a millisecond a frame.
func (p protocolPane) callbacksLine(v *model.GroupView, w int) string {
	st := p.st
	line, width := "", 0
	for _, m := range v.Members {
		if m.LastCallback == "" || !m.Live() {
			continue
		}
		letter, color := p.info.letter(m.ID)
		sep, sepW := st.Faint.Render(" · "), 3
		if line == "" {
			sep, sepW = st.Label.Render("callbacks: "), len("callbacks: ")
		}
		part := letter + " " + m.ID
		line += sep + st.MemberFg(color).Render(part) + " " + m.LastCallback
		if width += sepW + textWidth(part) + 1 + textWidth(m.LastCallback); width > w {
			break // fit cuts here: what follows would not show
		}
	}
	return fit(line, w)
}

// stateDiagram lights the current state; brackets keep it readable without
// colour. Names are shortened when the pane is narrow.
func (p protocolPane) stateDiagram(v *model.GroupView, w int) string {
	states := kafka.GroupStates(v.State.Machine(v.Protocol))
	render := func(short bool) string {
		var parts []string
		for _, s := range states {
			name := s.Title()
			if short {
				name = strings.TrimSuffix(name, "Rebalance")
			}
			if s == v.State {
				parts = append(parts, p.st.StateLit.Render("["+name+"]"))
			} else {
				parts = append(parts, p.st.StateDim.Render(" "+name+" "))
			}
		}
		return strings.Join(parts, p.st.Faint.Render("→"))
	}
	if out := render(false); textWidth(out) <= w {
		return out
	}
	return fit(render(true), w)
}

// lastTransition finds the latest step, up to the cursor, where the group
// state changed, and says why (that step's narration).
func (p protocolPane) lastTransition() string {
	i := p.info.lastChange(p.step)
	if i <= 0 {
		return ""
	}
	cur, prev := p.sim.StepLine(i), p.sim.StepLine(i-1)
	return fmt.Sprintf("%s → %s at %s: %s", prev.GroupState, cur.GroupState, model.FormatMs(cur.TimeMs), cur.Text)
}

// messageLines are the last n protocol steps up to the cursor, oldest
// first: requests go → to the coordinator, responses come back ←, the
// coordinator's own moves are ◆, client callbacks and events are ·.
func (p protocolPane) messageLines(w, n int) []string {
	var rev []string
	// The cursor's step (even a routine one), then the message steps
	// before it: a quiet stretch stays, it says where the time went.
	for i := p.step; i >= 0 && len(rev) < n; i = p.info.prevMessage(i) {
		rev = append(rev, p.messageLine(p.sim.StepLine(i), w, i == p.step))
	}
	out := make([]string, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

// messageLine is one step of the message sequence, marked when it is the
// cursor's. Each n shows one new line and shifts the rest: the lines are
// kept (memo.messages), styling thirty of them costs more than the grid.
func (p protocolPane) messageLine(s model.Step, w int, current bool) string {
	key := messageKey{info: p.info, step: s.Index, w: w, current: current, dark: p.st.IsDark, noColor: p.st.NoColor}
	if line, ok := p.memo.messages[key]; ok {
		return line
	}
	if len(p.memo.messages) >= maxMemoMessages {
		p.memo.messages = map[messageKey]string{}
	}
	line := p.drawMessageLine(s, w, current)
	p.memo.messages[key] = line
	return line
}

// messageKey is what a message line depends on.
type messageKey struct {
	info          *simInfo
	step, w       int
	current       bool
	dark, noColor bool
}

// maxMemoMessages bounds the kept message lines (a few screens' worth of
// scrubbing through a long run).
const maxMemoMessages = 4096

func (p protocolPane) drawMessageLine(s model.Step, w int, current bool) string {
	st := p.st
	who := "coordinator"
	if s.Kind == kafka.KindQuietStretch {
		who = "group"
	} else if s.Kind.IsDataPath() {
		who = "data path"
	}
	if s.Member != "" {
		letter, color := p.info.letter(s.Member)
		who = st.MemberFg(color).Render(pad(letter+" "+s.Member, 10))
	}
	arrow, name := messageShape(s.Kind)
	if s.Kind == kafka.KindGroupStateChanged {
		name = string(s.GroupState)
	}
	line := st.Faint.Render(fmt.Sprintf("%9s ", model.FormatMs(s.TimeMs))) + pad(who, 11) + " " + arrow + " " + st.Value.Render(name)
	if failed(s.Error) {
		line += " " + st.Bad.Render(s.Error)
	}
	if current {
		line = st.Selected.Render("▸") + line
	} else {
		line = " " + line
	}
	return fit(line, w)
}

// messageShape turns a step kind into an arrow and a short name:
// "JoinGroupRequest" is "→ JoinGroup", "HeartbeatResponse" "← Heartbeat".
func messageShape(kind kafka.StepKind) (arrow, name string) {
	switch {
	case kind.IsRequest():
		return "→", kind.API()
	case kind.API() != "":
		return "←", kind.API()
	case kind == kafka.KindGroupStateChanged:
		return "◆", "group"
	case kind.IsCallback():
		return "↺", kind.ListenerMethod()
	case kind == kafka.KindQuietStretch:
		return "⋯", "quiet stretch: no change"
	}
	return "·", string(kind)
}

// failed: the step carries a real error code (NONE is success).
func failed(code string) bool { return code != "" && code != "NONE" }
