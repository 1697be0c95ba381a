package tui

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// liveSnap is a read of group shop, as kviz live makes it: c1, c2 and c3
// (those in owners) holding partitions of orders (6), Stable at generation
// 3, lag 4 on orders-0, and what moved since prev (nil: the first read).
func liveSnap(t *testing.T, owners map[string][]int32, prev *LiveSnapshot) *LiveSnapshot {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: live-shop\ntopics: {orders: 6}\ngroup: {id: shop, strategy: range, protocol: eager, generation: 3}\nmembers:\n")
	ids := make([]string, 0, len(owners))
	for id := range owners {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "  - {id: %s, member_id: %s-x, topics: [orders], owned: {orders: %s}}\n", id, id, strings.ReplaceAll(fmt.Sprint(owners[id]), " ", ", "))
	}
	sc, err := scenario.Parse("live-shop.yaml", []byte(b.String()))
	require.NoError(t, err)
	lag := int64(4)
	s := &LiveSnapshot{Scenario: sc, State: "Stable", Settled: true, Showable: true,
		Lags: []PartitionLag{{TP: kafka.TP{Topic: "orders", Partition: 0}, Lag: &lag}}}
	if prev != nil {
		s.Changes = kafka.Diff(ownersOf(prev.Scenario), ownersOf(sc))
	}
	return s
}

// ownersOf is who owns what at a given start.
func ownersOf(sc *scenario.Scenario) kafka.Owners {
	out := kafka.Owners{}
	for _, m := range sc.Members {
		for _, tp := range m.Owned {
			out[tp] = m.ID
		}
	}
	return out
}

func liveScreen(l Live) string { return ansi.Strip(l.View().Content) }

func liveDrive(t *testing.T, l Live, msgs ...tea.Msg) Live {
	t.Helper()
	var m tea.Model = l
	for _, msg := range msgs {
		before := requestsOf(m)
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		m = settle(m, before, cmd) // a recompute a key set off
	}
	return m.(Live)
}

func TestLiveLabFollowsReadsAndSurvivesADisconnect(t *testing.T) {
	first := liveSnap(t, map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}, nil)
	l, err := NewLive(first, "group shop at test:9092", func(context.Context, *LiveSnapshot) (*LiveSnapshot, error) {
		return nil, errors.New("unused")
	}, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 120, Height: 40})
	s := liveScreen(l)
	assert.Contains(t, s, "LIVE  group shop at test:9092")
	assert.Contains(t, s, "lag 4: orders-0 4")
	assert.Contains(t, s, "3 members")
	assert.LessOrEqual(t, len(strings.Split(l.View().Content, "\n")), 40, "the live line takes one of the lab's lines")

	l = liveDrive(t, l, liveReadMsg{err: errors.New("cannot reach the cluster at test:9092"), at: time.Now()})
	s = liveScreen(l)
	assert.Contains(t, s, "DISCONNECTED, retrying every 1s")
	assert.Contains(t, s, "3 members", "the last picture stays")

	second := liveSnap(t, map[string][]int32{"c1": {0, 1, 2}, "c3": {3, 4, 5}}, l.stable)
	l = liveDrive(t, l, liveReadMsg{snap: second, at: time.Now()})
	s = liveScreen(l)
	assert.NotContains(t, s, "DISCONNECTED")
	assert.Contains(t, s, "2 members", "the grid follows the cluster")
	assert.Contains(t, s, "2 moved ")
	assert.Contains(t, s, "orders-2 c2→c1")

	// A rebalancing read does not replace the picture.
	rebalancing := liveSnap(t, map[string][]int32{"c1": {}, "c3": {}}, l.stable)
	rebalancing.State, rebalancing.Settled, rebalancing.Showable = "PreparingRebalance", false, false
	l = liveDrive(t, l, liveReadMsg{snap: rebalancing, at: time.Now()})
	assert.Contains(t, liveScreen(l), "group PreparingRebalance: showing the last settled read")
	assert.Contains(t, liveScreen(l), "3 leader", "the last settled picture: c1 holds three")

	// i imports: reads no longer change the simulation, and d answers on it.
	l = liveDrive(t, l, press("i"))
	assert.True(t, l.Imported())
	assert.Contains(t, liveScreen(l), "IMPORTED")
	l = liveDrive(t, l, liveReadMsg{snap: first, at: time.Now()})
	assert.Contains(t, liveScreen(l), "2 members", "imported: the cluster's new read is not shown")
	l = liveDrive(t, l, press("d"))
	assert.NotEmpty(t, l.Lab().Scenario().Timeline, "d inserted a leave into the imported group")
}

