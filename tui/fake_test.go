package tui

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"sort"

	"github.com/kvizlab/kviz/model"
	"github.com/kvizlab/kviz/model/kafka"
	"github.com/kvizlab/kviz/model/scenario"
)

// fakeSim is a scripted simulation for testing the screens without the
// model: an eager group on one topic whose owners are given per frame.
type fakeSim struct {
	sc     *scenario.Scenario
	frames []frame
}

// frame is one step: what happened and who owns what afterwards.
type frame struct {
	ms       int64
	kind     kafka.StepKind
	member   string
	text     string
	state    kafka.GroupState
	gen      int32
	members  []string           // present, in join order
	owned    map[string][]int32 // member -> partitions of topic "orders"
	revoking map[string][]int32
	pending  map[string][]int32
	fresh    map[string][]int32
	status   map[string]kafka.MemberStatus
}

var fakeErr error // set by a test to make Insert fail

func fakeScenario() *scenario.Scenario {
	return &scenario.Scenario{Name: "fake", GroupID: "workshop", Strategy: "range", Protocol: "eager",
		Brokers: 3, OffsetsPartitions: 50, Topics: map[string]int32{"orders": 6},
		// c4 joins in the script; listing it here gives it its roster
		// letter, as a join event does in a real scenario.
		Members: []scenario.MemberSpec{{ID: "c1", Topics: []string{"orders"}}, {ID: "c2", Topics: []string{"orders"}},
			{ID: "c3", Topics: []string{"orders"}}, {ID: "c4", Topics: []string{"orders"}}}}
}

// newFakeSim scripts: three members join and split six partitions; c4
// joins and an eager rebalance moves partitions; then quiet.
func newFakeSim(sc *scenario.Scenario) *fakeSim {
	three := []string{"c1", "c2", "c3"}
	four := []string{"c1", "c2", "c3", "c4"}
	split3 := map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4, 5}}
	split4 := map[string][]int32{"c1": {0, 1}, "c2": {2, 3}, "c3": {4}, "c4": {5}}
	f := &fakeSim{sc: sc, frames: []frame{
		{ms: 0, kind: "JoinGroup", member: "c1", text: "c1 sends JoinGroup; the group starts its first rebalance", state: "PreparingRebalance", members: three},
		{ms: 3000, kind: "JoinGroupResponse", member: "c1", text: "the join phase ends: generation 1, c1 leads", state: "CompletingRebalance", gen: 1, members: three},
		{ms: 3010, kind: "PartitionsAssigned", member: "c1", text: "c1 sends the assignment (range)", state: "Stable", gen: 1, members: three, owned: split3, fresh: split3},
		{ms: 6000, kind: "Heartbeat", member: "c2", text: "c2 heartbeats", state: "Stable", gen: 1, members: three, owned: split3},
		{ms: 10000, kind: "JoinGroup", member: "c4", text: "c4 joins: the coordinator starts a rebalance", state: "PreparingRebalance", gen: 1, members: four, owned: split3},
		{ms: 10100, kind: "Heartbeat", member: "c1", text: "c1 is told REBALANCE_IN_PROGRESS and revokes everything (eager)", state: "PreparingRebalance", gen: 1, members: four, owned: split3, revoking: split3},
		{ms: 10200, kind: "JoinGroupResponse", member: "c1", text: "generation 2", state: "CompletingRebalance", gen: 2, members: four},
		{ms: 10250, kind: "PartitionsAssigned", member: "c1", text: "c1 sends the new assignment", state: "Stable", gen: 2, members: four, owned: split4, fresh: split4},
		{ms: 13000, kind: "Heartbeat", member: "c3", text: "all quiet", state: "Stable", gen: 2, members: four, owned: split4},
	}}
	for _, ev := range sc.Timeline {
		f = f.with(ev)
	}
	return f
}

func (f *fakeSim) Scenario() *scenario.Scenario { return f.sc }
func (f *fakeSim) Len() int                     { return len(f.frames) }

