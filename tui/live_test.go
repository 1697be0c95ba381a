package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	kvlive "github.com/kvizlab/kviz/live"
	"github.com/kvizlab/kviz/live/livetest"
)

func liveGroup(owners map[string][]int32) *kvlive.Group {
	g := &kvlive.Group{Group: "shop", Type: kvlive.Classic, ProtocolType: "consumer", Protocol: "range", State: "Stable",
		Topics: map[string]int32{"orders": 6}, RebalanceProtocol: "eager"}
	gen := int32(3)
	g.Generation = &gen
	for _, id := range []string{"c1", "c2", "c3"} {
		if ps, ok := owners[id]; ok {
			g.Members = append(g.Members, kvlive.Member{MemberID: id + "-x", ClientID: id, Topics: []string{"orders"},
				Assignment: map[string][]int32{"orders": ps}})
		}
	}
	lag := int64(4)
	g.Offsets = []kvlive.Offset{{Topic: "orders", Partition: 0, Lag: &lag}}
	return g
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
	first, err := kvlive.NewSnapshot(liveGroup(map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}), nil)
	require.NoError(t, err)
	l, err := NewLive(first, "group shop at test:9092", func(context.Context, *kvlive.Snapshot) (*kvlive.Snapshot, error) {
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

	second, err := kvlive.NewSnapshot(liveGroup(map[string][]int32{"c1": {0, 1, 2}, "c3": {3, 4, 5}}), l.stable)
	require.NoError(t, err)
	l = liveDrive(t, l, liveReadMsg{snap: second, at: time.Now()})
	s = liveScreen(l)
	assert.NotContains(t, s, "DISCONNECTED")
	assert.Contains(t, s, "2 members", "the grid follows the cluster")
	assert.Contains(t, s, "2 moved ")
	assert.Contains(t, s, "orders-2 c2→c1")

	// A rebalancing read does not replace the picture.
	mid := liveGroup(map[string][]int32{"c1": {}, "c3": {}})
	mid.State = "PreparingRebalance"
	rebalancing, err := kvlive.NewSnapshot(mid, l.stable)
	require.NoError(t, err)
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

// Against kfake: the live lab's grid follows a member joining.
func TestLiveLabGridFollowsAJoinOnKfake(t *testing.T) {
	c := livetest.Start(t, 6, "orders")
	for _, id := range []string{"c1", "c2"} {
		c.Consumer(t, "g", id, kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	}
	c.WaitStable(t, "g", 2)
	r, err := kvlive.Dial(kvlive.Config{Brokers: c.ListenAddrs(), Timeout: 5 * time.Second})
	require.NoError(t, err)
	defer r.Close()
	read := func(ctx context.Context, prev *kvlive.Snapshot) (*kvlive.Snapshot, error) {
		g, err := r.Group(ctx, "g")
		if err != nil {
			return nil, err
		}
		return kvlive.NewSnapshot(g, prev)
	}
	first, err := read(context.Background(), nil)
	require.NoError(t, err)
	l, err := NewLive(first, "kfake", read, 10*time.Millisecond, 5*time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 100, Height: 30})
	require.Contains(t, liveScreen(l), "2 members")
	c.Consumer(t, "g", "c3", kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(liveScreen(l), "3 members") && time.Now().Before(deadline) {
		_, cmd := l.Update(liveTickMsg{})
		l = liveDrive(t, l, cmd())
		time.Sleep(20 * time.Millisecond)
	}
	s := liveScreen(l)
	require.Contains(t, s, "3 members", s)
	assert.Contains(t, s, "moved ")
	c.AssertSentOnly(t, "kviz", kvlive.ReadOnlyKeys)
}

// A key that recomputes in the background (x) is an experiment on the
// group as read: a read arriving before its result neither replaces the
// simulation it works on nor drops the key.
func TestLiveReadDuringARecomputeKeepsTheKey(t *testing.T) {
	first, err := kvlive.NewSnapshot(liveGroup(map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}), nil)
	require.NoError(t, err)
	l, err := NewLive(first, "group shop at test:9092", nil, time.Second, time.Second)
	require.NoError(t, err)
	l = liveDrive(t, l, tea.WindowSizeMsg{Width: 120, Height: 40})
	m, crash := tea.Model(l).Update(press("x"))
	require.NotNil(t, crash)
	assert.True(t, m.(Live).Imported(), "the key stops following at once")
	second, err := kvlive.NewSnapshot(liveGroup(map[string][]int32{"c1": {0, 1, 2}, "c3": {3, 4, 5}}), l.stable)
	require.NoError(t, err)
	m, _ = m.Update(liveReadMsg{snap: second, at: time.Now()})
	m = deliver(m, crash)
	got := m.(Live).Lab().Scenario()
	require.NotEmpty(t, got.Timeline, "the crash is on the timeline")
	assert.Equal(t, "crash", got.Timeline[len(got.Timeline)-1].Kind)
	assert.Len(t, got.Members, 3, "the simulation is the group as read before the key, not the newer read")
}
