package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// screens are the lab's screens, each reached by real key presses from a
// fresh app on the scripted model. `go test ./tui -update` refreshes them.
var screens = []struct {
	name string
	keys []string
}{
	{"start", nil},
	{"assigned", []string{"n", "n"}},
	{"eager_revoke", []string{"]", "n"}},
	{"after_join", []string{"G"}},
	{"numbers_pane", []string{"G", "tab", "tab"}},
	{"help", []string{"?"}},
	{"compare", []string{"n", "n", "n", "c"}},
	{"what_if", []string{"n", "n", "n", "j", "w"}},
	{"inserted_leave", []string{"n", "n", "n", "j", "d", "n", "n"}},
}

func TestGoldenScreens(t *testing.T) {
	for _, sc := range screens {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				a := fakeApp(t, size[0], size[1])
				a, _ = drive(t, a, keys(sc.keys...)...)
				assertFits(t, a, size[0], size[1])
				golden.RequireEqual(t, ansi.Strip(a.View().Content))
			})
		}
	}
}

func TestGoldenTooSmall(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 50, Height: 12})
	golden.RequireEqual(t, ansi.Strip(a.View().Content))
}

// One golden per theme with the escape sequences kept: lipgloss renders
// full colour whatever the terminal, so these are stable and show what
// changes between a dark and a light background.
func TestGoldenThemes(t *testing.T) {
	for _, theme := range []struct {
		name string
		dark bool
	}{{"dark", true}, {"light", false}} {
		t.Run(theme.name, func(t *testing.T) {
			a := fakeApp(t, 80, 24)
			a, _ = drive(t, a, keys("n", "n", "]", "n")...)
			a.setTheme(theme.dark, false)
			golden.RequireEqual(t, a.View().Content)
		})
	}
}
