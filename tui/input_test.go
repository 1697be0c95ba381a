package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
)

func fieldKeys(f textField, ks ...string) textField {
	for _, k := range ks {
		if len([]rune(k)) == 1 {
			f, _ = f.Update(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
			continue
		}
		f, _ = f.Update(press(k))
	}
	return f
}

// The field edits as bubbles' textinput did: typing at the cursor, the
// cursor keys, word deletes and moves, ctrl+k/ctrl+u, and a paste.
func TestTextFieldEdits(t *testing.T) {
	f := newField(true)
	f = fieldKeys(f, "o", "r", "d", "e", "r", "s")
	assert.Equal(t, "orders", f.Value())
	f = fieldKeys(f, "home", "x", "right", "backspace")
	assert.Equal(t, "xrders", f.Value(), "typed at the cursor, backspace before it")
	f = fieldKeys(f, "end", "space", "t", "0", "ctrl+w")
	assert.Equal(t, "xrders ", f.Value(), "ctrl+w deletes the word before the cursor")
	f = fieldKeys(f, "ctrl+a", "delete")
	assert.Equal(t, "rders ", f.Value())
	f = fieldKeys(f, "alt+right", "ctrl+k")
	assert.Equal(t, "rders", f.Value(), "ctrl+k cuts to the end")
	f = fieldKeys(f, "left", "left", "ctrl+u")
	assert.Equal(t, "rs", f.Value(), "ctrl+u cuts to the start")
	f, _ = f.Update(tea.PasteMsg{Content: "a\nb"})
	assert.Equal(t, "a brs", f.Value(), "a paste is typed, its newline a space")
	f = fieldKeys(f, "alt+left", "alt+d")
	assert.Equal(t, "a ", f.Value(), "alt+left goes to the word start, alt+d deletes the word")
}

// The view is the prompt, the text and the cursor, scrolled so the cursor
// stays inside the width; an empty field shows its placeholder.
func TestTextFieldView(t *testing.T) {
	f := newField(true)
	f.Prompt = "id: "
	f.Placeholder = "a member"
	assert.Equal(t, "id: a member", ansi.Strip(f.View()))
	f.SetValue("c1")
	f.CursorEnd()
	assert.Equal(t, "id: c1 ", ansi.Strip(f.View()), "the cursor after the text is a cell")
	f.SetWidth(5)
	f.SetValue(strings.Repeat("x", 12) + "yz")
	f.CursorEnd()
	assert.Equal(t, "id: xxyz ", ansi.Strip(f.View()), "scrolled to the cursor")
	f = fieldKeys(f, "home")
	assert.Equal(t, "id: xxxxx", ansi.Strip(f.View()))
}

// pgdown and pgup move the picker's cursor by a page; the status line says
// how many demos the filter keeps.
func TestPickerPages(t *testing.T) {
	p, err := newDemoPicker("", nil, true, 80, 12)
	if err != nil {
		t.Fatal(err)
	}
	per := p.perPage()
	assert.Less(t, per, len(p.entries), "several pages at 12 lines")
	p.nextPage()
	assert.Equal(t, per, p.cursor)
	p.prevPage()
	assert.Equal(t, 0, p.cursor)
	assert.Contains(t, ansi.Strip(strings.Join(p.view(), "\n")), "•")
	p.input.SetValue("failover")
	p.filter()
	out := ansi.Strip(strings.Join(p.view(), "\n"))
	assert.Contains(t, out, "“failover”")
	assert.Contains(t, out, "filtered")
	assert.Equal(t, "example-11-failover", p.selected())
}
