package tui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// textField is the one-line text field of the prompts and the demo picker:
// a prompt, the text with a steady cursor (a blinking one would need a
// timer running under every screen), a placeholder while it is empty, and
// the editing keys of bubbles' textinput (which kviz used before): left,
// right, home, end and their ctrl/alt forms, backspace, delete, word moves
// and deletes, ctrl+k and ctrl+u, and a terminal's paste. It is kviz's own
// so that the lab does not link bubbles' textinput, whose clipboard
// package searches $PATH for clipboard tools at every kviz start (issue
// 25); the system clipboard's ctrl+v is the one key it does not have (a
// terminal's own paste arrives as a paste and is taken).
type textField struct {
	Prompt      string
	Placeholder string
	value       []rune
	pos         int // the cursor, in runes
	width       int // cells for the text; 0: as wide as the text
	offset      int // the first rune shown when the text is wider than width
	styles      fieldStyles
}

type fieldStyles struct {
	prompt, text, placeholder, cursor lipgloss.Style
}

// newField is a field styled for a dark or light terminal.
func newField(isDark bool) textField {
	faint := lipgloss.LightDark(isDark)(lipgloss.Color("240"), lipgloss.Color("240"))
	return textField{styles: fieldStyles{
		placeholder: lipgloss.NewStyle().Foreground(faint),
		cursor:      lipgloss.NewStyle().Foreground(lipgloss.Color("7")).Reverse(true),
	}}
}

// Value is the text typed.
func (f *textField) Value() string { return string(f.value) }

// SetValue replaces the text; the cursor stays where it was, within it.
func (f *textField) SetValue(s string) {
	f.value = []rune(s)
	f.pos = min(f.pos, len(f.value))
	f.scroll()
}

// CursorEnd puts the cursor after the last rune.
func (f *textField) CursorEnd() {
	f.pos = len(f.value)
	f.scroll()
}

// SetWidth is how many cells the text may take.
func (f *textField) SetWidth(w int) {
	f.width = max(w, 0)
	f.scroll()
}

// Update edits the text for a key press or a paste; anything else is left
// alone. It never asks for a command.
func (f textField) Update(msg tea.Msg) (textField, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		f.insert(msg.Content)
	case tea.KeyPressMsg:
		f.key(msg)
	}
	f.scroll()
	return f, nil
}

func (f *textField) key(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "left", "ctrl+b":
		f.pos = max(f.pos-1, 0)
	case "right", "ctrl+f":
		f.pos = min(f.pos+1, len(f.value))
	case "home", "ctrl+a":
		f.pos = 0
	case "end", "ctrl+e":
		f.pos = len(f.value)
	case "alt+left", "ctrl+left", "alt+b":
		f.pos = f.wordStart()
	case "alt+right", "ctrl+right", "alt+f":
		f.pos = f.wordEnd()
	case "backspace", "ctrl+h":
		if f.pos > 0 {
			f.value = append(f.value[:f.pos-1], f.value[f.pos:]...)
			f.pos--
		}
	case "delete", "ctrl+d":
		if f.pos < len(f.value) {
			f.value = append(f.value[:f.pos], f.value[f.pos+1:]...)
		}
	case "ctrl+w", "alt+backspace":
		from := f.wordStart()
		f.value = append(f.value[:from], f.value[f.pos:]...)
		f.pos = from
	case "alt+d", "alt+delete":
		to := f.wordEnd()
		f.value = append(f.value[:f.pos], f.value[to:]...)
	case "ctrl+k":
		f.value = f.value[:f.pos]
	case "ctrl+u":
		f.value = f.value[f.pos:]
		f.pos = 0
	default:
		if msg.Text != "" {
			f.insert(msg.Text)
		}
	}
}

// insert types s at the cursor, without its control characters (a pasted
// newline or tab becomes a space, as a one-line field must have it).
func (f *textField) insert(s string) {
	var rs []rune
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			rs = append(rs, ' ')
		case unicode.IsControl(r):
		default:
			rs = append(rs, r)
		}
	}
	tail := append(rs, f.value[f.pos:]...)
	f.value = append(f.value[:f.pos:f.pos], tail...)
	f.pos += len(rs)
}

// wordStart is where the word before the cursor starts (spaces before it
// skipped first).
func (f *textField) wordStart() int {
	i := f.pos
	for i > 0 && unicode.IsSpace(f.value[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(f.value[i-1]) {
		i--
	}
	return i
}

// wordEnd is where the word after the cursor ends.
func (f *textField) wordEnd() int {
	i := f.pos
	for i < len(f.value) && unicode.IsSpace(f.value[i]) {
		i++
	}
	for i < len(f.value) && !unicode.IsSpace(f.value[i]) {
		i++
	}
	return i
}

// scroll keeps the cursor inside the shown cells.
func (f *textField) scroll() {
	f.offset = min(f.offset, f.pos)
	if f.width <= 0 {
		f.offset = 0
		return
	}
	// The cursor takes a cell of its own after the last rune.
	for f.offset < f.pos && runesWidth(f.value[f.offset:f.pos])+1 > f.width {
		f.offset++
	}
}

func runesWidth(rs []rune) int { return ansi.StringWidth(string(rs)) }

// View is the prompt and the text, the cursor drawn in reverse video.
func (f textField) View() string {
	st := &f.styles
	var b strings.Builder
	b.WriteString(st.prompt.Render(f.Prompt))
	if len(f.value) == 0 && f.Placeholder != "" {
		ph := []rune(f.Placeholder)
		rest := string(ph[1:])
		if f.width > 0 {
			rest = ansi.Truncate(rest, max(f.width-1, 0), "")
		}
		b.WriteString(st.cursor.Render(string(ph[:1])))
		b.WriteString(st.placeholder.Render(rest))
		return b.String()
	}
	shown := f.value[f.offset:]
	if f.width > 0 {
		n, w := 0, 0
		for n < len(shown) {
			rw := ansi.StringWidth(string(shown[n]))
			if w+rw > f.width {
				break
			}
			w += rw
			n++
		}
		shown = shown[:n]
	}
	at := f.pos - f.offset
	b.WriteString(st.text.Render(string(shown[:min(at, len(shown))])))
	if at < len(shown) {
		b.WriteString(st.cursor.Render(string(shown[at])))
		b.WriteString(st.text.Render(string(shown[at+1:])))
	} else {
		b.WriteString(st.cursor.Render(" "))
	}
	return b.String()
}
