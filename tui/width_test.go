package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
	"pgregory.net/rapid"
)

// textWidth must agree with ansi.StringWidth on anything the lab draws,
// styled or not, including ids the user typed.
func TestWidthAgreesWithAnsi(t *testing.T) {
	st := NewStyles(true)
	samples := []string{"", "abc", "orders-12", "▸ A c1 ", "█▓▒░·", "╭─ Grid ─╮", "日本", "👩‍💻 x", "e\u0301",
		"t 12.400 s │ step 7/31 │ ▶ 1×", "→/n/space next step • ←/b", "❚❚ paused"}
	for _, s := range samples {
		for _, styled := range []string{s, st.Title.Render(s), st.brushes.cell[3].paint(s), "\x1b]8;;http://x\x07" + s + "\x1b]8;;\x07"} {
			if got, want := textWidth(styled), ansi.StringWidth(styled); got != want {
				t.Errorf("textWidth(%q) = %d, ansi says %d", styled, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOf(rapid.SampledFrom([]rune("aZ09 -·█▓▒░│─╭╮▸↑↓→←…×–日👍é\u0301"))).Draw(t, "s")
		styled := st.Bad.Render(s)
		if got, want := textWidth(styled), ansi.StringWidth(styled); got != want {
			t.Fatalf("textWidth(%q) = %d, ansi says %d", styled, got, want)
		}
	})
}

func TestWrapBreaksAtSpacesOnly(t *testing.T) {
	got := wrap("calls onPartitionsAssigned([t0-1778, t0-1779])", 36)
	want := []string{"calls onPartitionsAssigned([t0-1778,", "t0-1779])"}
	if len(got) != 2 || got[0] != "calls onPartitionsAssigned([t0-1778," || got[1] != "t0-1779])" {
		t.Fatalf("wrap = %q, want %q", got, want)
	}
	for _, l := range wrap("a verylongwordthatcannotfit here", 8) {
		if textWidth(l) > 8 {
			t.Fatalf("line %q wider than 8", l)
		}
	}
	if got := wrap("", 10); len(got) != 1 || got[0] != "" {
		t.Fatalf("empty text: %q", got)
	}
}

func TestWrapKeepsSpacingInsideALine(t *testing.T) {
	got := wrap("   t0-2 B c2→A c1   t0-3 B c2→A c1", 40)
	if len(got) != 1 || got[0] != "   t0-2 B c2→A c1   t0-3 B c2→A c1" {
		t.Fatalf("wrap = %q", got)
	}
	got = wrap("   aaa bbb   ccc", 9)
	if len(got) != 2 || got[0] != "   aaa" || got[1] != "bbb   ccc" {
		t.Fatalf("wrap = %q", got)
	}
}
