package tui

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/kvizlab/kviz/model"
)

// insert adds an event at the current virtual time and swaps in the
// recomputed simulation. The event goes 1 ms after the step on screen: the
// model runs an event before other work due in the same millisecond, so at
// the very same time it could rewrite steps the user has already seen.
// One millisecond later, every step up to the cursor is unchanged, and
// stepping back and forward again replays exactly.
func (a *App) insert(ev model.Event, what string) bool {
	ev.AtMs = a.view().TimeMs + 1
	next, err := a.sim.Insert(ev)
	if err != nil {
		a.setStatus("cannot "+what+": "+err.Error(), true)
		return false
	}
	a.setSim(next)
	a.setStatus(fmt.Sprintf("%s at %s — step on to see what happens", what, formatMs(ev.AtMs)), false)
	return true
}

// addMember joins a new dynamic member subscribed like the selected one
// (or to every topic), with the first free id c1, c2, ...
func (a *App) addMember() {
	id := ""
	for n := 1; id == ""; n++ {
		if _, used := a.info.letters["c"+strconv.Itoa(n)]; !used {
			id = "c" + strconv.Itoa(n)
		}
	}
	topics := a.selectedTopics()
	if len(topics) == 0 {
		for _, t := range a.view().Topics {
			topics = append(topics, t.Name)
		}
	}
	if a.insert(model.Event{Kind: "join", Member: id, Topics: topics}, id+" joins") {
		a.selected = id
	}
}

// memberEvent makes the selected member leave, crash or restart.
func (a *App) memberEvent(kind string) {
	if a.selected == "" {
		a.setStatus("select a member first (↑/↓)", true)
		return
	}
	verb := map[string]string{"leave": "leaves", "crash": "crashes", "restart": "restarts"}[kind]
	a.insert(model.Event{Kind: kind, Member: a.selected}, a.selected+" "+verb)
}

// addPartitions doubles the partition count of the selected member's first
// topic (Kafka can only grow a topic), like the seeds' 6 → 12 example.
func (a *App) addPartitions() {
	v := a.view()
	if len(v.Topics) == 0 {
		a.setStatus("no topic to grow", true)
		return
	}
	topic := v.Topics[0]
	if ts := a.selectedTopics(); len(ts) > 0 {
		for _, t := range v.Topics {
			if t.Name == ts[0] {
				topic = t
			}
		}
	}
	count := min(max(topic.Partitions*2, 1), model.MaxPartitions)
	a.insert(model.Event{Kind: "add_partitions", Topic: topic.Name, Count: count},
		fmt.Sprintf("%s grows %d → %d partitions", topic.Name, topic.Partitions, count))
}

func (a *App) selectedTopics() []string {
	for _, m := range a.view().Members {
		if m.ID == a.selected {
			return slices.Clone(m.Topics)
		}
	}
	return nil
}

// nextStrategy re-simulates the scenario under the next assignor that can
// run under the current protocol.
func (a *App) nextStrategy() {
	sc := a.sim.Scenario()
	p := model.Protocol(sc.Protocol)
	var valid []string
	for _, n := range model.StrategyNames() {
		if model.Supports(n, p) {
			valid = append(valid, n)
		}
	}
	if len(valid) == 0 {
		a.setStatus("no strategy runs under the "+sc.Protocol+" protocol", true)
		return
	}
	i := slices.Index(valid, sc.Strategy)
	a.resimulate(valid[(i+1)%len(valid)], sc.Protocol, "")
}

// nextProtocol re-simulates under the next protocol, switching to an
// assignor that supports it when the current one does not (range cannot
// run cooperatively; only server-side assignors run under KIP-848).
func (a *App) nextProtocol() {
	sc := a.sim.Scenario()
	ps := model.Protocols()
	p := ps[(slices.Index(ps, model.Protocol(sc.Protocol))+1)%len(ps)]
	strategy, note := sc.Strategy, ""
	if !model.Supports(strategy, p) {
		strategy = model.StrategyFor(p)
		if strategy == "" {
			a.setStatus("no strategy runs under the "+string(p)+" protocol", true)
			return
		}
		note = fmt.Sprintf(" (%s cannot run under it)", sc.Strategy)
	}
	a.resimulate(strategy, string(p), note)
}

// resimulate runs the scenario under another strategy and protocol — the
// model's variation, with every default that depends on them derived again
// — and keeps the cursor at the same virtual time.
func (a *App) resimulate(strategy, protocol, note string) {
	now := a.view().TimeMs
	varied, err := a.sim.Scenario().WithStrategy(strategy, protocol)
	var next simulation
	if err == nil {
		next, err = a.simulate(varied)
	}
	if err != nil {
		a.setStatus(fmt.Sprintf("cannot switch to %s/%s: %v", strategy, protocol, err), true)
		return
	}
	a.setSim(next)
	a.step = stepAt(next, now)
	a.setStatus(fmt.Sprintf("re-simulated with %s under %s%s", strategy, varied.Protocol, note), false)
}

// stepAt is the last step at or before virtual time ms.
func stepAt(sim simulation, ms int64) int {
	i := sort.Search(sim.Len(), func(i int) bool { return sim.View(i).TimeMs > ms })
	return max(i-1, 0)
}

// formatMs shows virtual time as seconds with millisecond precision.
func formatMs(ms int64) string {
	return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000)
}
