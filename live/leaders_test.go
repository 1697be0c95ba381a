package live

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The log end offsets are asked of each partition's leader: on three
// brokers, each leading some partitions, every partition's end and lag is
// the one its leader keeps (partition p holds p+1 records, and p is
// committed at offset p/2).
func TestLogEndsComeFromEveryLeader(t *testing.T) {
	const parts = 9
	c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.SeedTopics(parts, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	commits := kadm.Offsets{}
	for p := int32(0); p < parts; p++ {
		for range p + 1 {
			if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "orders", Partition: p, Value: []byte("x")}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
		commits.Add(kadm.Offset{Topic: "orders", Partition: p, At: int64(p / 2), LeaderEpoch: -1})
	}
	adm := kadm.NewClient(cl)
	md, err := adm.Metadata(ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	leaders := map[int32]bool{}
	for _, pd := range md.Topics["orders"].Partitions {
		leaders[pd.Leader] = true
	}
	if len(leaders) < 2 {
		t.Fatalf("the test needs partitions led by several brokers; leaders %v", leaders)
	}
	if _, err := adm.CommitOffsets(ctx, "shop", commits); err != nil {
		t.Fatal(err)
	}
	r, err := Dial(Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, err := r.Group(ctx, "shop")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Offsets) != parts {
		t.Fatalf("offsets of %d partitions, want %d: %+v", len(g.Offsets), parts, g.Offsets)
	}
	for _, o := range g.Offsets {
		p := int64(o.Partition)
		if o.LogEnd == nil || *o.LogEnd != p+1 || o.Committed == nil || *o.Committed != p/2 || o.Lag == nil || *o.Lag != p+1-p/2 {
			t.Errorf("orders-%d: %+v, want log end %d, committed %d", p, o, p+1, p/2)
		}
	}
}
