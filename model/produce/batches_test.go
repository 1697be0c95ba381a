package produce

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The sender takes a full batch at once, a lingering one when linger.ms
// runs out, and with a ready broker also every other partition's first
// batch it leads (drain), each with its reason.
func TestSendReasons(t *testing.T) {
	sim := NewSim(1)
	require.NoError(t, sim.AddTopic("t", 2))
	require.NoError(t, sim.SetLeaders("t", []int{0, 0}))
	linger := 1000
	p, err := sim.AddProducer(ProducerConfig{Topic: "t", LingerMs: &linger, BatchSize: 1024})
	require.NoError(t, err)
	require.NoError(t, p.SendTo([]byte("k"), 1, 1))
	require.NoError(t, sim.Advance(10))
	parts, n := p.QueuedPartitions(-1)
	require.Equal(t, []int{1}, parts)
	require.Equal(t, 1, n)
	q := p.Queue(1)
	require.Len(t, q, 1)
	require.Equal(t, BatchView{Records: 1, Bytes: q[0].Bytes, AgeMs: 10, LingerLeftMs: 990}, q[0])
	_, sent := p.LastSent()
	require.False(t, sent, "nothing is sent while it lingers")

	require.NoError(t, p.SendTo([]byte("k"), 0, 20)) // more than 1024 bytes: p0's first batch is full
	require.NoError(t, sim.Advance(1))
	last, ok := p.LastSent()
	require.True(t, ok)
	require.Equal(t, 1, last.Partition, "p1's lingering batch goes with broker 0's drain")
	require.Equal(t, SentWithBroker, last.Why)
	parts, _ = p.QueuedPartitions(-1)
	require.Equal(t, []int{0}, parts, "p0 still holds the batch begun behind the full one")
	require.Equal(t, int64(2), p.BatchesSent())

	require.NoError(t, sim.Advance(int64(linger)))
	last, _ = p.LastSent()
	require.Equal(t, SentLinger, last.Why)
	_, n = p.QueuedPartitions(0)
	require.Zero(t, n)
}