func (f *fakeSim) StepLine(i int) model.Step {
	fr := f.frames[i]
	return model.Step{Index: i, TimeMs: fr.ms, Kind: fr.kind, Member: fr.member, Text: fr.text,
		GroupState: fr.state, Generation: fr.gen}
}

func (f *fakeSim) StepHead(i int) model.Step {
	st := f.StepLine(i)
	st.Text = ""
	return st
}

func (f *fakeSim) View(i int) *model.GroupView {
	fr := f.frames[i]
	v := &model.GroupView{TimeMs: fr.ms, GroupID: f.sc.GroupID, Protocol: kafka.Protocol(f.sc.Protocol), Strategy: f.sc.Strategy,
		State: fr.state, Generation: fr.gen, Leader: "c1", CoordinatorBroker: 2, CoordinatorPartition: 12,
		Topics: []model.TopicView{{Name: "orders", Partitions: 6}}}
	tps := func(ps []int32) []kafka.TP {
		var out []kafka.TP
		for _, p := range ps {
			out = append(out, kafka.TP{Topic: "orders", Partition: p})
		}
		return out
	}
	for _, id := range fr.members {
		status := kafka.StatusActive
		if s, ok := fr.status[id]; ok {
			status = s
		}
		v.Members = append(v.Members, model.MemberView{ID: id, Status: status, Topics: []string{"orders"},
			Owned: tps(fr.owned[id]), Revoking: tps(fr.revoking[id]), Pending: tps(fr.pending[id]),
			NewlyAssigned: tps(fr.fresh[id]), IsLeader: id == "c1"})
	}
	return v
}

// Rebalances pairs each entry into PreparingRebalance with the next Stable.
func (f *fakeSim) Rebalances() []model.Rebalance {
	var out []model.Rebalance
	start := -1
	for i, fr := range f.frames {
		if fr.state == "PreparingRebalance" && start < 0 {
			start = i
		}
		if fr.state == "Stable" && start >= 0 {
			r := model.Rebalance{StartStep: start, EndStep: i, StartMs: f.frames[start].ms, EndMs: fr.ms, Generation: fr.gen}
			unowned := map[kafka.TP]int64{}
			r.Moves = kafka.Diff(f.owners(start-1), f.owners(i))
			r.Moved = kafka.Taken(r.Moves)
			r.Rounds = []model.Round{{StartStep: start, EndStep: i, StartMs: f.frames[start].ms, EndMs: fr.ms, Generation: fr.gen}}
			for p := int32(0); p < 6; p++ {
				unowned[kafka.TP{Topic: "orders", Partition: p}] = fr.ms - f.frames[start].ms
			}
			r.UnownedMs = model.PartitionMsOf(unowned)
			out = append(out, r)
			start = -1
		}
	}
	return out
}

// Outages: the fake's partitions are never without a consumer outside a rebalance.
func (f *fakeSim) Outages() []model.Outage { return nil }

// owners is who holds what after frame i (nobody before the first).
func (f *fakeSim) owners(i int) kafka.Owners {
	out := kafka.Owners{}
	if i < 0 {
		return out
	}
	for id, ps := range f.frames[i].owned {
		for _, p := range ps {
			out[tp("orders", p)] = id
		}
	}
	return out
}

func (f *fakeSim) AssignedIn(from, to int) map[string]bool {
	out := map[string]bool{}
	for i := max(from, 0); i <= to && i < len(f.frames); i++ {
		if f.frames[i].kind == "PartitionsAssigned" {
			out[f.frames[i].member] = true
		}
	}
	return out
}

