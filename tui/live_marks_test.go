package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model/kafka"
)

// rowOf is the grid line of a member's row or the grid's own rows.
func rowOf(screen, label string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, label) {
			return line
		}
	}
	return ""
}

// The live lab marks in the grid itself the owners that changed since the
// previous read (+ on the new owner's cell, * on the status row) and draws
// each partition's lag under it, as the snapshot reported it; an import
// (i) is a simulation and shows neither.
func TestLiveMarksShowChangedOwnersAndLagPerCell(t *testing.T) {
	first := liveSnap(t, map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}, nil)
	l, err := NewLive(first, "group shop at test:9092", func(context.Context, *LiveSnapshot) (*LiveSnapshot, error) {
		return nil, errors.New("unused")
	}, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 120, Height: 40})
	s := liveScreen(l)
	require.Regexp(t, `lag +4 +\? +\?`, rowOf(s, "  lag "), s)
	require.NotContains(t, rowOf(s, "status"), "*", "nothing moved before a second read")

	moved := map[string][]int32{"c1": {0, 1, 2}, "c3": {3, 4, 5}}
	second := liveSnap(t, moved, l.stable)
	second.Lags = nil
	for p, n := range []int64{0, 12, 1500, 7, 0, 999_999} {
		second.Lags = append(second.Lags, PartitionLag{TP: kafka.TP{Topic: "orders", Partition: int32(p)}, Lag: &n})
	}
	l = liveDrive(t, l, liveReadMsg{snap: second, at: time.Now()})
	for _, c := range []struct {
		w, h int
		lag  string
	}{{120, 40, `lag +0 +12 +1500 +7 +0 +999999`}, {80, 24, `lag +0 +12 +1k +7 +0 +…`}} {
		l = liveDrive(t, l, tea.WindowSizeMsg{Width: c.w, Height: c.h})
		s := liveScreen(l)
		lines := strings.Split(s, "\n")
		require.LessOrEqual(t, len(lines), c.h, s)
		require.Regexp(t, `A +A +\+A +· +· +·`, rowOf(s, "A c1 "), "%dx%d: c1 took orders-2\n%s", c.w, c.h, s)
		require.Regexp(t, `· +· +· +\+B +B +B`, rowOf(s, "B c3 "), "%dx%d: c3 took orders-3\n%s", c.w, c.h, s)
		require.Regexp(t, `status +\* +\*\s*│`, rowOf(s, "status"), s)
		require.Regexp(t, c.lag, rowOf(s, "  lag "), s)
		for _, line := range lines {
			require.LessOrEqual(t, textWidth(line), c.w, "%q", line)
		}
	}
	// A quiet read keeps the last move marked (the live line says when),
	// while it still holds.
	third := liveSnap(t, moved, l.stable)
	third.Lags = second.Lags
	l = liveDrive(t, l, liveReadMsg{snap: third, at: time.Now().Add(time.Second)})
	s = liveScreen(l)
	require.Regexp(t, `A +A +\+A`, rowOf(s, "A c1 "), s)
	l = liveDrive(t, l, tea.KeyPressMsg{Code: 'i', Text: "i"})
	s = liveScreen(l)
	require.Contains(t, s, "IMPORTED")
	require.Empty(t, rowOf(s, "  lag "), "an import is a simulation: no live lag\n%s", s)
	require.NotContains(t, rowOf(s, "A c1 "), "+A")
}

func TestShortCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		w    int
		want string
	}{{7, 2, "7"}, {950, 3, "950"}, {1500, 2, "1k"}, {1_234_567, 4, "1.2M"}, {1500, 3, "1k"}, {15_000, 4, "15k"}, {34_567, 3, "34k"}, {999_999, 4, "999k"},
		{999_999, 2, "…"}, {5_200_000, 4, "5.2M"}, {12_000_000_000, 3, "12G"}, {10, 1, "…"}} {
		require.Equal(t, c.want, shortCount(c.n, c.w), "%d in %d", c.n, c.w)
	}
}
