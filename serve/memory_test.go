package serve

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

// BenchmarkSessionMemory opens b.N sessions on the default demo, each
// stepping (and, in own-event, inserting an event: its own fork of the
// timeline), and
// reports the heap each one holds while they are all open. The clients
// live in the same process and are counted too, so the figure is an upper
// bound. Run: go test ./serve -run X -bench SessionMemory -benchtime 50x
func BenchmarkSessionMemory(b *testing.B) {
	b.Run("stepping", func(b *testing.B) { benchSessions(b, "n", "n", "n", "n") })
	b.Run("own-event", func(b *testing.B) { benchSessions(b, "n", "n", "a", "\r", "\r", "n", "n") })
}

func benchSessions(b *testing.B, keys ...string) {
	r := startRoom(b, Config{MaxSessions: b.N + 2})
	open := func() {
		c, err := dial(b, r.addr, nil)
		require.NoError(b, err)
		require.NoError(b, c.sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}))
		stdin, _ := c.sess.StdinPipe()
		stdout, _ := c.sess.StdoutPipe()
		require.NoError(b, c.sess.Shell())
		go func() { _, _ = io.Copy(io.Discard, stdout) }()
		for _, k := range keys {
			_, _ = io.WriteString(stdin, k)
			time.Sleep(5 * time.Millisecond)
		}
	}
	open() // warms what sessions share (the demo's views, styles), not counted
	time.Sleep(300 * time.Millisecond)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		open()
	}
	b.StopTimer()
	time.Sleep(time.Second) // the last keys reach their labs, and the frames their clients
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	require.Equal(b, b.N+1, r.srv.Room().Len())
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(b.N), "heap-B/session")
	b.ReportMetric(float64(runtime.NumGoroutine())/float64(b.N), "goroutines/session")
}
