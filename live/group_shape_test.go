package live

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kvizlab/kviz/live/livetest"
)

// GroupShape leaves out only the log ends: its import is the whole read's,
// byte for byte, for a classic and a consumer group, it sends no
// ListOffsets, and its offsets name no log end or lag.
func TestGroupShapeImportsAsTheWholeRead(t *testing.T) {
	c := livetest.Start(t, 4, "orders", "payments")
	c.Consumer(t, "classic", "c1", kgo.ConsumeTopics("orders", "payments"), kgo.Balancers(kgo.RangeBalancer()))
	c.Consumer(t, "g848", "k1", kgo.ConsumeTopics("orders"), kgo.ServerSideBalancer())
	c.WaitStable(t, "classic", 1)
	c.WaitStable(t, "g848", 1)
	for _, name := range []string{"classic", "g848"} {
		whole := dialTest(t, c)
		g, err := whole.Group(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(g.Offsets, func(o Offset) bool { return o.LogEnd != nil }) {
			t.Fatalf("%s: the whole read has no log end", name)
		}
		want, _, _, err := g.Import()
		if err != nil {
			t.Fatal(err)
		}
		before := len(c.Sent("kviz"))
		shape, err := dialTest(t, c).GroupShape(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		if sent := c.Sent("kviz")[before:]; slices.Contains(sent, kmsg.ListOffsets.Int16()) {
			t.Errorf("%s: GroupShape sent ListOffsets (%v)", name, sent)
		}
		for _, o := range shape.Offsets {
			if o.LogEnd != nil || o.Lag != nil {
				t.Errorf("%s: %s-%d has a log end or lag", name, o.Topic, o.Partition)
			}
		}
		got, _, _, err := shape.Import()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: GroupShape imports\n%s\nthe whole read\n%s", name, got, want)
		}
	}
}