// A key that recomputes in the background (x) is an experiment on the
// group as read: a read arriving before its result neither replaces the
// simulation it works on nor drops the key.
func TestLiveReadDuringARecomputeKeepsTheKey(t *testing.T) {
	first := liveSnap(t, map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}, nil)
	l, err := NewLive(first, "group shop at test:9092", nil, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, crash := tea.Model(l).Update(press("x"))
	require.NotNil(t, crash)
	assert.True(t, m.(Live).Imported(), "the key stops following at once")
	second := liveSnap(t, map[string][]int32{"c1": {0, 1, 2}, "c3": {3, 4, 5}}, l.stable)
	m, _ = m.Update(liveReadMsg{snap: second, at: time.Now()})
	m = deliver(m, crash)
	got := m.(Live).Lab().Scenario()
	require.NotEmpty(t, got.Timeline, "the crash is on the timeline")
	assert.Equal(t, "crash", got.Timeline[len(got.Timeline)-1].Kind)
	assert.Len(t, got.Members, 3, "the simulation is the group as read before the key, not the newer read")
}

// Issue 20 item 8: the live lab shows the coordinator the read named, not
// the one the model places from the group id and its own replica placement.
func TestLiveLabShowsTheCoordinatorItRead(t *testing.T) {
	first := liveSnap(t, map[string][]int32{"c1": {0, 1, 2}, "c2": {3, 4, 5}}, nil)
	l, err := NewLive(first, "group shop at test:9092", nil, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 160, Height: 40})
	modelled := l.app.view().CoordinatorBroker
	require.GreaterOrEqual(t, modelled, 0)
	assert.Contains(t, liveScreen(l), fmt.Sprintf("coordinator broker %d · __consumer_offsets-", modelled), "no read coordinator: the model's")

	read := (modelled + 1) % first.Scenario.Brokers
	first.Coordinator = &LiveCoordinator{ID: int32(100 + read), Index: read}
	l, err = NewLive(first, "group shop at test:9092", nil, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 160, Height: 40})
	s := liveScreen(l)
	assert.Contains(t, s, fmt.Sprintf("coordinator broker %d (read) · __consumer_offsets-", 100+read), s)
	assert.NotContains(t, s, fmt.Sprintf("coordinator broker %d ·", modelled))
	bp := l.app.brokers(&model.FlowView{}) // an import has no data path: the pane's own lines
	assert.Equal(t, read, bp.coordinator, "the brokers pane marks the broker read")
	assert.Contains(t, ansi.Strip(bp.summary()), fmt.Sprintf("coordinator broker %d (read)", 100+read))

	// imported, the lab simulates: the model's coordinator again
	l = liveDrive(t, l, tea.KeyPressMsg{Code: 'i', Text: "i"})
	assert.Contains(t, liveScreen(l), fmt.Sprintf("coordinator broker %d · __consumer_offsets-", modelled))
}

// Issue 20 item 11: at 80×24 the live line shows the largest lag, not "…":
// the lag keeps its room, largest partition first, and the source and the
// moves give way.
func TestLiveLineShowsTheLargestLagAt80Columns(t *testing.T) {
	prev := liveSnap(t, map[string][]int32{"c1": {0, 1, 2, 3, 4, 5}}, nil)
	first := liveSnap(t, map[string][]int32{"c1": {0, 1, 2}, "c2": {3, 4, 5}}, prev)
	first.Lags = nil
	for p, n := range []int64{12, 0, 7, 4_000_000_123, 5, 31} {
		first.Lags = append(first.Lags, PartitionLag{TP: kafka.TP{Topic: "orders", Partition: int32(p)}, Lag: &n})
	}
	l, err := NewLive(first, "group shop at kafka1.prod.example.com:9092,kafka2.prod.example.com:9092", nil, time.Second, time.Second)
	require.NoError(t, err)
	l.moved, l.movedAt = first.Changes, time.Now()
	for _, w := range []int{80, 60} {
		l = liveDrive(t, l, tea.WindowSizeMsg{Width: w, Height: 24})
		line := strings.Split(liveScreen(l), "\n")[0]
		assert.Contains(t, line, "lag 4000000178: orders-3 4000000123", "width %d: %q", w, line)
		assert.LessOrEqual(t, textWidth(line), w)
	}
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 300, Height: 24})
	line := strings.Split(liveScreen(l), "\n")[0]
	assert.Contains(t, line, "lag 4000000178: orders-3 4000000123 orders-5 31 orders-0 12 orders-2 7 orders-4 5", "wide: every lagging partition, largest first")
	assert.Contains(t, line, "3 moved")
}
