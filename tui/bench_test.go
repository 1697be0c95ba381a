package tui

import (
	"context"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kvizlab/kviz/demo"
	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// bigSim is one moment of a large group: members × partitions spread over
// four topics in contiguous runs, with some partitions moving.
type bigSim struct {
	sc   *scenario.Scenario
	view *model.GroupView
}

func newBigSim(members, partitions int) *bigSim {
	v := &model.GroupView{GroupID: "big", Protocol: "cooperative", Strategy: "cooperative-sticky", State: "Stable",
		Generation: 7, CoordinatorBroker: 1, CoordinatorPartition: 3}
	per := partitions / 4
	for ti := range 4 {
		v.Topics = append(v.Topics, model.TopicView{Name: fmt.Sprintf("topic-%d", ti), Partitions: int32(per)})
	}
	for i := range members {
		v.Members = append(v.Members, model.MemberView{ID: fmt.Sprintf("consumer-%02d", i), Status: kafka.StatusActive})
	}
	n := 0
	for _, t := range v.Topics {
		for p := int32(0); p < t.Partitions; p++ {
			m := &v.Members[n*members/partitions]
			tp := kafka.TP{Topic: t.Name, Partition: p}
			switch {
			case n%97 == 0:
				m.Revoking = append(m.Revoking, tp)
			case n%89 == 0:
				m.Pending = append(m.Pending, tp)
			default:
				m.Owned = append(m.Owned, tp)
			}
			n++
		}
	}
	return &bigSim{sc: &scenario.Scenario{GroupID: "big", Strategy: "cooperative-sticky", Protocol: "cooperative"}, view: v}
}

func (b *bigSim) Scenario() *scenario.Scenario { return b.sc }
func (b *bigSim) Len() int                     { return 1 }
func (b *bigSim) StepLine(int) model.Step {
	return model.Step{Kind: "Heartbeat", Text: "a big group at rest"}
}
func (b *bigSim) StepHead(int) model.Step                                    { return model.Step{Kind: "Heartbeat"} }
func (b *bigSim) View(int) *model.GroupView                                  { return b.view }
func (b *bigSim) Rebalances() []model.Rebalance                              { return nil }
func (b *bigSim) Outages() []model.Outage                                    { return nil }
func (b *bigSim) Insert(context.Context, scenario.Event) (simulation, error) { return b, nil }
func (b *bigSim) AssignedIn(int, int) map[string]bool                        { return nil }
func (b *bigSim) Forecast(context.Context, scenario.Event) (model.Outcome, error) {
	return model.Outcome{}, nil
}
func (b *bigSim) Compare(context.Context, int64, *scenario.Event, []model.Variant) []model.CompareRow {
	return nil
}

// Target: one frame of 50 members × 1,000 partitions in under 2 ms.
func BenchmarkFrame50x1000(b *testing.B) {
	for _, size := range [][2]int{{160, 48}, {240, 70}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			var m tea.Model = newApp(newBigSim(50, 1000))
			m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// The grid alone, to see what the rest of the frame costs.
func BenchmarkGrid50x1000(b *testing.B) {
	sim := newBigSim(50, 1000)
	info := newSimInfo(sim)
	st := NewStyles(true)
	b.ReportAllocs()
	for b.Loop() {
		g := buildGrid(sim.view, info, 0, "consumer-00", nil)
		_ = renderGrid(g, &st, 156, 40)
	}
}

// Target: a keystroke that inserts an event and recomputes the rest of the
// workshop scenario in under 16 ms (one frame at 60 Hz), drawing included.
func BenchmarkKeystrokeInsertsEvent(b *testing.B) {
	for _, k := range []string{"x", "a"} {
		b.Run(k, func(b *testing.B) {
			a := demoApp(b, 120, 40)
			a = realDrive(a, press("]"), press("]")) // the c4 join: mid-story
			b.ReportAllocs()
			for b.Loop() {
				next := realDrive(a, press(k))
				_ = next.View()
			}
		})
	}
}

// Target: from the scenario's bytes to the first frame in under 100 ms.
func BenchmarkStartupToFirstFrame(b *testing.B) {
	name, data := demo.Default()
	b.ReportAllocs()
	for b.Loop() {
		firstFrame(b, name+".yaml", data)
	}
}

// firstFrame is what a user waits for: the scenario's bytes parsed and
// simulated, the lab opened and its first frame drawn at 120 × 40.
func firstFrame(b *testing.B, file string, data []byte) {
	sc, err := scenario.Parse(file, data)
	if err != nil {
		b.Fatal(err)
	}
	a, err := New(sc)
	if err != nil {
		b.Fatal(err)
	}
	_ = realDrive(a, tea.WindowSizeMsg{Width: 120, Height: 40}).View()
}
