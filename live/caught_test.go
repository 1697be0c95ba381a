package live

import (
	"context"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// gate holds a consumer inside a rebalance until released: armed, the
// first caller of wait blocks.
type gate struct {
	armed         atomic.Bool
	entered       chan struct{}
	release       chan struct{}
	once, opening sync.Once
}

func newGate() *gate { return &gate{entered: make(chan struct{}), release: make(chan struct{})} }

func (g *gate) open() { g.opening.Do(func() { close(g.release) }) }

func (g *gate) wait() {
	if !g.armed.Load() {
		return
	}
	g.once.Do(func() {
		close(g.entered)
		select {
		case <-g.release:
		case <-time.After(30 * time.Second):
		}
	})
}

// heldBalancer is range whose leader blocks in the balancer while the gate
// is armed: the group stays CompletingRebalance.
type heldBalancer struct {
	kgo.GroupBalancer
	g *gate
}

func (b heldBalancer) MemberBalancer(ms []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	b.g.wait()
	return b.GroupBalancer.MemberBalancer(ms)
}

// waitState waits for the group's state in kfake.
func waitState(t *testing.T, c *livetest.Cluster, group, state string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if _, err := c.WaitGroupInfo(ctx, group, func(g *kfake.GroupInfo) bool { return g != nil && g.State == state }); err != nil {
		t.Fatalf("group %s never became %s: %v", group, state, err)
	}
}

// predictAfter runs the caught scenario until it settles and returns who
// owns what, by member id.
func predictAfter(t *testing.T, sc *scenario.Scenario) map[string]map[string]string {
	t.Helper()
	sim, err := model.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	end := sim.Step(sim.Len() - 1)
	if end.GroupState != "Stable" {
		t.Fatalf("the prediction ends %s", end.GroupState)
	}
	return byMemberID(sc, end.Owned)
}

// Issue 20 item 1: a classic group caught mid-rebalance imports, as caught,
// and its prediction is what the real group then does.
func TestClassicGroupCaughtMidRebalanceImportsAndPredicts(t *testing.T) {
	for _, tc := range []struct {
		name, state string
	}{{"preparing", "PreparingRebalance"}, {"completing", "CompletingRebalance"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := livetest.Start(t, 5, "orders", "payments")
			g := newGate()
			opts := []kgo.Opt{kgo.ConsumeTopics("orders", "payments"), kgo.SessionTimeout(10 * time.Second)}
			if tc.name == "preparing" {
				// c1 is held in its revoke callback: it has not rejoined
				opts = append(opts, kgo.Balancers(kgo.RangeBalancer()))
				c.Consumer(t, "g", "c1", append(opts, kgo.OnPartitionsRevoked(func(context.Context, *kgo.Client, map[string][]int32) { g.wait() }))...)
			} else {
				// c1 leads, and is held computing the assignment
				c.Consumer(t, "g", "c1", append(opts, kgo.Balancers(heldBalancer{kgo.RangeBalancer(), g}))...)
			}
			t.Cleanup(g.open) // before the consumers stop (cleanups run last first): a failing test never leaves c1 stuck
			waitStableWith(t, c, "g", 1)
			c.Consumer(t, "g", "c2", append(opts, kgo.Balancers(kgo.RangeBalancer()))...)
			c.WaitStable(t, "g", 2)
			r := dialTest(t, c)
			settled, err := r.Group(context.Background(), "g")
			if err != nil {
				t.Fatal(err)
			}

			g.armed.Store(true)
			c.Consumer(t, "g", "c3", append(opts, kgo.Balancers(kgo.RangeBalancer()))...)
			<-g.entered
			waitState(t, c, "g", tc.state)
			caught, err := r.Group(context.Background(), "g")
			if err != nil {
				t.Fatal(err)
			}
			if caught.State != tc.state || len(caught.Members) != 3 {
				t.Fatalf("read %s with %d members, want %s with 3", caught.State, len(caught.Members), tc.state)
			}
			alone := *caught
			if _, _, _, err := alone.Import(); err == nil || !strings.Contains(err.Error(), "shows no subscriptions or assignments until it is Stable") {
				t.Errorf("without a settled read or commits the import says why it has no topics: %v", err)
			}
			// the lab's way: the read after a settled one carries it
			prev, err := NewSnapshot(settled, nil)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := NewSnapshot(caught, prev)
			if err != nil {
				t.Fatal(err)
			}
			sc, notes := snap.Scenario, snap.Notes
			if sc.Classic.Rebalance != tc.name || len(sc.Members) != 3 {
				t.Fatalf("imported rebalance %q with %d members", sc.Classic.Rebalance, len(sc.Members))
			}
			t.Logf("notes: %v", notes)
			predicted := predictAfter(t, sc)
			g.open()
			real := realAssignment(t, c, "g", 3)
			if !maps.EqualFunc(predicted, real, maps.Equal) {
				t.Errorf("predicted %v\nreal      %v", predicted, real)
			}
			c.AssertSentOnly(t, "kviz", ReadOnlyKeys)
		})
	}
}

// waitStableWith waits for a Stable group of n members (any assignment).
func waitStableWith(t *testing.T, c *livetest.Cluster, group string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if _, err := c.WaitGroupInfo(ctx, group, func(g *kfake.GroupInfo) bool {
		return g != nil && g.State == "Stable" && len(g.Members) == n
	}); err != nil {
		t.Fatal(err)
	}
}
