package tui

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/keymap"
	"github.com/kvizlab/kviz/model/scenario"
)

// demoPicker is the `o` screen: every shipped demo in a list that typing
// filters, two lines a demo (its title; its name and tags), the one under
// the cursor marked, the typed words underlined, a status line (how many
// demos, how many filtered out) and page dots. It draws as bubbles' list
// with its default delegate did, but is kviz's own, with the filter line
// a textField: bubbles' list links its textinput, and that the clipboard
// package whose init searches $PATH at every kviz start (issue 25).
type demoPicker struct {
	input   textField
	entries []demo.DemoInfo // the files given, then the catalogue
	files   int             // how many of entries are files
	shown   []pickerRow     // the rows the filter keeps, in its order
	cursor  int             // into shown
	w, h    int
	st      pickerStyles
}

// pickerRow is one demo in the list, with the rune positions of its title
// to underline.
type pickerRow struct {
	entry   int
	matched []int
}

type pickerStyles struct {
	title, desc, selTitle, selDesc, match   lipgloss.Style
	status, filterCount, empty, noItems     lipgloss.Style
	activeDot, inactiveDot, divider, arabic lipgloss.Style
}

func newPickerStyles(isDark bool) pickerStyles {
	ld := lipgloss.LightDark(isDark)
	verySubdued := ld(lipgloss.Color("#DDDADA"), lipgloss.Color("#3C3C3C"))
	subdued := ld(lipgloss.Color("#9B9B9B"), lipgloss.Color("#5C5C5C"))
	title := lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#1a1a1a"), lipgloss.Color("#dddddd"))).Padding(0, 0, 0, 2)
	sel := lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).
		BorderForeground(ld(lipgloss.Color("#F793FF"), lipgloss.Color("#AD58B4"))).
		Foreground(lipgloss.Color("#EE6FF8")).Padding(0, 0, 0, 1)
	return pickerStyles{
		title:       title,
		desc:        title.Foreground(ld(lipgloss.Color("#A49FA5"), lipgloss.Color("#777777"))),
		selTitle:    sel,
		selDesc:     sel.Foreground(ld(lipgloss.Color("#F793FF"), lipgloss.Color("#AD58B4"))),
		match:       lipgloss.NewStyle().Underline(true),
		status:      lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#A49FA5"), lipgloss.Color("#777777"))).Padding(0, 0, 1, 2),
		filterCount: lipgloss.NewStyle().Foreground(verySubdued),
		empty:       lipgloss.NewStyle().Foreground(subdued),
		noItems:     lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#909090"), lipgloss.Color("#626262"))),
		activeDot:   lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#847A85"), lipgloss.Color("#979797"))).SetString("•"),
		inactiveDot: lipgloss.NewStyle().Foreground(verySubdued).SetString("•"),
		divider:     lipgloss.NewStyle().Foreground(verySubdued).SetString(" • "),
		arabic:      lipgloss.NewStyle().Foreground(subdued),
	}
}

// demoItem is one catalogue entry as a list row; file: a scenario file
// the lab was started with (picker_files.go), listed first.
type demoItem struct {
	e    demo.DemoInfo
	file bool
}

func (d demoItem) Title() string { return d.e.Title }

// Description is the name to type after demo: and what the demo is about.
func (d demoItem) Description() string {
	if d.file {
		return "file " + d.e.Name + " · " + strings.Join(d.e.Tags, " · ")
	}
	return "demo:" + d.e.Name + " · " + strings.Join(d.e.Tags, " · ")
}

// FilterValue starts with the title, so the match highlight (rune
// positions in this string) falls on the title drawn.
func (d demoItem) FilterValue() string {
	return d.e.Title + " " + d.e.Name + " " + strings.Join(d.e.Tags, " ")
}

