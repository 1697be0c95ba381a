// Package livetest starts kfake clusters with real franz-go consumers for
// kviz live's tests, and records every request the cluster receives by the
// client id in its header, so a test can assert what kviz sent.
package livetest

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// wire records every request the cluster receives, by the client id in its
// header: kfake's listener hook sees the bytes before kfake parses them, so
// kviz's requests are told apart from the consumers' exactly.
type wire struct {
	mu    sync.Mutex
	keys  map[string][]int16 // client id -> request keys, in order
	down  bool               // an outage: every connection is cut, new ones closed at once
	conns map[*wireConn]bool
}

func (w *wire) listen(network, address string) (net.Listener, error) {
	l, err := net.Listen(network, address)
	if err != nil {
		return nil, err
	}
	return &wireListener{Listener: l, w: w}, nil
}

func (w *wire) sent(clientID string) []int16 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.keys[clientID])
}

type wireListener struct {
	net.Listener
	w *wire
}

func (l *wireListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go l.w.parse(pr)
	wc := &wireConn{Conn: c, tee: pw, w: l.w}
	l.w.mu.Lock()
	defer l.w.mu.Unlock()
	if l.w.down {
		_ = c.Close()
		_ = pw.Close()
		return wc, nil
	}
	if l.w.conns == nil {
		l.w.conns = map[*wireConn]bool{}
	}
	l.w.conns[wc] = true
	return wc, nil
}

// setDown starts (true) or ends an outage.
func (w *wire) setDown(down bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.down = down
	if !down {
		return
	}
	for c := range w.conns {
		_ = c.Conn.Close()
	}
	w.conns = nil
}

type wireConn struct {
	net.Conn
	tee *io.PipeWriter
	w   *wire
}

func (c *wireConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		_, _ = c.tee.Write(b[:n])
	}
	if err != nil {
		_ = c.tee.CloseWithError(err)
	}
	return n, err
}

func (c *wireConn) Close() error {
	c.w.mu.Lock()
	delete(c.w.conns, c)
	c.w.mu.Unlock()
	_ = c.tee.Close()
	return c.Conn.Close()
}

// parse reads request frames: size, api key, version, correlation id,
// nullable client id.
func (w *wire) parse(r io.Reader) {
	defer io.Copy(io.Discard, r) //nolint:errcheck // drain so the conn never blocks
	var size [4]byte
	for {
		if _, err := io.ReadFull(r, size[:]); err != nil {
			return
		}
		frame := make([]byte, binary.BigEndian.Uint32(size[:]))
		if _, err := io.ReadFull(r, frame); err != nil || len(frame) < 10 {
			return
		}
		key := int16(binary.BigEndian.Uint16(frame[0:2]))
		idLen := int16(binary.BigEndian.Uint16(frame[8:10]))
		id := ""
		if idLen > 0 && int(idLen) <= len(frame)-10 {
			id = string(frame[10 : 10+int(idLen)])
		}
		w.mu.Lock()
		if w.keys == nil {
			w.keys = map[string][]int16{}
		}
		w.keys[id] = append(w.keys[id], key)
		w.mu.Unlock()
	}
}

// Cluster is a kfake cluster with its request recorder.
type Cluster struct {
	*kfake.Cluster
	wire *wire
}

// Outage cuts every connection to the cluster and refuses new ones (down
// true) until it is called with false: a broker outage as clients see it.
func (c *Cluster) Outage(down bool) { c.wire.setDown(down) }

// Sent lists the request keys a client (by client id) sent, in order.
func (c *Cluster) Sent(clientID string) []int16 { return c.wire.sent(clientID) }

// Start starts kfake on loopback with the given topics and stops it when
// the test ends.
func Start(t testing.TB, partitions int32, topics ...string) *Cluster {
	t.Helper()
	w := &wire{}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(partitions, topics...), kfake.ListenFn(w.listen),
		kfake.GroupMinSessionTimeout(100*time.Millisecond),
		// KIP-848 members heartbeat at the broker's interval (5 s by
		// default), share members too (group.share.heartbeat.interval.ms).
		kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "100", "group.share.heartbeat.interval.ms": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &Cluster{Cluster: c, wire: w}
}

