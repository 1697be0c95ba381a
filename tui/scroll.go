package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/keymap"
)

// The producer and broker panes scroll (issue 19): with the producer pane
// in focus, ↑/↓ move their rows by one and pgup/pgdown by ten, and the
// last line of a pane says where it is, so nothing an example is about
// waits for a taller terminal.

// scrollMax is how far n lines scroll in room rows, one of which says
// where the window is.
func scrollMax(n, room int) int {
	if n <= room {
		return 0
	}
	return max(n-max(room-1, 1), 0)
}

// scrolled is the window of lines shown in room rows from off: all of them
// if they fit, else room-1 of them and a line saying which.
func scrolled(lines []string, room, off int, w int, st *Styles) []string {
	if room <= 0 {
		return nil
	}
	if len(lines) <= room {
		return lines
	}
	show := max(room-1, 1)
	off = max(min(off, len(lines)-show), 0)
	out := append([]string(nil), lines[off:off+show]...)
	if room == 1 {
		return out
	}
	rows := fmt.Sprintf("rows %d–%d of %d", off+1, off+show, len(lines))
	more := ""
	if off+show < len(lines) {
		more = fmt.Sprintf("↓ %d more · ", len(lines)-off-show)
	}
	mark := firstFit(w, more+rows+" · ↑/↓ pgup/pgdn scroll", more+rows+" · ↑↓ scroll", more+"↑↓ scroll", "↑↓ scroll")
	return append(out, st.brushes.faint.paint(mark))
}

// flowDelta is how many rows a scrolling key moves.
func flowDelta(k *keymap.KeyMap, msg tea.KeyPressMsg) int {
	switch {
	case key.Matches(msg, k.Up):
		return -1
	case key.Matches(msg, k.Down):
		return 1
	case key.Matches(msg, k.ScrollUp):
		return -10
	}
	return 10
}

// scrollFlow moves the producer and broker panes' rows by delta, within
// what the last frame could show.
func (a *App) scrollFlow(delta int) {
	a.flowScroll = max(min(a.flowScroll+delta, a.memo.flowMax), 0)
}
