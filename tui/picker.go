package tui

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/list"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model/scenario"
)

// demoPicker is the `o` screen: every shipped demo in a list that typing
// filters. The list is bubbles' own; the filter line is a textinput the
// picker owns, so the list stays in its "filter applied" state where the
// cursor is drawn (while bubbles filters, its delegate hides the cursor
// and dims every row).
type demoPicker struct {
	input textinput.Model
	list  list.Model
}

// demoItem is one catalogue entry as a list row.
type demoItem struct{ e demo.DemoInfo }

func (d demoItem) Title() string { return d.e.Title }

// Description is the name to type after demo: and what the demo is about.
func (d demoItem) Description() string {
	return "demo:" + d.e.Name + " · " + strings.Join(d.e.Tags, " · ")
}

// FilterValue starts with the title, so the list's match highlight (rune
// positions in this string) falls on the title it draws.
func (d demoItem) FilterValue() string {
	return d.e.Title + " " + d.e.Name + " " + strings.Join(d.e.Tags, " ")
}

// newDemoPicker lists the catalogue; the current demo is selected.
func newDemoPicker(current string, isDark bool, w, h int) (*demoPicker, error) {
	entries, err := demo.Demos()
	if err != nil {
		return nil, err
	}
	items := make([]list.Item, len(entries))
	sel := 0
	for i, e := range entries {
		items[i] = demoItem{e}
		if e.Name == current {
			sel = i
		}
	}
	d := list.NewDefaultDelegate()
	d.SetSpacing(0) // two lines a demo: more of them on an 80×24 screen
	d.Styles = list.NewDefaultItemStyles(isDark)
	l := list.New(items, d, w, h)
	l.Styles = list.DefaultStyles(isDark)
	l.SetShowTitle(false)
	l.SetShowFilter(false) // the picker draws its own filter line
	l.SetShowHelp(false)   // the lab's footer and this box's title say the keys
	l.SetStatusBarItemName("demo", "demos")
	l.Filter = rankedFilter(entries)
	l.Select(sel)

	in := textinput.New()
	in.Prompt = "filter: "
	in.Placeholder = "a name, an assignor, a protocol, example 11, producers…"
	in.SetWidth(max(w-len(in.Prompt)-1, 1))
	in.Focus()
	p := &demoPicker{input: in, list: l}
	p.setSize(w, h)
	return p, nil
}

// setSize fits the picker in w × h cells: the filter line, a blank, the list.
func (p *demoPicker) setSize(w, h int) {
	p.input.SetWidth(max(w-len(p.input.Prompt)-1, 1))
	p.list.SetSize(w, max(h-2, 1))
}

func (p *demoPicker) view() []string {
	return append([]string{p.input.View(), ""}, strings.Split(p.list.View(), "\n")...)
}

// selected is the demo under the cursor ("" when the filter matched none).
func (p *demoPicker) selected() string {
	if it, ok := p.list.SelectedItem().(demoItem); ok {
		return it.e.Name
	}
	return ""
}

// notes are what to watch in the demo under the cursor.
func (p *demoPicker) notes() string {
	if it, ok := p.list.SelectedItem().(demoItem); ok {
		return it.e.Notes
	}
	return "no demo matches; esc goes back"
}

// filter applies the typed text at once (bubbles filters in a command; the
// picker wants the list right under the keystroke, and no stale result
// arriving after a newer one).
func (p *demoPicker) filter() {
	if strings.TrimSpace(p.input.Value()) == "" {
		p.list.ResetFilter()
		return
	}
	p.list.SetFilterText(p.input.Value())
}

// rankedFilter keeps and orders the demos as demo.Rank does for what was
// typed (the number of a worked example first, exact above partial), so
// enter opens what the trainer meant; each typed word found in a row's
// text is highlighted.
func rankedFilter(entries []demo.DemoInfo) list.FilterFunc {
	return func(term string, targets []string) []list.Rank {
		words := strings.Fields(strings.ToLower(term))
		var out []list.Rank
		for _, i := range demo.Rank(term, entries) {
			if i >= len(targets) {
				continue
			}
			out = append(out, list.Rank{Index: i, MatchedIndexes: highlights(strings.ToLower(targets[i]), words)})
		}
		return out
	}
}

