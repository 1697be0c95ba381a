package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"pgregory.net/rapid"

	"github.com/kvizlab/kviz/model"
)

// Any size, any sequence of keys: the frame fits the terminal and nothing
// panics (the recover in Update or View would show as a message).
func TestAnyKeysAnySizeFits(t *testing.T) {
	all := []string{"n", "b", "]", "[", "g", "G", "p", "+", "-", "j", "k", "a", "d", "x", "r", "t",
		"s", "e", "c", "w", "o", "tab", "?", "esc", "enter", "space", "left", "right", "up", "down"}
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.IntRange(60, 220).Draw(t, "w")
		h := rapid.IntRange(20, 70).Draw(t, "h")
		fakeErr = nil
		app := newApp(newFakeSim(fakeScenario()))
		app.simulate = simulateFake
		var m tea.Model = app
		m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		var late []tea.Msg // results of background work not delivered yet
		for _, k := range rapid.SliceOfN(rapid.SampledFrom(all), 0, 25).Draw(t, "keys") {
			var cmd tea.Cmd
			before := requestsOf(m)
			m, cmd = m.Update(press(k))
			if requestsOf(m) != before {
				// The work runs (a newer job may wait for it); its results
				// come now, after a later key, or never.
				late = append(late, results(cmd)...)
			}
			for len(late) > 0 && rapid.Bool().Draw(t, "deliver") {
				if rapid.IntRange(0, 9).Draw(t, "drop") > 0 {
					m = deliver(m, func() tea.Msg { return late[0] })
				}
				late = late[1:]
			}
			if a := m.(App); a.statusBad && strings.HasPrefix(a.status, "internal error") {
				t.Fatalf("Update panicked: %s", a.status)
			}
			content := m.View().Content
			if strings.Contains(content, "could not draw") {
				t.Fatalf("View panicked:\n%s", ansi.Strip(content))
			}
			lines := strings.Split(content, "\n")
			if len(lines) > h {
				t.Fatalf("%d lines at height %d after %q", len(lines), h, k)
			}
			for i, l := range lines {
				if textWidth(l) > w {
					t.Fatalf("line %d is %d wide at width %d after %q: %q", i, textWidth(l), w, k, ansi.Strip(l))
				}
			}
		}
	})
}

// panicSim breaks on View, as a model bug might on some scenario.
type panicSim struct{ *fakeSim }

func (p panicSim) View(i int) *model.GroupView {
	if i == 1 {
		panic("view exploded")
	}
	return p.fakeSim.View(i)
}

// A panic while drawing or updating is shown, not fatal: the program goes
// on and the terminal is never left raw.
func TestPanicsAreContained(t *testing.T) {
	a := newApp(panicSim{newFakeSim(fakeScenario())})
	a, _ = drive(t, a, tea.WindowSizeMsg{Width: 80, Height: 24})
	a, _ = drive(t, a, press("n"))
	out := ansi.Strip(a.View().Content)
	if !strings.Contains(out, "could not draw this step: view exploded") {
		t.Fatalf("no message for a panic in View:\n%s", out)
	}
	a, _ = drive(t, a, press("w")) // what-if reads the view in Update
	if !strings.Contains(a.status, "internal error: view exploded") {
		t.Fatalf("no status for a panic in Update: %q", a.status)
	}
	a, _ = drive(t, a, press("b"))
	if strings.Contains(ansi.Strip(a.View().Content), "could not draw") {
		t.Fatal("stepping back to a good step draws again")
	}
}

// Without colour (NO_COLOR, dumb terminals) held cells switch to reverse
// video, so a held run still reads as a solid bar; glyphs carry the rest.
func TestNoColorProfileUsesReverseVideo(t *testing.T) {
	a := fakeApp(t, 80, 24)
	a, _ = drive(t, a, keys("n", "n", "n")...)
	a, _ = drive(t, a, tea.ColorProfileMsg{Profile: colorprofile.Ascii})
	if !a.styles.NoColor {
		t.Fatal("an Ascii profile must switch to the no-colour styles")
	}
	if got := newBrush(a.styles.MemberCell(0)).pre; !strings.Contains(got, "7") {
		t.Fatalf("held cells should use reverse video (SGR 7), got %q", got)
	}
	a, _ = drive(t, a, tea.BackgroundColorMsg{Color: lightGray})
	if !a.styles.NoColor {
		t.Fatal("a background reply must not bring colour back")
	}
	a, _ = drive(t, a, tea.ColorProfileMsg{Profile: colorprofile.TrueColor})
	if a.styles.NoColor {
		t.Fatal("a colour profile restores colour styles")
	}
}
