package keymap

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNoKeyIsBoundTwice(t *testing.T) {
	owner := map[string]string{}
	for _, b := range DefaultKeyMap().All() {
		for _, k := range b.Keys() {
			if prev, dup := owner[k]; dup {
				t.Errorf("key %q is bound to both %q and %q", k, prev, b.Help().Desc)
			}
			owner[k] = b.Help().Desc
		}
	}
}

// Every field of KeyMap must reach the help screen, or a key would work
// without anyone being told about it.
func TestFullHelpListsEveryBinding(t *testing.T) {
	km := DefaultKeyMap()
	v := reflect.ValueOf(km)
	assert.Equal(t, v.NumField(), len(km.All()), "FullHelp must list every KeyMap field once")
	for _, b := range km.All() {
		assert.NotEmpty(t, b.Help().Key)
		assert.NotEmpty(t, b.Help().Desc)
		assert.True(t, b.Enabled())
	}
}

// The keys are a contract: each must match a real key press.
func TestContractKeysMatchRealKeyPresses(t *testing.T) {
	km := DefaultKeyMap()
	press := func(code rune, text string, mod tea.KeyMod) tea.KeyPressMsg {
		return tea.KeyPressMsg{Code: code, Text: text, Mod: mod}
	}
	r := func(c rune) tea.KeyPressMsg { return press(c, string(c), 0) }
	cases := []struct {
		name string
		msg  tea.KeyPressMsg
		want key.Binding
	}{
		{"right", press(tea.KeyRight, "", 0), km.Next},
		{"n", r('n'), km.Next},
		{"space", press(tea.KeySpace, " ", 0), km.Next},
		{"left", press(tea.KeyLeft, "", 0), km.Prev},
		{"b", r('b'), km.Prev},
		{"]", r(']'), km.NextRebalance},
		{"[", r('['), km.PrevRebalance},
		{"p", r('p'), km.Play},
		{"+", r('+'), km.Faster},
		{"-", r('-'), km.Slower},
		{"up", press(tea.KeyUp, "", 0), km.Up},
		{"k", r('k'), km.Up},
		{"down", press(tea.KeyDown, "", 0), km.Down},
		{"j", r('j'), km.Down},
		{"a", r('a'), km.AddMember},
		{"d", r('d'), km.Leave},
		{"x", r('x'), km.Crash},
		{"r", r('r'), km.Restart},
		{"t", r('t'), km.AddPartitions},
		{"m", r('m'), km.RemoveMembers},
		{"u", r('u'), km.Disconnect},
		{"Z", r('Z'), km.Wakeup},
		{"R", r('R'), km.RestartAs},
		{"s", r('s'), km.Strategy},
		{"e", r('e'), km.Protocol},
		{"c", r('c'), km.Compare},
		{"f", r('f'), km.Follow},
		{"v", r('v'), km.SaveFrame},
		{"w", r('w'), km.WhatIf},
		{"z", r('z'), km.Quiz},
		{"1", r('1'), km.Answer},
		{"4", r('4'), km.Answer},
		{"o", r('o'), km.Open},
		{"enter", press(tea.KeyEnter, "", 0), km.Confirm},
		{"esc", press(tea.KeyEscape, "", 0), km.Back},
		{"tab", press(tea.KeyTab, "", 0), km.Pane},
		{"?", r('?'), km.Help},
		{"q", r('q'), km.Quit},
		{"ctrl+c", press('c', "", tea.ModCtrl), km.Quit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.True(t, key.Matches(c.msg, c.want), "%q (%s) should match %q", c.name, c.msg.String(), c.want.Help().Desc)
			for _, other := range km.All() {
				if other.Help() != c.want.Help() {
					assert.False(t, key.Matches(c.msg, other), "%q also matches %q", c.name, other.Help().Desc)
				}
			}
		})
	}
}

func TestShortHelpIsASubsetOfFullHelp(t *testing.T) {
	km := DefaultKeyMap()
	full := map[key.Help]bool{}
	for _, b := range km.All() {
		full[b.Help()] = true
	}
	for _, b := range km.ShortHelp() {
		assert.True(t, full[b.Help()], "%q is in the footer but not in the full help", b.Help().Desc)
	}
}
