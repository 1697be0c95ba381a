package live

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kvizlab/kviz/live/livetest"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/scenario"
)

// Issue 20 item 5: a crash under a short session timeout is predicted to
// settle when the real group does, from the flags (classic: no API shows a
// member's session timeout) or the group's own config (KIP-848), and the
// prediction says where each timing came from.
func TestACrashSettlesWhenTheRealGroupDoes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []kgo.Opt
		import_ ImportOptions
		source  string
	}{
		{"classic", []kgo.Opt{kgo.Balancers(kgo.RangeBalancer()), kgo.SessionTimeout(3 * time.Second)},
			ImportOptions{SessionTimeout: 3 * time.Second, HeartbeatInterval: 100 * time.Millisecond}, "flag --session-timeout"},
		{"consumer", []kgo.Opt{kgo.ServerSideBalancer()}, ImportOptions{}, "read: group config consumer.session.timeout.ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := livetest.Start(t, 6, "orders")
			c.SetGroupConfigs("g", map[string]string{"consumer.session.timeout.ms": "3000"})
			cs := map[string]*livetest.Consumer{}
			for _, id := range []string{"c1", "c2", "c3"} {
				cs[id] = c.Consumer(t, "g", id, append([]kgo.Opt{kgo.ConsumeTopics("orders")}, tc.opts...)...)
			}
			c.WaitStable(t, "g", 3)
			g, err := dialTest(t, c).Group(context.Background(), "g")
			if err != nil {
				t.Fatal(err)
			}
			_, sc, _, err := g.WithOptions(tc.import_).Import()
			if err != nil {
				t.Fatal(err)
			}
			var session scenario.Timing
			for _, tm := range scenario.Timings(sc) {
				if tm.Key == "session_timeout_ms" {
					session = tm
				}
			}
			if session.ValueMs != 3000 || session.Source != tc.source {
				t.Fatalf("session timeout %+v, want 3000 from %s", session, tc.source)
			}
			sim, err := model.Simulate(sc)
			if err != nil {
				t.Fatal(err)
			}
			f, err := sim.Forecast(scenario.Event{Kind: "crash", Member: "c2"})
			if err != nil {
				t.Fatal(err)
			}
			predicted := time.Duration(f.Outcome.SettledMs) * time.Millisecond
			if tc.name == "classic" {
				// without the flag, Kafka's 45 s default, and said
				_, bare, _, err := g.WithOptions(ImportOptions{}).Import()
				if err != nil {
					t.Fatal(err)
				}
				if tm := scenario.Timings(bare)[0]; tm.ValueMs != 45000 || tm.Source != scenario.SourceDefault {
					t.Errorf("without --session-timeout: %+v", tm)
				}
			}

			start := time.Now()
			cs["c2"].Crash()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := c.WaitGroupInfo(ctx, "g", func(g *kfake.GroupInfo) bool {
				return g != nil && g.State == "Stable" && len(g.Members) == 2 && g.NumAssigned() == 6
			}); err != nil {
				t.Fatal(err)
			}
			real := time.Since(start)
			t.Logf("predicted %s, real %s", predicted, real)
			if d := predicted - real; d > 1500*time.Millisecond || d < -1500*time.Millisecond {
				t.Errorf("predicted to settle after %s; the real group took %s", predicted, real)
			}
		})
	}
}