// newDemoPicker lists the files given, then the catalogue; the current
// scenario is selected (current: a demo's name, or a file's path).
func newDemoPicker(current string, files []demo.DemoInfo, isDark bool, w, h int) (*demoPicker, error) {
	demos, err := demo.Demos()
	if err != nil {
		return nil, err
	}
	entries := append(append([]demo.DemoInfo(nil), files...), demos...)
	p := &demoPicker{entries: entries, files: len(files), st: newPickerStyles(isDark)}
	p.filter()
	for i, e := range entries {
		if e.Name == current {
			p.cursor = i
			break
		}
	}
	in := newField(isDark)
	in.Prompt = "filter: "
	in.Placeholder = "a name, an assignor, a protocol, example 11, producers…"
	in.styles.prompt = lipgloss.NewStyle().Foreground(lipgloss.LightDark(isDark)(lipgloss.Color("#04B575"), lipgloss.Color("#ECFD65")))
	in.styles.cursor = in.styles.cursor.Foreground(lipgloss.Color("#EE6FF8"))
	p.input = in
	p.setSize(w, h)
	return p, nil
}

// setSize fits the picker in w × h cells: the filter line, a blank, the list.
func (p *demoPicker) setSize(w, h int) {
	p.input.SetWidth(max(w-len(p.input.Prompt)-1, 1))
	p.w, p.h = w, max(h-2, 1)
}

func (p *demoPicker) view() []string {
	return append([]string{p.input.View(), ""}, strings.Split(p.listView(), "\n")...)
}

// perPage is how many demos a page shows: the list's height less the
// status line (and its blank) and the page dots (and theirs), two lines a
// demo.
func (p *demoPicker) perPage() int {
	avail := p.h - 2
	if p.pages(max(1, avail/2)) > 1 {
		avail -= 2
	}
	return max(1, avail/2)
}

func (p *demoPicker) pages(per int) int { return max(1, (len(p.shown)+per-1)/per) }

// listView is the status line, the page of demos under the cursor, and the
// page dots when there are several pages.
func (p *demoPicker) listView() string {
	st := &p.st
	per := p.perPage()
	pages := p.pages(per)
	page := p.cursor / per
	var b strings.Builder
	b.WriteString(st.status.Render(p.statusLine()))
	b.WriteString("\n")
	lines := 0
	if len(p.shown) == 0 {
		b.WriteString(st.noItems.Render("No demos."))
		lines = 1
	}
	for i := page * per; i < min((page+1)*per, len(p.shown)); i++ {
		if lines > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.rowView(i))
		lines += 2
	}
	for ; lines < per*2; lines++ {
		b.WriteString("\n")
	}
	if pages > 1 {
		var dots strings.Builder
		for i := range pages {
			if i == page {
				dots.WriteString(st.activeDot.String())
			} else {
				dots.WriteString(st.inactiveDot.String())
			}
		}
		s := dots.String()
		if ansi.StringWidth(s) > p.w {
			s = st.arabic.Render(fmt.Sprintf("%d/%d", page+1, pages))
		}
		b.WriteString("\n\n")
		b.WriteString(lipgloss.NewStyle().PaddingLeft(2).Render(s))
	}
	return b.String()
}

// statusLine says how many demos are shown and, filtered, what by and how
// many the filter left out.
func (p *demoPicker) statusLine() string {
	n := len(p.shown)
	name := "demos"
	if n == 1 {
		name = "demo"
	}
	var s string
	if f := strings.TrimSpace(p.input.Value()); f != "" {
		s = fmt.Sprintf("“%s” ", ansi.Truncate(f, 10, "…"))
	}
	s += fmt.Sprintf("%d %s", n, name)
	if out := len(p.entries) - n; out > 0 {
		s += p.st.divider.String() + p.st.filterCount.Render(fmt.Sprintf("%d filtered", out))
	}
	return s
}