// Consumer is a running franz-go group consumer.
type Consumer struct {
	*kgo.Client
	stop func()
	net  *cutter
}

// Crash cuts the consumer off the cluster as a process dying does: its
// connections close, it cannot dial again and sends nothing more (no
// LeaveGroup), so the coordinator removes it when its session expires.
func (c *Consumer) Crash() { c.net.cut() }

// cutter dials for one client and can cut it off.
type cutter struct {
	mu    sync.Mutex
	down  bool
	conns []net.Conn
}

func (k *cutter) dial(ctx context.Context, network, host string) (net.Conn, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.down {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("crashed")}
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, host)
	if err == nil {
		k.conns = append(k.conns, conn)
	}
	return conn, err
}

func (k *cutter) cut() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.down = true
	for _, c := range k.conns {
		_ = c.Close()
	}
}

// Stop closes the consumer: it leaves the group.
func (c *Consumer) Stop() { c.stop() }

// Consumer starts a real franz-go group consumer polling in the
// background; Stop (or the test's end) closes it.
func (c *Cluster) Consumer(t testing.TB, group, clientID string, opts ...kgo.Opt) *Consumer {
	t.Helper()
	return c.consumer(t, []kgo.Opt{kgo.ConsumerGroup(group), kgo.SessionTimeout(2 * time.Second), kgo.HeartbeatInterval(100 * time.Millisecond),
		kgo.DisableAutoCommit()}, clientID, opts)
}

// ShareConsumer starts a real franz-go share consumer (KIP-932) of group
// polling in the background, acknowledging what it polls; Stop (or the
// test's end) closes it, which leaves the group.
func (c *Cluster) ShareConsumer(t testing.TB, group, clientID string, opts ...kgo.Opt) *Consumer {
	t.Helper()
	return c.consumer(t, []kgo.Opt{kgo.ShareGroup(group)}, clientID, opts)
}

func (c *Cluster) consumer(t testing.TB, kind []kgo.Opt, clientID string, opts []kgo.Opt) *Consumer {
	t.Helper()
	k := &cutter{}
	base := append([]kgo.Opt{kgo.SeedBrokers(c.ListenAddrs()...), kgo.ClientID(clientID), kgo.Dialer(k.dial)}, kind...)
	cl, err := kgo.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	// A group consumer joins from its poll loop.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done; cl.Close() }) }
	t.Cleanup(stop)
	return &Consumer{Client: cl, stop: stop, net: k}
}

// WaitStable waits until the group is Stable with members members holding
// partitions, and still at that generation a moment later.
func (c *Cluster) WaitStable(t testing.TB, group string, members int) *kfake.GroupInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	stable := func(g *kfake.GroupInfo) bool {
		return g != nil && g.State == "Stable" && len(g.Members) == members && g.NumAssigned() > 0
	}
	for {
		gi, err := c.WaitGroupInfo(ctx, group, stable)
		if err != nil {
			t.Fatalf("group %s never became stable with %d members: %v (last %+v)", group, members, err, gi)
		}
		// A cooperative group is Stable between the two rebalances of a
		// move (the revoking one and the one that hands the partition
		// over): settled means the same generation a moment later.
		select {
		case <-ctx.Done():
			t.Fatalf("group %s never stayed stable with %d members (last %+v)", group, members, gi)
		case <-time.After(300 * time.Millisecond):
		}
		if again := c.GroupInfo(group); stable(again) && again.Epoch == gi.Epoch {
			return again
		}
	}
}

// AssertSentOnly fails the test unless clientID sent something, and only
// requests of the allowed keys.
func (c *Cluster) AssertSentOnly(t testing.TB, clientID string, allowed []int16) {
	t.Helper()
	sent := c.Sent(clientID)
	if len(sent) == 0 {
		t.Fatalf("the hook saw no request from %s", clientID)
	}
	for _, k := range sent {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s sent %s, which is not a read-only request", clientID, kmsg.NameForKey(k))
		}
	}
}
