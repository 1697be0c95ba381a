package model_test

import (
	"slices"
	"testing"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/modeltest"
)

// Unconsumed, moved from step to step by what each step changed, answers
// exactly what Partitions says from scratch, on every demo and on
// Kafka-scale groups at a small size: walking forward through every step,
// back through every step, and jumping at random (far jumps rebuild, near
// ones apply the changes between). Consumed, counted by the same tables,
// agrees.
func TestUnconsumedIsWhatPartitionsSays(t *testing.T) {
	sims := demoAndScaleSims(t,
		modeltest.Scale{Members: 60, Partitions: 600, Topics: 12, Strategy: "uniform", Given: true, Crash: true},
		modeltest.Scale{Members: 40, Partitions: 400, Topics: 4, Strategy: "cooperative-sticky", Given: true, Crash: true},
		modeltest.Scale{Members: 30, Partitions: 300, Topics: 1, Strategy: "uniform"})
	for name, sim := range sims {
		// Long demos: every step once each way is the point, but a quiet
		// stretch of heartbeats is the same step many times.
		order := modeltest.Walk(sim.Len(), sim.Len()/3000, 200, 21)
		for _, i := range order {
			v := sim.View(i)
			want := unconsumedFromPartitions(v)
			if got := v.Unconsumed(); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s, step %d: Unconsumed %v, Partitions says %v", name, i, got, want)
			}
			if v.Protocol == kafka.ProtocolShare {
				continue // Consumed counts a share group's holders its own way
			}
			held, total := v.Consumed()
			wantHeld, wantTotal := 0, 0
			for _, ps := range want {
				wantTotal += len(ps)
				for _, unc := range ps {
					if !unc {
						wantHeld++
					}
				}
			}
			if held != wantHeld || total != wantTotal {
				t.Fatalf("%s, step %d: Consumed %d of %d, Partitions says %d of %d", name, i, held, total, wantHeld, wantTotal)
			}
		}
	}
}

func unconsumedFromPartitions(v *model.GroupView) [][]bool {
	var out [][]bool
	for _, ps := range v.Partitions() {
		u := make([]bool, len(ps))
		for p, pv := range ps {
			u[p] = pv.State != kafka.PartitionConsumed
		}
		out = append(out, u)
	}
	return out
}