// outcomeFrom is the fake's scripted outcome of the first rebalance that
// ends after frame i.
func (f *fakeSim) outcomeFrom(i int, at int64) (model.Outcome, bool) {
	for _, r := range f.Rebalances() {
		if r.EndStep < i {
			continue
		}
		o := model.Outcome{AtMs: at, StartMs: r.StartMs, SettledMs: r.EndMs, SettledStep: r.EndStep,
			Rebalanced: true, Settled: true, Rounds: r.Rounds, Moves: r.Moves, Moved: r.Moved,
			WorstGapMs: r.WorstGapMs(), TotalGapMs: r.TotalGapMs(), Balance: f.View(r.EndStep).Balance(),
		}
		after := kafka.Assignment{}
		for id, ps := range f.frames[r.EndStep].owned {
			after[id] = map[string][]int32{"orders": ps}
		}
		o.After = kafka.HoldingsOf(after)
		return o, true
	}
	return model.Outcome{}, false
}

func (f *fakeSim) Forecast(ctx context.Context, ev scenario.Event) (model.Outcome, error) {
	fork, err := f.Insert(ctx, ev)
	if err != nil {
		return model.Outcome{}, err
	}
	ff := fork.(*fakeSim)
	at := sort.Search(len(ff.frames), func(i int) bool { return ff.frames[i].ms >= ev.AtMs })
	o, _ := ff.outcomeFrom(at, ev.AtMs)
	return o, nil
}

// Compare gives every variant the fake's one story.
func (f *fakeSim) Compare(_ context.Context, atMs int64, _ *scenario.Event, vs []model.Variant) []model.CompareRow {
	at := sort.Search(len(f.frames), func(i int) bool { return f.frames[i].ms >= atMs })
	var rows []model.CompareRow
	for _, v := range vs {
		o, found := f.outcomeFrom(at, atMs)
		rows = append(rows, model.CompareRow{Strategy: v.Strategy, Protocol: string(kafka.PreferredProtocol(v.Strategy)), Found: found, Outcome: o})
	}
	return rows
}

// Insert adds the event after every frame at or before its time; a leave or
// crash hands the member's partitions to the first other member.
func (f *fakeSim) Insert(_ context.Context, ev scenario.Event) (simulation, error) {
	if fakeErr != nil {
		return nil, fakeErr
	}
	sc := *f.sc
	sc.Timeline = append(slices.Clone(f.sc.Timeline), ev)
	return newFakeSim(&sc), nil
}

func (f *fakeSim) with(ev scenario.Event) *fakeSim {
	at := sort.Search(len(f.frames), func(i int) bool { return f.frames[i].ms > ev.AtMs })
	last := f.frames[at-1]
	out := &fakeSim{sc: f.sc, frames: slices.Clone(f.frames[:at])}
	owned := map[string][]int32{}
	members := slices.Clone(last.members)
	for k, v := range last.owned {
		owned[k] = v
	}
	switch ev.Kind {
	case "leave", "crash":
		heir := ""
		for _, m := range members {
			if m != ev.Member {
				heir = m
				break
			}
		}
		owned[heir] = append(slices.Clone(owned[heir]), owned[ev.Member]...)
		delete(owned, ev.Member)
		members = slices.DeleteFunc(members, func(m string) bool { return m == ev.Member })
	case "join":
		members = append(members, ev.Member)
	}
	gen := last.gen + 1
	out.frames = append(out.frames,
		frame{ms: ev.AtMs, kind: "Event", member: ev.Member, text: fmt.Sprintf("%s: %s", ev.Kind, ev.Member), state: "PreparingRebalance", gen: last.gen, members: last.members, owned: last.owned},
		frame{ms: ev.AtMs + 100, kind: "SyncGroup", member: members[0], text: "reassigned", state: "Stable", gen: gen, members: members, owned: owned})
	return out
}

func tp(topic string, p int32) kafka.TP {
	return kafka.TP{Topic: topic, Partition: p}
}

var lightGray = color.RGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}

// stepOf is step i whole, with its maps, where the simulation has them (the
// real model does; the fake has lines only).
func stepOf(s simulation, i int) model.Step {
	if full, ok := s.(interface{ Step(int) model.Step }); ok {
		return full.Step(i)
	}
	return s.StepLine(i)
}