// rowView is a demo's two lines: the title, its matches underlined, and
// the name and tags, the one under the cursor marked.
func (p *demoPicker) rowView(i int) string {
	st := &p.st
	r := p.shown[i]
	it := demoItem{e: p.entries[r.entry], file: r.entry < p.files}
	width := max(p.w-2, 0)
	title := ansi.Truncate(it.Title(), width, "…")
	desc := ansi.Truncate(it.Description(), width, "…")
	ts, ds := st.title, st.desc
	if i == p.cursor {
		ts, ds = st.selTitle, st.selDesc
	}
	if len(r.matched) > 0 {
		plain := ts.Inline(true)
		title = lipgloss.StyleRunes(title, r.matched, plain.Inherit(st.match), plain)
	}
	return ts.Render(title) + "\n" + ds.Render(desc)
}

// selected is the demo under the cursor ("" when the filter matched none).
func (p *demoPicker) selected() string {
	if p.cursor < len(p.shown) {
		return p.entries[p.shown[p.cursor].entry].Name
	}
	return ""
}

// selectedFile is the path of the file under the cursor, if it is one.
func (p *demoPicker) selectedFile() (string, bool) {
	if p.cursor < len(p.shown) {
		if e := p.shown[p.cursor].entry; e < p.files {
			return p.entries[e].Name, true
		}
	}
	return "", false
}

// notes are what to watch in the demo under the cursor.
func (p *demoPicker) notes() string {
	if p.cursor < len(p.shown) {
		return p.entries[p.shown[p.cursor].entry].Notes
	}
	return "no demo matches; esc goes back"
}

// filter applies the typed text at once: every demo while it is blank,
// else the demos rankedFilter keeps in its order, the cursor on the first.
func (p *demoPicker) filter() {
	p.shown, p.cursor = p.shown[:0], 0
	if strings.TrimSpace(p.input.Value()) == "" {
		for i := range p.entries {
			p.shown = append(p.shown, pickerRow{entry: i})
		}
		return
	}
	targets := make([]string, len(p.entries))
	for i, e := range p.entries {
		targets[i] = demoItem{e: e}.FilterValue()
	}
	p.shown = rankedFilter(p.entries)(p.input.Value(), targets)
}

func (p *demoPicker) up() { p.cursor = max(p.cursor-1, 0) }

func (p *demoPicker) down() { p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0)) }

func (p *demoPicker) prevPage() { p.cursor = max(p.cursor-p.perPage(), 0) }

func (p *demoPicker) nextPage() {
	per := p.perPage()
	if next := (p.cursor/per + 1) * per; next < len(p.shown) {
		p.cursor = min(p.cursor+per, len(p.shown)-1)
	}
}

// rankedFilter keeps and orders the demos as demo.Rank does for what was
// typed (the number of a worked example first, exact above partial), so
// enter opens what the trainer meant; each typed word found in a row's
// text is highlighted.
func rankedFilter(entries []demo.DemoInfo) func(term string, targets []string) []pickerRow {
	return func(term string, targets []string) []pickerRow {
		words := strings.Fields(strings.ToLower(term))
		var out []pickerRow
		for _, i := range demo.Rank(term, entries) {
			if i >= len(targets) {
				continue
			}
			out = append(out, pickerRow{entry: i, matched: highlights(strings.ToLower(targets[i]), words)})
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
	p, err := newDemoPicker(a.pickerCurrent(), a.fileInfos(), a.isDark, a.width-4, a.height)
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
		if path, ok := p.selectedFile(); ok {
			return a, a.openFile(path)
		}
		if name := p.selected(); name != "" {
			return a, a.openDemo(name)
		}
		return a, nil
	case typed(msg):
	case key.Matches(msg, k.Up):
		p.up()
		return a, nil
	case key.Matches(msg, k.Down):
		p.down()
		return a, nil
	case key.Matches(msg, k.ScrollUp):
		p.prevPage()
		return a, nil
	case key.Matches(msg, k.ScrollDown):
		p.nextPage()
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
