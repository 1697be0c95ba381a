package live

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/kvizlab/kviz/live/livetest"
)

// BenchmarkLiveScenarioAtScale reads a KIP-848 group of Kafka scale from
// kfake and imports it as `kviz live --scenario` does (issue 21). It runs
// only when KVIZ_LIVE_SCALE asks, as MEMBERS,TOPICS,PARTITIONS (partitions
// per topic; "1" means 10000,1000,500), since building the group costs kfake
// minutes; scripts/livescale measures the same through the binary.
//
//	KVIZ_LIVE_SCALE=1000,100,500 go test ./live/ -run '^$' -bench LiveScenarioAtScale -benchtime 3x -cpuprofile cpu.out
func BenchmarkLiveScenarioAtScale(b *testing.B) {
	spec := os.Getenv("KVIZ_LIVE_SCALE")
	if spec == "" {
		b.Skip("set KVIZ_LIVE_SCALE=MEMBERS,TOPICS,PARTITIONS (or 1 for 10000,1000,500)")
	}
	members, topics, parts := 10000, 1000, 500
	if spec != "1" {
		if _, err := fmt.Sscanf(spec, "%d,%d,%d", &members, &topics, &parts); err != nil {
			b.Fatalf("KVIZ_LIVE_SCALE=%q: %v", spec, err)
		}
	}
	c, _, err := livetest.StartScale(context.Background(), members, topics, int32(parts), b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	r, err := Dial(Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Group(context.Background(), livetest.ScaleGroup); err != nil {
				b.Fatal(err)
			}
		}
	})
	g, err := r.Group(context.Background(), livetest.ScaleGroup)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("import", func(b *testing.B) {
		for b.Loop() {
			if _, _, _, err := g.Import(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
