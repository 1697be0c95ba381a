package cli

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live"
)

// Against kfake: the live lab, wired to package live as kviz live wires it,
// follows a member joining, and says what the join moved (each read is
// compared with the one before through the snapshot's origin).
func TestLiveLabGridFollowsAJoinOnKfake(t *testing.T) {
	c, _ := rangeGroup(t, "c1", "c2")
	r, err := live.Dial(live.Config{Brokers: c.ListenAddrs(), Timeout: 5 * time.Second})
	require.NoError(t, err)
	defer r.Close()
	src := liveSource{Group: "g", Brokers: "kfake", Interval: 10 * time.Millisecond, Timeout: 5 * time.Second,
		Read: func(ctx context.Context) (*live.Group, error) { return r.Group(ctx, "g") }}
	l, err := newLiveLab(context.Background(), io.Discard, src)
	require.NoError(t, err)
	var m tea.Model = l
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	screen := func() string { return ansi.Strip(m.View().Content) }
	require.Contains(t, screen(), "2 members")
	require.Contains(t, screen(), "LIVE  group g at kfake")
	c.Consumer(t, "g", "c3", kgo.ConsumeTopics("orders"), kgo.Balancers(kgo.RangeBalancer()))
	queue := []tea.Cmd{m.Init()}
	deadline := time.Now().Add(15 * time.Second)
	for len(queue) > 0 && !strings.Contains(screen(), "3 members") && time.Now().Before(deadline) {
		cmd := queue[0]
		queue = queue[1:]
		for _, msg := range cmdResults(cmd) {
			var next tea.Cmd
			m, next = m.Update(msg)
			if next != nil {
				queue = append(queue, next)
			}
		}
	}
	s := screen()
	require.Contains(t, s, "3 members", s)
	assert.Contains(t, s, "moved ")
	c.AssertSentOnly(t, "kviz", live.ReadOnlyKeys)
}