// highlights are the rune positions of each word's first place in t.
func highlights(t string, words []string) []int {
	var idx []int
	for _, w := range words {
		j := strings.Index(t, w)
		if j < 0 {
			continue
		}
		from := utf8.RuneCountInString(t[:j])
		for k := range utf8.RuneCountInString(w) {
			idx = append(idx, from+k)
		}
	}
	return idx
}

// openPicker shows the demo picker.
func (a *App) openPicker() {
	p, err := newDemoPicker(a.sim.Scenario().Name, a.isDark, a.width-4, a.height)
	if err != nil {
		a.setStatus("cannot list the demos: "+err.Error(), true)
		return
	}
	a.picker = p
	a.mode = modePicker
}

// onPickerKey: arrows and page keys move, enter opens, esc goes back, and
// every other key is typed into the filter (so q, j or ? are letters here).
func (a App) onPickerKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k, p := &a.keys, a.picker
	switch {
	case key.Matches(msg, k.Back):
		a.mode, a.picker = modeLab, nil
		return a, nil
	case key.Matches(msg, k.Confirm):
		if name := p.selected(); name != "" {
			return a, a.openDemo(name)
		}
		return a, nil
	case typed(msg):
	case key.Matches(msg, k.Up):
		p.list.CursorUp()
		return a, nil
	case key.Matches(msg, k.Down):
		p.list.CursorDown()
		return a, nil
	case key.Matches(msg, k.ScrollUp):
		p.list.PrevPage()
		return a, nil
	case key.Matches(msg, k.ScrollDown):
		p.list.NextPage()
		return a, nil
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		p.filter()
	}
	return a, cmd
}

// typed: the key writes a character (q, j, space), as opposed to a named
// key (arrows, enter, ctrl+c) that text fields leave to the screen.
func typed(msg tea.KeyPressMsg) bool { return msg.Text != "" }

// openDemo replaces the lab's scenario with a shipped demo, from its first
// step, as `kviz play demo:NAME` would open it.
// A demo that asks for compare (lab: {open: compare}) opens with it.
func (a *App) openDemo(name string) tea.Cmd {
	data, ok := demo.Get(name)
	if !ok {
		a.setStatus("no demo "+name, true)
		return nil
	}
	sc, err := scenario.Parse(name+".yaml", data)
	if err == nil {
		var sim simulation
		if sim, err = a.simulate(context.Background(), sc); err == nil {
			a.mode, a.picker = modeLab, nil
			a.reset(sim)
			a.setStatus(fmt.Sprintf("opened demo:%s — %s", name, sc.Title), false)
			return a.openAsAsked()
		}
	}
	a.setStatus("cannot open demo:"+name+": "+err.Error(), true)
	return nil
}

// openAsAsked opens the mode the scenario asks for (lab: {open: compare}),
// as the lab's start does (newApp, Init).
func (a *App) openAsAsked() tea.Cmd {
	if a.sim.Scenario().Open != scenario.OpenCompare {
		return nil
	}
	a.mode, a.compare = modeCompare, nil
	return a.compareCmd(a.firstEventMs())
}

// reset starts over on another simulation: first step, first member,
// nothing playing, no preview.
func (a *App) reset(sim simulation) {
	a.playing = false
	a.playGen++
	a.step, a.selected = 0, ""
	a.whatIf, a.prompt = nil, nil
	a.setSim(sim)
	a.keepSelection()
	a.markSaved()
	a.focus = a.firstPane()
}

// pickerBody draws the picker in the body's place.
func (a App) pickerBody(h int) string {
	p := *a.picker // sized for this frame; the picker itself is left as it is
	p.setSize(a.width-4, h-2)
	title := "Open a demo · type to filter · ↑/↓ choose · enter opens it · esc back"
	return box(&a.styles, title, p.view(), a.width, h, true)
}

// pickerHelp is the picker's keys: every letter goes to the filter, so q
// is not quit here.
func pickerHelp(k *keymap.KeyMap) []key.Binding {
	return []key.Binding{shown(k.Up, "↑/↓", "choose"), shown(k.ScrollDown, "pgup/pgdown", "page"),
		shown(k.Confirm, "enter", "open it"), shown(k.Back, "esc", "back"), shown(k.Quit, "ctrl+c", "quit")}
}
