package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// prompt asks for one or more values on the status lines before an event
// is inserted: `a` asks for the new member's id and topics, `t` for a topic
// and its new partition count. Each field starts with the lab's choice, and
// the line under it says why it chose that, so enter alone is always a
// sensible answer. esc cancels at any field.
type prompt struct {
	title  string // "add a member"
	fields []promptField
	at     int      // the field being asked
	values []string // the answers so far
	input  textField
	err    string // why the last answer was refused; the prompt stays open
	// finish checks the answers and starts inserting the event; an error
	// keeps the prompt open to fix it. The prompt stays while the event is
	// simulated: the model may refuse it too (recompute.go).
	finish func(a *App, values []string) (tea.Cmd, error)
}

// promptField is one question: its label, the default and the reason for it.
type promptField struct {
	label, value, why string
}

func newPrompt(title string, isDark bool, width int, finish func(*App, []string) (tea.Cmd, error), fields ...promptField) *prompt {
	p := &prompt{title: title, fields: fields, finish: finish, input: newInput(isDark)}
	p.ask(0, width)
	return p
}

// newInput is the prompt's text field (input.go), its cursor steady.
func newInput(isDark bool) textField { return newField(isDark) }

// ask moves to field i, filled with its default.
func (p *prompt) ask(i, width int) {
	p.at = i
	f := p.fields[i]
	p.input.Prompt = f.label + ": "
	p.input.SetValue(f.value)
	p.input.CursorEnd()
	p.input.SetWidth(max(width-len(p.input.Prompt)-textWidth(p.title)-12, 8))
}

// onPromptKey: enter accepts the field (the last one inserts the event),
// esc cancels, anything else edits the field.
func (a App) onPromptKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p := a.prompt
	switch {
	case key.Matches(msg, a.keys.Back):
		a.prompt = nil
		var cmd tea.Cmd
		if a.waitingFor(p) {
			cmd = a.cancelJob() // its event is not wanted any more
		}
		a.setStatus(p.title+": cancelled", false)
		return a, cmd
	case key.Matches(msg, a.keys.Confirm) && a.waitingFor(p):
		return a, nil // the answer is being simulated
	case key.Matches(msg, a.keys.Confirm):
		p.err = ""
		values := append(slices.Clone(p.values), strings.TrimSpace(p.input.Value()))
		if p.at+1 < len(p.fields) {
			p.values = values
			p.ask(p.at+1, a.width)
			return a, nil
		}
		cmd, err := p.finish(&a, values)
		if err != nil {
			p.err = err.Error()
			return a, nil
		}
		return a, cmd
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return a, cmd
}

// promptLines replace the narration while a prompt is open: the question,
// then why the default is what it is (or why the answer was refused).
func (a App) promptLines() []string {
	p, st := a.prompt, &a.styles
	step := ""
	if len(p.fields) > 1 {
		step = fmt.Sprintf(" (%d/%d)", p.at+1, len(p.fields))
	}
	head := st.Accent.Render(" ▌") + st.Value.Render(p.title+step) + "  " + p.input.View()
	note := st.Faint.Render(" » " + p.fields[p.at].why)
	switch {
	case a.waitingFor(p):
		note = st.Faint.Render(" » ") + st.Accent.Render(a.spin.View()) + st.Faint.Render(" simulating the answer…")
	case p.err != "":
		note = st.Bad.Render(" » " + p.err)
	}
	keys := st.Faint.Render(" » enter accepts · esc cancels")
	return []string{fit(head, a.width), fit(note, a.width), keys}
}

// askMember opens the prompt for `a`: the next free id in the group's own
// style, subscribed to every topic of the group unless changed.
func (a *App) askMember() {
	sc := a.sim.Scenario()
	id := scenario.NextMemberID(sc)
	topics := a.topicNames()
	a.prompt = newPrompt("add a member", a.isDark, a.width, finishMember,
		promptField{"id", id, id + " is the next free id in the group's style"},
		promptField{"topics", strings.Join(topics, ", "), "every topic of the group; separate topics by commas"})
}

func finishMember(a *App, values []string) (tea.Cmd, error) {
	id, topics := values[0], splitList(values[1])
	if id == "" {
		return nil, fmt.Errorf("a member needs an id")
	}
	if len(topics) == 0 {
		return nil, fmt.Errorf("a member needs at least one topic")
	}
	what := fmt.Sprintf("%s joins (subscribed to %s)", id, strings.Join(topics, ", "))
	return a.insert(scenario.Event{Kind: "join", Member: id, Topics: topics}, what, func(a *App) { a.selected = id }), nil
}

// askPartitions opens the prompt for `t`: the selected member's first topic
// (or the group's first), doubled, like the seeds' 6 → 12 example.
func (a *App) askPartitions() {
	v := a.view()
	if len(v.Topics) == 0 {
		a.setStatus("no topic to grow", true)
		return
	}
	topic := v.Topics[0]
	if ts := a.selectedTopics(); len(ts) > 0 {
		for _, t := range v.Topics {
			if t.Name == ts[0] {
				topic = t
			}
		}
	}
	var sizes []string
	for _, t := range v.Topics {
		sizes = append(sizes, fmt.Sprintf("%s (%d)", t.Name, t.Partitions))
	}
	count := max(topic.Partitions*2, 1)
	a.prompt = newPrompt("add partitions", a.isDark, a.width, finishPartitions,
		promptField{"topic", topic.Name, "topics: " + strings.Join(sizes, ", ")},
		promptField{"partitions", strconv.Itoa(int(count)), "the new total: Kafka only adds partitions"})
}

func finishPartitions(a *App, values []string) (tea.Cmd, error) {
	name := values[0]
	var topic *model.TopicView
	for _, t := range a.view().Topics {
		if t.Name == name {
			topic = &t
		}
	}
	if topic == nil {
		return nil, fmt.Errorf("no topic %q (topics: %s)", name, strings.Join(a.topicNames(), ", "))
	}
	// The model judges the count (a topic only grows: asking for fewer is
	// a step that explains Kafka's InvalidPartitionsException).
	n, err := strconv.ParseInt(values[1], 10, 32)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number of partitions", values[1])
	}
	what := fmt.Sprintf("%s asked for %d partitions (it has %d)", name, n, topic.Partitions)
	return a.insert(scenario.Event{Kind: "add_partitions", Topic: name, Count: int32(n)}, what, nil), nil
}

// waitingFor reports whether the prompt's answer is being simulated.
func (a App) waitingFor(p *prompt) bool { return a.job != nil && a.job.ask == p }

func (a *App) selectedTopics() []string {
	for _, m := range a.view().Members {
		if m.ID == a.selected {
			return slices.Clone(m.Topics)
		}
	}
	return nil
}

// topicNames are the group's topics, in the view's order.
func (a *App) topicNames() []string {
	var out []string
	for _, t := range a.view().Topics {
		out = append(out, t.Name)
	}
	return out
}

// splitList reads "t0, t1" or "t0 t1".
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// promptHelp is a prompt's keys: every letter goes to the field.
func promptHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{shown(k.Confirm, "enter", "accept"), shown(k.Back, "esc", "cancel"), shown(k.Quit, "ctrl+c", "quit")}
}
